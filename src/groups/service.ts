/**
 * What the routes call: group operations over one cluster. Routes depend on the `GroupService`
 * interface, so their tests can hand in a stand-in that injects faults.
 */

import { BrokerError, KafkaResponseError } from '../broker/errors.js';
import { ListGroups } from '../broker/protocol/messages/list-groups.js';
import type { ClusterInfo, KafkaCluster } from '../broker/transport/cluster.js';
import { type CoordinatorOutcome, Coordinators, type RetryPolicy } from './coordinators.js';
import { classicDescriber } from './describe/classic.js';
import { consumerDescriber } from './describe/consumer.js';
import type { GroupDescriber } from './describe/outcome.js';
import { resolveGroups } from './describe/resolve.js';
import { shareDescriber } from './describe/share.js';
import { streamsDescriber } from './describe/streams.js';
import { type ListFilter, listingMatches, normalizeState } from './listing.js';
import {
  type BrokerFailure,
  GROUP_TYPES,
  type Group,
  type GroupList,
  type GroupListing,
  type GroupOffsets,
  type GroupType,
  type LagTotals,
  type PartitionOwner,
} from './model.js';
import { type CommittedOffsets, fetchCommitted, fetchShareStartOffsets } from './offsets/committed.js';
import { endOffsets, type Isolation } from './offsets/end-offsets.js';
import { offsetTable, ownership } from './offsets/report.js';

export type { ListFilter } from './listing.js';

export type GroupResult = { groupId: string; group: Group } | { groupId: string; error: Error };

export interface DescribeOptions {
  /** Assert the type: a group of another type is a GroupTypeMismatchError. */
  expected?: GroupType;
}

export interface GroupService {
  listGroups(filter?: ListFilter): Promise<GroupList>;
  /** One group; throws GroupNotFoundError, GroupTypeMismatchError, … */
  describeGroup(groupId: string, options?: DescribeOptions): Promise<Group>;
  /** Many groups, one RPC per coordinator and type; each with its own outcome, in the order asked. */
  describeGroups(
    groupIds: readonly string[],
    options?: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> },
  ): Promise<GroupResult[]>;
  /** Committed offsets, end offsets and lag of one group, per partition. Reads only. */
  groupOffsets(groupId: string, options?: OffsetsOptions): Promise<GroupOffsets>;
  /**
   * Total and max lag of many groups: one offsets RPC per coordinator, one ListOffsets per leader.
   * Each group's totals are those `groupOffsets` gives: the partitions its members hold without a
   * commit count too, so the groups are described (or `described` is used, when the caller has
   * already asked for it: the same answers, one describe).
   */
  lagSummaries(
    groups: readonly { groupId: string; type: GroupType | null }[],
    isolation?: Isolation,
    described?: Promise<readonly GroupResult[]>,
  ): Promise<Map<string, LagTotals | Error>>;
  describeCluster(): Promise<ClusterInfo>;
  /** Resolves once a broker answers ApiVersions; throws otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OffsetsOptions extends DescribeOptions {
  isolation?: Isolation;
}

export interface GroupServiceOptions {
  retry?: RetryPolicy;
  describers?: Partial<Record<GroupType, GroupDescriber>>;
}

/** How many group types to remember, so a warm describe asks one RPC instead of four. */
const TYPE_CACHE_SIZE = 10_000;

export class KafkaGroupService implements GroupService {
  private readonly coordinators: Coordinators;
  private readonly describers: Record<GroupType, GroupDescriber>;
  private readonly knownTypes = new Map<string, GroupType>();

  constructor(
    private readonly cluster: KafkaCluster,
    options: GroupServiceOptions = {},
  ) {
    this.coordinators = new Coordinators(cluster, options.retry);
    this.describers = {
      classic: classicDescriber,
      consumer: consumerDescriber,
      share: shareDescriber,
      streams: streamsDescriber,
      ...options.describers,
    };
  }

  describeCluster(): Promise<ClusterInfo> {
    return this.cluster.describe();
  }

  async ping(): Promise<void> {
    await this.cluster.anyBroker((connection) => connection.apiVersions());
  }

  /** ListGroups on every broker at once; a broker that fails is reported, not dropped. */
  async listGroups(filter: ListFilter = {}): Promise<GroupList> {
    const { brokers } = await this.cluster.describe();
    const answers = await Promise.all(
      brokers.map(async (broker) => {
        const ref = { nodeId: broker.nodeId, host: broker.host, port: broker.port };
        try {
          return { groups: await this.listOn(ref, filter), failure: undefined };
        } catch (error) {
          return { groups: [], failure: failureOf(ref, error) };
        }
      }),
    );
    const byId = new Map<string, GroupListing>();
    const failures: BrokerFailure[] = [];
    for (const answer of answers) {
      if (answer.failure) failures.push(answer.failure);
      // While a coordinator moves, two brokers can list the same group; the first answer stands.
      for (const group of answer.groups) if (!byId.has(group.groupId)) byId.set(group.groupId, group);
    }
    const groups = sortById([...byId.values()]);
    return { groups, failures };
  }

  async describeGroup(groupId: string, options: DescribeOptions = {}): Promise<Group> {
    const [result] = await this.describeGroups([groupId], options);
    if (!result) throw new Error('describeGroups returned no result');
    if ('error' in result) throw result.error;
    return result.group;
  }

  async describeGroups(
    groupIds: readonly string[],
    { expected, hints }: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> } = {},
  ): Promise<GroupResult[]> {
    const unique = [...new Set(groupIds)];
    const known = new Map<string, GroupType>();
    for (const id of unique) {
      const type = hints?.get(id) ?? this.knownTypes.get(id);
      if (type) known.set(id, type);
    }
    const results = await this.coordinators.forEachCoordinator(unique, (coordinator, ids) =>
      resolveGroups(this.describers, this.cluster.connection(coordinator), coordinator, ids, {
        ...(expected && { expected }),
        hints: known,
      }),
    );
    return unique.map((groupId) => {
      const result = results.get(groupId);
      if (!result) return { groupId, error: new Error(`no outcome for group ${groupId}`) };
      if ('error' in result) {
        return { groupId, error: result.error };
      }
      this.rememberType(groupId, result.value.type);
      return { groupId, group: result.value };
    });
  }

  async groupOffsets(
    groupId: string,
    { isolation = 'read_uncommitted', ...describe }: OffsetsOptions = {},
  ): Promise<GroupOffsets> {
    const group = await this.describeGroup(groupId, describe);
    const committed = (await this.committedOffsets([{ groupId, type: group.type }])).get(groupId);
    if (!committed || 'error' in committed)
      throw committed?.error ?? new Error(`no offsets for group ${groupId}`);
    const owners = ownership(group);
    const partitions = [
      ...committed.value.map(({ topic, partition }) => ({ topic, partition })),
      ...[...owners.keys()].map(fromKey),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation);
    return {
      groupId,
      type: group.type,
      state: group.state,
      offsetKind: group.type === 'share' ? 'start' : 'committed',
      isolation,
      ...offsetTable(committed.value, owners, ends),
    };
  }

  async lagSummaries(
    groups: readonly { groupId: string; type: GroupType | null }[],
    isolation: Isolation = 'read_uncommitted',
    described?: Promise<readonly GroupResult[]>,
  ): Promise<Map<string, LagTotals | Error>> {
    const hints = new Map(groups.flatMap((g) => (g.type ? [[g.groupId, g.type] as const] : [])));
    const [committed, results] = await Promise.all([
      this.committedOffsets(groups),
      described ??
        this.describeGroups(
          groups.map((g) => g.groupId),
          { hints },
        ),
    ]);
    const byId = new Map(results.map((r) => [r.groupId, r]));
    const owners = new Map<string, Map<string, PartitionOwner[]>>();
    for (const r of results) if ('group' in r) owners.set(r.groupId, ownership(r.group));
    const partitions = [
      ...[...committed.values()].flatMap((c) =>
        'value' in c ? c.value.map(({ topic, partition }) => ({ topic, partition })) : [],
      ),
      ...[...owners.values()].flatMap((held) => [...held.keys()].map(fromKey)),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation);
    const out = new Map<string, LagTotals | Error>();
    for (const [groupId, result] of committed) {
      if ('error' in result) {
        out.set(groupId, result.error);
        continue;
      }
      // /offsets fails when the describe does; so does the listing's lag, with the same problem.
      const outcome = byId.get(groupId);
      if (outcome && 'error' in outcome) {
        out.set(groupId, outcome.error);
        continue;
      }
      out.set(groupId, offsetTable(result.value, owners.get(groupId) ?? new Map(), ends).totals);
    }
    return out;
  }

  close(): Promise<void> {
    return this.cluster.close();
  }

  /** Offsets of many groups: share groups' start offsets and the others' commits, per coordinator. */
  private async committedOffsets(
    groups: readonly { groupId: string; type: GroupType | null }[],
  ): Promise<Map<string, { value: CommittedOffsets } | { error: Error }>> {
    const share = new Set(groups.filter((g) => g.type === 'share').map((g) => g.groupId));
    return this.coordinators.forEachCoordinator<CommittedOffsets>(
      groups.map((g) => g.groupId),
      async (coordinator, ids) => {
        const connection = this.cluster.connection(coordinator);
        const shareIds = ids.filter((id) => share.has(id));
        const otherIds = ids.filter((id) => !share.has(id));
        const none = new Map<string, CoordinatorOutcome<CommittedOffsets>>();
        const [a, b] = await Promise.all([
          shareIds.length > 0 ? fetchShareStartOffsets(connection, shareIds) : none,
          otherIds.length > 0 ? fetchCommitted(connection, otherIds) : none,
        ]);
        return new Map([...a, ...b]);
      },
    );
  }

  private rememberType(groupId: string, type: GroupType): void {
    if (this.knownTypes.size >= TYPE_CACHE_SIZE && !this.knownTypes.has(groupId)) {
      const oldest = this.knownTypes.keys().next().value;
      if (oldest !== undefined) this.knownTypes.delete(oldest);
    }
    this.knownTypes.set(groupId, type);
  }

  private async listOn(
    broker: { nodeId: number; host: string; port: number },
    filter: ListFilter,
  ): Promise<GroupListing[]> {
    const connection = this.cluster.connection(broker);
    // The broker filters where it can (less to send); the same filter runs here again, for brokers
    // too old to filter and for the states the broker cannot match (see listing.ts).
    const { response } = await connection.send(ListGroups, (v) => ({
      ...(v >= 4 && { statesFilter: brokerStates(filter) }),
      ...(v >= 5 && { typesFilter: filter.types ? [...filter.types] : [] }),
    }));
    if (response.errorCode !== 0)
      throw new KafkaResponseError(connection.label, 'ListGroups', response.errorCode);
    return response.groups
      .map(
        (g): GroupListing => ({
          groupId: g.groupId,
          type: groupType(g.groupType),
          protocolType: g.protocolType,
          state: g.groupState === undefined ? null : normalizeState(g.groupState),
        }),
      )
      .filter((g) => listingMatches(g, filter));
  }
}

/**
 * The states to send in ListGroups: none when NotReady is asked for, since the broker compares a
 * streams group's NotReady as 'not_ready' and would drop it.
 */
function brokerStates(filter: ListFilter): string[] {
  if (!filter.states || filter.states.some((s) => s === 'NotReady')) return [];
  return [...filter.states];
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

const encoder = new TextEncoder();

function fromKey(key: string): { topic: string; partition: number } {
  const at = key.indexOf(':');
  return { partition: Number(key.slice(0, at)), topic: key.slice(at + 1) };
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** Byte order of the UTF-8 encoding, like Kafka's own ordering, independent of the locale. */
export function compareIds(a: string, b: string): number {
  return a === b ? 0 : compareBytes(encoder.encode(a), encoder.encode(b));
}

/** Sorted by `compareIds`, each id encoded once rather than at every comparison. */
function sortById<T extends { groupId: string }>(items: T[]): T[] {
  return items
    .map((item) => ({ item, key: encoder.encode(item.groupId) }))
    .sort((a, b) => compareBytes(a.key, b.key))
    .map(({ item }) => item);
}
