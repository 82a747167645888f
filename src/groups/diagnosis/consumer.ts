/**
 * Consumer groups (KIP-848), from ConsumerGroupDescribe: members behind the target assignment,
 * partitions waiting to be revoked, partitions of topics no longer subscribed, members still on the
 * classic protocol, and (with `since=`) members whose reconciliation does not move.
 */

import type { ConsumerGroup, ConsumerMember, TopicPartitions } from '../model.js';
import {
  ev,
  type Finding,
  finding,
  partitionNames,
  plural,
  type Reading,
  type Rule,
  who,
} from './finding.js';
import { idHash } from './snapshot.js';

const RPC = 'ConsumerGroupDescribe';

/** The partitions of `held` that `target` does not have. */
export function minus(held: readonly TopicPartitions[], target: readonly TopicPartitions[]): string[] {
  const keep = new Set(partitionNames(target));
  return partitionNames(held).filter((p) => !keep.has(p));
}

const epochs = (group: ConsumerGroup, member: ConsumerMember) => [
  ev('memberEpoch', `${RPC} Members.MemberEpoch`, member.memberEpoch),
  ev('assignmentEpoch', `${RPC} AssignmentEpoch`, group.assignmentEpoch),
  ev('groupEpoch', `${RPC} GroupEpoch`, group.groupEpoch),
];

/** The group epoch moved on and the assignor has not produced the assignment for it yet. */
export const assignmentPending: Rule<ConsumerGroup> = ({ group }) =>
  group.members.length > 0 && group.assignmentEpoch < group.groupEpoch
    ? [
        finding(
          'ASSIGNMENT_PENDING',
          'info',
          null,
          `The group is at epoch ${group.groupEpoch} but its target assignment at ${group.assignmentEpoch}: the assignor has yet to run`,
          [
            ev('groupEpoch', `${RPC} GroupEpoch`, group.groupEpoch),
            ev('assignmentEpoch', `${RPC} AssignmentEpoch`, group.assignmentEpoch),
          ],
          'Nothing, if it clears within seconds; if it stays, look at the coordinator broker (group.consumer.assignors, its load).',
        ),
      ]
    : [];

/**
 * A member behind the target assignment. With `since=` and the member still at the same epoch
 * after stuckAfterSeconds it is not reconciling at all: it stopped heartbeating, or its poll loop
 * (where the rebalance callbacks run) is stuck.
 */
export function reconciling({ group, at, before, stuckAfterMs }: Reading<ConsumerGroup>): Finding[] {
  const out: Finding[] = [];
  for (const m of group.members) {
    if (m.memberEpoch >= group.assignmentEpoch) continue;
    const then = before?.members.get(idHash(m.memberId));
    const stuck =
      before !== undefined && then?.memberEpoch === m.memberEpoch && at - before.issuedAt >= stuckAfterMs;
    const evidence = [
      ...epochs(group, m),
      ev('targetPartitions', `${RPC} Members.TargetAssignment`, partitionNames(m.targetPartitions)),
    ];
    out.push(
      stuck
        ? finding(
            'MEMBER_NOT_RECONCILING',
            'error',
            m.memberId,
            `Member ${who(m)} has been at epoch ${m.memberEpoch}, behind the target assignment at ${group.assignmentEpoch}, for ${Math.round((at - (before?.issuedAt ?? at)) / 1000)} s`,
            [...evidence, ev('since.memberEpoch', 'the since snapshot', then?.memberEpoch ?? null)],
            'The member does not acknowledge its new assignment: it stopped heartbeating (the coordinator fences it after ' +
              'group.consumer.session.timeout.ms) or does not call poll(), where its rebalance callbacks run. Look at the client; ' +
              'remove the member (DELETE …/members) to let the others go on.',
          )
        : finding(
            'MEMBER_RECONCILING',
            'info',
            m.memberId,
            `Member ${who(m)} is at epoch ${m.memberEpoch}, behind the target assignment at ${group.assignmentEpoch}`,
            evidence,
            'Nothing, if it catches up within a few heartbeats; ask again with since= to see whether it moves.',
          ),
    );
  }
  return out;
}

/** A member still holds partitions its target no longer has: the others wait for them. */
export const pendingRevocation: Rule<ConsumerGroup> = ({ group }) =>
  group.members.flatMap((m) => {
    const revoking = minus(m.partitions, m.targetPartitions);
    if (revoking.length === 0) return [];
    return [
      finding(
        'PARTITIONS_PENDING_REVOCATION',
        'warning',
        m.memberId,
        `Member ${who(m)} still holds ${plural(revoking.length, 'partition')} the group has moved away from it: ${revoking.join(', ')}`,
        [
          ...epochs(group, m),
          ev('partitions', `${RPC} Members.Assignment`, partitionNames(m.partitions)),
          ev('targetPartitions', `${RPC} Members.TargetAssignment`, partitionNames(m.targetPartitions)),
        ],
        'The member must revoke these partitions before another member may take them: it is slow in onPartitionsRevoked or ' +
          'does not call poll(). If it stays, look at its processing time against max.poll.interval.ms.',
      ),
    ];
  });

/** A member holds partitions of a topic it does not subscribe to (any more). */
export const unsubscribedTopicHeld: Rule<ConsumerGroup> = ({ group }) =>
  group.members.flatMap((m) => {
    // A regex subscription is resolved by the broker with Java's regex flavour: not second-guessed here.
    if (m.subscribedTopicRegex !== null) return [];
    const subscribed = new Set(m.subscribedTopicNames);
    const foreign = m.partitions.filter((t) => !subscribed.has(t.topic) && t.partitions.length > 0);
    if (foreign.length === 0) return [];
    return [
      finding(
        'UNSUBSCRIBED_TOPIC_HELD',
        'warning',
        m.memberId,
        `Member ${who(m)} holds partitions of ${foreign.map((t) => t.topic).join(', ')}, which it does not subscribe to`,
        [
          ev(
            'subscribedTopicNames',
            `${RPC} Members.SubscribedTopicNames`,
            [...m.subscribedTopicNames].sort(),
          ),
          ev('partitions', `${RPC} Members.Assignment`, partitionNames(foreign)),
        ],
        'The member changed its subscription and has not given these partitions back yet; if it stays, the member is not ' +
          'reconciling (see its epoch) — restart it or remove it from the group.',
      ),
    ];
  });

/** Members on the classic protocol inside a consumer group: a migration half done. */
export const classicMembers: Rule<ConsumerGroup> = ({ group }) => {
  const classic = group.members.filter((m) => m.usesClassicProtocol === true);
  if (classic.length === 0) return [];
  return [
    finding(
      'CLASSIC_MEMBERS_IN_CONSUMER_GROUP',
      'warning',
      null,
      `${plural(classic.length, 'member')} of ${group.members.length} still speak the classic protocol in this consumer group`,
      [
        ev(
          'members[].usesClassicProtocol',
          `${RPC} Members.MemberType (v1+)`,
          classic.map((m) => m.memberId),
        ),
        ev(
          'members[].clientId',
          `${RPC} Members.ClientId`,
          classic.map((m) => m.clientId),
        ),
      ],
      'Set group.protocol=consumer on these clients (the classic protocol is deprecated). Until then they rebalance by the ' +
        'classic rules, and when the last consumer-protocol member leaves the group may turn back into a classic one ' +
        '(group.consumer.migration.policy).',
    ),
  ];
};

export const CONSUMER_RULES: readonly Rule<ConsumerGroup>[] = [
  assignmentPending,
  reconciling,
  pendingRevocation,
  unsubscribedTopicHeld,
  classicMembers,
];
