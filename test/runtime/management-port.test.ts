/**
 * MANAGEMENT_PORT on the Node server as a process (tsx), the real broker behind it: the probes and
 * /metrics on the management listener and nowhere else, the API on the public listener only, the
 * same guards on both, and one SIGTERM stops both.
 */

import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const bootstrap = inject('kafkaBrokers');
const KEY = randomBytes(24).toString('base64url');
const servers: ServerProcess[] = [];

/** Starts the server and waits for its management line too. */
async function start(env: Record<string, string>): Promise<{ process: ServerProcess; management: string }> {
  const started = await startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
    env: { KAFKA_BROKERS: bootstrap, MANAGEMENT_PORT: '0', RATE_LIMIT_PER_MINUTE: '0', ...env },
  });
  servers.push(started);
  const deadline = Date.now() + 10_000;
  for (;;) {
    const url = /serves \/healthz, \/readyz and \/metrics on (http:\/\/\S+)/.exec(started.output())?.[1];
    if (url) return { process: started, management: url };
    if (Date.now() > deadline) throw new Error(`no management line: ${started.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let open: { process: ServerProcess; management: string };

beforeAll(async () => {
  open = await start({ AUTH: 'none' });
}, 60_000);

afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
});

describe('MANAGEMENT_PORT', () => {
  it('serves /healthz, /readyz (the real broker answers) and /metrics on the management listener', async () => {
    expect(open.management).not.toBe(open.process.url);
    const live = await fetch(`${open.management}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${open.management}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      brokers: [expect.objectContaining({ answered: true })],
    });
    const metrics = await fetch(`${open.management}/metrics?maxSeries=10`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await metrics.text()).toMatch(/^kafka_group_listing_failures 0$/m);
    // Each cluster's own probe and scrape go with them.
    const own = await fetch(`${open.management}/clusters/default/readyz`);
    expect(own.status).toBe(200);
    const body = (await own.json()) as { status: string; clusters?: unknown };
    expect([body.status, body.clusters]).toEqual(['ok', undefined]);
    const scrape = await fetch(`${open.management}/clusters/default/metrics?maxSeries=10`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^kafka_group_listing_failures 0$/m);
    expect(await (await fetch(`${open.management}/readyz`)).json()).toMatchObject({
      clusters: { default: { ready: true } },
    });
  });

  it('the public listener serves the API, not the probes and /metrics, however the path is spelled', async () => {
    const cluster = await fetch(`${open.process.url}/cluster`);
    expect(cluster.status).toBe(200);
    expect(await cluster.json()).toMatchObject({ clusterId: expect.any(String) });
    expect((await fetch(`${open.process.url}/clusters/default/cluster`)).status).toBe(200);
    for (const path of [
      '/healthz',
      '/readyz',
      '/metrics',
      '/%6detrics',
      '/metrics?granularity=topic',
      '/clusters/default/readyz',
      '/clusters/default/metrics',
    ]) {
      const res = await fetch(`${open.process.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toBe('application/problem+json');
      expect(((await res.json()) as { detail: string }).detail, path).toContain('MANAGEMENT_PORT');
    }
  });

  it('the management listener serves nothing else', async () => {
    for (const path of ['/cluster', '/groups', '/openapi.json', '/docs', '/clusters/default/cluster']) {
      const res = await fetch(`${open.management}${path}`);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { detail: string }).detail, path).toContain(
        '/healthz, /readyz and /metrics only',
      );
    }
  });

  it('keeps the guards: with API keys, /metrics on the management port needs one', async () => {
    const hash = createHash('sha256').update(KEY).digest('hex');
    const guarded = await start({
      AUTH_API_KEYS: `prometheus:${hash}`,
      AUTH_GRANTS: JSON.stringify({ prometheus: { groups: '*', actions: ['read', 'offsets'] } }),
    });
    expect((await fetch(`${guarded.management}/metrics`)).status).toBe(401);
    const res = await fetch(`${guarded.management}/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    expect((await fetch(`${guarded.management}/healthz`)).status).toBe(200);
    guarded.process.child.kill('SIGTERM');
    expect((await once(guarded.process.child, 'exit'))[0]).toBe(0);
  });

  it('SIGTERM closes both listeners, exit 0', async () => {
    const exited = once(open.process.child, 'exit');
    open.process.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    await expect(fetch(`${open.management}/healthz`)).rejects.toThrow();
    await expect(fetch(`${open.process.url}/cluster`)).rejects.toThrow();
  });
});
