/**
 * The first address of KAFKA_BROKERS hangs (SIGSTOP) while callers keep asking about the healthy
 * part of the cluster: listings, and the offsets of groups whose coordinator is on another node.
 * Every answer must be a 200 within the request deadline: a listing complete, or partial and naming
 * the hung broker in `failures`; offsets and health with a per-partition error where a leader did
 * not answer; /metrics with its failures counted in-band.
 * After SIGCONT, the answers are complete again.
 *
 * Then, on the same cluster, a broker hangs after a streamed answer's headers are out and before its
 * batches are read: the NDJSON lag stream and /metrics end within the stream's deadline, every group
 * once, those the hung broker coordinates named with it.
 */

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupList, GroupOffsets } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import { createService, type Service } from '../../src/wiring.js';
import type { RunningCluster } from '../broker-harness/cluster.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminElectPreferredLeaders } from '../broker-harness/java-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import { hungMidStream } from './hung-stream.js';
import { handBack, sharedCluster } from './shared-cluster.js';

/** One Kafka request's bound, and the HTTP request's (and a stream's) deadline above it. */
const KAFKA_REQUEST_TIMEOUT_MS = 2_000;
const REQUEST_TIMEOUT_MS = 6_000;
const STREAM_TIMEOUT_MS = 6_000;
/** Scheduling slack on a shared machine, on top of the deadline. */
const SLACK_MS = 1_000;
const HANG_MS = 15_000;

type App = ReturnType<typeof createApp>;

interface Sample {
  path: string;
  status: number;
  elapsed: number;
  /** 200, and complete or honest about its gaps (no silent miss, no wrong answer). */
  good: boolean;
  complete: boolean;
  note: string;
}

let cluster: RunningCluster;
let fixtures: RunningFixtures;
let service: Service;
let app: App;
const topic = uniqueName('hung-topic');
const groups = Array.from({ length: 8 }, (_, i) => uniqueName(`hung-group-${i}`));

beforeAll(async () => {
  cluster = await sharedCluster();
  fixtures = await startFixtures({
    bootstrap: cluster.bootstrap,
    groups: groups.map((groupId, i) => ({
      type: 'empty' as const,
      groupId,
      topics: i === 0 ? [{ name: topic, partitions: 6, records: 12 }] : [topic],
      commit: 1,
    })),
  });
  await useBootstrap(cluster.bootstrap);
}, 420_000);

/** The service and app, with KAFKA_BROKERS in this order (its first address is the one hung). */
async function useBootstrap(bootstrap: string): Promise<void> {
  await service?.close();
  const config = loadConfig({
    KAFKA_BROKERS: bootstrap,
    KAFKA_REQUEST_TIMEOUT_MS: String(KAFKA_REQUEST_TIMEOUT_MS),
    KAFKA_CONNECTION_TIMEOUT_MS: '1000',
    REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    STREAM_TIMEOUT_MS: String(STREAM_TIMEOUT_MS),
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  service = createService(config, { logger: createLogger('error', () => undefined) });
  app = createApp({ service: service.groups, logger: createLogger('error'), security: securityFrom(config) });
}

afterAll(async () => {
  await service?.close();
  await fixtures?.stop().catch(() => undefined);
  await handBack(cluster);
}, 120_000);

async function probe(path: string): Promise<Sample> {
  const at = Date.now();
  const res = await app.request(path);
  const text = await res.text();
  const elapsed = Date.now() - at;
  const status = res.status;
  if (path === '/metrics') {
    // Failures in-band: counted in their own series, the scrape itself a 200.
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    const listing = gauge('kafka_group_listing_failures');
    const offsets = gauge('kafka_group_offsets_errors');
    return {
      path,
      status,
      elapsed,
      good: status === 200 && listing >= 0 && offsets >= 0,
      complete: status === 200 && listing === 0 && offsets === 0,
      note: `listing failures ${listing}, offsets errors ${offsets}`,
    };
  }
  const body = JSON.parse(text) as Record<string, unknown>;
  if (status !== 200)
    return { path, status, elapsed, good: false, complete: false, note: String(body.type ?? '') };
  if (path.startsWith('/groups?')) {
    const list = body as unknown as GroupList;
    const ids = new Set(list.groups.map((g) => g.groupId));
    const missing = groups.filter((id) => !ids.has(id));
    const named = list.failures.map((f) => `${f.broker.nodeId}:${f.error.name}`);
    return {
      path,
      status,
      elapsed,
      good: missing.length === 0 || named.length > 0,
      complete: missing.length === 0 && named.length === 0,
      note: `missing ${missing.length}, failures ${named.join(',')}`,
    };
  }
  const rows: { endOffset: number | null; error?: unknown }[] = path.endsWith('/health')
    ? (body.partitions as { endOffset: number | null; error?: unknown }[])
    : (body as unknown as GroupOffsets).topics.flatMap((t) => t.partitions);
  // A partition without an end offset says why; every committed partition is there.
  const silent = rows.filter((p) => p.endOffset === null && (p.error ?? null) === null);
  const errors = rows.filter((p) => (p.error ?? null) !== null);
  return {
    path,
    status,
    elapsed,
    good: rows.length === 6 && silent.length === 0,
    complete: rows.length === 6 && errors.length === 0,
    note: `${rows.length} partitions, ${errors.length} with errors, ${silent.length} silent`,
  };
}

describe('the first bootstrap broker hangs (SIGSTOP): the healthy part still answers', () => {
  it('listings and offsets of groups coordinated elsewhere answer 200 within the deadline, then recover', async () => {
    await cluster.waitUntilReady();
    // The groups whose coordinator is not the node about to hang. A node fenced for a moment on a
    // busy machine leaves its leaderships (the offsets topic's too) with the others, and Kafka hands
    // them back only at its next imbalance check (5 minutes): here they are handed back at once.
    // The node to hang: the first node if it leaves some group to the others; else, after three
    // rounds, the first node that does (all leaderships can stay on one node for a while), put
    // first in KAFKA_BROKERS.
    let first = cluster.nodes[0];
    let healthy: string[] = [];
    /** Each group's coordinator as the app reads it, and the statuses that were not 200. */
    const read = async () => {
      const coordinators = new Map<string, number>();
      const refused: string[] = [];
      for (const id of groups) {
        const res = await app.request(`/groups/${id}`);
        if (res.status !== 200) refused.push(`${id} ${res.status}`);
        else
          coordinators.set(
            id,
            ((await res.json()) as { coordinator: { nodeId: number } }).coordinator.nodeId,
          );
      }
      return { coordinators, refused };
    };
    for (let round = 0; healthy.length === 0 && round < 10; round++) {
      let reading: Awaited<ReturnType<typeof read>>;
      if (round === 0) {
        reading = await read();
      } else {
        await javaAdminElectPreferredLeaders(cluster.bootstrap);
        // After the election: until every group answers from its new coordinator (loaded), and the
        // coordinators read the same twice in a row (no leadership still moving).
        let previous: string | undefined;
        let last: Awaited<ReturnType<typeof read>> | undefined;
        reading = await waitFor(
          async () => {
            const now = await read();
            last = now;
            const key = now.refused.length > 0 ? undefined : JSON.stringify([...now.coordinators]);
            const settled = key !== undefined && key === previous;
            previous = key;
            return settled && now;
          },
          {
            timeoutMs: 30_000,
            what: () =>
              `every group answering 200 with the same coordinators twice after the preferred-leader election; last: ${JSON.stringify(last && { refused: last.refused, coordinators: [...last.coordinators] })}`,
          },
        );
      }
      expect(reading.refused).toEqual([]);
      const { coordinators } = reading;
      const candidates = round < 3 ? cluster.nodes.slice(0, 1) : cluster.nodes;
      first = candidates.find((node) => groups.some((id) => coordinators.get(id) !== node.nodeId)) ?? first;
      healthy = groups.filter((id) => first && coordinators.get(id) !== first.nodeId);
    }
    if (!first) throw new Error('no node');
    expect(healthy.length, 'groups coordinated by the healthy nodes').toBeGreaterThan(0);
    if (first !== cluster.nodes[0]) {
      const hung = first.bootstrap;
      await useBootstrap([hung, ...cluster.bootstrap.split(',').filter((b) => b !== hung)].join(','));
    }
    const paths = [
      '/groups?limit=1000',
      ...healthy.slice(0, 2).map((id) => `/groups/${id}/offsets`),
      `/groups/${healthy[0]}/health`,
      '/metrics',
    ];
    for (const path of paths) expect((await probe(path)).complete, path).toBe(true);

    onTestFinished(() => {
      if (first.state() === 'paused') first.resume();
    });
    first.pause();
    const hungAt = Date.now();
    const samples: Sample[] = [];
    await Promise.all(
      paths.map(async (path, i) => {
        // Clock waits: the load's pace (staggered starts, one request per path every 250 ms) through the hang.
        await new Promise((r) => setTimeout(r, i * 80));
        while (Date.now() - hungAt < HANG_MS) {
          const started = Date.now();
          samples.push(await probe(path));
          await new Promise((r) => setTimeout(r, Math.max(0, 250 - (Date.now() - started))));
        }
      }),
    );
    first.resume();
    const resumedAt = Date.now();

    const ok = samples.filter((s) => s.good && s.elapsed <= REQUEST_TIMEOUT_MS + SLACK_MS);
    const summary = {
      requests: samples.length,
      ok: ok.length,
      complete: samples.filter((s) => s.complete).length,
      statuses: [...new Set(samples.map((s) => s.status))],
      slowestMs: Math.max(...samples.map((s) => s.elapsed)),
    };
    process.stderr.write(`[hung-bootstrap] node ${first.nodeId} hung: ${JSON.stringify(summary)}\n`);
    expect(samples.length).toBeGreaterThan(20);
    // At least 99% (all, below a hundred samples) answer 200, honest, within the deadline.
    const bad = samples.filter((s) => !ok.includes(s));
    expect(
      bad.length,
      bad.map((s) => `${s.path} ${s.status} ${s.elapsed} ms ${s.note}`).join('\n'),
    ).toBeLessThanOrEqual(Math.floor(samples.length / 100));
    // Partial listings name the hung broker (later, once Kafka fenced it and moved its groups, they
    // may name the brokers that took them over instead).
    const partial = samples.filter((s) => s.path.startsWith('/groups?') && !s.complete && s.status === 200);
    expect(partial.length, 'listings while the broker hangs that name a failure').toBeGreaterThan(0);
    expect(partial.some((s) => new RegExp(`failures (.*,)?${first.nodeId}:`).test(s.note))).toBe(true);

    // Back: every answer complete again soon after SIGCONT.
    let rounds: Sample[] = [];
    await waitFor(
      async () => {
        rounds = await Promise.all(paths.map(probe));
        return rounds.every((s) => s.complete);
      },
      {
        timeoutMs: Math.max(0, resumedAt + 30_000 - Date.now()),
        what: () =>
          `every answer complete after SIGCONT (no recovery): ${rounds.map((s) => `${s.path} ${s.status} ${s.note}`).join('; ')}`,
      },
    );
    process.stderr.write(`[hung-bootstrap] complete again ${Date.now() - resumedAt} ms after SIGCONT\n`);
  }, 240_000);
});

describe('a broker hangs mid-stream: the streams end within their deadline, every group once', () => {
  it("NDJSON include=lag and /metrics name the hung broker's groups and lose none", async () => {
    await hungMidStream({
      cluster,
      service: service.groups,
      app,
      deadlineMs: STREAM_TIMEOUT_MS,
      slackMs: SLACK_MS,
    });
  }, 240_000);
});
