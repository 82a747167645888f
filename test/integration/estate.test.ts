/**
 * The whole estate in one request: every group's lag in the NDJSON listing (include=lag), compared
 * with Kafka's Java Admin client doing the same work (listGroups, listConsumerGroupOffsets for all,
 * listOffsets). More groups than one OffsetFetch batch carries, so the batches are exercised; groups
 * of every type made by Kafka's own clients beside Empty groups made by Admin commits.
 */

import { describe, expect, it } from 'vitest';
import type { GroupSpec } from '../broker-harness/fixtures.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminEstateLag } from '../broker-harness/java-admin.js';
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
    const deadline = Date.now() + 60_000;
    do {
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
          diff.push(`${g.groupId}: partitions ${JSON.stringify(g.lag)} against Admin's ${theirs.partitions}`);
      }
      if (diff.length === 0) break;
      await new Promise((r) => setTimeout(r, 2_000));
    } while (Date.now() < deadline);
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
