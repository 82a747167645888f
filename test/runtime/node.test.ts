/**
 * The Node server bundle (dist/node/server.mjs as `npm run build` makes it) as a process: it serves
 * the API from the real broker, and on SIGTERM finishes the request in flight, then exits 0.
 * To hold a request in flight for a known time, the server reaches the broker through a stand-in:
 * a loopback relay that passes bytes both ways and holds one answer of the broker for 1 s.
 */

import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildNode } from '../../scripts/build.js';
import { HOLD_MS, HoldingRelay, settleAfterDrop } from '../support/holding-relay.js';
import { startServerProcess } from '../support/server-process.js';

let outdir: string;
let relay: HoldingRelay;
let server: ChildProcess;
let base: string;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'kgr-node-'));
  await buildNode(outdir);
  const [host, port] = inject('kafkaBrokers').split(',')[0]?.split(':') ?? [];
  relay = await HoldingRelay.start({ host: host ?? '127.0.0.1', port: Number(port) });
  // Run from the temp dir: the bundle must not need this repository's node_modules.
  const started = await startServerProcess([join(outdir, 'server.mjs')], {
    cwd: outdir,
    env: { KAFKA_BROKERS: `127.0.0.1:${relay.port}`, AUTH: 'none' },
  });
  server = started.child;
  base = started.url;
});

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await relay?.stop();
  if (outdir) await rm(outdir, { recursive: true, force: true });
});

describe('the Node server bundle', () => {
  it('answers from the broker and serves the docs assets from beside the bundle', async () => {
    const res = await fetch(`${base}/cluster`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ clusterId: expect.any(String) });
    const script = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect((await script.text()).length).toBeGreaterThan(100_000);
  });

  it('stand-in: SIGTERM while a request waits on the broker → that request is answered, then exit 0', async () => {
    // A new socket, so the held answer is the first of a request (ApiVersions on the relay).
    const held = relay.arm();
    relay.dropConnections();
    await settleAfterDrop();
    const started = Date.now();
    const pending = fetch(`${base}/readyz`);
    await held;
    const exited = once(server, 'exit');
    server.kill('SIGTERM');

    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      brokers: expect.arrayContaining([expect.objectContaining({ answered: true })]),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(HOLD_MS - 50);
    const [code] = await exited;
    expect(code).toBe(0);
    expect(Date.now() - started, 'no wait for the 10 s grace period').toBeLessThan(HOLD_MS + 3_000);
  });
});
