/**
 * What the routes call: group operations over one cluster. Routes depend on the `BrokerAdmin`
 * interface, so their tests can hand in a stand-in that injects faults.
 */

import { describeClassicGroup } from './classic.js';
import { Coordinators, type RetryPolicy } from './coordinators.js';
import { BrokerError, KafkaResponseError } from './errors.js';
import {
  type BrokerFailure,
  GROUP_TYPES,
  type Group,
  type GroupList,
  type GroupListing,
  type GroupType,
} from './model.js';
import { ListGroups } from './protocol/messages/list-groups.js';
import type { ClusterInfo, KafkaCluster } from './transport/cluster.js';

export interface BrokerAdmin {
  listGroups(): Promise<GroupList>;
  describeGroup(groupId: string): Promise<Group>;
  describeCluster(): Promise<ClusterInfo>;
  /** Resolves once a broker answers ApiVersions; throws otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class GroupAdmin implements BrokerAdmin {
  private readonly coordinators: Coordinators;

  constructor(
    private readonly cluster: KafkaCluster,
    options: { retry?: RetryPolicy } = {},
  ) {
    this.coordinators = new Coordinators(cluster, options.retry);
  }

  describeCluster(): Promise<ClusterInfo> {
    return this.cluster.describe();
  }

  async ping(): Promise<void> {
    await this.cluster.anyBroker((connection) => connection.apiVersions());
  }

  /** ListGroups on every broker at once; a broker that fails is reported, not dropped. */
  async listGroups(): Promise<GroupList> {
    const { brokers } = await this.cluster.describe();
    const answers = await Promise.all(
      brokers.map(async (broker) => {
        const ref = { nodeId: broker.nodeId, host: broker.host, port: broker.port };
        try {
          return { groups: await this.listOn(ref), failure: undefined };
        } catch (error) {
          return { groups: [], failure: failureOf(ref, error) };
        }
      }),
    );
    const byId = new Map<string, GroupListing>();
    const failures: BrokerFailure[] = [];
    for (const answer of answers) {
      if (answer.failure) {
        failures.push(answer.failure);
        continue;
      }
      // While a coordinator moves, two brokers can list the same group; the first answer stands.
      for (const group of answer.groups) if (!byId.has(group.groupId)) byId.set(group.groupId, group);
    }
    const groups = [...byId.values()].sort((a, b) => compareIds(a.groupId, b.groupId));
    return { groups, failures };
  }

  async describeGroup(groupId: string): Promise<Group> {
    return this.coordinators.withCoordinator(groupId, (coordinator) =>
      describeClassicGroup(this.cluster.connection(coordinator), coordinator, groupId),
    );
  }

  close(): Promise<void> {
    return this.cluster.close();
  }

  private async listOn(broker: { nodeId: number; host: string; port: number }): Promise<GroupListing[]> {
    const connection = this.cluster.connection(broker);
    const { response } = await connection.send(ListGroups, (v) => ({
      ...(v >= 4 && { statesFilter: [] }),
      ...(v >= 5 && { typesFilter: [] }),
    }));
    if (response.errorCode !== 0)
      throw new KafkaResponseError(connection.label, 'ListGroups', response.errorCode);
    return response.groups.map((g) => ({
      groupId: g.groupId,
      type: groupType(g.groupType),
      protocolType: g.protocolType,
      state: g.groupState ?? null,
    }));
  }
}

function groupType(type: string | undefined): GroupType | null {
  if (type === undefined) return null;
  const lower = type.toLowerCase();
  return (GROUP_TYPES as readonly string[]).includes(lower) ? (lower as GroupType) : null;
}

function failureOf(broker: BrokerFailure['broker'], error: unknown): BrokerFailure {
  if (error instanceof KafkaResponseError) {
    return { broker, error: { name: error.name, message: error.message, kafkaError: error.kafkaError } };
  }
  if (error instanceof BrokerError) return { broker, error: { name: error.name, message: error.message } };
  return {
    broker,
    error: { name: 'UnexpectedError', message: error instanceof Error ? error.message : String(error) },
  };
}

/** Byte order of the UTF-8 encoding, like Kafka's own ordering, independent of the locale. */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const ea = encoder.encode(a);
  const eb = encoder.encode(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    const d = (ea[i] as number) - (eb[i] as number);
    if (d !== 0) return d;
  }
  return ea.length - eb.length;
}
const encoder = new TextEncoder();
