import { describe, expect, it } from 'vitest';
import { protocolVersionsDiffer, rebalance, subscriptionsDiffer } from './classic.js';
import { diagnose } from './diagnose.js';
import { readSnapshot, snapshotOf } from './snapshot.js';
import { AT, classicGroup, reading } from './test-data.js';

function twoMembers() {
  const g = classicGroup();
  const first = g.members[0];
  if (!first) throw new Error('example has a member');
  g.members.push({ ...structuredClone(first), memberId: 'demo-classic-1-0c1d', clientId: 'demo-classic-1' });
  return g;
}

describe('classic group rules', () => {
  it('find nothing in a stable group', () => {
    expect(diagnose(reading(classicGroup())).findings).toEqual([]);
  });

  it('REBALANCE_IN_PROGRESS from one reading, REBALANCE_STUCK across a since snapshot', () => {
    const g = classicGroup();
    g.state = 'PreparingRebalance';
    expect(rebalance(reading(g)).map((f) => [f.code, f.severity])).toEqual([
      ['REBALANCE_IN_PROGRESS', 'info'],
    ]);
    const data = snapshotOf(g, reading(g).offsets, AT - 61_000, undefined);
    expect(data?.r).toBe(AT - 61_000);
    const before = readSnapshot(JSON.parse(JSON.stringify(data)), AT - 61_000);
    const [stuck] = rebalance(reading(g, { ...(before && { before }) }));
    expect([stuck?.code, stuck?.severity]).toEqual(['REBALANCE_STUCK', 'error']);
    expect(stuck?.summary).toContain('61 s');
    // Stable at the snapshot: the rebalance began after it, so it is not stuck yet.
    const stable = classicGroup();
    const calm = readSnapshot(
      snapshotOf(stable, reading(stable).offsets, AT - 61_000, undefined),
      AT - 61_000,
    );
    expect(rebalance(reading(g, { ...(calm && { before: calm }) })).map((f) => f.code)).toEqual([
      'REBALANCE_IN_PROGRESS',
    ]);
  });

  it('carries the start of a rebalance from snapshot to snapshot', () => {
    const g = classicGroup();
    g.state = 'CompletingRebalance';
    const first = readSnapshot(snapshotOf(g, reading(g).offsets, AT - 50_000, undefined), AT - 50_000);
    const second = snapshotOf(g, reading(g).offsets, AT - 20_000, first);
    expect(second?.r).toBe(AT - 50_000);
  });

  it('SUBSCRIPTIONS_DIFFER: members subscribed to different topics', () => {
    const g = twoMembers();
    const sub = g.members[1]?.consumerProtocol?.subscription;
    if (!sub) throw new Error('example has a subscription');
    expect(subscriptionsDiffer(reading(g))).toEqual([]);
    sub.topics = ['demo-events', 'demo-audit'];
    const [f] = subscriptionsDiffer(reading(g));
    expect(f?.code).toBe('SUBSCRIPTIONS_DIFFER');
    expect(f?.evidence[0]?.value).toEqual(['demo-events', 'demo-audit,demo-events']);
  });

  it('PROTOCOL_VERSIONS_DIFFER: members sending different ConsumerProtocol versions', () => {
    const g = twoMembers();
    const sub = g.members[1]?.consumerProtocol?.subscription;
    if (!sub) throw new Error('example has a subscription');
    sub.version = 1;
    const [f] = protocolVersionsDiffer(reading(g));
    expect(f?.code).toBe('PROTOCOL_VERSIONS_DIFFER');
    expect(f?.evidence[0]?.value).toEqual([1, 3]);
  });

  it('skips members of other protocol types (no decoded consumer protocol)', () => {
    const g = twoMembers();
    g.protocolType = 'connect';
    for (const m of g.members) m.consumerProtocol = null;
    expect(diagnose(reading(g)).findings).toEqual([]);
  });
});
