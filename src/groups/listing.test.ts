import { describe, expect, it } from 'vitest';
import { canonicalState, listingMatches, normalizeState } from './listing.js';
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

describe('offsetsPartitionFor', () => {
  it("is Kafka's partitionFor: |String.hashCode| mod partitions, Integer.MIN_VALUE as 0", async () => {
    const { offsetsPartitionFor } = await import('./service.js');
    // "hello".hashCode() == 99162322; "polygenelubricants".hashCode() == Integer.MIN_VALUE.
    expect(offsetsPartitionFor('hello', 50)).toBe(99162322 % 50);
    expect(offsetsPartitionFor('polygenelubricants', 50)).toBe(0);
    // Negative hash: "Aa-negative" style ids take the absolute value ("zzzzzz".hashCode() < 0).
    expect(offsetsPartitionFor('zzzzzzzz', 7)).toBeGreaterThanOrEqual(0);
    // A code point outside the BMP counts as two UTF-16 units, as in Java.
    expect(offsetsPartitionFor('\u{1F600}', 1_000_000)).toBe(Math.abs(55357 * 31 + 56832) % 1_000_000);
  });
});
