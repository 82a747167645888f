import { describe, expect, it } from 'vitest';
import type { Group, GroupListing, GroupType } from './model.js';
import { failed, type Outcome, ok } from './outcome.js';
import { emptyTotals, type ProtocolGroup, protocolFeatures, protocolGroups } from './protocols.js';

const listing = (
  groupId: string,
  type: GroupType | null,
  protocolType: string,
  state: string | null,
): GroupListing => ({ groupId, type, protocolType, state }) as GroupListing;

const consumerGroup = (classic: boolean[]): Group =>
  ({
    type: 'consumer',
    groupId: 'c',
    state: 'Stable',
    protocolType: 'consumer',
    members: classic.map((usesClassicProtocol, i) => ({
      memberId: `m${i}`,
      clientId: `client-${i}`,
      clientHost: `/10.0.0.${i}`,
      usesClassicProtocol,
    })),
  }) as unknown as Group;

async function collect(listed: GroupListing[], described: Record<string, Outcome<Group>>) {
  const totals = emptyTotals();
  const asked: string[][] = [];
  const out: ProtocolGroup[] = [];
  for await (const g of protocolGroups(
    listed,
    async (ids) => {
      asked.push([...ids]);
      return new Map(ids.map((id) => [id, described[id] as Outcome<Group>]));
    },
    totals,
  ))
    out.push(g);
  return { out, totals, asked };
}

describe('protocolGroups', () => {
  it('judges classic groups by their listing and describes only consumer groups', async () => {
    const { out, totals, asked } = await collect(
      [
        listing('a', 'classic', 'consumer', 'Stable'),
        listing('b', 'classic', 'connect', 'Stable'),
        listing('c', 'classic', 'consumer', 'Empty'),
        listing('d', 'consumer', 'consumer', 'Stable'),
        listing('e', 'consumer', 'consumer', 'Stable'),
        listing('f', 'consumer', 'consumer', 'Stable'),
        listing('s', 'share', 'share', 'Stable'),
      ],
      {
        d: ok(consumerGroup([false, true])),
        e: ok(consumerGroup([false])),
        f: failed(new Error('coordinator moved')),
      },
    );
    expect(asked).toEqual([['d', 'e', 'f']]);
    expect(out.map((g) => [g.groupId, g.category])).toEqual([
      ['a', 'can-migrate'],
      ['b', 'cannot-migrate'],
      ['c', 'empty-classic'],
      ['d', 'mixed'],
      ['f', 'unknown'],
    ]);
    expect(out[3]?.classicMembers).toEqual([
      { memberId: 'm1', clientId: 'client-1', clientHost: '/10.0.0.1' },
    ]);
    expect(out[4]?.error).toBe('coordinator moved');
    expect(totals).toEqual({
      canMigrate: 1,
      cannotMigrate: 1,
      mixed: 1,
      emptyClassic: 1,
      unknown: 1,
      consumer: 1,
    });
  });

  it('describes listings without a type (Kafka 3.x) and sorts them by what the describe says', async () => {
    const classic = { type: 'classic', groupId: 'x', state: 'Stable', protocolType: 'consumer', members: [] };
    const { out, totals } = await collect(
      [listing('x', null, 'consumer', null), listing('y', null, 'consumer', null)],
      {
        x: ok(classic as unknown as Group),
        y: ok(consumerGroup([false])),
      },
    );
    expect(out.map((g) => [g.groupId, g.category, g.state])).toEqual([['x', 'can-migrate', 'Stable']]);
    expect(totals.consumer).toBe(1);
  });
});

describe('protocolFeatures', () => {
  it('reads the finalized levels, 0 when not finalized, null when not reported', () => {
    expect(protocolFeatures([{ name: 'group.version', level: 1 }])).toEqual({
      groupVersion: 1,
      shareVersion: 0,
      streamsVersion: 0,
    });
    expect(protocolFeatures(null)).toEqual({ groupVersion: null, shareVersion: null, streamsVersion: null });
  });
});
