import { describe, expect, it } from 'vitest';
import { type CutPage, cutPage, ListingSnapshots, snapshotKey } from './held-listings.js';
import type { BrokerFailure, GroupListing } from './model.js';

const listing = (groupId: string): GroupListing => ({
  groupId,
  type: 'classic',
  protocolType: '',
  state: 'Empty',
});
/** Ids g000..g(n-1), shuffled: a broker lists in no order. */
const shuffled = (n: number): GroupListing[] => {
  const ids = Array.from({ length: n }, (_, i) => `g${String(i).padStart(3, '0')}`);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [ids[i], ids[j]] = [ids[j] as string, ids[i] as string];
  }
  return ids.map(listing);
};
const ids = (groups: readonly GroupListing[]) => groups.map((g) => g.groupId);
const failure: BrokerFailure = {
  broker: { nodeId: 2, host: 'b2', port: 9092 },
  error: { name: 'BrokerUnavailableError', message: 'connection refused' },
};

/** A clock the test moves by hand. */
function clock() {
  let at = 1_000;
  return {
    now: () => at,
    advance: (ms: number) => {
      at += ms;
    },
  };
}

/** Follows every page of `limit` from a fresh snapshot, as the route does; every id seen, in order. */
function follow(
  cache: ListingSnapshots,
  key: string,
  groups: GroupListing[],
  limit: number,
  visible?: (g: GroupListing) => boolean,
) {
  const id = cache.take(key, groups, []) as string;
  const seen: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = cache.page(id, key, after, limit, visible);
    if (!page) throw new Error('snapshot gone');
    seen.push(...ids(page.groups));
    if (!page.more) return seen;
    after = page.groups.at(-1)?.groupId;
  }
}

describe('ListingSnapshots', () => {
  it('cuts every page of one listing, each group once and in order, whatever order it was listed in', () => {
    const cache = new ListingSnapshots();
    const groups = shuffled(250);
    const expected = ids(groups).sort();
    for (const limit of [1, 7, 100, 250, 1000]) {
      expect(follow(cache, 'k', shuffled(250), limit)).toEqual(expected);
    }
  });

  it('cuts four pages by a pass over the listing as it came, and sorts it only at the fifth', () => {
    const cache = new ListingSnapshots();
    const groups = shuffled(1000);
    const listed = ids(groups);
    const id = cache.take('k', groups, []) as string;
    let after: string | undefined;
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const page = cache.page(id, 'k', after, 5) as CutPage;
      seen.push(...ids(page.groups));
      after = page.groups.at(-1)?.groupId;
    }
    expect(ids(groups)).toEqual(listed);
    const page = cache.page(id, 'k', after, 5) as CutPage;
    seen.push(...ids(page.groups));
    expect(ids(groups)).toEqual([...listed].sort());
    expect(seen).toEqual([...listed].sort().slice(0, 25));
  });

  it('applies the caller’s `visible` before the page is cut: full pages of what it may see', () => {
    const cache = new ListingSnapshots();
    const even = (g: GroupListing) => Number(g.groupId.slice(1)) % 2 === 0;
    const seen = follow(cache, 'k', shuffled(100), 10, even);
    expect(seen).toEqual(ids(shuffled(100).filter(even)).sort());
    // The same snapshot read by another caller shows that caller's groups only.
    const id = cache.take('k', shuffled(100), []) as string;
    const odd = cache.page(id, 'k', undefined, 5, (g) => !even(g));
    expect(ids(odd?.groups ?? [])).toEqual(['g001', 'g003', 'g005', 'g007', 'g009']);
    const evenPage = cache.page(id, 'k', 'g001', 3, even);
    expect(ids(evenPage?.groups ?? [])).toEqual(['g002', 'g004', 'g006']);
  });

  it('carries the listing’s failures to every page', () => {
    const cache = new ListingSnapshots();
    const id = cache.take('k', shuffled(30), [failure]) as string;
    const first = cache.page(id, 'k', undefined, 10);
    const second = cache.page(id, 'k', first?.groups.at(-1)?.groupId, 10);
    const third = cache.page(id, 'k', second?.groups.at(-1)?.groupId, 10);
    for (const page of [first, second, third]) expect(page?.failures).toEqual([failure]);
    expect(third?.more).toBe(false);
  });

  it('pages stay those of the snapshot: later listings do not change them', () => {
    const cache = new ListingSnapshots();
    const groups = shuffled(20);
    const id = cache.take('k', groups, []) as string;
    const first = cache.page(id, 'k', undefined, 5);
    // A newer listing (other groups) kept meanwhile is another snapshot.
    cache.take('k', [listing('g0005a'), listing('zzz')], []);
    const second = cache.page(id, 'k', first?.groups.at(-1)?.groupId, 5);
    expect(ids(second?.groups ?? [])).toEqual(['g005', 'g006', 'g007', 'g008', 'g009']);
  });

  it('drops a snapshot once its last page has been cut', () => {
    const cache = new ListingSnapshots();
    const id = cache.take('k', shuffled(10), []) as string;
    expect(cache.page(id, 'k', undefined, 6)?.more).toBe(true);
    expect(cache.groupsHeld).toBe(10);
    const last = cache.page(id, 'k', 'g005', 6);
    expect(ids(last?.groups ?? [])).toEqual(['g006', 'g007', 'g008', 'g009']);
    expect(last?.more).toBe(false);
    expect(cache.size).toBe(0);
    expect(cache.groupsHeld).toBe(0);
    expect(cache.page(id, 'k', 'g005', 6)).toBeUndefined();
  });

  it('is found only with the filter it was taken for', () => {
    const cache = new ListingSnapshots();
    const key = snapshotKey({ types: ['classic'], prefix: 'g' });
    const id = cache.take(key, shuffled(10), []) as string;
    expect(cache.page(id, key, undefined, 5)).toBeDefined();
    expect(cache.page(id, snapshotKey({ types: ['classic'] }), undefined, 5)).toBeUndefined();
    expect(
      cache.page(id, snapshotKey({ types: ['classic', 'consumer'], prefix: 'g' }), undefined, 5),
    ).toBeUndefined();
    expect(cache.page(id, snapshotKey({}), undefined, 5)).toBeUndefined();
    expect(cache.page('no-such-snapshot', key, undefined, 5)).toBeUndefined();
  });

  it('keys filters by their values, not by the order they were given or by grants', () => {
    expect(snapshotKey({ types: ['share', 'classic'], states: ['Stable', 'Empty'] })).toBe(
      snapshotKey({ types: ['classic', 'share'], states: ['Empty', 'Stable'], visible: () => false }),
    );
    expect(snapshotKey({ prefix: 'a' })).not.toBe(snapshotKey({ protocolType: 'a' }));
    expect(snapshotKey({ protocolType: '' })).not.toBe(snapshotKey({}));
  });

  it('drops a snapshot not read for idleMs, and any snapshot maxAgeMs after it was taken', () => {
    const time = clock();
    const cache = new ListingSnapshots({ idleMs: 1_000, maxAgeMs: 5_000, now: time.now });
    const idle = cache.take('k', shuffled(10), []) as string;
    const busy = cache.take('k', shuffled(10), []) as string;
    for (let i = 0; i < 4; i++) {
      time.advance(900);
      expect(cache.page(busy, 'k', undefined, 1)).toBeDefined();
    }
    expect(cache.page(idle, 'k', undefined, 1)).toBeUndefined();
    expect(cache.size).toBe(1);
    time.advance(900); // 4,500 ms old, read 900 ms ago
    expect(cache.page(busy, 'k', undefined, 1)).toBeDefined();
    time.advance(600); // 5,100 ms old
    expect(cache.page(busy, 'k', undefined, 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.groupsHeld).toBe(0);
  });

  it('holds at most maxSnapshots, dropping the least recently read', () => {
    const cache = new ListingSnapshots({ maxSnapshots: 2 });
    const a = cache.take('k', shuffled(5), []) as string;
    const b = cache.take('k', shuffled(5), []) as string;
    cache.page(a, 'k', undefined, 1); // a is now the more recently used
    const c = cache.take('k', shuffled(5), []) as string;
    expect(cache.size).toBe(2);
    expect(cache.page(b, 'k', undefined, 1)).toBeUndefined();
    expect(cache.page(a, 'k', undefined, 1)).toBeDefined();
    expect(cache.page(c, 'k', undefined, 1)).toBeDefined();
  });

  it('holds at most maxGroups over all snapshots, and keeps no listing larger than that', () => {
    const cache = new ListingSnapshots({ maxGroups: 25 });
    const a = cache.take('k', shuffled(10), []) as string;
    const b = cache.take('k', shuffled(10), []) as string;
    expect(cache.groupsHeld).toBe(20);
    const c = cache.take('k', shuffled(10), []) as string;
    expect(cache.groupsHeld).toBe(20);
    expect(cache.page(a, 'k', undefined, 1)).toBeUndefined();
    expect(cache.page(b, 'k', undefined, 1)).toBeDefined();
    expect(cache.page(c, 'k', undefined, 1)).toBeDefined();
    expect(cache.take('k', shuffled(26), [])).toBeUndefined();
    expect(cache.groupsHeld).toBe(20);
  });
});

describe('cutPage', () => {
  it('selects the page after the id from an unsorted listing, and says whether more follow', () => {
    const groups = shuffled(50);
    const page = cutPage(groups, [failure], 'g009', 5);
    expect(ids(page.groups)).toEqual(['g010', 'g011', 'g012', 'g013', 'g014']);
    expect(page).toMatchObject({ more: true, failures: [failure] });
    expect(cutPage(groups, [], 'g044', 5).more).toBe(false);
    expect(cutPage(groups, [], 'g045', 5).groups).toHaveLength(4);
  });
});
