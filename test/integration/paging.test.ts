/**
 * Paging over 2,000 real groups (Empty classic groups made by offset commits with Kafka's Admin
 * client): every group exactly once, in order, whatever the page size, with cursors that stay
 * valid when groups are added between pages.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupListing } from '../../src/groups/model.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../kafka/fixtures.js';
import { type TestApp, testApp } from '../support/app.js';

const run = uniqueName('pg');
const COUNT = 2_000;
const groupIds = Array.from({ length: COUNT }, (_, i) => `${run}-${String(i).padStart(4, '0')}`);

let t: TestApp;
let fixtures: RunningFixtures;

beforeAll(async () => {
  t = await testApp();
  fixtures = await startFixtures({
    bootstrap: t.bootstrap,
    topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
    groups: groupIds.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
    readyTimeoutMs: 300_000,
  });
}, 330_000);

afterAll(async () => {
  await fixtures?.stop();
  await t?.close();
});

type Page = { groups: GroupListing[]; nextCursor: string | null; failures: unknown[] };

async function walk(
  limit: number,
  between?: (page: number) => Promise<void>,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = `/groups?prefix=${encodeURIComponent(run)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const { status, body }: { status: number; body: Page } = await t.get<Page>(query, '/groups');
    expect(status).toBe(200);
    expect(body.groups.length).toBeLessThanOrEqual(limit);
    ids.push(...body.groups.map((g) => g.groupId));
    cursor = body.nextCursor;
    pages++;
    await between?.(pages);
  } while (cursor !== null);
  return { ids, pages };
}

describe('paging over 2,000 groups', () => {
  it('returns each group exactly once, in order, with the default and the largest page', async () => {
    const byDefault = await walk(100);
    expect(byDefault.ids).toEqual(groupIds);
    expect(byDefault.pages).toBe(20);
    const large = await walk(1000);
    expect(large.ids).toEqual(groupIds);
    expect(large.pages).toBe(2);
  });

  it('ends with a null cursor exactly on the last page', async () => {
    const first = await t.get<Page>(`/groups?prefix=${encodeURIComponent(run)}&limit=1000`, '/groups');
    expect(first.body.nextCursor).not.toBeNull();
    const last = await t.get<Page>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=1000&cursor=${first.body.nextCursor}`,
      '/groups',
    );
    expect(last.body.groups).toHaveLength(1000);
    expect(last.body.groups.at(-1)?.groupId).toBe(groupIds.at(-1));
    expect(last.body.nextCursor).toBeNull();
  });

  it('gives stable cursors: the same cursor gives the same page', async () => {
    const first = await t.get<Page>(`/groups?prefix=${encodeURIComponent(run)}&limit=7`, '/groups');
    const cursor = first.body.nextCursor as string;
    const a = await t.get<Page>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=7&cursor=${cursor}`,
      '/groups',
    );
    const b = await t.get<Page>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=7&cursor=${cursor}`,
      '/groups',
    );
    expect(a.body.groups).toEqual(b.body.groups);
    expect(a.body.groups[0]?.groupId).toBe(groupIds[7]);
  });

  it('neither repeats nor skips existing groups when new ones appear between pages', async () => {
    let added: RunningFixtures | undefined;
    const late = [`${run}-0500x`, `${run}-1999z`];
    try {
      const { ids } = await walk(400, async (page) => {
        if (page !== 1) return;
        added = await startFixtures({
          bootstrap: t.bootstrap,
          groups: late.map((groupId) => ({
            type: 'empty' as const,
            groupId,
            topics: [`${run}-t`],
            commit: 1,
          })),
        });
      });
      // Every group that existed throughout appears once and in order; the late ones after the
      // cursor appear in their place.
      expect(ids.filter((id) => !late.includes(id))).toEqual(groupIds);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain(`${run}-0500x`);
      expect(ids).toContain(`${run}-1999z`);
    } finally {
      await added?.stop();
    }
  });
});
