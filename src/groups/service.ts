/**
 * What the routes call: group operations over one cluster. Routes depend on the `GroupService`
 * interface, so their tests can hand in a stand-in that injects faults.
 */

import { BrokerError, KafkaResponseError } from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import { ListGroups } from '../broker/protocol/messages/list-groups.js';
import type { ClusterInfo, KafkaCluster, Readiness, TopicLeaders } from '../broker/transport/cluster.js';
import { formatAddress } from '../broker/transport/connection.js';
import { Coordinators, isCoordinatorError, type RetryPolicy } from './coordinators.js';
import { classicDescriber } from './describe/classic.js';
import { type CoalesceOptions, coalesced } from './describe/coalesce.js';
import { consumerDescriber } from './describe/consumer.js';
import type { GroupDescriber } from './describe/outcome.js';
import { resolveGroups } from './describe/resolve.js';
import { shareDescriber } from './describe/share.js';
import { streamsDescriber } from './describe/streams.js';
import {
  type ListFilter,
  listingMatches,
  mergeListings,
  normalizeState,
  smallestAfter,
  sortById,
} from './listing.js';
import {
  type BrokerFailure,
  type BrokerRef,
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
import { type PartitionProbe, type ProbeRequest, probeLog } from './offsets/log-probe.js';
import { offsetTable, ownership } from './offsets/report.js';
import { withTimeLag } from './offsets/time-lag.js';
import { failed, type Outcome, ok } from './outcome.js';
import { type GroupWrites, KafkaGroupWrites } from './writes/service.js';

export type { ListFilter } from './listing.js';
export { compareIds } from './listing.js';

/** One page of a listing: the first `limit` groups whose id comes after `after`. */
export interface ListPage {
  after?: string;
  limit: number;
}

export interface DescribeOptions {
  /** Assert the type: a group of another type is a GroupTypeMismatchError. */
  expected?: GroupType;
}

export interface GroupService {
  /** Every matching group, sorted by id; with `page`, only that page of them. */
  listGroups(filter?: ListFilter, page?: ListPage): Promise<GroupList>;
  /** Every matching group in no particular order: for a caller that cuts its own pages (snapshots.ts). */
  listUnsorted(filter?: ListFilter): Promise<GroupList>;
  /** One group; throws GroupNotFoundError, GroupTypeMismatchError, … */
  describeGroup(groupId: string, options?: DescribeOptions): Promise<Group>;
  /**
   * Many groups, one RPC per coordinator and type; each with its own outcome, keyed by group id in
   * the order asked (duplicates once).
   */
  describeGroups(
    groupIds: readonly string[],
    options?: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> },
  ): Promise<Map<string, Outcome<Group>>>;
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
    described?: Promise<ReadonlyMap<string, Outcome<Group>>>,
    options?: { timeLag?: boolean },
  ): Promise<Map<string, Outcome<LagTotals>>>;
  /**
   * The offsets tables of many groups (what `groupOffsets` gives each), batched like
   * `lagSummaries`; with `timeLag`, one Fetch and two ListOffsets more per partition leader.
   */
  offsetsOfGroups(
    groups: readonly { groupId: string; type: GroupType | null }[],
    options?: {
      isolation?: Isolation;
      timeLag?: boolean;
      described?: Promise<ReadonlyMap<string, Outcome<Group>>>;
    },
  ): Promise<Map<string, Outcome<OffsetTable>>>;
  /** One group as described and its offsets with time lag, read at `at` (ms): what a verdict needs. */
  groupHealth(
    groupId: string,
    options?: OffsetsOptions,
  ): Promise<{ group: Group; offsets: GroupOffsets; at: number }>;
  describeCluster(): Promise<ClusterInfo>;
  /** The API version ranges one broker of the cluster offers (what it can serve, which Kafka it is). */
  apiVersions?(): Promise<ReadonlyMap<number, { min: number; max: number }>>;
  /** Which brokers answer a Metadata request now (shared for a second); `ready` when one does. */
  ping(): Promise<Readiness>;
  close(): Promise<void>;
  /** The writes (delete group, delete offsets, remove members, reset): see groups/writes/. */
  readonly writes: GroupWrites;
}

export interface OffsetsOptions extends DescribeOptions {
  isolation?: Isolation;
  /** Add each partition's log start, time lag and head age (include=timeLag). */
  timeLag?: boolean;
}

/** A group's offsets per topic and its totals (the body of GroupOffsets). */
export type OffsetTable = Pick<GroupOffsets, 'topics' | 'totals'>;

export interface GroupServiceOptions {
  retry?: RetryPolicy;
  describers?: Partial<Record<GroupType, GroupDescriber>>;
  /** Batching of concurrent describes per coordinator and type (see coalesce.ts); false: none. */
  coalesce?: CoalesceOptions | false;
}

const OFFSETS_TOPIC = '__consumer_offsets';
/** First pause before a listing that has not settled is asked again (doubling each time). */
const LIST_RETRY_MS = 200;
/** How long after an offsets partition moved its new leader's ListGroups may still lack it. */
const MOVE_SETTLE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The offsets partition that holds a group, as Kafka computes it: the absolute value of Java's
 * String.hashCode of the id (UTF-16 code units; Integer.MIN_VALUE counts as 0), modulo the number
 * of partitions.
 */
export function offsetsPartitionFor(groupId: string, partitions: number): number {
  let hash = 0;
  for (let i = 0; i < groupId.length; i++) hash = (Math.imul(31, hash) + groupId.charCodeAt(i)) | 0;
  const abs = hash === -2147483648 ? 0 : Math.abs(hash);
  return abs % partitions;
}

/** How many group types to remember, so a warm describe asks one RPC instead of four. */
const TYPE_CACHE_SIZE = 10_000;
/** How long a listing trusts the broker set it learned, rather than asking Metadata first. */
const BROKER_SET_TTL_MS = 10_000;

export class KafkaGroupService implements GroupService {
  private readonly coordinators: Coordinators;
  private readonly describers: Record<GroupType, GroupDescriber>;
  private readonly knownTypes = new Map<string, GroupType>();
  private brokerSet: { brokers: Promise<ClusterInfo['brokers']>; at: number } | undefined;
  /** The last leader seen per offsets partition, to name a broker when a partition has none. */
  private readonly offsetsLeadersSeen = new Map<number, number>();
  /** Leader and epoch per offsets partition, and when they last changed (0: before we looked). */
  private readonly offsetsMoves = new Map<number, { leader: number; epoch: number; since: number }>();
  readonly writes: GroupWrites;

  constructor(
    private readonly cluster: KafkaCluster,
    options: GroupServiceOptions = {},
  ) {
    this.coordinators = new Coordinators(cluster, options.retry);
    this.writes = new KafkaGroupWrites(cluster, this.coordinators, (groupId) => this.describeGroup(groupId));
    const describers: Record<GroupType, GroupDescriber> = {
      classic: classicDescriber,
      consumer: consumerDescriber,
      share: shareDescriber,
      streams: streamsDescriber,
      ...options.describers,
    };
    const coalesce = options.coalesce;
    this.describers =
      coalesce === false
        ? describers
        : {
            classic: coalesced(describers.classic, coalesce),
            consumer: coalesced(describers.consumer, coalesce),
            share: coalesced(describers.share, coalesce),
            streams: coalesced(describers.streams, coalesce),
          };
  }

  describeCluster(): Promise<ClusterInfo> {
    return this.cluster.describe();
  }

  apiVersions(): Promise<ReadonlyMap<number, { min: number; max: number }>> {
    return this.cluster.anyBroker((connection) => connection.apiVersions());
  }

  ping(): Promise<Readiness> {
    return this.cluster.readinessCheck();
  }

  /**
   * ListGroups on every broker at once, checked against where Metadata puts each offsets partition
   * before and after: complete, or every broker whose answer may lack groups is in `failures`
   * with the reason. An unsettled answer (a coordinator loading or moving) is asked again while
   * one request timeout lasts.
   */
  async listGroups(filter: ListFilter = {}, page?: ListPage): Promise<GroupList> {
    const { groups, failures } = await this.listUnsorted(filter);
    return { groups: page ? smallestAfter(groups, page.after, page.limit) : sortById(groups), failures };
  }

  async listUnsorted(filter: ListFilter = {}): Promise<GroupList> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      const round = await this.listOnce(filter);
      const budgetLeft = this.cluster.requestTimeoutMs - (Date.now() - started);
      if (!round.unsettled || budgetLeft < LIST_RETRY_MS * 2 ** attempt) {
        return { groups: round.groups, failures: round.failures };
      }
      // What the brokers said disagrees with Metadata: learn the broker set anew too.
      this.brokerSet = undefined;
      await sleep(LIST_RETRY_MS * 2 ** attempt);
    }
  }

  /** One round: every broker's answer merged, unsorted, with what makes it unsettled. */
  private async listOnce(filter: ListFilter): Promise<GroupList & { unsettled: boolean }> {
    const [brokers, before] = await Promise.all([this.knownBrokers(), this.offsetsLeaders()]);
    const answers = await Promise.all(
      brokers.map(async (broker) => {
        const ref = { nodeId: broker.nodeId, host: broker.host, port: broker.port };
        const label = formatAddress(ref);
        // A broker that just hung is reported at once rather than waited for again; one probe
        // at a time still asks it, so its answers come back as soon as it does.
        const avoided = this.cluster.health.shouldSkip(label) ? this.cluster.health.reason(label) : undefined;
        if (avoided) {
          return {
            ref,
            groups: [] as GroupListing[],
            failure: { broker: ref, error: { name: 'BrokerUnavailableError', message: avoided } },
            retriable: false,
          };
        }
        try {
          return { ref, groups: await this.listOn(ref, filter), failure: undefined, retriable: false };
        } catch (error) {
          const retriable = error instanceof KafkaResponseError && isCoordinatorError(error.kafkaError.code);
          return { ref, groups: [] as GroupListing[], failure: failureOf(ref, error), retriable };
        }
      }),
    );
    const after = await this.offsetsLeaders().catch(() => undefined);

    const failures = new Map<number, BrokerFailure>();
    const fail = (ref: BrokerRef, name: string, message: string) => {
      if (!failures.has(ref.nodeId)) failures.set(ref.nodeId, { broker: ref, error: { name, message } });
    };
    let unsettled = false;
    for (const answer of answers) {
      if (!answer.failure) continue;
      failures.set(answer.ref.nodeId, answer.failure);
      // COORDINATOR_LOAD_IN_PROGRESS / NOT_AVAILABLE settle by themselves; so may a broker that
      // left Metadata since (its partitions moved to brokers that answered).
      if (answer.retriable) unsettled = true;
    }
    if (failures.size > 0) this.brokerSet = undefined;
    const all = mergeListings(answers.map((answer) => answer.groups));

    if (before && after) {
      const refOf = (nodeId: number): BrokerRef =>
        brokers.find((b) => b.nodeId === nodeId) ?? { nodeId, host: '', port: -1 };
      for (const [partition, now] of after.partitions) {
        const then = before.partitions.get(partition);
        const leader = now.leader?.nodeId ?? -1;
        if (leader < 0) {
          // No coordinator for this partition at all: its groups are in no broker's answer.
          const last = this.offsetsLeadersSeen.get(partition) ?? then?.leader?.nodeId ?? -1;
          fail(
            refOf(last),
            'CoordinatorNotAvailable',
            `offsets partition ${partition} has no leader: the groups it holds may be missing`,
          );
          unsettled = true;
        } else if (then && (then.leader?.nodeId !== leader || then.leaderEpoch !== now.leaderEpoch)) {
          // It moved while the brokers were asked: the old and the new broker may both have
          // answered without it.
          fail(
            refOf(leader),
            'CoordinatorMoved',
            `offsets partition ${partition} moved from node ${then.leader?.nodeId ?? -1} to node ${leader} during the listing`,
          );
          unsettled = true;
        } else if (!brokers.some((b) => b.nodeId === leader)) {
          fail(
            refOf(leader),
            'CoordinatorNotListed',
            `offsets partition ${partition} is led by node ${leader}, which Metadata did not list`,
          );
          unsettled = true;
        }
      }
      // A group listed by a broker that does not lead its partition: the brokers disagree with
      // Metadata (a move in progress); the group's real coordinator may have answered without it.
      const numPartitions = after.partitions.size;
      const leaders = new Set([...after.partitions.values()].map((p) => p.leader?.nodeId));
      for (const answer of answers) {
        if (answer.failure || numPartitions === 0) continue;
        // A broker that leads every offsets partition (a single broker, say) leads every group it
        // lists: no id needs hashing.
        if (leaders.size === 1 && leaders.has(answer.ref.nodeId)) continue;
        for (const group of answer.groups) {
          const partition = offsetsPartitionFor(group.groupId, numPartitions);
          const leader = after.partitions.get(partition)?.leader?.nodeId;
          if (leader !== undefined && leader !== answer.ref.nodeId) {
            fail(
              answer.ref,
              'CoordinatorMoved',
              `node ${answer.ref.nodeId} listed group ${JSON.stringify(group.groupId)} of offsets partition ${partition}, which Metadata says node ${leader} leads`,
            );
            unsettled = true;
          }
        }
      }
      for (const [partition, now] of after.partitions) {
        if (now.leader) this.offsetsLeadersSeen.set(partition, now.leader.nodeId);
      }
      // A partition that changed leader lately: its new leader may not have taken it up yet, and
      // Kafka then leaves its groups out of ListGroups without an error. Seen from one listing to
      // the next (a first listing has nothing to compare with).
      const moment = Date.now();
      for (const [partition, now] of after.partitions) {
        const leader = now.leader?.nodeId ?? -1;
        const epoch = now.leaderEpoch ?? -1;
        const seen = this.offsetsMoves.get(partition);
        if (!seen || seen.leader !== leader || seen.epoch !== epoch) {
          this.offsetsMoves.set(partition, { leader, epoch, since: seen ? moment : 0 });
          if (!seen) continue;
        }
        const since = this.offsetsMoves.get(partition)?.since ?? 0;
        if (leader >= 0 && moment - since < MOVE_SETTLE_MS) {
          fail(
            refOf(leader),
            'CoordinatorMoved',
            `offsets partition ${partition} moved to node ${leader} ${moment - since} ms ago: its groups may not be listed yet`,
          );
          unsettled = true;
        }
      }
    }
    return { groups: all, failures: [...failures.values()], unsettled };
  }

  /** Leaders of the offsets topic's partitions; undefined when Metadata does not know the topic. */
  private async offsetsLeaders(): Promise<TopicLeaders | undefined> {
    const topics = await this.cluster.topicLeaders([OFFSETS_TOPIC]);
    const topic = topics.get(OFFSETS_TOPIC);
    return topic && topic.errorCode === ErrorCode.NONE && topic.partitions.size > 0 ? topic : undefined;
  }

  /**
   * The brokers to list, from Metadata at most every BROKER_SET_TTL_MS: following pages would
   * otherwise pay a Metadata round trip per page. A listing with a failed broker forgets the set,
   * so the next one sees the cluster as it is now.
   */
  private knownBrokers(): Promise<ClusterInfo['brokers']> {
    const now = Date.now();
    if (!this.brokerSet || now - this.brokerSet.at > BROKER_SET_TTL_MS) {
      const brokers = this.cluster.describe().then((info) => info.brokers);
      const entry = { brokers, at: now };
      this.brokerSet = entry;
      brokers.catch(() => {
        if (this.brokerSet === entry) this.brokerSet = undefined;
      });
    }
    return this.brokerSet.brokers;
  }

  async describeGroup(groupId: string, options: DescribeOptions = {}): Promise<Group> {
    const result = (await this.describeGroups([groupId], options)).get(groupId);
    if (!result) throw new Error('describeGroups returned no result');
    if (!result.ok) throw result.error;
    return result.value;
  }

  async describeGroups(
    groupIds: readonly string[],
    { expected, hints }: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> } = {},
  ): Promise<Map<string, Outcome<Group>>> {
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
    return new Map(
      unique.map((groupId) => {
        const result = results.get(groupId) ?? failed(new Error(`no outcome for group ${groupId}`));
        if (result.ok) this.rememberType(groupId, result.value.type);
        return [groupId, result];
      }),
    );
  }

  async groupOffsets(groupId: string, options: OffsetsOptions = {}): Promise<GroupOffsets> {
    return (await this.offsetsWithGroup(groupId, options)).offsets;
  }

  async groupHealth(
    groupId: string,
    options: OffsetsOptions = {},
  ): Promise<{ group: Group; offsets: GroupOffsets; at: number }> {
    return this.offsetsWithGroup(groupId, { ...options, timeLag: true });
  }

  private async offsetsWithGroup(
    groupId: string,
    { isolation = 'read_uncommitted', timeLag = false, ...describe }: OffsetsOptions,
  ): Promise<{ group: Group; offsets: GroupOffsets; at: number }> {
    const group = await this.describeGroup(groupId, describe);
    const committed = (await this.committedOffsets([{ groupId, type: group.type }])).get(groupId);
    if (!committed) throw new Error(`no offsets for group ${groupId}`);
    if (!committed.ok) throw committed.error;
    const owners = ownership(group);
    const partitions = [
      ...committed.value.map(({ topic, partition }) => ({ topic, partition })),
      ...[...owners.keys()].map(fromKey),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation);
    let table = offsetTable(committed.value, owners, ends);
    let at = Date.now();
    if (timeLag) {
      const probes = await probeLog(this.cluster, probeRequests([table]), isolation);
      at = Date.now();
      table = withTimeLag(table, probes, at);
    }
    return {
      group,
      at,
      offsets: {
        groupId,
        type: group.type,
        state: group.state,
        offsetKind: group.type === 'share' ? 'start' : 'committed',
        isolation,
        ...table,
      },
    };
  }

  async lagSummaries(
    groups: readonly { groupId: string; type: GroupType | null }[],
    isolation: Isolation = 'read_uncommitted',
    described?: Promise<ReadonlyMap<string, Outcome<Group>>>,
    options: { timeLag?: boolean } = {},
  ): Promise<Map<string, Outcome<LagTotals>>> {
    const tables = await this.offsetsOfGroups(groups, {
      isolation,
      ...(described && { described }),
      ...(options.timeLag && { timeLag: true }),
    });
    const out = new Map<string, Outcome<LagTotals>>();
    for (const [groupId, table] of tables) out.set(groupId, table.ok ? ok(table.value.totals) : table);
    return out;
  }

  async offsetsOfGroups(
    groups: readonly { groupId: string; type: GroupType | null }[],
    {
      isolation = 'read_uncommitted',
      timeLag = false,
      described,
    }: {
      isolation?: Isolation;
      timeLag?: boolean;
      described?: Promise<ReadonlyMap<string, Outcome<Group>>>;
    } = {},
  ): Promise<Map<string, Outcome<OffsetTable>>> {
    const hints = new Map(groups.flatMap((g) => (g.type ? [[g.groupId, g.type] as const] : [])));
    const [committed, results] = await Promise.all([
      this.committedOffsets(groups),
      described ??
        this.describeGroups(
          groups.map((g) => g.groupId),
          { hints },
        ),
    ]);
    const owners = new Map<string, Map<string, PartitionOwner[]>>();
    for (const [groupId, r] of results) if (r.ok) owners.set(groupId, ownership(r.value));
    const partitions = [
      ...[...committed.values()].flatMap((c) =>
        c.ok ? c.value.map(({ topic, partition }) => ({ topic, partition })) : [],
      ),
      ...[...owners.values()].flatMap((held) => [...held.keys()].map(fromKey)),
    ];
    const ends = await endOffsets(this.cluster, partitions, isolation);
    const tables = new Map<string, Outcome<OffsetTable>>();
    for (const [groupId, result] of committed) {
      if (!result.ok) {
        tables.set(groupId, result);
        continue;
      }
      // /offsets fails when the describe does; so does the listing's lag, with the same problem.
      const outcome = results.get(groupId);
      if (outcome && !outcome.ok) {
        tables.set(groupId, outcome);
        continue;
      }
      tables.set(groupId, ok(offsetTable(result.value, owners.get(groupId) ?? new Map(), ends)));
    }
    if (!timeLag) return tables;
    // One probe for every group's partitions: a partition two groups read is asked once per offset.
    const okTables = [...tables.values()].flatMap((t) => (t.ok ? [t.value] : []));
    const probesByOffset = await probeEveryOffset(this.cluster, okTables, isolation);
    const at = Date.now();
    const out = new Map<string, Outcome<OffsetTable>>();
    for (const [groupId, t] of tables) {
      out.set(groupId, t.ok ? ok(withTimeLag(t.value, probesFor(t.value, probesByOffset), at)) : t);
    }
    return out;
  }

  close(): Promise<void> {
    return this.cluster.close();
  }

  /** Offsets of many groups: share groups' start offsets and the others' commits, per coordinator. */
  private async committedOffsets(
    groups: readonly { groupId: string; type: GroupType | null }[],
  ): Promise<Map<string, Outcome<CommittedOffsets>>> {
    const share = new Set(groups.filter((g) => g.type === 'share').map((g) => g.groupId));
    return this.coordinators.forEachCoordinator<CommittedOffsets>(
      groups.map((g) => g.groupId),
      async (coordinator, ids) => {
        const connection = this.cluster.connection(coordinator);
        const shareIds = ids.filter((id) => share.has(id));
        const otherIds = ids.filter((id) => !share.has(id));
        const none = new Map<string, Outcome<CommittedOffsets>>();
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
    if (response.errorCode !== ErrorCode.NONE)
      throw new KafkaResponseError(connection.label, 'ListGroups', response.errorCode);
    const out: GroupListing[] = [];
    for (const g of response.groups) {
      const listing: GroupListing = {
        groupId: g.groupId,
        type: groupType(g.groupType),
        protocolType: g.protocolType,
        state: g.groupState === undefined ? null : normalizeState(g.groupState),
      };
      if (listingMatches(listing, filter)) out.push(listing);
    }
    return out;
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

// A listing names a handful of types a hundred thousand times: each spelling is looked at once.
const typeSpellings = new Map<string, GroupType | null>();

function groupType(type: string | undefined): GroupType | null {
  if (type === undefined) return null;
  let known = typeSpellings.get(type);
  if (known === undefined) {
    const lower = type.toLowerCase();
    known = (GROUP_TYPES as readonly string[]).includes(lower) ? (lower as GroupType) : null;
    if (typeSpellings.size < 64) typeSpellings.set(type, known);
  }
  return known;
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

function fromKey(key: string): { topic: string; partition: number } {
  const at = key.indexOf(':');
  return { partition: Number(key.slice(0, at)), topic: key.slice(at + 1) };
}

/** What to probe for these tables: the batch at each offset behind its end, the head of every partition. */
function probeRequests(tables: readonly OffsetTable[]): ProbeRequest[] {
  return tables.flatMap((table) =>
    table.topics.flatMap((t) =>
      t.partitions.map((p) => ({
        topic: t.topic,
        partition: p.partition,
        fetchAt: fetchAtOf(p),
        endOffset: p.endOffset,
      })),
    ),
  );
}

const fetchAtOf = (p: { offset: number | null; lag: number | null }) =>
  p.offset !== null && p.lag !== null && p.lag > 0 ? p.offset : null;

/**
 * Probes for many groups' tables. A Fetch names a partition once, so a partition is probed once
 * per distinct offset the groups hold on it: one round per leader covers the first offset of every
 * partition, further rounds only the partitions where groups are at different offsets.
 */
async function probeEveryOffset(
  cluster: KafkaCluster,
  tables: readonly OffsetTable[],
  isolation: Isolation,
): Promise<Map<string, PartitionProbe>> {
  const rounds: Map<string, ProbeRequest>[] = [];
  for (const request of probeRequests(tables)) {
    const key = `${request.partition}:${request.topic}`;
    const round = rounds.find((r) => {
      const there = r.get(key);
      return (
        !there || there.fetchAt === request.fetchAt || request.fetchAt === null || there.fetchAt === null
      );
    });
    if (!round) rounds.push(new Map([[key, request]]));
    else if (round.get(key)?.fetchAt == null) round.set(key, request);
  }
  const out = new Map<string, PartitionProbe>();
  for (const round of rounds) {
    const probes = await probeLog(cluster, [...round.values()], isolation);
    for (const [key, request] of round) {
      const probe = probes.get(key);
      if (!probe) continue;
      out.set(`${key}@${request.fetchAt ?? ''}`, probe);
      // The head and the log start do not depend on the offset: any round's answer serves.
      if (!out.has(`${key}@`)) out.set(`${key}@`, probe);
    }
  }
  return out;
}

/** One table's probes out of `probeEveryOffset`'s answer, keyed as `withTimeLag` reads them. */
function probesFor(
  table: OffsetTable,
  probes: ReadonlyMap<string, PartitionProbe>,
): Map<string, PartitionProbe> {
  const out = new Map<string, PartitionProbe>();
  for (const t of table.topics) {
    for (const p of t.partitions) {
      const key = `${p.partition}:${t.topic}`;
      const fetchAt = fetchAtOf(p);
      const probe = probes.get(`${key}@${fetchAt ?? ''}`) ?? probes.get(`${key}@`);
      if (probe) out.set(key, probe);
    }
  }
  return out;
}
