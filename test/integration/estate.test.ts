/**
 * The whole estate in one request: every group's lag in the NDJSON listing (include=lag), compared
 * with Kafka's Java Admin client doing the same work (listGroups, listConsumerGroupOffsets for all,
 * listOffsets). More groups than one OffsetFetch batch carries, so the batches are exercised; groups
 * of every type made by Kafka's own clients beside Empty groups made by Admin commits.
 */

import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import type { GroupSpec } from '../broker-harness/fixtures.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminEstateLag } from '../broker-harness/java-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('estate');
const orders = `${run}-orders`;
const audit = `${run}-audit`;
const idle = `${run}-idle`;
/** More than one OffsetFetch batch (500 groups) at one coordinator. */
const EMPTY = 540;
const emptyIds = Array.from({ length: EMPTY }, (_, i) => `${run}-e${String(i).padStart(4, '0')}`);
const live = {
  classic: `${run}-classic`,
  consumer: `${run}-consumer`,
  auditor: `${run}-auditor`,
  share: `${run}-share`,
  streams: `${run}-streams`,
};
const NDJSON = 'application/x-ndjson';

const t = appWithGroups({
  topics: [
    { name: orders, partitions: 3, records: 6 },
    { name: audit, partitions: 2, records: 4 },
    { name: idle, partitions: 1, records: 1 },
  ],
  groups: () => {
    const groups: GroupSpec[] = emptyIds.map((groupId, i) => ({
      type: 'empty' as const,
      groupId,
      topics: i % 3 === 2 ? [audit] : [orders],
      commit: i % 7,
    }));
    groups.push(
      { type: 'classic', groupId: live.classic, topics: [orders], clientId: `${run}-cl`, commit: 2 },
      { type: 'consumer', groupId: live.consumer, topics: [orders], clientId: `${run}-co`, commit: 1 },
      { type: 'consumer', groupId: live.auditor, topics: [audit], clientId: `${run}-au`, commit: 3 },
    );
    if (hasGroupType('share')) groups.push({ type: 'share', groupId: live.share, topics: [orders] });
    if (hasGroupType('streams')) groups.push({ type: 'streams', groupId: live.streams, topics: [orders] });
    return groups;
  },
  readyTimeoutMs: 300_000,
  timeoutMs: 360_000,
});

type Line = Record<string, unknown> & {
  groupId?: string;
  type?: string;
  lag?: { lag: number; partitions: number; partitionsWithoutOffset: number; partitionsWithErrors: number };
  lagError?: unknown;
  end?: { groups: number; failures: number; lagErrors?: number };
};

async function lines(path: string): Promise<Line[]> {
  const res = await t.app.request(path, { headers: { accept: NDJSON } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe(NDJSON);
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

describe('GET /groups.ndjson?include=lag', () => {
  it("writes every group once with its lag, equal to the Java Admin client's", {
    timeout: 180_000,
  }, async () => {
    // Live consumers may still be moving their offsets: compare until both agree, or fail on the last.
    let diff: string[] = [];
    await waitFor(
      async () => {
        const [streamed, admin] = await Promise.all([
          lines(`/groups.ndjson?prefix=${encodeURIComponent(run)}&include=lag`),
          javaAdminEstateLag(t.bootstrap, run),
        ]);
        const groups = streamed.filter((l) => l.groupId !== undefined);
        const ids = groups.map((g) => g.groupId as string);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(expect.arrayContaining([...emptyIds, live.classic, live.consumer, live.auditor]));
        expect(streamed.at(-1)).toEqual({ end: { groups: groups.length, failures: 0, lagErrors: 0 } });
        diff = [];
        for (const g of groups) {
          if (g.type === 'share') {
            expect(g.lag).toBeDefined();
            continue;
          }
          const theirs = admin.get(g.groupId as string);
          if (!theirs) diff.push(`${g.groupId}: not listed by Admin`);
          else if (g.lag?.lag !== theirs.lag)
            diff.push(`${g.groupId}: ${JSON.stringify(g.lag)} against Admin's ${theirs.lag}`);
          else if ((g.lag?.partitions ?? 0) - (g.lag?.partitionsWithoutOffset ?? 0) !== theirs.partitions)
            diff.push(
              `${g.groupId}: partitions ${JSON.stringify(g.lag)} against Admin's ${theirs.partitions}`,
            );
        }
        return diff.length === 0;
      },
      {
        timeoutMs: 60_000,
        what: () =>
          `the streamed lag to equal the Java Admin client's; ${diff.length} differences: ${diff.slice(0, 20).join('; ')}`,
      },
    );
    expect(diff).toEqual([]);
    // Not all alike: the comparison covers real differences between groups.
    const lags = new Set([...(await javaAdminEstateLag(t.bootstrap, `${run}-e`)).values()].map((v) => v.lag));
    expect(lags.size).toBeGreaterThan(3);
  });

  it('takes include=lag through Accept on /groups too, and under /clusters/{alias}', async () => {
    const prefix = encodeURIComponent(`${run}-e00`);
    const own = await lines(`/groups.ndjson?prefix=${prefix}&include=lag`);
    const negotiated = await lines(`/groups?prefix=${prefix}&include=lag`);
    const mirrored = await lines(`/clusters/default/groups.ndjson?prefix=${prefix}&include=lag`);
    expect(own).toHaveLength(100 + 1);
    expect(negotiated).toEqual(own);
    expect(mirrored).toEqual(own);
    expect(own[0]).toMatchObject({
      groupId: `${run}-e0000`,
      type: 'classic',
      state: 'Empty',
      lag: { lag: 18, partitions: 3 },
    });
  });

  it('still refuses include=details on the stream', async () => {
    const res = await t.app.request(`/groups.ndjson?include=details`);
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name)).toEqual(['include']);
  });
});

type Reader = {
  groupId: string;
  type: string;
  state: string;
  members: number;
  lag: { lag: number; partitions: number; partitionsWithoutOffset: number };
  partitions?: { partition: number; lag: number | null }[];
};
type ReaderPage = { topic: string; groups: Reader[]; unreadable: unknown[]; nextCursor: string | null };

/** The groups of this run that read `orders`: by committed offsets, or live members of it. */
const ordersReaders = () => [
  ...emptyIds.filter((_, i) => i % 3 !== 2),
  live.classic,
  live.consumer,
  ...(hasGroupType('share') ? [live.share] : []),
  ...(hasGroupType('streams') ? [live.streams] : []),
];

describe('GET /topics/{topic}/groups', () => {
  it("lists every group that reads the topic once, with its lag there equal to the Java Admin client's", {
    timeout: 120_000,
  }, async () => {
    let diff: string[] = [];
    const page = await waitFor(
      async () => {
        const [read, admin] = await Promise.all([
          t.get<ReaderPage>(`/topics/${orders}/groups?prefix=${run}&limit=1000`, '/topics/{topic}/groups'),
          javaAdminEstateLag(t.bootstrap, run, orders),
        ]);
        expect(read.status).toBe(200);
        expect(read.body.unreadable).toEqual([]);
        expect(read.body.groups.map((g) => g.groupId).sort()).toEqual(ordersReaders().sort());
        diff = [];
        for (const g of read.body.groups) {
          if (g.type === 'share') continue;
          const theirs = admin.get(g.groupId);
          if (g.lag.lag !== theirs?.lag)
            diff.push(`${g.groupId}: ${g.lag.lag} against Admin's ${theirs?.lag}`);
        }
        return diff.length === 0 && read;
      },
      {
        timeoutMs: 60_000,
        what: () =>
          `the readers' lag to equal the Java Admin client's; ${diff.length} differences: ${diff.slice(0, 20).join('; ')}`,
      },
    );
    expect(diff).toEqual([]);
    const byId = new Map(page.body.groups.map((g) => [g.groupId, g]));
    expect(byId.get(live.classic)).toMatchObject({ type: 'classic', state: 'Stable', members: 1 });
    expect(byId.get(live.consumer)).toMatchObject({ type: 'consumer', state: 'Stable', members: 1 });
    expect(byId.get(emptyIds[0] as string)).toMatchObject({
      type: 'classic',
      state: 'Empty',
      members: 0,
    });
    // Lag on this topic only: audit's partitions are not counted for anyone.
    expect(byId.get(live.classic)?.lag.partitions).toBe(3);
  });

  it('pages in group id order, sorts by lag, and gives per-partition lag with include=partitions', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor === null ? '' : `&cursor=${cursor}`;
      const page = await t.get<ReaderPage>(
        `/topics/${orders}/groups?prefix=${run}-e&limit=150${q}`,
        '/topics/{topic}/groups',
      );
      expect(page.status).toBe(200);
      expect(page.body.groups.length).toBeLessThanOrEqual(150);
      seen.push(...page.body.groups.map((g) => g.groupId));
      cursor = page.body.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(emptyIds.filter((_, i) => i % 3 !== 2));
    const byLag = await t.get<ReaderPage>(
      `/topics/${orders}/groups?prefix=${run}-e&sort=lag&limit=5`,
      '/topics/{topic}/groups',
    );
    expect(byLag.body.groups.map((g) => g.lag.lag)).toEqual([18, 18, 18, 18, 18]);
    const parts = await t.get<ReaderPage>(
      `/topics/${orders}/groups?prefix=${run}-e0001&include=partitions`,
      '/topics/{topic}/groups',
    );
    expect(parts.body.groups).toHaveLength(1);
    expect(parts.body.groups[0]?.partitions?.map((p) => [p.partition, p.lag])).toEqual([
      [0, 5],
      [1, 5],
      [2, 5],
    ]);
  });

  it('answers 404 for a topic that does not exist and an empty list for a topic nobody reads', async () => {
    const missing = await t.get<{ type: string }>(`/topics/${run}-missing/groups`, '/topics/{topic}/groups');
    expect(missing.status).toBe(404);
    expect(missing.body.type).toMatch(/topic-not-found$/);
    const nobody = await t.get<ReaderPage>(`/topics/${idle}/groups`, '/topics/{topic}/groups');
    expect(nobody.status).toBe(200);
    expect(nobody.body).toMatchObject({ topic: idle, groups: [], unreadable: [], nextCursor: null });
    const bad = await t.get<{ errors: { name: string }[] }>(
      '/topics/no%20spaces/groups',
      '/topics/{topic}/groups',
    );
    expect(bad.status).toBe(400);
  });

  it('streams the same readers as NDJSON, mirrors under /clusters/{alias}, and filters /groups by ?topic=', async () => {
    const page = await t.get<ReaderPage>(
      `/topics/${audit}/groups?prefix=${run}&limit=1000`,
      '/topics/{topic}/groups',
    );
    const want = page.body.groups.map((g) => g.groupId);
    expect(want).toContain(live.auditor);
    expect(want).toHaveLength(EMPTY / 3 + 1);
    const streamed = await lines(`/topics/${audit}/groups.ndjson?prefix=${run}`);
    expect(streamed.filter((l) => l.groupId).map((l) => l.groupId)).toEqual(want);
    expect(streamed.at(-1)).toEqual({ end: { groups: want.length, unreadable: 0, failures: 0 } });
    const mirrored = await t.get<ReaderPage>(
      `/clusters/default/topics/${audit}/groups?prefix=${run}&limit=1000`,
      '/clusters/{alias}/topics/{topic}/groups',
    );
    expect(mirrored.body.groups.map((g) => g.groupId)).toEqual(want);
    const filtered = await t.get<{ groups: { groupId: string; lag?: { lag: number } }[] }>(
      `/groups?topic=${audit}&prefix=${run}&limit=1000&include=lag`,
      '/groups',
    );
    expect(filtered.status).toBe(200);
    expect(filtered.body.groups.map((g) => g.groupId)).toEqual(want);
    expect(filtered.body.groups.map((g) => g.lag?.lag)).toEqual(page.body.groups.map((g) => g.lag.lag));
    const filteredStream = await lines(`/groups.ndjson?topic=${audit}&prefix=${run}`);
    expect(filteredStream.filter((l) => l.groupId).map((l) => l.groupId)).toEqual(want);
  });

  it('shows a caller only the groups its grants cover', async () => {
    const key = randomBytes(24).toString('base64url');
    const config = loadConfig({
      KAFKA_BROKERS: t.bootstrap,
      RATE_LIMIT_PER_MINUTE: '0',
      AUTH_API_KEYS: `team:${createHash('sha256').update(key).digest('hex')}`,
      AUTH_GRANTS: JSON.stringify({ team: { groups: [`${run}-e000*`], actions: ['read'] } }),
    });
    const app = createApp({ service: t.service.groups, security: securityFrom(config) });
    const res = await app.request(`/topics/${orders}/groups?limit=1000`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ReaderPage;
    expect(body.groups.map((g) => g.groupId)).toEqual(
      emptyIds.filter((id, i) => id.startsWith(`${run}-e000`) && i % 3 !== 2),
    );
  });
});
