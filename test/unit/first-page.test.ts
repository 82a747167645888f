/**
 * A first page of `GET /groups` is selected from the listing as the brokers gave it: the whole
 * listing (100,000 groups or more) is sorted only when a next page is cut from its snapshot. The
 * group service is a stand-in that hands out one listing array and keeps it to look at.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupListing } from '../../src/groups/model.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const listing = (ids: string[]): GroupListing[] =>
  ids.map((groupId) => ({ groupId, type: 'classic', protocolType: 'consumer', state: 'Empty' }));

function appListing(ids: string[]) {
  const listed: GroupListing[][] = [];
  const service = new Proxy({} as GroupService, {
    get: (_target, name) =>
      name === 'then'
        ? undefined
        : name === 'listUnsorted'
          ? async () => {
              const groups = listing(ids);
              listed.push(groups);
              return { groups, failures: [] };
            }
          : () => Promise.reject(new Error('stand-in service')),
  });
  const config = loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
  return { app: createApp({ service, security: securityFrom(config) }), listed };
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

  it("is cut from the listing as it came, which stays in the brokers' order", async () => {
    const { app, listed } = appListing(ids);
    const first = await page(app, 'limit=3');
    expect(first.groups.map((g) => g.groupId)).toEqual(['g-1', 'g-2', 'g-3']);
    expect(first.nextCursor).not.toBeNull();
    // Sorting the held listing would have reordered this very array.
    expect(listed[0]?.map((g) => g.groupId)).toEqual(ids);
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
