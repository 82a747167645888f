/**
 * The Node server as a process, over real HTTP, against the test broker: what `npm start` runs.
 * Long ids go through Node's HTTP parser here, which `app.request` would skip.
 */

import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startServerProcess } from '../support/server-process.js';

let server: ChildProcess;
let base: string;

beforeAll(async () => {
  const started = await startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
    env: { KAFKA_BROKERS: inject('kafkaBrokers'), AUTH: 'none' },
  });
  server = started.child;
  base = started.url;
});

afterAll(() => {
  if (server.exitCode === null) server.kill('SIGKILL');
});

describe('the Node server', () => {
  it('is ready once the broker answers', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'ok',
      brokers: expect.arrayContaining([expect.objectContaining({ answered: true })]),
    });
  });

  it('carries a 10,000-character group id to the broker and answers 404', async () => {
    const id = `srv-${'ü'.repeat(9_996)}`;
    const res = await fetch(`${base}/groups/${encodeURIComponent(id)}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ type: '/problems/group-not-found', groupId: id });
  });

  it('answers 400 naming the limit for an id over 32,767 bytes, not a bare 431', async () => {
    const id = 'x'.repeat(40_000);
    const res = await fetch(`${base}/groups/${id}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: unknown[] };
    expect(body.errors[0]).toMatchObject({
      in: 'path',
      name: 'groupId',
      expected: 'a group id of 1 to 32767 UTF-8 bytes',
    });
  });

  it('serves the docs page with its scripts from this server', async () => {
    const page = await (await fetch(`${base}/docs`)).text();
    expect(page).toContain('/docs/assets/swagger-ui-bundle.js');
    const script = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${base}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
