import { describe, expect, it } from 'vitest';
import { churnFindings, churnOf, membersNotConsuming, noMembersRecordsWaiting } from './common.js';
import { diagnose } from './diagnose.js';
import { shareReconciling } from './share.js';
import { readSnapshot, snapshotOf } from './snapshot.js';
import { AT, classicGroup, consumerGroup, offsetsOf, reading, shareGroup } from './test-data.js';

const snapshot = (
  g: Parameters<typeof snapshotOf>[0],
  offsets: Parameters<typeof snapshotOf>[1],
  at: number,
) => readSnapshot(JSON.parse(JSON.stringify(snapshotOf(g, offsets, at, undefined))), at);

describe('rules of every type', () => {
  it('NO_MEMBERS_RECORDS_WAITING: a share group with no member and records to deliver', () => {
    const g = shareGroup();
    g.members = [];
    g.state = 'Empty';
    const offsets = offsetsOf(g, [[0, 10, 25]]);
    const [f] = noMembersRecordsWaiting(reading(g, { offsets }));
    expect([f?.code, f?.severity]).toEqual(['NO_MEMBERS_RECORDS_WAITING', 'error']);
    expect(f?.evidence).toContainEqual({
      field: 'totals.lag',
      source: 'DescribeShareGroupOffsets StartOffset, ListOffsets',
      value: 15,
    });
    expect(noMembersRecordsWaiting(reading(g, { offsets: offsetsOf(g, [[0, 25, 25]]) }))).toEqual([]);
  });

  it('MEMBER_RECONCILING in a share group behind its assignment epoch', () => {
    const g = shareGroup();
    g.assignmentEpoch = 3;
    expect(shareReconciling(reading(g)).map((f) => f.code)).toEqual(['MEMBER_RECONCILING']);
  });

  it('STATIC_MEMBER_NOT_CONSUMING: a static member whose partitions did not move while records wait', () => {
    const g = classicGroup();
    const m = g.members[0];
    if (!m) throw new Error('example has a member');
    m.instanceId = 'demo-classic-static-0';
    const then = offsetsOf(g, [
      [0, 5, 20],
      [1, 7, 20],
      [2, 9, 20],
    ]);
    const before = snapshot(g, then, AT - 70_000);
    const now = offsetsOf(g, [
      [0, 5, 30],
      [1, 7, 30],
      [2, 9, 30],
    ]);
    const [f] = membersNotConsuming(reading(g, { offsets: now, ...(before && { before }) }));
    expect(f?.code).toBe('STATIC_MEMBER_NOT_CONSUMING');
    expect(f?.evidence).toContainEqual({ field: 'lag', source: 'ListOffsets minus OffsetFetch', value: 69 });
    // A dynamic member: the other code. One partition moving: the member consumes.
    m.instanceId = null;
    expect(
      membersNotConsuming(reading(g, { offsets: now, ...(before && { before }) })).map((x) => x.code),
    ).toEqual(['MEMBER_NOT_CONSUMING']);
    const moving = offsetsOf(g, [
      [0, 6, 30],
      [1, 7, 30],
      [2, 9, 30],
    ]);
    expect(membersNotConsuming(reading(g, { offsets: moving, ...(before && { before }) }))).toEqual([]);
    // Too soon for stuckAfterSeconds.
    expect(
      membersNotConsuming(reading(g, { offsets: now, stuckAfterMs: 100_000, ...(before && { before }) })),
    ).toEqual([]);
  });

  it('MEMBERSHIP_CHURN and MEMBERSHIP_FLAPPING across a since snapshot', () => {
    const g = consumerGroup();
    const before = snapshot(g, reading(g).offsets, AT - 60_000);
    const now = consumerGroup();
    const m = now.members[0];
    if (!m) throw new Error('example has a member');
    now.members.push({ ...structuredClone(m), memberId: 'newcomer', clientId: 'demo-consumer-1' });
    now.groupEpoch = 5;
    now.assignmentEpoch = 5;
    for (const x of now.members) x.memberEpoch = 5;
    const churn = churnOf(reading(now, { ...(before && { before }) }));
    expect(churn).toMatchObject({
      joins: 1,
      leaves: 0,
      epochBumps: 2,
      joinsPerMinute: 1,
      epochBumpsPerMinute: 2,
      rejoined: [],
    });
    expect(churnFindings(reading(now), churn).map((f) => [f.code, f.severity])).toEqual([
      ['MEMBERSHIP_CHURN', 'warning'],
    ]);
    // The same client back under a new member id: flapping.
    m.memberId = 'reborn';
    const flap = churnOf(reading(now, { ...(before && { before }) }));
    expect(flap?.rejoined).toEqual(['demo-consumer-0']);
    expect(diagnose(reading(now, { ...(before && { before }) })).findings.map((f) => f.code)).toEqual([
      'MEMBERSHIP_FLAPPING',
    ]);
  });

  it('refuses a snapshot of another shape', () => {
    expect(
      readSnapshot(
        { g: 'x', y: 'consumer', s: 'Stable', e: 1, r: null, m: [['a', 'b', 'c', 1]], o: null },
        AT,
      ),
    ).toBeUndefined();
    expect(
      readSnapshot({ g: 'x', y: 'other', s: 'Stable', e: 1, r: null, m: [], o: null }, AT),
    ).toBeUndefined();
    expect(
      readSnapshot({ g: 'x', y: 'classic', s: 'Stable', e: null, r: null, m: [], o: null }, AT),
    ).toMatchObject({ groupId: 'x' });
  });
});
