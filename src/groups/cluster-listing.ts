/**
 * The listing engine: ListGroups on every broker at once, checked against where Metadata puts each
 * offsets partition before and after. Complete, or every broker whose answer may lack groups is in
 * `failures` with the reason; an unsettled answer (a coordinator loading or moving) is asked again
 * while one request timeout lasts.
 */

import type { CallOptions } from '../broker/deadline.js';
import { BrokerError, KafkaResponseError } from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import { ListGroupsTable } from '../broker/protocol/list-groups-table.js';
import type { ClusterInfo, KafkaCluster, TopicLeaders } from '../broker/transport/cluster.js';
import { formatAddress } from '../broker/transport/connection.js';
import { isCoordinatorError } from './coordinators.js';
import { groupIdAt, type ListedRows, listingAt, mergeRows, selectRows } from './listed-rows.js';
import type { ListFilter } from './listing.js';
import type { BrokerFailure, BrokerRef, GroupList, GroupListing } from './model.js';

/** Every matching group of every broker as the brokers' own answers (listed-rows.ts), unsorted. */
export interface ListedRowsList {
  listed: ListedRows | undefined;
  failures: BrokerFailure[];
}

const OFFSETS_TOPIC = '__consumer_offsets';
/** First pause before a listing that has not settled is asked again (doubling each time). */
const LIST_RETRY_MS = 200;
/** How long after an offsets partition moved its new leader's ListGroups may still lack it. */
const MOVE_SETTLE_MS = 3_000;
/** How long a listing trusts the broker set it learned, rather than asking Metadata first. */
const BROKER_SET_TTL_MS = 10_000;
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

/** One broker's answer to ListGroups, or why there is none. */
interface BrokerAnswer {
  ref: BrokerRef;
  rows: ListedRows | undefined;
  failure: BrokerFailure | undefined;
  /** The failure may settle by itself (a coordinator loading or not available yet). */
  retriable: boolean;
}

/** Records a broker's failure, unless it already has one. */
type Fail = (ref: BrokerRef, name: string, message: string) => void;

export class ClusterListing {
  private brokerSet: { brokers: Promise<ClusterInfo['brokers']>; at: number } | undefined;
  /** The last leader seen per offsets partition, to name a broker when a partition has none. */
  private readonly offsetsLeadersSeen = new Map<number, number>();
  /** Leader and epoch per offsets partition, and when they last changed (0: before we looked). */
  private readonly offsetsMoves = new Map<number, { leader: number; epoch: number; since: number }>();

  constructor(private readonly cluster: KafkaCluster) {}

  /** Every matching group of every broker, unsorted. */
  async list(filter: ListFilter, options: CallOptions): Promise<GroupList> {
    const { listed, failures } = await this.listRows(filter, options);
    const groups: GroupListing[] = [];
    if (listed) for (const row of listed.rows) groups.push(listingAt(listed.table, row));
    return { groups, failures };
  }

  /** `list` without an object per group: the brokers' answers and the rows of them that match. */
  async listRows(filter: ListFilter, options: CallOptions): Promise<ListedRowsList> {
    const started = Date.now();
    const { deadline } = options;
    for (let attempt = 0; ; attempt++) {
      const roundStarted = Date.now();
      const round = await this.listOnce(filter, options);
      // Another round only when it fits: within one request timeout, and (a round as long as the
      // last one) before the request's deadline.
      const budgetLeft = Math.min(
        this.cluster.requestTimeoutMs - (Date.now() - started),
        deadline ? deadline.budgetMs(Number.POSITIVE_INFINITY) - (Date.now() - roundStarted) : Infinity,
      );
      if (!round.unsettled || budgetLeft < LIST_RETRY_MS * 2 ** attempt) {
        return { listed: round.listed, failures: round.failures };
      }
      // What the brokers said disagrees with Metadata: learn the broker set anew too.
      this.brokerSet = undefined;
      await sleep(LIST_RETRY_MS * 2 ** attempt);
    }
  }

  /** One round: every broker's answer merged, unsorted, with what makes it unsettled. */
  private async listOnce(
    filter: ListFilter,
    options: CallOptions,
  ): Promise<ListedRowsList & { unsettled: boolean }> {
    const [brokers, before] = await Promise.all([this.knownBrokers(options), this.offsetsLeaders(options)]);
    const answers = await Promise.all(brokers.map((broker) => this.ask(broker, filter, options)));
    const after = await this.offsetsLeaders(options).catch(() => undefined);

    const failures = new Map<number, BrokerFailure>();
    const fail: Fail = (ref, name, message) => {
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
    const listed = mergeRows(answers.flatMap((answer) => (answer.rows ? [answer.rows] : [])));

    if (before && after) {
      const refOf = (nodeId: number): BrokerRef =>
        brokers.find((b) => b.nodeId === nodeId) ?? { nodeId, host: '', port: -1 };
      const leaders = this.leaderChanges(before, after, brokers, refOf, fail);
      const misplaced = misplacedGroups(answers, after, fail);
      const moves = this.recentMoves(after, refOf, fail);
      if (leaders || misplaced || moves) unsettled = true;
    }
    return { listed, failures: [...failures.values()], unsettled };
  }

  private async ask(
    broker: ClusterInfo['brokers'][number],
    filter: ListFilter,
    options: CallOptions,
  ): Promise<BrokerAnswer> {
    const ref = { nodeId: broker.nodeId, host: broker.host, port: broker.port };
    const label = formatAddress(ref);
    // A broker that just hung is reported at once rather than waited for again; one probe
    // at a time still asks it, so its answers come back as soon as it does.
    const avoided = this.cluster.health.shouldSkip(label) ? this.cluster.health.reason(label) : undefined;
    if (avoided) {
      return {
        ref,
        rows: undefined,
        failure: { broker: ref, error: { name: 'BrokerUnavailableError', message: avoided } },
        retriable: false,
      };
    }
    try {
      return { ref, rows: await this.listOn(ref, filter, options), failure: undefined, retriable: false };
    } catch (error) {
      const retriable = error instanceof KafkaResponseError && isCoordinatorError(error.kafkaError.code);
      return { ref, rows: undefined, failure: failureOf(ref, error), retriable };
    }
  }

  /** Offsets partitions without a leader, moved while the brokers were asked, or led by an unlisted broker. */
  private leaderChanges(
    before: TopicLeaders,
    after: TopicLeaders,
    brokers: ClusterInfo['brokers'],
    refOf: (nodeId: number) => BrokerRef,
    fail: Fail,
  ): boolean {
    let unsettled = false;
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
    for (const [partition, now] of after.partitions) {
      if (now.leader) this.offsetsLeadersSeen.set(partition, now.leader.nodeId);
    }
    return unsettled;
  }

  /**
   * A partition that changed leader lately: its new leader may not have taken it up yet, and
   * Kafka then leaves its groups out of ListGroups without an error. Seen from one listing to
   * the next (a first listing has nothing to compare with).
   */
  private recentMoves(after: TopicLeaders, refOf: (nodeId: number) => BrokerRef, fail: Fail): boolean {
    let unsettled = false;
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
    return unsettled;
  }

  /** Leaders of the offsets topic's partitions; undefined when Metadata does not know the topic. */
  private async offsetsLeaders(options: CallOptions): Promise<TopicLeaders | undefined> {
    const topics = await this.cluster.topicLeaders([OFFSETS_TOPIC], options);
    const topic = topics.get(OFFSETS_TOPIC);
    return topic && topic.errorCode === ErrorCode.NONE && topic.partitions.size > 0 ? topic : undefined;
  }

  /**
   * The brokers to list, from Metadata at most every BROKER_SET_TTL_MS: following pages would
   * otherwise pay a Metadata round trip per page. A listing with a failed broker forgets the set,
   * so the next one sees the cluster as it is now. The listings that share it meanwhile wait under
   * the deadline of the one that asked.
   */
  private knownBrokers(options: CallOptions): Promise<ClusterInfo['brokers']> {
    const now = Date.now();
    if (!this.brokerSet || now - this.brokerSet.at > BROKER_SET_TTL_MS) {
      const brokers = this.cluster.describe(options).then((info) => info.brokers);
      const entry = { brokers, at: now };
      this.brokerSet = entry;
      brokers.catch(() => {
        if (this.brokerSet === entry) this.brokerSet = undefined;
      });
    }
    return this.brokerSet.brokers;
  }

  private async listOn(
    broker: { nodeId: number; host: string; port: number },
    filter: ListFilter,
    options: CallOptions,
  ): Promise<ListedRows> {
    const connection = this.cluster.connection(broker);
    // The broker filters where it can (less to send); the same filter runs here again, for brokers
    // too old to filter and for the states the broker cannot match (see listing.ts).
    const { response } = await connection.send(
      ListGroupsTable,
      (v) => ({
        ...(v >= 4 && { statesFilter: brokerStates(filter) }),
        ...(v >= 5 && { typesFilter: filter.types ? [...filter.types] : [] }),
      }),
      undefined,
      options,
    );
    if (response.errorCode !== ErrorCode.NONE)
      throw new KafkaResponseError(connection.label, 'ListGroups', response.errorCode);
    return { table: response, rows: selectRows(response, filter) };
  }
}

/**
 * A group listed by a broker that does not lead its partition: the brokers disagree with
 * Metadata (a move in progress); the group's real coordinator may have answered without it.
 */
function misplacedGroups(answers: readonly BrokerAnswer[], after: TopicLeaders, fail: Fail): boolean {
  let unsettled = false;
  const numPartitions = after.partitions.size;
  const leaders = new Set([...after.partitions.values()].map((p) => p.leader?.nodeId));
  for (const answer of answers) {
    if (!answer.rows || numPartitions === 0) continue;
    // A broker that leads every offsets partition (a single broker, say) leads every group it
    // lists: no id needs hashing.
    if (leaders.size === 1 && leaders.has(answer.ref.nodeId)) continue;
    const { table, rows } = answer.rows;
    for (const row of rows) {
      const groupId = groupIdAt(table, row);
      const partition = offsetsPartitionFor(groupId, numPartitions);
      const leader = after.partitions.get(partition)?.leader?.nodeId;
      if (leader !== undefined && leader !== answer.ref.nodeId) {
        fail(
          answer.ref,
          'CoordinatorMoved',
          `node ${answer.ref.nodeId} listed group ${JSON.stringify(groupId)} of offsets partition ${partition}, which Metadata says node ${leader} leads`,
        );
        unsettled = true;
      }
    }
  }
  return unsettled;
}

/**
 * The states to send in ListGroups: none when NotReady is asked for, since the broker compares a
 * streams group's NotReady as 'not_ready' and would drop it.
 */
function brokerStates(filter: ListFilter): string[] {
  if (!filter.states || filter.states.some((s) => s === 'NotReady')) return [];
  return [...filter.states];
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
