/**
 * The streamed answers' own deadline (STREAM_TIMEOUT_MS) and their end when the client leaves,
 * with a stand-in group service whose broker calls are stand-ins that stall. The NDJSON lag
 * stream and /metrics: the stream ends on time with every group once, and a client that
 * disconnects (a real socket closed, on the Node server) stops the reads.
 */

import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { bounded, type CallOptions, type Deadline } from '../../src/broker/deadline.js';
import { loadConfig } from '../../src/config.js';
import type { GroupListing } from '../../src/groups/model.js';
import { ok } from '../../src/groups/outcome.js';
import type { GroupService, OffsetTable } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const COUNT = 5_000;
const listed: GroupListing[] = Array.from({ length: COUNT }, (_, i) => ({
  groupId: `g${String(i).padStart(5, '0')}`,
  type: 'classic',
  protocolType: 'consumer',
  state: 'Empty',
}));
const table: OffsetTable = {
  topics: [],
  totals: { lag: 3, maxLag: null, partitions: 1, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
};
const group = (groupId: string) => ({
  type: 'classic',
  groupId,
  state: 'Empty',
  protocolType: 'consumer',
  assignor: null,
  groupEpoch: null,
  assignmentEpoch: null,
  coordinator: { nodeId: 1, host: '10.0.0.9', port: 9092 },
  members: [],
});
const HUNG = '10.0.0.9:9092';

/**
 * A stand-in service: the listing answers at once; batch `n` (0-based) of the estate reads answers
 * at once when `answers(n)`, else its broker call is a stand-in that never answers (bounded by
 * the deadline it is given). Records each batch's deadline signal.
 */
function standIn(answers: (batch: number) => boolean) {
  const signals: AbortSignal[] = [];
  const read = async <T>(
    ids: readonly { groupId: string }[],
    value: (id: string) => T,
    options: CallOptions,
  ) => {
    const n = signals.length;
    signals.push(options.deadline?.signal ?? new AbortController().signal);
    if (!answers(n)) await bounded(HUNG, 'OffsetFetch', options, () => new Promise<never>(() => undefined));
    return new Map(ids.map((g) => [g.groupId, ok(value(g.groupId))]));
  };
  const service = new Proxy({} as GroupService, {
    get: (_target, name) => {
      if (name === 'then') return undefined;
      if (name === 'listGroups') return async () => ({ groups: listed, failures: [] });
      if (name === 'topicExists') return async () => true;
      if (name === 'offsetsOfGroups')
        return (ids: GroupListing[], options: CallOptions) => read(ids, () => table, options);
      if (name === 'describeListed')
        return async (ids: GroupListing[], options: CallOptions) => ({
          groups: await read(ids, group, options),
          offsets: new Map(ids.map((g) => [g.groupId, ok(table)])),
        });
      return () => Promise.reject(new Error('stand-in service'));
    },
  });
  return { service, signals };
}

function appOf(service: GroupService, streamMs = 60_000) {
  const config = loadConfig({
    KAFKA_BROKERS: '127.0.0.1:9',
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    REQUEST_TIMEOUT_MS: '1000',
    STREAM_TIMEOUT_MS: String(streamMs),
  });
  return createApp({ service, security: securityFrom(config) });
}

describe('a stream under its deadline (stand-in service, stand-in broker calls that stall)', () => {
  // The streamed routes load on their first request: a loaded machine can spend most of the
  // 1 s request deadline on that, which is not what these tests look at.
  beforeAll(async () => {
    const app = appOf(standIn(() => true).service);
    for (const path of [
      '/groups.ndjson?include=lag',
      '/metrics?maxSeries=1000000',
      '/topics/orders/groups.ndjson',
    ])
      await (await app.request(path)).text();
  }, 30_000);

  it('NDJSON include=lag: ends at the deadline, the stalled batches named, the rest unread, every group once', async () => {
    const { service } = standIn((n) => n === 0);
    const app = appOf(service, 1_500);
    const started = Date.now();
    const res = await app.request('/groups.ndjson?include=lag');
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const elapsed = Date.now() - started;
    // Within the deadline; the slack is for a loaded machine.
    expect(elapsed).toBeLessThan(5_000);
    const groups = lines.filter((l) => 'groupId' in l) as unknown as {
      groupId: string;
      lag?: unknown;
      lagError?: never;
    }[];
    expect(groups.map((g) => g.groupId)).toEqual(listed.map((g) => g.groupId));
    const byType = new Map<string, number>();
    for (const g of groups) {
      const key = g.lag ? 'lag' : ((g.lagError as { type: string } | undefined)?.type ?? 'none');
      byType.set(key, (byType.get(key) ?? 0) + 1);
    }
    // Batch 1 answered; batches 2 and 3 were in flight at the deadline, their broker named;
    // batches 4 and 5 came after it, not read.
    // (Which of the later batches were in flight at the deadline depends on timing; none is lost.)
    const timedOut = byType.get('/problems/broker-timeout') ?? 0;
    const unread = byType.get('/problems/request-timeout') ?? 0;
    expect(byType.get('lag')).toBe(1_000);
    expect(timedOut).toBeGreaterThanOrEqual(1_000);
    expect(unread).toBeGreaterThanOrEqual(1_000);
    expect(timedOut + unread).toBe(4_000);
    const stalled = groups.find((g) =>
      (g.lagError as { type?: string } | undefined)?.type?.endsWith('broker-timeout'),
    );
    expect((stalled?.lagError as { broker?: string } | undefined)?.broker).toBe(HUNG);
    expect(lines.at(-1)).toEqual({ end: { groups: COUNT, failures: 0, lagErrors: 4_000, unread } });
  });

  it('/metrics: ends at the deadline, each group a series or a comment naming why not', async () => {
    const { service } = standIn((n) => n === 0);
    // 4 s, not the 1.5 s of the streams above: /metrics answers once its reads end, and beside two
    // busy loops the first batch's series for 5,000 groups were not made within 1.5 s (a 504).
    const app = appOf(service, 4_000);
    const started = Date.now();
    const res = await app.request('/metrics?maxSeries=1000000');
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    const series = text.match(/^kafka_group_lag_records\{group="g\d+"/gm) ?? [];
    const notRead = text.match(/^# not read: group="g\d+" type="classic" problem="[a-z-]+"/gm) ?? [];
    expect(series).toHaveLength(1_000);
    expect(notRead).toHaveLength(4_000);
    expect(text).toContain(`problem="broker-timeout" detail="${HUNG} did not answer OffsetFetch`);
    expect(text).toContain('problem="request-timeout"');
    expect(text).toMatch(/^kafka_group_offsets_errors 4000$/m);
  });

  it('/topics/{topic}/groups.ndjson: the groups not read are each an unreadable line, none dropped', async () => {
    const { service } = standIn((n) => n === 0);
    const app = appOf(service, 1_500);
    const started = Date.now();
    const res = await app.request('/topics/orders/groups.ndjson');
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { unreadable?: { groupId: string; problem: { type: string } }; end?: unknown },
      );
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The first batch was read (none of its groups reads the topic); the other 4,000 say why not.
    const unreadable = lines.flatMap((l) => (l.unreadable ? [l.unreadable] : []));
    expect(unreadable.map((u) => u.groupId)).toEqual(listed.slice(1_000).map((g) => g.groupId));
    const timedOut = unreadable.filter((u) => u.problem.type === '/problems/broker-timeout').length;
    const unread = unreadable.filter((u) => u.problem.type === '/problems/request-timeout').length;
    expect(timedOut).toBeGreaterThanOrEqual(1_000);
    expect(unread).toBeGreaterThanOrEqual(1_000);
    expect(timedOut + unread).toBe(4_000);
    expect(lines.at(-1)).toEqual({ end: { groups: 0, unreadable: 4_000, failures: 0 } });
  });
});

describe('a client that disconnects mid-stream stops the reads (stand-in service, Node server)', () => {
  for (const path of ['/groups.ndjson?include=lag', '/metrics']) {
    it(`${path}: the batch in flight is abandoned and no later batch is read`, async () => {
      // The first batch answers; the next ones stall until their deadline is aborted.
      const { service, signals } = standIn((n) => n === 0);
      const server = serve({ fetch: appOf(service).fetch, port: 0, hostname: '127.0.0.1' });
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        const req = request({ host: '127.0.0.1', port, path });
        req.end();
        const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
        expect(res.statusCode).toBe(200);
        await once(res, 'data');
        // Batches 2 and 3 are in flight (two at once), stalled.
        await expect.poll(() => signals.length).toBe(3);
        expect(signals.some((s) => s.aborted)).toBe(false);
        req.destroy();
        await expect.poll(() => signals.every((s) => s.aborted), { timeout: 5_000 }).toBe(true);
        // Nothing read after the client left: no fourth batch.
        await new Promise((r) => setTimeout(r, 200));
        expect(signals).toHaveLength(3);
      } finally {
        server.close();
      }
    });
  }
});

describe('/cluster/protocols: where its describes get their deadline (stand-in service)', () => {
  /** Consumer groups (described, 200 at a time) and the deadline each describe was given. */
  function protocolsApp() {
    const consumers = listed.slice(0, 300).map((g) => ({ ...g, type: 'consumer' as const }));
    const given: (Deadline | undefined)[] = [];
    const service = new Proxy({} as GroupService, {
      get: (_target, name) => {
        if (name === 'then') return undefined;
        if (name === 'describeCluster')
          return async () => ({ clusterId: 'c', controllerId: 1, brokers: [], features: null });
        if (name === 'listGroups') return async () => ({ groups: consumers, failures: [] });
        if (name === 'describeGroups')
          return async (ids: string[], options: CallOptions) => {
            given.push(options.deadline);
            return new Map(ids.map((id) => [id, ok({ ...group(id), type: 'consumer' })]));
          };
        return () => Promise.reject(new Error('stand-in service'));
      },
    });
    return { app: appOf(service), given };
  }

  it('the JSON answer describes under the request’s deadline', async () => {
    const { app, given } = protocolsApp();
    expect((await app.request('/cluster/protocols')).status).toBe(200);
    expect(given).toHaveLength(2);
    for (const deadline of given) expect(deadline?.totalMs).toBe(1_000);
  });

  it('the NDJSON stream describes as the client reads, under the stream’s deadline', async () => {
    const { app, given } = protocolsApp();
    const res = await app.request('/cluster/protocols.ndjson');
    expect(res.status).toBe(200);
    await res.text();
    expect(given).toHaveLength(2);
    const [first, second] = given;
    // STREAM_TIMEOUT_MS (60 s here) from the request's arrival, one deadline for the whole stream.
    expect(first?.totalMs).toBeGreaterThan(50_000);
    expect(second).toBe(first);
  });
});
