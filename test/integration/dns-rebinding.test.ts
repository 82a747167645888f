/**
 * The Node server as `npm run demo` runs it (AUTH=none, no ALLOWED_HOSTS), in front of the real
 * broker with a real group, seen from a web page whose name was rebound to 127.0.0.1: the browser
 * sends that name as Host (and as Origin), and finds it same-origin, so only the server can tell.
 * Every route and /mcp answer it 4xx, and nothing read from Kafka; the loopback names get the group.
 */

import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { startServerProcess } from '../support/server-process.js';

const run = uniqueName('rebinding');
const group = `${run}-orders`;

let fixtures: RunningFixtures;
let server: ChildProcess;
let port: number;

beforeAll(async () => {
  const [fx, started] = await Promise.all([
    startFixtures({
      bootstrap: inject('kafkaBrokers'),
      topics: [{ name: `${run}-events`, partitions: 1, records: 2 }],
      groups: [{ type: 'classic', groupId: group, topics: [`${run}-events`] }],
    }),
    startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
      env: { KAFKA_BROKERS: inject('kafkaBrokers'), AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' },
    }),
  ]);
  fixtures = fx;
  server = started.child;
  port = Number(new URL(started.url).port);
});

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await fixtures?.stop();
});

/** One request to the server's loopback socket with the Host (and headers) a browser would send. */
function send(
  host: string,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const toolsList = (origin?: string) => ({
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    ...(origin && { origin }),
  },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
});

const ROUTES = [
  `/groups?prefix=${run}`,
  `/groups/${group}`,
  `/groups/${group}/offsets`,
  '/cluster',
  '/openapi.json',
  '/docs',
  '/healthz',
  '/metrics',
];

describe('a page on a name rebound to 127.0.0.1, against the demo server', () => {
  it('gets a 421 naming its host on every route, and no group', async () => {
    for (const path of ROUTES) {
      const got = await send('evil.example.com:8080', path, {
        headers: { origin: 'http://evil.example.com:8080' },
      });
      expect(got.status, path).toBe(421);
      expect(got.type, path).toContain('application/problem+json');
      expect(JSON.parse(got.body), path).toMatchObject({
        type: '/problems/host-not-allowed',
        host: 'evil.example.com:8080',
      });
      // The problem alone (its instance is the path the page asked for): nothing read from Kafka.
      expect(Object.keys(JSON.parse(got.body)).sort(), path).toEqual(
        ['detail', 'host', 'instance', 'status', 'title', 'type'].sort(),
      );
      expect(got.body, path).not.toContain(`${run}-events`);
    }
    const described = await send('evil.example.com', '/groups/describe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupIds: [group] }),
    });
    expect(described.status).toBe(421);
  });

  it('gets a 421 from /mcp, and a 403 when only its Origin is foreign', async () => {
    const mcp = await send('evil.example.com:8080', '/mcp', toolsList('http://evil.example.com:8080'));
    expect(mcp.status).toBe(421);
    expect(mcp.body).not.toContain('list_consumer_groups');
    const foreign = await send(`localhost:${port}`, '/mcp', toolsList('http://evil.example.com:8080'));
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({
      type: '/problems/origin-not-allowed',
      origin: 'http://evil.example.com:8080',
    });
  });

  it('serves localhost, 127.0.0.1 and [::1]: the group, the document and the MCP tools', async () => {
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
      const described = await send(host, `/groups/${group}`);
      expect(described.status, host).toBe(200);
      expect(JSON.parse(described.body), host).toMatchObject({ groupId: group, type: 'classic' });
      expect((await send(host, '/openapi.json')).status, host).toBe(200);
      const tools = await send(host, '/mcp', toolsList(`http://${host}`));
      expect(tools.status, host).toBe(200);
      expect(tools.body, host).toContain('list_consumer_groups');
    }
  });
});
