/**
 * The Node server bundle (dist/node/server.mjs as `npm run build` makes it) as a process: it serves
 * the API from the real broker, and on SIGTERM finishes the request in flight, then exits 0.
 * To hold a request in flight for a known time, the server reaches the broker through a stand-in:
 * a loopback relay that passes bytes both ways and holds one answer of the broker for 1 s.
 */

import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildNode } from '../../scripts/build.js';
import { startServerProcess } from '../support/server-process.js';

const HOLD_MS = 1_000;

/** Relays to `target`; once armed, holds the next answer chunk for HOLD_MS and says when it has one. */
class HoldingRelay {
  private armed: (() => void) | undefined;
  private readonly sockets = new Set<Socket>();
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<HoldingRelay> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const relay = new HoldingRelay(server, (server.address() as { port: number }).port);
    server.on('connection', (client) => relay.relay(client, target));
    return relay;
  }

  /** Resolves once an answer is being held. */
  arm(): Promise<void> {
    return new Promise((resolve) => {
      this.armed = resolve;
    });
  }

  /** Closes every relayed connection: the server's next request opens a new one. */
  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
  }

  async stop(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(client: Socket, target: { host: string; port: number }): void {
    const broker = createConnection(target);
    for (const s of [client, broker]) {
      this.sockets.add(s);
      s.on('error', () => {
        client.destroy();
        broker.destroy();
      });
      s.on('close', () => this.sockets.delete(s));
    }
    client.on('data', (chunk) => broker.write(chunk));
    broker.on('data', (chunk) => {
      const held = this.armed;
      if (!held) {
        client.write(chunk);
        return;
      }
      this.armed = undefined;
      held();
      setTimeout(() => client.write(chunk), HOLD_MS);
    });
    client.on('end', () => broker.end());
    broker.on('end', () => client.end());
  }
}

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
