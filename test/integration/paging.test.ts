/**
 * Paging over 2,000 real groups (Empty classic groups made by offset commits with Kafka's Admin
 * client): every group exactly once, in order, whatever the page size, with cursors that stay
 * valid when groups are created and deleted between pages: pages are cut from the listing of the
 * first page (a snapshot), or, where that snapshot is gone, from a fresh listing past the cursor.
 */

import { describe, expect, it } from 'vitest';
import type { GroupListing } from '../../src/groups/model.js';
import { decodePageCursor, encodeCursor } from '../../src/routes/paging.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminDeleteGroups, javaAdminListGroups } from '../broker-harness/java-admin.js';
import { appWithGroups } from '../support/app-with-groups.js';

const run = uniqueName('pg');
const COUNT = 2_000;
const groupIds = Array.from({ length: COUNT }, (_, i) => `${run}-${String(i).padStart(4, '0')}`);

const t = appWithGroups({
  topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
  groups: groupIds.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
  readyTimeoutMs: 300_000,
  timeoutMs: 330_000,
});

type Page = { groups: GroupListing[]; nextCursor: string | null; failures: unknown[] };

/**
 * Follows every page. `withoutSnapshot`: each cursor is handed back as a cursor of earlier
 * versions (the group id alone), as if the next page reached another instance.
 */
async function walk(
  limit: number,
  between?: (page: number) => Promise<void>,
  withoutSnapshot = false,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    if (cursor && withoutSnapshot) {
      const decoded = decodePageCursor(cursor);
      expect(decoded?.snapshot).toBeDefined();
      cursor = encodeCursor(decoded?.after as string);
    }
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

  /**
   * Groups made between pages (one before and one after the cursor) and groups deleted between
   * pages (Admin.deleteConsumerGroups, before and after the cursor), read back with the Java
   * Admin client so the test knows the changes were made before the next page.
   */
  async function changeBetweenPages(tag: string, doomed: readonly string[]) {
    const late = [`${run}-0100${tag}`, `${run}-1999${tag}`];
    const [added] = await Promise.all([
      startFixtures({
        bootstrap: t.bootstrap,
        groups: late.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
      }),
      javaAdminDeleteGroups(t.bootstrap, doomed),
    ]);
    const listed = await javaAdminListGroups(t.bootstrap);
    for (const id of late) expect(listed.has(id), id).toBe(true);
    for (const id of doomed) expect(listed.has(id), id).toBe(false);
    return { late, added };
  }

  it('follows the listing of the first page while groups are created and deleted meanwhile: every group of it exactly once', async () => {
    const doomed = [`${run}-0050d`, `${run}-1500d`];
    const made = await startFixtures({
      bootstrap: t.bootstrap,
      groups: doomed.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
    });
    await made.stop();
    const before = [...groupIds, ...doomed].sort();
    let added: RunningFixtures | undefined;
    try {
      const { ids } = await walk(400, async (page) => {
        if (page === 1) ({ added } = await changeBetweenPages('s', doomed));
      });
      // The snapshot of the first page: the deleted groups are still in it, the new ones are not.
      expect(ids).toEqual(before);
    } finally {
      await added?.stop();
    }
  });

  it('without the snapshot (another instance, or expired) pages list afresh past the cursor: groups that existed throughout exactly once', async () => {
    const doomed = [`${run}-0050e`, `${run}-1500e`];
    const made = await startFixtures({
      bootstrap: t.bootstrap,
      groups: doomed.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
    });
    await made.stop();
    let added: RunningFixtures | undefined;
    try {
      const { ids } = await walk(
        400,
        async (page) => {
          if (page === 1) ({ added } = await changeBetweenPages('f', doomed));
        },
        true,
      );
      // Every group that existed throughout appears once and in order; of those created or
      // deleted meanwhile, the ones past the cursor are as the fresh listing has them.
      const base = new Set(groupIds);
      expect(ids.filter((id) => base.has(id))).toEqual(groupIds);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toContain(`${run}-0050e`); // on the first page, before the deletion
      expect(ids).not.toContain(`${run}-1500e`); // deleted before its page was listed
      expect(ids).not.toContain(`${run}-0100f`); // created behind the cursor
      expect(ids).toContain(`${run}-1999f`); // created ahead of it
    } finally {
      await added?.stop();
    }
  });
});
