/**
 * A group's own configs (KIP-848 and later: consumer.*, share.*, streams.*, errors.deadletterqueue.*),
 * read with DescribeConfigs on resource type GROUP. Kafka answers for any group id, existing or
 * not: configs may be set before a group's first member arrives, and a group without its own values
 * shows the broker's defaults.
 */

import type { CallOptions } from '../broker/deadline.js';
import { describeKafkaError, KafkaResponseError, UnsupportedApiError } from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import { ConfigResourceType, DescribeConfigs } from '../broker/protocol/messages/describe-configs.js';
import {
  AlterConfigOperation,
  IncrementalAlterConfigs,
} from '../broker/protocol/messages/incremental-alter-configs.js';
import type { KafkaCluster } from '../broker/transport/cluster.js';
import { GroupConfigInvalidError } from './errors.js';
import { sendWrite, type WriteOptions } from './writes/progress.js';

export { GroupConfigInvalidError } from './errors.js';

/** Where a value comes from, named as Kafka's Admin client names it (ConfigEntry.ConfigSource). */
export type ConfigSource =
  | 'DYNAMIC_GROUP_CONFIG'
  | 'DYNAMIC_BROKER_CONFIG'
  | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
  | 'STATIC_BROKER_CONFIG'
  | 'DEFAULT_CONFIG'
  | 'DYNAMIC_TOPIC_CONFIG'
  | 'DYNAMIC_BROKER_LOGGER_CONFIG'
  | 'DYNAMIC_CLIENT_METRICS_CONFIG'
  | 'UNKNOWN';

export const CONFIG_SOURCES: readonly ConfigSource[] = [
  'DYNAMIC_GROUP_CONFIG',
  'DYNAMIC_BROKER_CONFIG',
  'DYNAMIC_DEFAULT_BROKER_CONFIG',
  'STATIC_BROKER_CONFIG',
  'DEFAULT_CONFIG',
  'DYNAMIC_TOPIC_CONFIG',
  'DYNAMIC_BROKER_LOGGER_CONFIG',
  'DYNAMIC_CLIENT_METRICS_CONFIG',
  'UNKNOWN',
];

// DescribeConfigsResponse.ConfigSource ids on the wire → the Admin client's names.
const SOURCES: Record<number, ConfigSource> = {
  1: 'DYNAMIC_TOPIC_CONFIG',
  2: 'DYNAMIC_BROKER_CONFIG',
  3: 'DYNAMIC_DEFAULT_BROKER_CONFIG',
  4: 'STATIC_BROKER_CONFIG',
  5: 'DEFAULT_CONFIG',
  6: 'DYNAMIC_BROKER_LOGGER_CONFIG',
  7: 'DYNAMIC_CLIENT_METRICS_CONFIG',
  8: 'DYNAMIC_GROUP_CONFIG',
};

export type ConfigType =
  | 'boolean'
  | 'string'
  | 'int'
  | 'short'
  | 'long'
  | 'double'
  | 'list'
  | 'class'
  | 'password'
  | 'unknown';

export const CONFIG_TYPES: readonly ConfigType[] = [
  'unknown',
  'boolean',
  'string',
  'int',
  'short',
  'long',
  'double',
  'list',
  'class',
  'password',
];

export interface GroupConfig {
  name: string;
  /** null for a sensitive value (Kafka never sends it) or one that is not set. */
  value: string | null;
  source: ConfigSource;
  sensitive: boolean;
  readOnly: boolean;
  type: ConfigType;
  documentation: string | null;
}

const GROUP_CONFIGS_API = 'DescribeConfigs on resource type GROUP (group configs)';

/** Every config of `groupId`, sorted by name, from any broker of the cluster. */
export async function describeGroupConfigs(
  cluster: KafkaCluster,
  groupId: string,
  options: CallOptions,
): Promise<GroupConfig[]> {
  return cluster.anyBroker(async (connection) => {
    const { response } = await connection.send(
      DescribeConfigs,
      (version) => ({
        resources: [
          { resourceType: ConfigResourceType.Group, resourceName: groupId, configurationKeys: null },
        ],
        includeSynonyms: false,
        ...(version >= 3 && { includeDocumentation: true }),
      }),
      undefined,
      options,
    );
    const result = response.results.find(
      (r) => r.resourceType === ConfigResourceType.Group && r.resourceName === groupId,
    );
    if (!result) {
      throw new KafkaResponseError(
        connection.label,
        DescribeConfigs.name,
        ErrorCode.UNKNOWN_SERVER_ERROR,
        'no result for the group',
      );
    }
    // A broker without group configs (3.9) does not know the resource type: INVALID_REQUEST.
    if (result.errorCode === ErrorCode.INVALID_REQUEST) {
      const own = { min: DescribeConfigs.minVersion, max: DescribeConfigs.maxVersion };
      throw new UnsupportedApiError(connection.label, GROUP_CONFIGS_API, undefined, own);
    }
    if (result.errorCode !== ErrorCode.NONE) {
      throw new KafkaResponseError(
        connection.label,
        DescribeConfigs.name,
        result.errorCode,
        result.errorMessage,
      );
    }
    return result.configs
      .map(
        (c): GroupConfig => ({
          name: c.name,
          value: c.isSensitive ? null : c.value,
          source: SOURCES[c.configSource] ?? 'UNKNOWN',
          sensitive: c.isSensitive,
          readOnly: c.readOnly,
          type: CONFIG_TYPES[c.configType ?? 0] ?? 'unknown',
          documentation: c.documentation ?? null,
        }),
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }, options);
}

/** What PATCH asks: values to set, names to delete (back to the broker's default). */
export interface GroupConfigChange {
  set: Record<string, string>;
  delete: string[];
}

/** Whether `configs` carry `change`: each set name as a group config of its value, each deleted one not. */
export function showsChange(configs: readonly GroupConfig[], change: GroupConfigChange): boolean {
  const byName = new Map(configs.map((c) => [c.name, c]));
  for (const [name, value] of Object.entries(change.set)) {
    const c = byName.get(name);
    if (c?.source !== 'DYNAMIC_GROUP_CONFIG' || (!c.sensitive && c.value !== value)) return false;
  }
  return change.delete.every((name) => byName.get(name)?.source !== 'DYNAMIC_GROUP_CONFIG');
}

/** How long a change may take to show in the answer of the broker asked (see configsShowing). */
export const SHOW_WAIT_MS = 3_000;

/**
 * The configs `read` gives once they show `change`. Kafka answers IncrementalAlterConfigs when the
 * controller holds the change; a broker answers DescribeConfigs from its own copy of the metadata
 * log, which can be behind by then (seen under load: the old value, read right after the change).
 * Read again, 25 ms apart doubling to 200 ms, until the change shows or `waitMs` or the request's
 * deadline ends; then the last reading, as it is.
 */
export async function configsShowing(
  read: () => Promise<GroupConfig[]>,
  /** Undefined: the first reading, as it is. */
  change: GroupConfigChange | undefined,
  { deadline }: CallOptions,
  waitMs = SHOW_WAIT_MS,
  now: () => number = Date.now,
): Promise<GroupConfig[]> {
  const until = now() + waitMs;
  let pause = 25;
  for (;;) {
    const configs = await read();
    if (!change || showsChange(configs, change) || now() + pause > until || deadline?.expired())
      return configs;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 200);
  }
}

/**
 * IncrementalAlterConfigs on the GROUP resource: with `validateOnly` Kafka checks the change and
 * applies nothing. GroupConfigInvalidError when Kafka refuses it.
 */
export async function alterGroupConfigs(
  cluster: KafkaCluster,
  groupId: string,
  change: GroupConfigChange,
  validateOnly: boolean,
  /** `progress` is marked when a change (not a validateOnly check, which applies nothing) leaves for Kafka. */
  { progress, deadline }: WriteOptions,
): Promise<void> {
  const configs = [
    ...Object.entries(change.set).map(([name, value]) => ({
      name,
      configOperation: AlterConfigOperation.Set,
      value,
    })),
    ...change.delete.map((name) => ({ name, configOperation: AlterConfigOperation.Delete, value: null })),
  ];
  await cluster.anyBroker(
    async (connection) => {
      const { response } = await sendWrite(
        connection,
        validateOnly ? { deadline } : { deadline, progress },
        IncrementalAlterConfigs,
        {
          resources: [{ resourceType: ConfigResourceType.Group, resourceName: groupId, configs }],
          validateOnly,
        },
      );
      const result = response.responses.find((r) => r.resourceName === groupId);
      if (!result) {
        throw new KafkaResponseError(
          connection.label,
          IncrementalAlterConfigs.name,
          ErrorCode.UNKNOWN_SERVER_ERROR,
          'no result for the group',
        );
      }
      if (result.errorCode === ErrorCode.NONE) return;
      if (
        result.errorCode === ErrorCode.INVALID_REQUEST &&
        /unknown resource type/i.test(result.errorMessage ?? '')
      ) {
        const own = { min: IncrementalAlterConfigs.minVersion, max: IncrementalAlterConfigs.maxVersion };
        throw new UnsupportedApiError(
          connection.label,
          'IncrementalAlterConfigs on resource type GROUP (group configs)',
          undefined,
          own,
        );
      }
      if (result.errorCode === ErrorCode.INVALID_CONFIG || result.errorCode === ErrorCode.INVALID_REQUEST) {
        const message = result.errorMessage ?? '';
        const asked = configs.map((c) => ({
          name: c.name,
          field: c.configOperation === AlterConfigOperation.Set ? ('set' as const) : ('delete' as const),
          value: c.value,
        }));
        const named = asked.filter((c) => message.includes(c.name));
        throw new GroupConfigInvalidError(
          groupId,
          named.length > 0 ? named : asked,
          describeKafkaError(result.errorCode, result.errorMessage),
        );
      }
      throw new KafkaResponseError(
        connection.label,
        IncrementalAlterConfigs.name,
        result.errorCode,
        result.errorMessage,
      );
    },
    { deadline },
  );
}
