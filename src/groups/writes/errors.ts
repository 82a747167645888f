/**
 * What a write can run into besides the reads' errors (groups/errors.ts): a group still in use,
 * a topic still subscribed, a member that is not there, a removal Kafka does not offer. Each maps
 * to one problem type (http/problem-rows.ts); Kafka's own answer rides along where it gave one.
 */

import type { KafkaErrorInfo } from '../../broker/errors.js';
import { quoteId } from '../errors.js';
import type { Group, GroupType } from '../model.js';

/** A member as the write problems name it: enough to find the process that holds the group. */
export interface MemberRef {
  memberId: string;
  /** group.instance.id of a static member; null for a dynamic one. */
  instanceId: string | null;
  clientId: string;
  clientHost: string;
}

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

/**
 * The group has members, so Kafka refuses the write (409): NON_EMPTY_GROUP from DeleteGroups,
 * UNKNOWN_MEMBER_ID or similar from an admin commit. `members` are the members a describe just
 * saw (empty when it saw none: the group filled up between the describe and the write).
 */
export class GroupNotEmptyError extends Error {
  override readonly name = 'GroupNotEmptyError';
  constructor(
    readonly groupId: string,
    readonly members: readonly MemberRef[],
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    super(
      members.length === 0
        ? `group ${quoteId(groupId)} has members: stop them first`
        : `group ${quoteId(groupId)} has ${members.length} member${members.length === 1 ? '' : 's'} (${members
            .slice(0, 5)
            .map((m) => m.instanceId ?? m.memberId)
            .join(', ')}${members.length > 5 ? ', …' : ''}): stop them first`,
    );
  }
}

/**
 * Kafka answered DeleteGroups with GROUP_DELETION_FAILED (134, DeleteGroups v3, Kafka 4.4): a step
 * of the deletion failed on the broker (a streams group's stored topology description could not
 * be deleted) and the group is still there. Kafka's per-group message says which step (502).
 */
export class GroupDeletionFailedError extends Error {
  override readonly name = 'GroupDeletionFailedError';
  constructor(
    readonly groupId: string,
    readonly broker: string,
    readonly kafkaError: KafkaErrorInfo,
  ) {
    super(
      `Kafka could not delete group ${quoteId(groupId)} (GROUP_DELETION_FAILED${
        kafkaError.message ? `: ${kafkaError.message}` : ''
      }); the group is still there, try again later`,
    );
  }
}

/** The live group still subscribes to a topic whose offsets were to be deleted (409). */
export class GroupSubscribedToTopicError extends Error {
  override readonly name = 'GroupSubscribedToTopicError';
  constructor(
    readonly groupId: string,
    readonly partitions: readonly TopicPartitionRef[],
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    const topics = [...new Set(partitions.map((p) => p.topic))];
    super(
      `group ${quoteId(groupId)} still subscribes to ${topics.map((t) => `'${t}'`).join(', ')}: its offsets there cannot be deleted while it does`,
    );
  }
}

/** Kafka offers no admin removal of members for this group type (409). */
export class MemberRemovalUnsupportedError extends Error {
  override readonly name = 'MemberRemovalUnsupportedError';
  constructor(
    readonly groupId: string,
    readonly type: GroupType,
    reason = `Kafka removes members only from classic and consumer groups (LeaveGroup); a ${type} member leaves when its client stops`,
  ) {
    super(`group ${quoteId(groupId)} is a ${type} group: ${reason}`);
  }
}

/** No member of the group has this group.instance.id (404). */
export class MemberNotFoundError extends Error {
  override readonly name = 'MemberNotFoundError';
  constructor(
    readonly groupId: string,
    readonly instanceId: string,
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    super(`group ${quoteId(groupId)} has no member with group.instance.id ${quoteId(instanceId)}`);
  }
}

/** What changed since the plan: its basis (state, epochs), or the offsets of some partitions (409 plan-stale). */
export class PlanStaleError extends Error {
  override readonly name = 'PlanStaleError';
  constructor(
    readonly groupId: string,
    readonly changes: readonly string[],
    readonly partitions: readonly { topic: string; partition: number }[],
  ) {
    super(
      `the group changed since the plan was made: ${changes.slice(0, 5).join('; ')}${changes.length > 5 ? '; …' : ''}; plan again`,
    );
  }
}

/** The members a problem names, from a describe. */
export function memberRefs(group: Pick<Group, 'members'>): MemberRef[] {
  return group.members.map((m) => ({
    memberId: m.memberId,
    instanceId: m.instanceId,
    clientId: m.clientId,
    clientHost: m.clientHost,
  }));
}

/**
 * A reset that cannot be planned or applied as asked (a 400 naming the field): a shift of
 * partitions with no commit, an unknown partition (Kafka's tool refuses both), a plan token that
 * is missing, altered, expired or made for another group.
 */
export class ResetPlanError extends Error {
  override readonly name = 'ResetPlanError';
  constructor(
    /** The body field (or header) at fault. */
    readonly field: string,
    /** What it accepts. */
    readonly expected: string,
    /** Why this one is refused. */
    message: string,
    readonly received: string | null = null,
    readonly where: 'body' | 'header' | 'query' = 'body',
  ) {
    super(message);
  }
}
