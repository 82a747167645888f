import { describe, expect, it } from 'vitest';
import {
  assignmentPending,
  classicMembers,
  pendingRevocation,
  reconciling,
  unsubscribedTopicHeld,
} from './consumer.js';
import { diagnose } from './diagnose.js';
import { readSnapshot, snapshotOf } from './snapshot.js';
import { AT, consumerGroup, reading } from './test-data.js';

const topic = (partitions: number[]) => [
  { topic: 'demo-events', topicId: 'p3Y0yRr9SSiHDzcwCd0p4g', partitions },
];

describe('consumer group rules', () => {
  it('find nothing in a stable group', () => {
    expect(diagnose(reading(consumerGroup())).findings).toEqual([]);
  });

  it('ASSIGNMENT_PENDING: the group epoch ahead of the target assignment', () => {
    const g = consumerGroup();
    g.groupEpoch = 4;
    expect(assignmentPending(reading(g)).map((f) => [f.code, f.severity])).toEqual([
      ['ASSIGNMENT_PENDING', 'info'],
    ]);
  });

  it('MEMBER_RECONCILING: a member behind the target epoch, with its epochs as evidence', () => {
    const g = consumerGroup();
    g.groupEpoch = 4;
    g.assignmentEpoch = 4;
    const [f] = reconciling(reading(g));
    expect(f?.code).toBe('MEMBER_RECONCILING');
    expect(f?.evidence).toContainEqual({
      field: 'memberEpoch',
      source: 'ConsumerGroupDescribe Members.MemberEpoch',
      value: 3,
    });
    expect(f?.evidence).toContainEqual({
      field: 'assignmentEpoch',
      source: 'ConsumerGroupDescribe AssignmentEpoch',
      value: 4,
    });
  });

  it('MEMBER_NOT_RECONCILING: the same epoch across a since snapshot older than stuckAfterSeconds', () => {
    const g = consumerGroup();
    g.assignmentEpoch = 4;
    g.groupEpoch = 4;
    const data = snapshotOf(g, reading(g).offsets, AT - 90_000, undefined);
    const before = readSnapshot(JSON.parse(JSON.stringify(data)), AT - 90_000);
    expect(reconciling(reading(g, { ...(before && { before }) })).map((f) => f.code)).toEqual([
      'MEMBER_NOT_RECONCILING',
    ]);
    // Younger than stuckAfterSeconds: still only reconciling.
    expect(
      reconciling(reading(g, { ...(before && { before }), stuckAfterMs: 120_000 })).map((f) => f.code),
    ).toEqual(['MEMBER_RECONCILING']);
  });

  it('PARTITIONS_PENDING_REVOCATION: held, not in the target', () => {
    const g = consumerGroup();
    const m = g.members[0];
    if (!m) throw new Error('example has a member');
    m.targetPartitions = topic([0]);
    const [f] = pendingRevocation(reading(g));
    expect(f?.code).toBe('PARTITIONS_PENDING_REVOCATION');
    expect(f?.summary).toContain('demo-events-1');
    expect(f?.evidence).toContainEqual({
      field: 'targetPartitions',
      source: 'ConsumerGroupDescribe Members.TargetAssignment',
      value: ['demo-events-0'],
    });
    // Partitions waiting to be assigned (in the target, not held yet) are no revocation.
    m.targetPartitions = topic([0, 1, 2]);
    expect(pendingRevocation(reading(g))).toEqual([]);
  });

  it('UNSUBSCRIBED_TOPIC_HELD: a held topic not among SubscribedTopicNames; silent under a regex', () => {
    const g = consumerGroup();
    const m = g.members[0];
    if (!m) throw new Error('example has a member');
    m.subscribedTopicNames = ['other-events'];
    expect(unsubscribedTopicHeld(reading(g)).map((f) => f.code)).toEqual(['UNSUBSCRIBED_TOPIC_HELD']);
    m.subscribedTopicRegex = 'demo-.*';
    expect(unsubscribedTopicHeld(reading(g))).toEqual([]);
  });

  it('CLASSIC_MEMBERS_IN_CONSUMER_GROUP: members with MemberType classic; unknown (null) is not classic', () => {
    const g = consumerGroup();
    const m = g.members[0];
    if (!m) throw new Error('example has a member');
    m.usesClassicProtocol = null;
    expect(classicMembers(reading(g))).toEqual([]);
    m.usesClassicProtocol = true;
    const [f] = classicMembers(reading(g));
    expect(f?.code).toBe('CLASSIC_MEMBERS_IN_CONSUMER_GROUP');
    expect(f?.evidence).toContainEqual({
      field: 'members[].clientId',
      source: 'ConsumerGroupDescribe Members.ClientId',
      value: ['demo-consumer-0'],
    });
  });
});
