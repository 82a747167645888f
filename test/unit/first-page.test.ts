/**
 * A first page of `GET /groups` is selected from the listing as the brokers gave it: the whole
 * listing (100,000 groups or more) is sorted only when a next page is cut from its snapshot. The
 * group service is a stand-in that hands out one listing array and keeps it to look at.
 */

import { describe, expect, it } from 'vitest';
import type { GroupListing } from '../../src/groups/model.js';
import { standInApp } from '../support/stand-in-app.js';

const listing = (ids: string[]): GroupListing[] =>
  ids.map((groupId) => ({ groupId, type: 'classic', protocolType: 'consumer', state: 'Empty' }));

function appListing(ids: string[]) {
  const listed: GroupListing[][] = [];
  const app = standInApp({
    listUnsorted: async () => {
      const groups = listing(ids);
      listed.push(groups);
      return { groups, failures: [] };
    },
  });
  return { app, listed };
}

interface Page {
  groups: GroupListing[];
  nextCursor: string | null;
}

async function page(app: ReturnType<typeof appListing>['app'], query: string): Promise<Page> {
  const res = await app.request(`/groups?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

describe('the first page of a listing', () => {
  const ids = ['g-5', 'g-2', 'g-9', 'g-1', 'g-7', 'g-3', 'g-8', 'g-4', 'g-6'];

  it("is cut from the listing as it came, not counted among the snapshot's passes before its sort", async () => {
    const { app, listed } = appListing(ids);
    const first = await page(app, 'limit=1');
    expect(first.groups.map((g) => g.groupId)).toEqual(['g-1']);
    // The snapshot cuts four pages by a pass and sorts at the fifth it cuts (held-listings.ts):
    // the first page is not one of them, so after it and four more the listing is in its order.
    let cursor = first.nextCursor;
    for (const expected of ['g-2', 'g-3', 'g-4', 'g-5']) {
      const next: Page = await page(app, `limit=1&cursor=${cursor}`);
      expect(next.groups.map((g) => g.groupId)).toEqual([expected]);
      cursor = next.nextCursor;
    }
    // Sorting the held listing would have reordered this very array.
    expect(listed[0]?.map((g) => g.groupId)).toEqual(ids);
    expect(listed).toHaveLength(1);
  });

  it('is followed from its snapshot, sorted then, without listing again', async () => {
    const { app, listed } = appListing(ids);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const next: Page = await page(app, `limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.groups.map((g) => g.groupId));
      cursor = next.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].sort());
    expect(listed).toHaveLength(1);
  });

  it('that holds every group names no next page', async () => {
    const { app } = appListing(ids);
    const whole = await page(app, 'limit=9');
    expect(whole.groups.map((g) => g.groupId)).toEqual([...ids].sort());
    expect(whole.nextCursor).toBeNull();
  });
});
