/**
 * What the routes call: group operations over one cluster. Routes depend on the `GroupService`
 * interface, so their tests can hand in a stand-in that injects faults. The work is done by the
 * listing engine (cluster-listing.ts), the describers (describe/), the offsets tables
 * (offsets/tables.ts) and the writes (writes/); this class puts them behind one interface.
 */

import QuickLRU from 'quick-lru';
import type { CallOptions } from '../broker/deadline.js';
import { KafkaResponseError } from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import type { ClusterInfo, KafkaCluster, Readiness } from '../broker/transport/cluster.js';
import { ClusterListing, type ListedRowsList } from './cluster-listing.js';
import type { GroupConfig, GroupConfigChange } from './configs.js';
import { Coordinators, type RetryPolicy } from './coordinators.js';
import { classicDescriber } from './describe/classic.js';
import { type CoalesceOptions, coalesced } from './describe/coalesce.js';
import { consumerDescriber } from './describe/consumer.js';
import type { GroupDescriber } from './describe/describer.js';
import { resolveGroups } from './describe/resolve.js';
import { shareDescriber } from './describe/share.js';
import { streamsDescriber } from './describe/streams.js';
import { describeTopology, type TopologyDescriptionAnswer } from './describe/topology-description.js';
import type { Retention } from './health/forecast.js';
import { sortRows } from './listed-rows.js';
import { type ListFilter, smallestAfter, sortById, typeHints } from './listing.js';
import type { Group, GroupList, GroupOffsets, GroupType } from './model.js';
import type { Isolation } from './offsets/end-offsets.js';
import type { OffsetsOptions, OffsetTable, OffsetTables } from './offsets/tables.js';
import { failed, type Outcome } from './outcome.js';
import type { GroupWrites } from './writes/group-writes.js';
import { lazyWrites } from './writes/lazy.js';
import type { WriteOptions } from './writes/progress.js';

export type { ListFilter } from './listing.js';
export { compareIds } from './listing.js';

/** One page of a listing: the first `limit` groups whose id comes after `after`. */
export interface ListPage {
  after?: string;
  limit: number;
}

type ListOptions = CallOptions & { page?: ListPage };
type ConfigsOptions = CallOptions & { showing?: GroupConfigChange };

export interface DescribeOptions extends CallOptions {
  /** Assert the type: a group of another type is a GroupTypeMismatchError. */
  expected?: GroupType;
}

export interface GroupService {
  /** Every matching group, sorted by id; with `page`, only that page of them. */
  listGroups(filter: ListFilter, options: ListOptions): Promise<GroupList>;
  /** Every matching group in no particular order: for a caller that cuts its own pages (held-listings.ts). */
  listUnsorted(filter: ListFilter, options: CallOptions): Promise<GroupList>;
  /** Every matching group, sorted by id, as the brokers' answers (no object per group): for lines written from bytes. */
  listRows(filter: ListFilter, options: CallOptions): Promise<ListedRowsList>;
  /** One group; throws GroupNotFoundError, GroupTypeMismatchError, … */
  describeGroup(groupId: string, options: DescribeOptions): Promise<Group>;
  /**
   * Many groups, one RPC per coordinator and type; each with its own outcome, keyed by group id in
   * the order asked (duplicates once).
   */
  describeGroups(
    groupIds: readonly string[],
    options: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> },
  ): Promise<Map<string, Outcome<Group>>>;
  /** Committed offsets, end offsets and lag of one group, per partition. Reads only. */
  groupOffsets(groupId: string, options: OffsetsOptions): Promise<GroupOffsets>;
  /**
   * The offsets tables of many groups (what `groupOffsets` gives each): one offsets RPC per
   * coordinator, one ListOffsets per leader. The partitions members hold without a commit count
   * too, so the groups are described (or `described` is used, when the caller has already asked
   * for it: the same answers, one describe). With `timeLag`, one Fetch and two ListOffsets more
   * per partition leader.
   */
  offsetsOfGroups(
    groups: readonly { groupId: string; type: GroupType | null; state?: string | null }[],
    options: GroupsOffsetsOptions,
  ): Promise<Map<string, Outcome<OffsetTable>>>;
  /**
   * Listed groups described, their listed types as hints (no RPC spent finding a type); with
   * `offsets`, their offsets tables too, from the same describe (lag needs the members' partitions).
   * With `skipEmpty`, groups listed Empty are not described (no members: their listing says what a
   * describe would); streams groups are, for their topology. Those groups are absent from `groups`.
   */
  describeListed(listed: readonly ListedGroup[], options: DescribeListedOptions): Promise<ListedDetails>;
  /** Whether the topic exists (Metadata); undefined where the service cannot tell. */
  topicExists?(topic: string, options: CallOptions): Promise<boolean>;
  /**
   * What forecasts read beside the offsets, at `at` (ms): the first offset of each partition at or
   * after the production window's start (one ListOffsets per leader), and the topics' retention
   * (one DescribeConfigs).
   */
  forecastReads?(
    partitions: readonly { topic: string; partition: number }[],
    topics: readonly string[],
    at: number,
    options: CallOptions,
  ): Promise<ForecastReading>;
  /** One group as described and its offsets with time lag, read at `at` (ms): what a verdict needs. */
  groupHealth(groupId: string, options: HealthOptions): Promise<HealthReading>;
  /**
   * One group as described and its committed and end offsets, read at `at` (ms): what diagnosis
   * reads. No time lag, production window or retention: one describe, one offsets RPC at the
   * coordinator, one ListOffsets per leader.
   */
  groupReading(groupId: string, options: Omit<OffsetsOptions, 'timeLag'>): Promise<GroupReading>;
  describeCluster(options: CallOptions): Promise<ClusterInfo>;
  /** A streams group's topology (StreamsGroupDescribe v1, Kafka 4.4+); UnsupportedApiError before. */
  streamsTopologyDescription?(groupId: string, options: CallOptions): Promise<TopologyDescriptionAnswer>;
  /** The group's configs (DescribeConfigs, type GROUP); with `showing`, once they show it (configsShowing). */
  groupConfigs?(groupId: string, options: ConfigsOptions): Promise<GroupConfig[]>;
  /** IncrementalAlterConfigs on the group (validateOnly: Kafka's dry run); GroupConfigInvalidError. */
  alterGroupConfigs?(
    groupId: string,
    change: GroupConfigChange,
    validateOnly: boolean,
    options: WriteOptions,
  ): Promise<void>;
  /** The API version ranges one broker of the cluster offers (what it can serve, which Kafka it is). */
  apiVersions?(options: CallOptions): Promise<ReadonlyMap<number, { min: number; max: number }>>;
  /** Which brokers answer a Metadata request now (shared for a second, each on a timer of its own). */
  ping(): Promise<Readiness>;
  close(): Promise<void>;
  /** The writes (delete group, delete offsets, remove members, reset): see groups/writes/. */
  readonly writes: GroupWrites;
}

export type { OffsetsOptions, OffsetTable } from './offsets/tables.js';

export interface HealthOptions extends OffsetsOptions {
  /** Read the production rate over PRODUCTION_WINDOW_MS (ListOffsets by timestamp): when there is no snapshot. */
  window?: boolean;
}

/** One group as described and its offsets, read at `at` (ms). */
export interface GroupReading {
  group: Group;
  offsets: GroupOffsets;
  at: number;
}

/** One group as described, its offsets with time lag read at `at` (ms), and what forecasts need. */
export interface HealthReading extends GroupReading {
  /** Average bytes per record of the batch at each committed offset, keyed `${partition}:${topic}`. */
  bytesPerRecord?: ReadonlyMap<string, number>;
  /** Each topic's retention; a topic missing could not be read. */
  retention?: ReadonlyMap<string, Retention>;
  /** The first offset at or after the window's start (-1: no record that new; null: unreadable). */
  window?: { ms: number; startOffsets: ReadonlyMap<string, number | null> };
}

/** The production window's start offsets and the topics' retention (see HealthReading). */
export interface ForecastReading {
  window: { ms: number; startOffsets: ReadonlyMap<string, number | null> };
  retention: ReadonlyMap<string, Retention>;
}

export interface GroupsOffsetsOptions extends CallOptions {
  isolation?: Isolation;
  timeLag?: boolean;
  described?: Promise<ReadonlyMap<string, Outcome<Group>>>;
}

export type DescribeListedOptions = CallOptions & { offsets?: ListedOffsetsOptions; skipEmpty?: boolean };

/** The offsets `describeListed` reads: with `topic`, only that topic's partitions. */
export interface ListedOffsetsOptions {
  isolation?: Isolation;
  timeLag?: boolean;
  topic?: string;
  /** With timeLag: each group's bytes per record at its offsets, in `ListedDetails.bytesPerRecord`. */
  bytesPerRecord?: boolean;
}

/** What `describeListed` needs of a listed group. */
export interface ListedGroup {
  groupId: string;
  type: GroupType | null;
  state?: string | null;
}

/** A group its listing shows Empty, of a known type other than streams (whose topology counts). */
export function listedWithoutMembers(g: ListedGroup): boolean {
  return g.state === 'Empty' && g.type !== null && g.type !== 'streams';
}

/** What `describeListed` answers: each group's describe, and its offsets table when asked. */
export interface ListedDetails {
  groups: Map<string, Outcome<Group>>;
  offsets?: Map<string, Outcome<OffsetTable>>;
  /** Per group, bytes per record keyed `${partition}:${topic}`, when asked for. */
  bytesPerRecord?: Map<string, ReadonlyMap<string, number>>;
}

export interface GroupServiceOptions {
  retry?: RetryPolicy;
  describers?: Partial<Record<GroupType, GroupDescriber>>;
  /** Batching of concurrent describes per coordinator and type (see coalesce.ts); false: none. */
  coalesce?: CoalesceOptions | false;
}

/** How many group types to remember (up to twice this), so a warm describe asks one RPC instead of four. */
const TYPE_CACHE_SIZE = 10_000;

export class KafkaGroupService implements GroupService {
  private readonly coordinators: Coordinators;
  private readonly describers: Record<GroupType, GroupDescriber>;
  // Bounded without deleting one entry per insert: a Map trimmed from its front rescans the holes
  // left at its start on every insert, which at estate scale (100,000 groups through a 10,000
  // cache) cost seconds per request.
  private readonly knownTypes = new QuickLRU<string, GroupType>({ maxSize: TYPE_CACHE_SIZE });
  private readonly listing: ClusterListing;
  /** Loaded on the first offsets read (lag, health, metrics): a describe needs none of it. */
  private tablesLoaded: Promise<OffsetTables> | undefined;
  readonly writes: GroupWrites;

  constructor(
    private readonly cluster: KafkaCluster,
    options: GroupServiceOptions = {},
  ) {
    this.coordinators = new Coordinators(cluster, options.retry);
    this.listing = new ClusterListing(cluster);
    this.writes = lazyWrites(async () => {
      const { KafkaGroupWrites } = await import('./writes/group-writes.js');
      return new KafkaGroupWrites(cluster, this.coordinators, (id, options) =>
        this.describeGroup(id, options),
      );
    });
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

  describeCluster(options: CallOptions): Promise<ClusterInfo> {
    return this.cluster.describe(options);
  }

  streamsTopologyDescription(groupId: string, options: CallOptions): Promise<TopologyDescriptionAnswer> {
    // atCoordinator finds the coordinator and retries its errors; the call itself only reads.
    return this.writes.atCoordinator(groupId, options, (c) => describeTopology(c, groupId, options));
  }

  async groupConfigs(groupId: string, { showing, ...options }: ConfigsOptions): Promise<GroupConfig[]> {
    const { configsShowing, describeGroupConfigs } = await import('./configs.js');
    return configsShowing(() => describeGroupConfigs(this.cluster, groupId, options), showing, options);
  }

  async alterGroupConfigs(
    groupId: string,
    change: GroupConfigChange,
    validateOnly: boolean,
    options: WriteOptions,
  ): Promise<void> {
    const { alterGroupConfigs } = await import('./configs.js');
    return alterGroupConfigs(this.cluster, groupId, change, validateOnly, options);
  }

  apiVersions(options: CallOptions): Promise<ReadonlyMap<number, { min: number; max: number }>> {
    return this.cluster.anyBroker((connection) => connection.apiVersions(options), options);
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
  async listGroups(filter: ListFilter, { page, ...options }: ListOptions): Promise<GroupList> {
    const { groups, failures } = await this.listUnsorted(filter, options);
    return { groups: page ? smallestAfter(groups, page.after, page.limit) : sortById(groups), failures };
  }

  listUnsorted(filter: ListFilter, options: CallOptions): Promise<GroupList> {
    return this.listing.list(filter, options);
  }

  async listRows(filter: ListFilter, options: CallOptions): Promise<ListedRowsList> {
    const listed = await this.listing.listRows(filter, options);
    if (listed.listed) sortRows(listed.listed);
    return listed;
  }

  async describeGroup(groupId: string, options: DescribeOptions): Promise<Group> {
    const result = (await this.describeGroups([groupId], options)).get(groupId);
    if (!result) throw new Error('describeGroups returned no result');
    if (!result.ok) throw result.error;
    return result.value;
  }

  async describeGroups(
    groupIds: readonly string[],
    { expected, hints, deadline }: DescribeOptions & { hints?: ReadonlyMap<string, GroupType> },
  ): Promise<Map<string, Outcome<Group>>> {
    const unique = [...new Set(groupIds)];
    const known = new Map<string, GroupType>();
    for (const id of unique) {
      const type = hints?.get(id) ?? this.knownTypes.get(id);
      if (type) known.set(id, type);
    }
    const results = await this.coordinators.forEachCoordinator(
      unique,
      (coordinator, ids) =>
        resolveGroups(this.describers, this.cluster.connection(coordinator), coordinator, ids, {
          ...(expected && { expected }),
          deadline,
          hints: known,
        }),
      { deadline },
    );
    return new Map(
      unique.map((groupId) => {
        const result = results.get(groupId) ?? failed(new Error(`no outcome for group ${groupId}`));
        if (result.ok) this.rememberType(groupId, result.value.type);
        return [groupId, result];
      }),
    );
  }

  async groupOffsets(groupId: string, options: OffsetsOptions): Promise<GroupOffsets> {
    return (await (await this.tables()).withGroup(groupId, options)).offsets;
  }

  async groupReading(groupId: string, options: Omit<OffsetsOptions, 'timeLag'>): Promise<GroupReading> {
    const { group, offsets, at } = await (await this.tables()).withGroup(groupId, options);
    return { group, offsets, at };
  }

  async groupHealth(groupId: string, { window, ...options }: HealthOptions): Promise<HealthReading> {
    const reading = await this.tables().then((tables) =>
      tables.withGroup(groupId, { ...options, timeLag: true }),
    );
    const topics = reading.offsets.topics;
    const partitions = window
      ? topics.flatMap((t) => t.partitions.map((p) => ({ topic: t.topic, partition: p.partition })))
      : [];
    const reads = await this.forecastReads(
      partitions,
      topics.map((t) => t.topic),
      reading.at,
      options,
    );
    return { ...reading, retention: reads.retention, ...(window && { window: reads.window }) };
  }

  async forecastReads(
    partitions: readonly { topic: string; partition: number }[],
    topics: readonly string[],
    at: number,
    options: CallOptions,
  ): Promise<ForecastReading> {
    // The forecast's reads load with the first health answer or forecast scrape, like the offsets tables.
    const [{ PRODUCTION_WINDOW_MS }, { logOffsets }, { topicRetention }] = await Promise.all([
      import('./health/forecast.js'),
      import('./offsets/end-offsets.js'),
      import('./offsets/topic-retention.js'),
    ]);
    const since = { kind: 'timestamp', timestamp: at - PRODUCTION_WINDOW_MS } as const;
    const [starts, retention] = await Promise.all([
      partitions.length > 0 ? logOffsets(this.cluster, partitions, since, options) : new Map(),
      topicRetention(this.cluster, topics, options),
    ]);
    const startOffsets = new Map([...starts].map(([key, r]) => [key, r.ok ? r.value : null]));
    return { window: { ms: PRODUCTION_WINDOW_MS, startOffsets }, retention };
  }

  async offsetsOfGroups(
    groups: readonly { groupId: string; type: GroupType | null; state?: string | null }[],
    options: GroupsOffsetsOptions,
  ): Promise<Map<string, Outcome<OffsetTable>>> {
    return (await this.tables()).ofGroups(groups, options);
  }

  async describeListed(
    listed: readonly ListedGroup[],
    { offsets: wanted, skipEmpty, deadline }: DescribeListedOptions,
  ): Promise<ListedDetails> {
    const holders = skipEmpty ? listed.filter((g) => !listedWithoutMembers(g)) : listed;
    const described = this.describeGroups(
      holders.map((g) => g.groupId),
      { hints: typeHints(holders), deadline },
    );
    const bytesPerRecord = wanted?.bytesPerRecord
      ? new Map<string, ReadonlyMap<string, number>>()
      : undefined;
    const [groups, offsets] = await Promise.all([
      described,
      wanted
        ? this.tables().then((tables) =>
            tables.ofGroups(listed, {
              deadline,
              ...(wanted.isolation && { isolation: wanted.isolation }),
              ...(wanted.timeLag && { timeLag: true }),
              ...(wanted.topic !== undefined && { topic: wanted.topic }),
              ...(bytesPerRecord && { bytesPerRecord }),
              described,
            }),
          )
        : undefined,
    ]);
    return { groups, ...(offsets && { offsets }), ...(bytesPerRecord && { bytesPerRecord }) };
  }

  async topicExists(topic: string, options: CallOptions): Promise<boolean> {
    const answer = (await this.cluster.topicLeaders([topic], options)).get(topic);
    if (!answer || answer.errorCode === ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) return false;
    if (answer.errorCode !== ErrorCode.NONE)
      throw new KafkaResponseError('metadata', 'Metadata', answer.errorCode);
    return true;
  }

  close(): Promise<void> {
    return this.cluster.close();
  }

  private tables(): Promise<OffsetTables> {
    this.tablesLoaded ??= import('./offsets/tables.js').then(
      ({ OffsetTables }) =>
        new OffsetTables(this.cluster, this.coordinators, {
          one: (groupId, options) => this.describeGroup(groupId, options),
          many: (groupIds, options) => this.describeGroups(groupIds, options),
        }),
    );
    return this.tablesLoaded;
  }

  private rememberType(groupId: string, type: GroupType): void {
    this.knownTypes.set(groupId, type);
  }
}
