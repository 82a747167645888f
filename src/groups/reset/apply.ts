/**
 * Resetting a group's offsets: read what the plan needs from Kafka (committed or start offsets,
 * partitions, earliest, latest and by-time offsets), plan with the pure functions of reset/plan.ts,
 * and apply a plan: OffsetCommit as an admin commit (classic, consumer and streams groups) or
 * AlterShareGroupOffsets (share groups).
 *
 * Both RPCs create the group when its id is unknown, so nothing here runs on a group that was not
 * just described by the caller (the write gate); a plan is only made for, and only applied to, a
 * group with no members, and applied only while the group is as the plan saw it.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { describeKafkaError, type KafkaErrorInfo, KafkaResponseError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import { AlterShareGroupOffsets } from '../../broker/protocol/messages/alter-share-group-offsets.js';
import { DescribeShareGroupOffsets } from '../../broker/protocol/messages/describe-share-group-offsets.js';
import { ADMIN_COMMIT_GENERATION, OffsetCommit } from '../../broker/protocol/messages/offset-commit.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { isCoordinatorError } from '../coordinators.js';
import { GroupTypeUnavailableError, ShareGroupCreationUnsupportedError } from '../errors.js';
import type { GroupType } from '../model.js';
import type { CommittedOffsets } from '../offsets/committed.js';
import { type EndOffset, logOffsets, type OffsetSpec, tpKey } from '../offsets/end-offsets.js';
import { GroupNotEmptyError, type MemberRef } from '../writes/errors.js';
import { sendWrite, type WriteOptions } from '../writes/progress.js';
import {
  durationTimestamp,
  type PartitionFacts,
  partitionKey,
  planTargets,
  ResetPlanError,
  type ResetScenario,
} from './plan.js';
import {
  type AppliedReset,
  applied,
  PlanStaleError,
  type PlanToApply,
  planBasisOf,
  type ResetGroup,
  type ResetPlan,
} from './types.js';

export {
  type AppliedPartition,
  type AppliedReset,
  absentShareGroup,
  type PlanBasis,
  PlanStaleError,
  type PlanToApply,
  planBasisOf,
  type ResetGroup,
  type ResetPlan,
} from './types.js';

/** What the reset needs of the other writes: the coordinator, with its retries, and the offsets read there. */
export interface ResetWrites {
  committedOffsets(groupId: string, type: GroupType, options: CallOptions): Promise<CommittedOffsets>;
  atCoordinator<T>(
    groupId: string,
    options: CallOptions,
    call: (connection: BrokerConnection) => Promise<T>,
  ): Promise<T>;
}

export type ResetScope =
  | { kind: 'all-topics' }
  | { kind: 'topics'; topics: { topic: string; partitions?: number[] }[] }
  /** from-list: the list names the partitions. */
  | { kind: 'listed' };

export interface ResetRequest {
  scenario: ResetScenario;
  scope: ResetScope;
}

/** Errors of an admin commit that mean "the group has members now". */
const LIVE_GROUP: ReadonlySet<number> = new Set([
  ErrorCode.UNKNOWN_MEMBER_ID,
  ErrorCode.ILLEGAL_GENERATION,
  ErrorCode.STALE_MEMBER_EPOCH,
  ErrorCode.REBALANCE_IN_PROGRESS,
  ErrorCode.NON_EMPTY_GROUP,
]);

/** A reset is for a group nobody is in: Kafka's tools refuse a live group too, dry run or not. */
function requireEmpty(group: ResetGroup, members: (group: ResetGroup) => MemberRef[]): void {
  if (group.members.length > 0) throw new GroupNotEmptyError(group.groupId, members(group));
}

export class OffsetResetter {
  constructor(
    private readonly cluster: KafkaCluster,
    private readonly writes: ResetWrites,
    /** The members a problem names: from the describe the caller made, or a new one after a refusal. */
    private readonly members: {
      of: (group: ResetGroup) => MemberRef[];
      now: (groupId: string, options: CallOptions) => Promise<MemberRef[]>;
    },
    private readonly now: () => number = Date.now,
  ) {}

  /** The plan for `group` (just described by the caller): reads only. */
  async plan(group: ResetGroup, request: ResetRequest, options: CallOptions): Promise<ResetPlan> {
    requireEmpty(group, this.members.of);
    const { groupId, type } = group;
    if (group.absent) await this.requireShareCreation(groupId, options);
    const committed = group.absent ? [] : await this.writes.committedOffsets(groupId, type, options);
    const current = new Map(committed.map((c) => [partitionKey(c.topic, c.partition), c.offset]));
    const partitions = await this.scopePartitions(request, committed, options, group.absent === true);

    const { scenario } = request;
    const timestamp =
      scenario.kind === 'to-datetime'
        ? scenario.timestamp
        : scenario.kind === 'by-duration'
          ? durationTimestamp(this.now(), scenario.durationMs)
          : null;
    const [earliest, latest, atTime] = await Promise.all([
      this.offsetsOf(partitions, { kind: 'earliest' }, options),
      this.offsetsOf(partitions, { kind: 'latest', isolation: 'read_uncommitted' }, options),
      timestamp === null ? undefined : this.offsetsOf(partitions, { kind: 'timestamp', timestamp }, options),
    ]);
    const facts: PartitionFacts[] = partitions.map(({ topic, partition }) => {
      const key = tpKey(topic, partition);
      const at = atTime?.get(key);
      return {
        topic,
        partition,
        current: current.get(partitionKey(topic, partition)) ?? null,
        earliest: earliest.get(key) ?? 0,
        latest: latest.get(key) ?? 0,
        ...(at !== undefined && { atTimestamp: at < 0 ? null : at }),
      };
    });
    return {
      groupId,
      type,
      ...planBasisOf(group),
      timestamp,
      partitions: planTargets(scenario, facts),
      creates: group.absent === true,
    };
  }

  /**
   * Only Kafka 4.2 and later create a share group by AlterShareGroupOffsets (KAFKA-19662); Kafka
   * 4.1 has the RPC but answers UNKNOWN_SERVER_ERROR for a group it does not know. Both offer
   * AlterShareGroupOffsets v0 only and the same share.version level, so neither tells them apart;
   * DescribeShareGroupOffsets v1 (KIP-1226, share lag) came in the same release and does.
   */
  private async requireShareCreation(groupId: string, options: CallOptions): Promise<void> {
    const [alter, describe] = await this.cluster.anyBroker(
      (connection) =>
        Promise.all([
          connection.versionFor(AlterShareGroupOffsets, undefined, options),
          connection.versionFor(DescribeShareGroupOffsets, { min: 1 }, options),
        ]),
      options,
    );
    if (alter === undefined)
      throw new GroupTypeUnavailableError(
        groupId,
        'share',
        'the brokers offer no AlterShareGroupOffsets, so no share group can be created and started (Kafka 4.2 or later)',
      );
    if (describe === undefined)
      throw new ShareGroupCreationUnsupportedError(
        groupId,
        '4.1',
        '4.2',
        `AlterShareGroupOffsets v${alter}, DescribeShareGroupOffsets below v1`,
      );
  }

  /**
   * Applies `plan` to `group` (just described by the caller) when nothing it was made from has
   * changed: no members, the same state and epochs, the same offsets on every planned partition.
   */
  async apply(group: ResetGroup, plan: PlanToApply, options: WriteOptions): Promise<AppliedReset> {
    requireEmpty(group, this.members.of);
    const { groupId, type } = group;
    const reads = { deadline: options.deadline };
    if (group.absent) await this.requireShareCreation(groupId, reads);
    const changes: string[] = [];
    const moved: { topic: string; partition: number }[] = [];
    const now = planBasisOf(group);
    if (now.state !== plan.state) changes.push(`state ${plan.state} → ${now.state}`);
    if (now.groupEpoch !== plan.groupEpoch)
      changes.push(`group epoch ${plan.groupEpoch} → ${now.groupEpoch}`);
    if (now.assignmentEpoch !== plan.assignmentEpoch)
      changes.push(`assignment epoch ${plan.assignmentEpoch} → ${now.assignmentEpoch}`);
    const committed = group.absent ? [] : await this.writes.committedOffsets(groupId, type, reads);
    const current = new Map(committed.map((c) => [partitionKey(c.topic, c.partition), c.offset]));
    const offsetOf = (p: { topic: string; partition: number }) =>
      current.get(partitionKey(p.topic, p.partition)) ?? null;
    // The plan already stands (an earlier execute of it, answered or not): nothing to send. The
    // state and epochs may have moved (a coordinator that moved reloads the group), the offsets did
    // not. A plan that changes nothing (every target its start) is executed as asked.
    if (
      plan.partitions.some((p) => p.current !== p.target) &&
      plan.partitions.every((p) => offsetOf(p) === p.target)
    )
      return { outcome: 'already-applied', partitions: plan.partitions.map((p) => applied(p, null)) };
    for (const p of plan.partitions) {
      const offset = offsetOf(p);
      // At its target: applied by an earlier execute whose other partitions Kafka refused.
      if (offset !== p.current && offset !== p.target) {
        changes.push(
          `${partitionKey(p.topic, p.partition)} offset ${p.current ?? 'none'} → ${offset ?? 'none'}`,
        );
        moved.push({ topic: p.topic, partition: p.partition });
      }
    }
    if (changes.length > 0) throw new PlanStaleError(groupId, changes, moved);
    if (plan.partitions.length === 0) return { outcome: 'applied', partitions: [] };

    const refused =
      type === 'share'
        ? await this.alterShare(groupId, plan, options)
        : await this.commit(groupId, plan, options);
    const whole = wholeGroupError(refused, plan);
    if (whole) {
      // The group filled between the describe and the write: Kafka wrote nothing.
      if (LIVE_GROUP.has(whole.kafkaError.code))
        throw new GroupNotEmptyError(groupId, await this.members.now(groupId, reads), whole.kafkaError);
      throw whole;
    }
    return {
      outcome: 'applied',
      partitions: plan.partitions.map((p) =>
        applied(p, refused.errors.get(partitionKey(p.topic, p.partition)) ?? null),
      ),
    };
  }

  /** The partitions a reset covers, checked against Metadata: an unknown one is refused, as Kafka's tool does. */
  private async scopePartitions(
    { scenario, scope }: ResetRequest,
    committed: CommittedOffsets,
    options: CallOptions,
    absent = false,
  ): Promise<{ topic: string; partition: number }[]> {
    let asked: { topic: string; partition?: number }[];
    let field: string;
    if (scenario.kind === 'from-list') {
      asked = scenario.offsets.map(({ topic, partition }) => ({ topic, partition }));
      field = 'offsets';
    } else if (scope.kind === 'topics') {
      asked = scope.topics.flatMap(({ topic, partitions }) =>
        partitions ? partitions.map((partition) => ({ topic, partition })) : [{ topic }],
      );
      field = 'topics';
    } else if (absent) {
      throw new ResetPlanError(
        'allTopics',
        'topics or from-list: a group that does not exist yet has no topics',
        'a group created by its reset starts on the topics named: give topics, or offsets with from-list',
      );
    } else {
      // Kafka's --all-topics: the partitions the group has offsets for.
      asked = committed.map(({ topic, partition }) => ({ topic, partition }));
      field = 'allTopics';
    }
    const leaders = await this.cluster.topicLeaders([...new Set(asked.map((a) => a.topic))], options);
    const out = new Map<string, { topic: string; partition: number }>();
    const unknown: string[] = [];
    for (const { topic, partition } of asked) {
      const known = leaders.get(topic);
      const exists = known && known.errorCode === ErrorCode.NONE && known.partitions.size > 0;
      if (partition === undefined) {
        if (!exists) unknown.push(topic);
        else
          for (const p of [...known.partitions.keys()].sort((a, b) => a - b))
            out.set(partitionKey(topic, p), { topic, partition: p });
      } else if (!exists || !known.partitions.has(partition)) {
        unknown.push(partitionKey(topic, partition));
      } else out.set(partitionKey(topic, partition), { topic, partition });
    }
    if (unknown.length > 0) {
      throw new ResetPlanError(
        field,
        'topics and partitions that exist',
        `no such topic or partition: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ', …' : ''}`,
      );
    }
    return [...out.values()].sort((a, b) =>
      a.topic === b.topic ? a.partition - b.partition : a.topic < b.topic ? -1 : 1,
    );
  }

  /** Offsets of `spec`; a partition Kafka cannot answer for fails the plan (no target is guessed). */
  private async offsetsOf(
    partitions: readonly { topic: string; partition: number }[],
    spec: OffsetSpec,
    options: CallOptions,
  ): Promise<Map<string, number>> {
    const answers: Map<string, EndOffset> = await logOffsets(this.cluster, partitions, spec, options);
    const out = new Map<string, number>();
    for (const { topic, partition } of partitions) {
      const answer = answers.get(tpKey(topic, partition));
      if (!answer?.ok) {
        const error = answer ? answer.error : describeKafkaError(ErrorCode.UNKNOWN_SERVER_ERROR);
        throw new KafkaResponseError(
          undefined,
          'ListOffsets',
          error.code,
          `${partitionKey(topic, partition)}: ${error.message ?? error.name}`,
        );
      }
      out.set(tpKey(topic, partition), answer.value);
    }
    return out;
  }

  /**
   * The admin commit (generation -1, no member): what Kafka's Admin.alterConsumerGroupOffsets
   * sends. Absolute offsets, so the coordinator retries of atCoordinator may repeat it.
   */
  private commit(groupId: string, plan: PlanToApply, options: WriteOptions): Promise<Refusals> {
    return this.writes.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(
        connection,
        options,
        OffsetCommit,
        {
          groupId,
          generationIdOrMemberEpoch: ADMIN_COMMIT_GENERATION,
          memberId: '',
          groupInstanceId: null,
          topics: byTopic(plan).map(([name, partitions]) => ({
            name,
            partitions: partitions.map((p) => ({
              partitionIndex: p.partition,
              committedOffset: BigInt(p.target),
              committedLeaderEpoch: -1,
              committedMetadata: '',
            })),
          })),
        },
        // v10 names topics by id only; v9 is the first a consumer group takes.
        { max: 9 },
      );
      const errors = new Map<string, KafkaErrorInfo>();
      for (const t of response.topics)
        for (const p of t.partitions)
          if (p.errorCode !== ErrorCode.NONE)
            errors.set(partitionKey(t.name ?? '', p.partitionIndex), describeKafkaError(p.errorCode));
      return retriable({ broker: connection.label, api: OffsetCommit.name, errors }, plan);
    });
  }

  private alterShare(groupId: string, plan: PlanToApply, options: WriteOptions): Promise<Refusals> {
    const reads = { deadline: options.deadline };
    return this.writes.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(connection, options, AlterShareGroupOffsets, {
        groupId,
        topics: byTopic(plan).map(([topicName, partitions]) => ({
          topicName,
          partitions: partitions.map((p) => ({
            partitionIndex: p.partition,
            startOffset: BigInt(p.target),
          })),
        })),
      });
      if (response.errorCode !== ErrorCode.NONE) {
        const error = new KafkaResponseError(
          connection.label,
          AlterShareGroupOffsets.name,
          response.errorCode,
          response.errorMessage,
        );
        if (LIVE_GROUP.has(response.errorCode))
          throw new GroupNotEmptyError(groupId, await this.members.now(groupId, reads), error.kafkaError);
        throw error;
      }
      const errors = new Map<string, KafkaErrorInfo>();
      for (const t of response.responses)
        for (const p of t.partitions)
          if (p.errorCode !== ErrorCode.NONE)
            errors.set(
              partitionKey(t.topicName, p.partitionIndex),
              describeKafkaError(p.errorCode, p.errorMessage),
            );
      // Kafka 4.1 answers every AlterShareGroupOffsets with no error and no partition, and applies
      // nothing: a partition the answer leaves out was not reset, whatever the top-level code says.
      const answered = new Set(
        response.responses.flatMap((t) =>
          t.partitions.map((p) => partitionKey(t.topicName, p.partitionIndex)),
        ),
      );
      for (const p of plan.partitions) {
        const key = partitionKey(p.topic, p.partition);
        if (!answered.has(key) && !errors.has(key)) {
          errors.set(
            key,
            describeKafkaError(
              ErrorCode.UNKNOWN_SERVER_ERROR,
              'the broker answered nothing for this partition, so nothing was applied to it (Kafka 4.1 does so for every share group)',
            ),
          );
        }
      }
      return retriable({ broker: connection.label, api: AlterShareGroupOffsets.name, errors }, plan);
    });
  }
}

/** What Kafka refused, per partition, and who answered. */
interface Refusals {
  broker: string;
  api: string;
  errors: Map<string, KafkaErrorInfo>;
}

function byTopic(plan: PlanToApply): [string, PlanToApply['partitions']][] {
  const topics = new Map<string, PlanToApply['partitions']>();
  for (const p of plan.partitions) topics.set(p.topic, [...(topics.get(p.topic) ?? []), p]);
  return [...topics];
}

/** One error on every partition: the group's error rather than per-partition outcomes. */
function wholeGroupError(refused: Refusals, plan: PlanToApply): KafkaResponseError | undefined {
  const errors = [...refused.errors.values()];
  const first = errors[0];
  if (!first || errors.length !== plan.partitions.length || errors.some((e) => e.code !== first.code))
    return undefined;
  return new KafkaResponseError(refused.broker, refused.api, first.code, first.message);
}

/** A coordinator error on every partition is thrown, so atCoordinator finds the coordinator again and repeats. */
function retriable(refused: Refusals, plan: PlanToApply): Refusals {
  const whole = wholeGroupError(refused, plan);
  if (whole && isCoordinatorError(whole.kafkaError.code)) throw whole;
  return refused;
}
