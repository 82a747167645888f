/**
 * The writes on groups, over the codecs of broker/protocol: delete a group (DeleteGroups), delete
 * committed offsets (OffsetDelete; DeleteShareGroupOffsets for share groups), remove static members
 * (LeaveGroup by group.instance.id). Each goes to the group's coordinator, found and retried as the
 * reads do (coordinators.ts). Kafka's answers become this product's errors (./errors.ts): what a
 * write refused means, not only its code.
 *
 * None of these checks that the group exists or has the type asked: the write gate does that first
 * (http/write-guard.ts), since Kafka's admin writes would create a group (an admin commit) or answer
 * for any type. The reset (OffsetCommit, AlterShareGroupOffsets) lives beside these and uses
 * `atCoordinator` the same way.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { describeKafkaError, KafkaResponseError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import { DeleteGroups } from '../../broker/protocol/messages/delete-groups.js';
import { DeleteShareGroupOffsets } from '../../broker/protocol/messages/delete-share-group-offsets.js';
import { LeaveGroup, UNKNOWN_MEMBER_ID } from '../../broker/protocol/messages/leave-group.js';
import { OffsetDelete } from '../../broker/protocol/messages/offset-delete.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { type Coordinators, isCoordinatorError } from '../coordinators.js';
import { GroupNotFoundError } from '../errors.js';
import type { Group, GroupType } from '../model.js';
import { type CommittedOffsets, fetchCommitted, fetchShareStartOffsets } from '../offsets/committed.js';
import { failed, type Outcome, ok } from '../outcome.js';
import {
  type AppliedReset,
  OffsetResetter,
  type PlanToApply,
  type ResetGroup,
  type ResetPlan,
  type ResetRequest,
} from '../reset/apply.js';
import {
  GroupDeletionFailedError,
  GroupNotEmptyError,
  GroupSubscribedToTopicError,
  MemberNotFoundError,
  type MemberRef,
  MemberRemovalUnsupportedError,
  memberRefs,
  type TopicPartitionRef,
} from './errors.js';
import { sendWrite, type WriteOptions } from './progress.js';

export { memberRefs } from './errors.js';

/** Why this product asks a member to leave: Kafka logs it (LeaveGroup v5+). */
const REMOVAL_REASON = 'removed by an administrator through kafka-groups-rest';

export interface OffsetsToDelete {
  topic: string;
  /** Undefined: every partition of the topic the group has an offset on (share groups: always). */
  partitions?: number[];
}

export interface DeletedOffset extends TopicPartitionRef {
  /** The offset that was committed there (share groups: the start offset); null where none was. */
  offset: number | null;
}

export interface RemovedMember {
  instanceId: string;
  /** The member id Kafka removed, where it said. */
  memberId: string | null;
}

/** What routes (and the reset) call to change a group. */
export interface GroupWrites {
  /** Committed offsets (share groups: start offsets) of one group, read at its coordinator. */
  committedOffsets(groupId: string, type: GroupType, options: CallOptions): Promise<CommittedOffsets>;
  /** DeleteGroups: GroupNotEmptyError (with the members a describe sees), GroupNotFoundError, … */
  deleteGroup(groupId: string, options: WriteOptions): Promise<void>;
  /**
   * OffsetDelete (DeleteShareGroupOffsets for share groups: whole topics). Answers what was
   * deleted, with the offsets that were there; GroupSubscribedToTopicError when the live group
   * still subscribes to a topic (nothing of that topic is deleted, the rest may be).
   */
  deleteOffsets(
    groupId: string,
    type: GroupType,
    topics: readonly OffsetsToDelete[],
    options: WriteOptions,
  ): Promise<DeletedOffset[]>;
  /**
   * LeaveGroup naming static members by group.instance.id, one request: each gets its outcome
   * (MemberNotFoundError for an id the group does not have). MemberRemovalUnsupportedError for
   * share and streams groups, which Kafka offers no removal for.
   */
  removeMembers(
    groupId: string,
    type: GroupType,
    instanceIds: readonly string[],
    options: WriteOptions,
  ): Promise<Map<string, Outcome<RemovedMember>>>;
  /**
   * Runs `call` on the group's coordinator. A KafkaResponseError with a coordinator error (14, 15,
   * 16) thrown by `call` sends it round again (looked up anew), as the reads do; any other error
   * is the answer. `call` must be safe to repeat: absolute offsets, not increments.
   */
  atCoordinator<T>(
    groupId: string,
    options: CallOptions,
    call: (connection: BrokerConnection) => Promise<T>,
  ): Promise<T>;
  /** A reset plan for `group`, just described by the write gate: reads only (see ./reset.ts). */
  planReset(group: ResetGroup, request: ResetRequest, options: CallOptions): Promise<ResetPlan>;
  /**
   * Applies a plan to `group`, just described by the write gate: PlanStaleError when the group
   * changed since the plan, GroupNotEmptyError when it has members; `already-applied` (nothing
   * sent) when every planned partition is at its target already.
   */
  applyReset(group: ResetGroup, plan: PlanToApply, options: WriteOptions): Promise<AppliedReset>;
}

const byPartition = (a: TopicPartitionRef, b: TopicPartitionRef) =>
  a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition;

export class KafkaGroupWrites implements GroupWrites {
  constructor(
    private readonly cluster: KafkaCluster,
    private readonly coordinators: Coordinators,
    /** Describes a group again when Kafka says it is not empty, to name its members. */
    private readonly describe: (groupId: string, options: CallOptions) => Promise<Group>,
  ) {}

  async atCoordinator<T>(
    groupId: string,
    options: CallOptions,
    call: (connection: BrokerConnection) => Promise<T>,
  ): Promise<T> {
    const results = await this.coordinators.forEachCoordinator<T>(
      [groupId],
      async (coordinator) => {
        try {
          return new Map([[groupId, ok(await call(this.cluster.connection(coordinator)))]]);
        } catch (error) {
          // An outcome, not a throw: forEachCoordinator retries outcomes with coordinator errors.
          if (error instanceof KafkaResponseError && isCoordinatorError(error.kafkaError.code)) {
            return new Map([[groupId, failed(error)]]);
          }
          throw error;
        }
      },
      options,
    );
    const result = results.get(groupId);
    if (!result) throw new Error(`no outcome for group ${groupId}`);
    if (!result.ok) throw result.error;
    return result.value;
  }

  async committedOffsets(groupId: string, type: GroupType, options: CallOptions): Promise<CommittedOffsets> {
    const offsets = await this.atCoordinator(groupId, options, async (connection) => {
      const read = type === 'share' ? fetchShareStartOffsets : fetchCommitted;
      const result = (await read(connection, [groupId], options)).get(groupId);
      if (!result) throw new Error(`no offsets for group ${groupId}`);
      if (!result.ok) throw result.error;
      return result.value;
    });
    return [...offsets].sort(byPartition);
  }

  async deleteGroup(groupId: string, options: WriteOptions): Promise<void> {
    const code = await this.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(connection, options, DeleteGroups, { groupsNames: [groupId] });
      const result = response.results.find((r) => r.groupId === groupId);
      if (!result) {
        throw new KafkaResponseError(
          connection.label,
          'DeleteGroups',
          ErrorCode.UNKNOWN_SERVER_ERROR,
          'no result for the group',
        );
      }
      if (result.errorCode === ErrorCode.NONE || result.errorCode === ErrorCode.NON_EMPTY_GROUP) {
        return { code: result.errorCode, message: result.errorMessage ?? null, broker: connection.label };
      }
      if (result.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) throw new GroupNotFoundError(groupId);
      if (result.errorCode === ErrorCode.GROUP_DELETION_FAILED) {
        throw new GroupDeletionFailedError(
          groupId,
          connection.label,
          describeKafkaError(result.errorCode, result.errorMessage),
        );
      }
      throw new KafkaResponseError(connection.label, 'DeleteGroups', result.errorCode, result.errorMessage);
    });
    if (code.code === ErrorCode.NON_EMPTY_GROUP) {
      throw new GroupNotEmptyError(
        groupId,
        await this.currentMembers(groupId, options),
        new KafkaResponseError(code.broker, 'DeleteGroups', code.code, code.message).kafkaError,
      );
    }
  }

  async deleteOffsets(
    groupId: string,
    type: GroupType,
    topics: readonly OffsetsToDelete[],
    options: WriteOptions,
  ): Promise<DeletedOffset[]> {
    const committed = await this.committedOffsets(groupId, type, { deadline: options.deadline });
    const had = new Map(committed.map((c) => [`${c.topic}\u0000${c.partition}`, c.offset]));
    const offsetAt = (topic: string, partition: number) => had.get(`${topic}\u0000${partition}`) ?? null;
    if (type === 'share') return this.deleteShareOffsets(groupId, topics, committed, offsetAt, options);

    // Whole topics: the partitions the group has offsets on (OffsetDelete names partitions).
    const request = topics
      .map(({ topic, partitions }) => ({
        name: topic,
        partitions: [
          ...new Set(partitions ?? committed.filter((c) => c.topic === topic).map((c) => c.partition)),
        ].map((partitionIndex) => ({ partitionIndex })),
      }))
      .filter((t) => t.partitions.length > 0);
    if (request.length === 0) return [];
    const response = await this.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(connection, options, OffsetDelete, { groupId, topics: request });
      if (response.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) throw new GroupNotFoundError(groupId);
      if (response.errorCode === ErrorCode.NON_EMPTY_GROUP) {
        // A classic group whose protocol is not `consumer` keeps its offsets while it has members.
        return { ...response, broker: connection.label };
      }
      if (response.errorCode !== ErrorCode.NONE) {
        throw new KafkaResponseError(connection.label, 'OffsetDelete', response.errorCode);
      }
      return { ...response, broker: connection.label };
    });
    if (response.errorCode === ErrorCode.NON_EMPTY_GROUP) {
      throw new GroupNotEmptyError(
        groupId,
        await this.currentMembers(groupId, options),
        new KafkaResponseError(response.broker, 'OffsetDelete', response.errorCode).kafkaError,
      );
    }
    const deleted: DeletedOffset[] = [];
    const subscribed: TopicPartitionRef[] = [];
    for (const t of response.topics) {
      for (const p of t.partitions) {
        const ref = { topic: t.name, partition: p.partitionIndex };
        if (p.errorCode === ErrorCode.NONE)
          deleted.push({ ...ref, offset: offsetAt(t.name, p.partitionIndex) });
        else if (p.errorCode === ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC) subscribed.push(ref);
        else
          throw new KafkaResponseError(
            response.broker,
            'OffsetDelete',
            p.errorCode,
            `${t.name}-${p.partitionIndex}`,
          );
      }
    }
    if (subscribed.length > 0) {
      throw new GroupSubscribedToTopicError(
        groupId,
        subscribed,
        new KafkaResponseError(response.broker, 'OffsetDelete', ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC)
          .kafkaError,
      );
    }
    return deleted.sort(byPartition);
  }

  private async deleteShareOffsets(
    groupId: string,
    topics: readonly OffsetsToDelete[],
    committed: CommittedOffsets,
    offsetAt: (topic: string, partition: number) => number | null,
    options: WriteOptions,
  ): Promise<DeletedOffset[]> {
    const names = [...new Set(topics.map((t) => t.topic))];
    const response = await this.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(connection, options, DeleteShareGroupOffsets, {
        groupId,
        topics: names.map((topicName) => ({ topicName })),
      });
      if (response.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) throw new GroupNotFoundError(groupId);
      if (response.errorCode !== ErrorCode.NONE && response.errorCode !== ErrorCode.NON_EMPTY_GROUP) {
        throw new KafkaResponseError(
          connection.label,
          'DeleteShareGroupOffsets',
          response.errorCode,
          response.errorMessage,
        );
      }
      return { ...response, broker: connection.label };
    });
    if (response.errorCode === ErrorCode.NON_EMPTY_GROUP) {
      throw new GroupNotEmptyError(
        groupId,
        await this.currentMembers(groupId, options),
        new KafkaResponseError(
          response.broker,
          'DeleteShareGroupOffsets',
          response.errorCode,
          response.errorMessage,
        ).kafkaError,
      );
    }
    const deleted: DeletedOffset[] = [];
    const subscribed: TopicPartitionRef[] = [];
    for (const t of response.responses) {
      const partitions = committed.filter((c) => c.topic === t.topicName);
      if (t.errorCode === ErrorCode.NONE) {
        for (const c of partitions)
          deleted.push({ topic: c.topic, partition: c.partition, offset: offsetAt(c.topic, c.partition) });
      } else if (t.errorCode === ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC) {
        subscribed.push(...partitions.map((c) => ({ topic: c.topic, partition: c.partition })));
      } else if (t.errorCode !== ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) {
        throw new KafkaResponseError(response.broker, 'DeleteShareGroupOffsets', t.errorCode, t.errorMessage);
      }
    }
    if (subscribed.length > 0) {
      throw new GroupSubscribedToTopicError(
        groupId,
        subscribed,
        new KafkaResponseError(
          response.broker,
          'DeleteShareGroupOffsets',
          ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC,
        ).kafkaError,
      );
    }
    return deleted.sort(byPartition);
  }

  async removeMembers(
    groupId: string,
    type: GroupType,
    instanceIds: readonly string[],
    options: WriteOptions,
  ): Promise<Map<string, Outcome<RemovedMember>>> {
    if (type === 'share' || type === 'streams') throw new MemberRemovalUnsupportedError(groupId, type);
    const ids = [...new Set(instanceIds)];
    const response = await this.atCoordinator(groupId, options, async (connection) => {
      const { response } = await sendWrite(connection, options, LeaveGroup, {
        groupId,
        members: ids.map((groupInstanceId) => ({
          memberId: UNKNOWN_MEMBER_ID,
          groupInstanceId,
          reason: REMOVAL_REASON,
        })),
      });
      if (response.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) throw new GroupNotFoundError(groupId);
      // Before any member: the whole request failed (coordinator errors go round again).
      if (response.errorCode !== ErrorCode.NONE && response.members.length === 0) {
        throw new KafkaResponseError(connection.label, 'LeaveGroup', response.errorCode);
      }
      return { ...response, broker: connection.label };
    });
    const byInstance = new Map(response.members.map((m) => [m.groupInstanceId, m]));
    const out = new Map<string, Outcome<RemovedMember>>();
    for (const instanceId of ids) {
      const answer = byInstance.get(instanceId);
      if (!answer) {
        out.set(
          instanceId,
          failed(
            new KafkaResponseError(
              response.broker,
              'LeaveGroup',
              ErrorCode.UNKNOWN_SERVER_ERROR,
              'no answer for this member',
            ),
          ),
        );
      } else if (answer.errorCode === ErrorCode.NONE) {
        out.set(instanceId, ok({ instanceId, memberId: answer.memberId === '' ? null : answer.memberId }));
      } else if (answer.errorCode === ErrorCode.UNKNOWN_MEMBER_ID) {
        out.set(
          instanceId,
          failed(
            new MemberNotFoundError(
              groupId,
              instanceId,
              new KafkaResponseError(response.broker, 'LeaveGroup', answer.errorCode).kafkaError,
            ),
          ),
        );
      } else {
        out.set(instanceId, failed(new KafkaResponseError(response.broker, 'LeaveGroup', answer.errorCode)));
      }
    }
    // Kafka 3.9 answers UNKNOWN_MEMBER_ID for every static member of a consumer group, listed or
    // not: a member the group still lists was not removed because the broker cannot, not because
    // it is missing.
    const notFound = [...out].filter(([, o]) => !o.ok && o.error instanceof MemberNotFoundError);
    if (type === 'consumer' && notFound.length > 0) {
      const listed = new Set((await this.currentMembers(groupId, options)).map((m) => m.instanceId));
      for (const [instanceId] of notFound) {
        if (!listed.has(instanceId)) continue;
        out.set(
          instanceId,
          failed(
            new MemberRemovalUnsupportedError(
              groupId,
              type,
              `the broker refused to remove member ${JSON.stringify(instanceId)}, which the group lists (UNKNOWN_MEMBER_ID): Kafka removes consumer-group members by LeaveGroup from 4.0 on`,
            ),
          ),
        );
      }
    }
    return out;
  }

  planReset(group: ResetGroup, request: ResetRequest, options: CallOptions): Promise<ResetPlan> {
    return this.resetter().plan(group, request, options);
  }

  applyReset(group: ResetGroup, plan: PlanToApply, options: WriteOptions): Promise<AppliedReset> {
    return this.resetter().apply(group, plan, options);
  }

  private resetter(): OffsetResetter {
    return new OffsetResetter(this.cluster, this, {
      of: memberRefs,
      now: (groupId, options) => this.currentMembers(groupId, options),
    });
  }

  private async currentMembers(groupId: string, { deadline }: CallOptions): Promise<MemberRef[]> {
    try {
      return memberRefs(await this.describe(groupId, { deadline }));
    } catch {
      return [];
    }
  }
}
