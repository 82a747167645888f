/**
 * Worst first over the estate, against the real broker: GET /groups and GET /groups.ndjson with
 * minLag, minTimeLagSeconds, verdict and sort, over Empty groups whose lag spans three orders of
 * magnitude (Admin commits), and live groups of every type made by Kafka's own clients (a consumer
 * group that never committed among them). A group whose lag is not known is named apart, never
 * filtered or sorted as if it had none: src/routes/worst-first.test.ts, on a stand-in service
 * (a single real broker makes no unreadable partition: deleting a topic deletes its offsets too).
 */

import { describe, expect, it } from 'vitest';
import type { GroupSpec } from '../broker-harness/fixtures.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { waitFor } from '../broker-harness/wait.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('worst');
const big = `${run}-big`;
const small = `${run}-small`;
const RECORDS = 400;
/** Empty groups by their lag on `big` (3 partitions of 400): committed 400 - lag/3 on each. */
const EMPTY_LAGS = [1200, 900, 300, 30, 0] as const;
const empty = (lag: number) => `${run}-e${String(lag).padStart(4, '0')}`;
const live = {
  classic: `${run}-classic`,
  uncommitted: `${run}-uncommitted`,
  share: `${run}-share`,
  streams: `${run}-streams`,
};
const NDJSON = 'application/x-ndjson';

const t = appWithGroups({
  topics: [
    { name: big, partitions: 3, records: RECORDS },
    { name: small, partitions: 1, records: 10 },
  ],
  groups: () => {
    const groups: GroupSpec[] = EMPTY_LAGS.map((lag) => ({
      type: 'empty' as const,
      groupId: empty(lag),
      topics: [big],
      commit: RECORDS - lag / 3,
    }));
    groups.push(
      { type: 'classic', groupId: live.classic, topics: [small], clientId: `${run}-cl`, commit: 4 },
      // Members hold the partition; nothing is ever committed.
      { type: 'consumer', groupId: live.uncommitted, topics: [small], clientId: `${run}-un` },
    );
    if (hasGroupType('share')) groups.push({ type: 'share', groupId: live.share, topics: [small] });
    if (hasGroupType('streams')) groups.push({ type: 'streams', groupId: live.streams, topics: [small] });
    return groups;
  },
  readyTimeoutMs: 300_000,
  timeoutMs: 360_000,
});

// biome-ignore lint/suspicious/noExplicitAny: answers checked against the document by t.get
type Json = any;

const ids = (groups: Json[]) => groups.map((g) => g.groupId as string);

async function lines(path: string): Promise<Json[]> {
  const res = await t.app.request(path, { headers: { accept: NDJSON } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe(NDJSON);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('GET /groups, worst first', () => {
  it('sort=-lag: the top `limit` of the estate, most lag first, and what it read', async () => {
    const { status, body } = await t.get<Json>(`/groups?prefix=${run}&sort=-lag&limit=3`, '/groups');
    expect(status).toBe(200);
    expect(ids(body.groups)).toEqual([empty(1200), empty(900), empty(300)]);
    expect(body.groups.map((g: Json) => g.lag.lag)).toEqual([1200, 900, 300]);
    expect(body.nextCursor).toBeNull();
    expect(body.lagUnknown).toEqual([]);
    expect(body.scanned).toMatchObject({ lagUnknown: 0, unread: 0 });
    expect(body.scanned.scanned).toBeGreaterThanOrEqual(7);
  });

  it('sort=lag: least first; minLag leaves out what is below it', async () => {
    const { body } = await t.get<Json>(`/groups?prefix=${run}-e&sort=lag&minLag=1&limit=10`, '/groups');
    expect(ids(body.groups)).toEqual([empty(30), empty(300), empty(900), empty(1200)]);
  });

  it('minLag without sort: pages by group id, each kept group once, the cursor after the last', async () => {
    const first = await t.get<Json>(`/groups?prefix=${run}-e&minLag=300&limit=2`, '/groups');
    // By group id: e0300, e0900, e1200.
    expect(ids(first.body.groups)).toEqual([empty(300), empty(900)]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await t.get<Json>(
      `/groups?prefix=${run}-e&minLag=300&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      '/groups',
    );
    expect(ids(second.body.groups)).toEqual([empty(1200)]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('sort=-timeLag and minTimeLagSeconds: by the oldest record each group has yet to read', async () => {
    const { body } = await t.get<Json>(`/groups?prefix=${run}-e&sort=-timeLag&minLag=1`, '/groups');
    const times = body.groups.map((g: Json) => g.lag.maxTimeLagMs.min as number);
    expect(ids(body.groups)[0]).toBe(empty(1200));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Records produced seconds ago: none is an hour behind.
    const none = await t.get<Json>(`/groups?prefix=${run}&minTimeLagSeconds=3600`, '/groups');
    expect(none.body.groups).toEqual([]);
  });

  it('verdict: STOPPED for the Empty groups behind, NO_OFFSET for the group that never committed', async () => {
    const stopped = await t.get<Json>(`/groups?prefix=${run}&verdict=STOPPED`, '/groups');
    expect(ids(stopped.body.groups).sort()).toEqual([empty(1200), empty(900), empty(300), empty(30)].sort());
    expect(stopped.body.groups.every((g: Json) => g.verdict === 'STOPPED')).toBe(true);
    const lagging = await t.get<Json>(`/groups?prefix=${run}-e&verdict=LAGGING,STOPPED&maxLag=0`, '/groups');
    expect(ids(lagging.body.groups)).toHaveLength(4);
    const unread = await waitFor(
      async () => {
        const { body } = await t.get<Json>(`/groups?prefix=${run}&verdict=NO_OFFSET`, '/groups');
        return ids(body.groups).includes(live.uncommitted) && body;
      },
      { timeoutMs: 30_000, what: `${live.uncommitted} to hold its partition` },
    );
    expect(unread.groups.find((g: Json) => g.groupId === live.uncommitted)).toMatchObject({
      type: 'consumer',
      verdict: 'NO_OFFSET',
      lag: { partitionsWithoutOffset: 1 },
    });
  });

  it('takes groups of every type', async () => {
    const { body } = await t.get<Json>(`/groups?prefix=${run}&minLag=0&limit=100`, '/groups');
    const types = new Set(body.groups.map((g: Json) => g.type));
    expect(types).toEqual(
      new Set([
        'classic',
        'consumer',
        ...(hasGroupType('share') ? ['share'] : []),
        ...(hasGroupType('streams') ? ['streams'] : []),
      ]),
    );
    for (const g of body.groups)
      expect(g.lag, g.groupId).toEqual(expect.objectContaining({ lag: expect.any(Number) }));
  });

  it('refuses what does not go with the criteria, naming the parameter', async () => {
    const cases: [string, string][] = [
      [`/groups?sort=-lag&cursor=ZzE6eA`, 'cursor'],
      [`/groups?minLag=1&topic=${small}`, 'minLag'],
      [`/groups?minLag=1&include=details`, 'include'],
      [`/groups?sort=worst`, 'sort'],
      [`/groups?verdict=SLOW`, 'verdict'],
      [`/groups?minLag=-1`, 'minLag'],
      [`/groups.ndjson?minLag=1&limit=5`, 'limit'],
    ];
    for (const [path, name] of cases) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(400);
      const problem = (await res.json()) as { errors: { name: string }[] };
      expect(
        problem.errors.map((e) => e.name),
        path,
      ).toContain(name);
    }
  });
});

describe('GET /groups.ndjson, worst first', () => {
  it('streams the kept groups in group id order, and counts what it read', async () => {
    const streamed = await lines(`/groups.ndjson?prefix=${run}&minLag=300`);
    const groups = streamed.filter((l) => l.groupId !== undefined);
    expect(ids(groups)).toEqual([empty(300), empty(900), empty(1200)]);
    expect(groups.map((g) => g.lag.lag)).toEqual([300, 900, 1200]);
    expect(streamed.at(-1)).toMatchObject({ end: { groups: 3, failures: 0, lagErrors: 0, lagUnknown: 0 } });
    expect(streamed.at(-1).end.scanned).toBeGreaterThanOrEqual(7);
  });

  it('with sort and limit, the top of the estate', async () => {
    const streamed = await lines(`/groups.ndjson?prefix=${run}-e&sort=-lag&limit=2`);
    expect(ids(streamed.filter((l) => l.groupId !== undefined))).toEqual([empty(1200), empty(900)]);
    // The same through Accept on /groups.
    const negotiated = await lines(`/groups?prefix=${run}-e&sort=-lag&limit=2`);
    expect(ids(negotiated.filter((l) => l.groupId !== undefined))).toEqual([empty(1200), empty(900)]);
  });
});
