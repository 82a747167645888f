import { describe, expect, it } from 'vitest';
import {
  canonicalState,
  compareIds,
  listingMatches,
  mergeListings,
  normalizeState,
  smallestAfter,
  sortById,
} from './listing.js';
import type { GroupListing } from './model.js';

const g = (over: Partial<GroupListing> = {}): GroupListing => ({
  groupId: 'orders-eu',
  type: 'consumer',
  protocolType: 'consumer',
  state: 'Stable',
  ...over,
});

describe('states', () => {
  it("accepts Kafka's names in any case and spelling", () => {
    expect(canonicalState('stable')).toBe('Stable');
    expect(canonicalState('NOT_READY')).toBe('NotReady');
    expect(canonicalState('not_ready')).toBe('NotReady');
    expect(canonicalState('preparingrebalance')).toBe('PreparingRebalance');
    expect(canonicalState('Sleeping')).toBeUndefined();
    expect(normalizeState('not_ready')).toBe('NotReady');
    expect(normalizeState('SomethingNew')).toBe('SomethingNew');
  });
});

describe('listingMatches', () => {
  it('applies every filter', () => {
    expect(listingMatches(g(), {})).toBe(true);
    expect(listingMatches(g(), { types: ['consumer', 'share'] })).toBe(true);
    expect(listingMatches(g(), { types: ['share'] })).toBe(false);
    expect(listingMatches(g(), { states: ['Stable'] })).toBe(true);
    expect(listingMatches(g({ state: 'not_ready', type: 'streams' }), { states: ['NotReady'] })).toBe(true);
    expect(listingMatches(g(), { prefix: 'orders-' })).toBe(true);
    expect(listingMatches(g(), { prefix: 'Orders-' })).toBe(false);
    expect(listingMatches(g(), { protocolType: 'consumer' })).toBe(true);
    expect(listingMatches(g({ protocolType: '' }), { protocolType: '' })).toBe(true);
    expect(listingMatches(g(), { protocolType: '' })).toBe(false);
  });

  it('cannot match a type or state filter when the broker did not say (old ListGroups)', () => {
    expect(listingMatches(g({ type: null }), { types: ['classic'] })).toBe(false);
    expect(listingMatches(g({ state: null }), { states: ['Stable'] })).toBe(false);
    expect(listingMatches(g({ type: null, state: null }), {})).toBe(true);
  });
});

describe('compareIds', () => {
  const utf8 = new TextEncoder();
  const byBytes = (a: string, b: string) => Buffer.compare(utf8.encode(a), utf8.encode(b));

  it('orders like the UTF-8 bytes, surrogate pairs against U+E000..U+FFFF included', () => {
    const ids = [
      '',
      'a',
      'ab',
      'b',
      'Z',
      '～',
      '🎉',
      '\uE000',
      '\uFFFD',
      'é',
      'e\u0301',
      '漢字',
      'a🎉',
      'a～',
      '𝔘',
    ];
    for (const a of ids)
      for (const b of ids) expect(Math.sign(compareIds(a, b)), `${a} vs ${b}`).toBe(Math.sign(byBytes(a, b)));
  });
});

describe('smallestAfter', () => {
  const ids = (items: { groupId: string }[]) => items.map((i) => i.groupId);
  // A shuffled list with a fixed seed, so a failure repeats.
  let seed = 7;
  const random = () => {
    seed = (seed * 48_271) % 2_147_483_647;
    return seed / 2_147_483_647;
  };
  const all = Array.from({ length: 2_000 }, (_, i) => ({ groupId: `g-${i}-${i % 3 === 0 ? '🎉' : '～'}` }));
  const shuffled = [...all].sort(() => random() - 0.5);
  const sorted = sortById([...all]);

  it('picks the same page as sorting everything, from the start and after any cursor', () => {
    for (const limit of [1, 7, 100, 1_000, 5_000]) {
      expect(ids(smallestAfter(shuffled, undefined, limit))).toEqual(ids(sorted.slice(0, limit)));
      for (const at of [0, 1, 999, 1_998, 1_999]) {
        const after = (sorted[at] as { groupId: string }).groupId;
        expect(ids(smallestAfter(shuffled, after, limit))).toEqual(ids(sorted.slice(at + 1, at + 1 + limit)));
      }
    }
  });

  it('starts after a cursor id that no longer exists, and gives nothing past the end', () => {
    const after = `${(sorted[10] as { groupId: string }).groupId}x`;
    expect(ids(smallestAfter(shuffled, after, 3))).toEqual(ids(sorted.slice(11, 14)));
    expect(smallestAfter(shuffled, '\u{10FFFF}', 3)).toEqual([]);
    expect(smallestAfter(shuffled, undefined, 0)).toEqual([]);
  });
});

describe('mergeListings', () => {
  it('keeps the first answer for a group two brokers list, and every other group once', () => {
    const a = [g({ groupId: 'x', state: 'Stable' }), g({ groupId: 'y' })];
    const b = [g({ groupId: 'x', state: 'Empty' }), g({ groupId: 'z' })];
    const merged = mergeListings([a, [], b]);
    expect(merged.map((m) => m.groupId)).toEqual(['x', 'y', 'z']);
    expect(merged[0]?.state).toBe('Stable');
    expect(mergeListings([[], b, []])).toEqual(b);
    expect(mergeListings([])).toEqual([]);
  });
});

describe('offsetsPartitionFor', () => {
  it("is Kafka's partitionFor: |String.hashCode| mod partitions, Integer.MIN_VALUE as 0", async () => {
    const { offsetsPartitionFor } = await import('./cluster-listing.js');
    // "hello".hashCode() == 99162322; "polygenelubricants".hashCode() == Integer.MIN_VALUE.
    expect(offsetsPartitionFor('hello', 50)).toBe(99162322 % 50);
    expect(offsetsPartitionFor('polygenelubricants', 50)).toBe(0);
    // Negative hash: "Aa-negative" style ids take the absolute value ("zzzzzz".hashCode() < 0).
    expect(offsetsPartitionFor('zzzzzzzz', 7)).toBeGreaterThanOrEqual(0);
    // A code point outside the BMP counts as two UTF-16 units, as in Java.
    expect(offsetsPartitionFor('\u{1F600}', 1_000_000)).toBe(Math.abs(55357 * 31 + 56832) % 1_000_000);
  });
});
