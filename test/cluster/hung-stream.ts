/**
 * A broker hung mid-stream (SIGSTOP after a streamed answer's headers are out, before its batches
 * are read), on a running three-node cluster: the NDJSON lag stream and /metrics must end within
 * the stream's deadline, hold every listed group exactly once (with its data, or named in a
 * failure), and name the groups the hung broker coordinates with that broker. More groups than one
 * batch holds, so several batches ask the hung broker.
 */

import { expect, onTestFinished } from 'vitest';
import type { createApp } from '../../src/app.js';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import type { GroupService } from '../../src/groups/service.js';
import type { ClusterNode, RunningCluster } from '../broker-harness/cluster.js';
import { startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { waitFor } from '../broker-harness/wait.js';

/** Three batches of the estate reader (1,000 groups each). */
const GROUPS = 2_100;

interface Setting {
  cluster: RunningCluster;
  service: GroupService;
  app: ReturnType<typeof createApp>;
  deadlineMs: number;
  slackMs: number;
}

interface Streamed {
  elapsed: number;
  text: string;
}

/** Asks for `path`, hangs `node` once the headers are in, reads the whole body, resumes the node. */
async function whileHung(app: Setting['app'], path: string, node: ClusterNode): Promise<Streamed> {
  const at = Date.now();
  const res = await app.request(path);
  expect(res.status, path).toBe(200);
  node.pause();
  try {
    const text = await res.text();
    return { elapsed: Date.now() - at, text };
  } finally {
    node.resume();
  }
}

/** Until a listing of these groups is complete (a node back from a pause may still be loading them). */
async function untilListed(app: Setting['app'], run: string, count: number): Promise<void> {
  let lines: string[] = [];
  await waitFor(
    async () => {
      const text = await (await app.request(`/groups.ndjson?prefix=${encodeURIComponent(run)}`)).text();
      lines = text.split('\n').filter(Boolean);
      return lines.length === count + 1 && !lines.some((l) => l.startsWith('{"failure"'));
    },
    {
      timeoutMs: 60_000,
      what: () =>
        `a complete listing of ${count} groups (listing not complete: ${lines.length - 1} lines, ${lines.filter((l) => l.startsWith('{"failure"')).length} failures)`,
    },
  );
}

export async function hungMidStream({ cluster, service, app, deadlineMs, slackMs }: Setting): Promise<void> {
  const run = uniqueName('stream');
  const topic = `${run}-t`;
  const ids = Array.from({ length: GROUPS }, (_, i) => `${run}-${String(i).padStart(4, '0')}`);
  const fixtures = await startFixtures({
    bootstrap: cluster.bootstrap,
    topics: [{ name: topic, partitions: 6, records: 12 }],
    groups: ids.map((groupId) => ({ type: 'empty' as const, groupId, topics: [topic], commit: 1 })),
    readyTimeoutMs: 180_000,
  });
  await fixtures.stop();
  await cluster.waitUntilReady();

  // The node coordinating most of these groups hangs; which groups it holds, from a describe.
  // Coordinators may still be loading after the hang before: asked again until every group answers.
  let last: Awaited<ReturnType<typeof service.describeGroups>> | undefined;
  const described = await waitFor(
    async () => {
      last = await service.describeGroups(ids, NO_DEADLINE);
      return [...last.values()].every((o) => o.ok) && last;
    },
    {
      timeoutMs: 60_000,
      what: () => {
        const failing = [...(last ?? [])].filter(([, o]) => !o.ok);
        return `every group described; ${failing.length} not, first: ${failing
          .slice(0, 3)
          .map(([id, o]) => `${id}: ${o.ok ? '' : o.error.message}`)
          .join('; ')}`;
      },
    },
  );
  const byNode = new Map<number, string[]>();
  for (const [id, outcome] of described) {
    expect(outcome.ok, `${id}: ${outcome.ok ? '' : outcome.error.message}`).toBe(true);
    if (!outcome.ok) continue;
    const nodeId = outcome.value.coordinator.nodeId;
    byNode.set(nodeId, [...(byNode.get(nodeId) ?? []), id]);
  }
  const [nodeId, held] = [...byNode].sort((a, b) => b[1].length - a[1].length)[0] as [number, string[]];
  const node = cluster.nodes.find((n) => n.nodeId === nodeId) as ClusterNode;
  const coordinator = (
    described.get(held[0] as string) as { ok: true; value: { coordinator: { host: string; port: number } } }
  ).value.coordinator;
  const broker = `${coordinator.host}:${coordinator.port}`;
  const hung = new Set(held);
  onTestFinished(() => {
    if (node.state() === 'paused') node.resume();
  });
  const within = deadlineMs + slackMs;
  await untilListed(app, run, GROUPS);

  // NDJSON with lag: every group once, the hung broker's with a lagError naming it.
  const ndjson = await whileHung(app, `/groups.ndjson?include=lag&prefix=${encodeURIComponent(run)}`, node);
  const lines = ndjson.text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const groupLines = lines.filter((l) => typeof l.groupId === 'string') as {
    groupId: string;
    lag?: unknown;
    lagError?: { type: string; broker?: string };
  }[];
  const end = lines.at(-1)?.end as
    | { groups: number; failures: number; lagErrors: number; unread?: number }
    | undefined;
  const failed = groupLines.filter((l) => l.lagError);
  const summary = {
    node: nodeId,
    held: hung.size,
    elapsedMs: ndjson.elapsed,
    lines: groupLines.length,
    lagErrors: failed.length,
    end,
  };
  process.stderr.write(`[hung-stream] ndjson ${JSON.stringify(summary)}\n`);
  expect(end, 'the stream ends with its end line').toBeDefined();
  expect(ndjson.elapsed, 'the stream ends within its deadline').toBeLessThanOrEqual(within);
  expect(groupLines.map((l) => l.groupId)).toEqual(ids);
  expect(end?.groups).toBe(GROUPS);
  expect(end?.failures).toBe(0);
  for (const line of groupLines) {
    // Every group has its lag or says why not; only the hung broker's groups may lack it.
    expect(Boolean(line.lag) !== Boolean(line.lagError), line.groupId).toBe(true);
    if (line.lagError) expect(hung.has(line.groupId), `${line.groupId} ${line.lagError.type}`).toBe(true);
  }
  const named = failed.filter((l) => l.lagError?.broker === broker);
  expect(named.length, `groups named with ${broker}`).toBeGreaterThan(0);
  expect(
    failed.every((l) =>
      ['/problems/broker-timeout', '/problems/request-timeout'].includes(l.lagError?.type ?? ''),
    ),
  );

  await cluster.waitUntilReady();
  await untilListed(app, run, GROUPS);
  // /metrics: a series per group read, a comment naming each group not read; none missing.
  const scrape = await whileHung(
    app,
    `/metrics?maxSeries=1000000&allow=${encodeURIComponent(`${run}-.*`)}`,
    node,
  );
  const series = new Set(
    [...scrape.text.matchAll(/^kafka_group_lag_records\{group="([^"]+)"/gm)].map((m) => m[1] as string),
  );
  const comments = [
    ...scrape.text.matchAll(/^# not read: group="([^"]+)".*problem="([^"]+)" detail="(.*)"$/gm),
  ];
  const errors = Number(/^kafka_group_offsets_errors (\d+)$/m.exec(scrape.text)?.[1]);
  process.stderr.write(
    `[hung-stream] metrics ${JSON.stringify({ elapsedMs: scrape.elapsed, series: series.size, notRead: comments.length, errors })}\n`,
  );
  expect(scrape.elapsed, 'the scrape ends within its deadline').toBeLessThanOrEqual(within);
  expect(errors).toBe(comments.length);
  expect(scrape.text).toMatch(/^kafka_group_listing_failures 0$/m);
  const notRead = comments.map((m) => m[1] as string);
  expect(new Set(notRead).size).toBe(notRead.length);
  expect([...series, ...notRead].sort()).toEqual(ids);
  for (const id of notRead) expect(hung.has(id), id).toBe(true);
  expect(comments.some((m) => (m[3] as string).includes(broker))).toBe(true);
  await cluster.waitUntilReady();
}
