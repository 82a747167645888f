/**
 * The Node server as it runs, over real HTTP, in front of the real broker, against a caller who
 * sends the edges of HTTP: every query parameter of every GET and DELETE route repeated, empty,
 * bracketed, or spelled as 1e3, -0, 0x10, NaN, Infinity or 10,000 characters; odd paths (encoded
 * slashes, dot segments, trailing slashes, odd cluster aliases); odd headers (Authorization twice,
 * thousands of headers, bytes outside ASCII); a request whose sender then closes its side. Each
 * must be answered, never with a 500, a stack trace or the key, and the server must stay up.
 */

import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const run = uniqueName('edges');
const group = `${run}-empty`;
const KEY = randomBytes(24).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const DOCUMENT = JSON.parse(readFileSync(new URL('../../sdk/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
};

let fixtures: RunningFixtures | undefined;
let server: ServerProcess;

beforeAll(async () => {
  const bootstrap = inject('kafkaBrokers');
  const [fx, started] = await Promise.all([
    startFixtures({
      bootstrap,
      groups: [
        {
          type: 'empty',
          groupId: group,
          topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
          commit: 1,
        },
      ],
    }),
    startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
      env: {
        KAFKA_BROKERS: bootstrap,
        KAFKA_CLUSTERS: 'second',
        KAFKA_CLUSTER_SECOND_BROKERS: bootstrap,
        AUTH_API_KEYS: `ops:${hashOf(KEY)}`,
        AUTH_GRANTS: JSON.stringify({ ops: { groups: '*', actions: ['read', 'offsets', 'delete-offsets'] } }),
        RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_OPEN_PER_MINUTE: '0',
        WRITES: 'enabled',
      },
    }),
  ]);
  fixtures = fx;
  server = started;
}, 180_000);

afterAll(async () => {
  server?.child.kill('SIGINT');
  await fixtures?.stop();
});

interface Seen {
  what: string;
  status: number;
  body: string;
}

/** What no answer may be: a 500, an internal's trace, the caller's key, or nothing. */
function faults(seen: readonly Seen[]): string[] {
  return seen
    .filter(
      ({ status, body }) =>
        status === 0 || status >= 500 || /\n\s+at |node_modules|\bsrc\/\w/.test(body) || body.includes(KEY),
    )
    .map(({ what, status, body }) => `${what} → ${status} ${body.slice(0, 200)}`);
}

async function send(path: string, method = 'GET', headers: Record<string, string> = {}): Promise<Seen> {
  const what = `${method} ${path.slice(0, 120)}`;
  try {
    const res = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...headers },
      signal: AbortSignal.timeout(20_000),
    });
    return { what, status: res.status, body: await res.text() };
  } catch (error) {
    return { what, status: 0, body: String(error) };
  }
}

/** One raw request; `halfClose` ends the sending side right after it, as `nc -N` does. */
function raw(request: string | Buffer, halfClose = false): Promise<Seen> {
  const { hostname, port } = new URL(server.url);
  const what = String(request).split('\r\n')[0]?.slice(0, 120) ?? '';
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let out = '';
    const timer = setTimeout(() => socket.destroy(), 20_000);
    socket.on('data', (chunk) => {
      out += chunk;
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ what, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0), body: out });
    });
    if (halfClose) socket.end(request);
    else socket.write(request);
  });
}

const VALUES = [
  '',
  '1e3',
  '-0',
  '0x10',
  'NaN',
  'Infinity',
  '-1',
  '1.5',
  '%00',
  '%E2%82',
  'x'.repeat(10_000),
  '__proto__',
];
const fill = (path: string) =>
  path
    .replace('{groupId}', encodeURIComponent(group))
    .replace('{topic}', `${run}-t`)
    .replace('{alias}', 'second')
    .replace('{instanceId}', 'i');

describe('a caller at the edges of HTTP', () => {
  it('every query parameter of every GET and DELETE route, spelled every odd way: a 4xx or an answer, never a 500', async () => {
    const seen: Seen[] = [];
    for (const [path, item] of Object.entries(DOCUMENT.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if ((method !== 'get' && method !== 'delete') || /events|\{alias\}/.test(path)) continue;
        const names = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
        // A DELETE without `type` stops at validation; with it, dry runs (the default) reach Kafka.
        const type = method === 'delete' ? 'type=classic&' : '';
        const target = (query: string) => `${fill(path)}?${type}${query}`;
        for (const name of names) {
          const spellings = [
            ...VALUES.map((v) => `${name}=${v}`),
            `${name}=a&${name}=b`,
            `${name}[]=1`,
            `${name}[0]=1&${name}[1]=2`,
            name,
          ];
          for (const query of spellings) seen.push(await send(target(query), method.toUpperCase()));
        }
      }
    }
    expect(seen.length).toBeGreaterThan(500);
    expect(faults(seen)).toEqual([]);
  }, 240_000);

  it('odd paths: encoded slashes, dot segments, trailing slashes, odd aliases', async () => {
    const paths = [
      '/groups/',
      '/groups//offsets',
      '/groups/%2F',
      `/groups/${encodeURIComponent(group)}%2Foffsets`,
      '/groups/..',
      '/groups/%2E%2E',
      '/groups/../cluster',
      '/groups/%00',
      '/groups/%',
      '/groups/%C0%AF',
      '/groups/%ED%A0%80',
      `/groups/${'é'.repeat(200)}`,
      '/clusters/',
      '/clusters/SECOND/groups',
      '/clusters/second/',
      '/clusters/%73econd/groups',
      '/clusters/__proto__/groups',
      '/clusters/constructor/readyz',
      '/clusters/toString/cluster',
      `/clusters/${'x'.repeat(5000)}/groups`,
      '/clusters/second/clusters/second/groups',
      '/readyz/',
      '/healthz/',
      '/metrics/',
      '//groups',
      '/groups.NDJSON',
      '/topics//groups',
      '/topics/%2e/groups',
      '/docs/%2e%2e/openapi.json',
      '/docs/assets/..%2f..%2fpackage.json',
      '/groups/g;x=1',
      '/groups%2Fg',
    ];
    const seen: Seen[] = [];
    for (const path of paths) seen.push(await send(path), await send(path, 'GET', { authorization: '' }));
    expect(faults(seen)).toEqual([]);
    // Without credentials, no odd spelling reaches a group (the document, open, names none).
    expect(
      seen.filter((s, i) => i % 2 === 1 && s.status === 200 && s.body.includes(group)).map((s) => s.what),
    ).toEqual([]);
  }, 120_000);

  it('odd headers: Authorization twice, thousands of headers, bytes outside ASCII', async () => {
    const request = (lines: string[], path = '/groups') =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`;
    const auth = `Authorization: Bearer ${KEY}`;
    const seen = [
      await raw(request([auth, auth])),
      await raw(request([auth, 'Authorization: Bearer nope'])),
      await raw(request(['Authorization: Bearer nope', auth], '/readyz')),
      await raw(request(Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`))),
      await raw(request([auth, ...Array.from({ length: 200 }, () => 'Accept: application/json')])),
      await raw(request([`X-Big: ${'a'.repeat(300_000)}`])),
      await raw(Buffer.from(request([`${auth}\u00e9`]), 'latin1')),
      await raw(Buffer.from(request([auth, 'Accept: application/jsoné']))),
      await raw(Buffer.from(request(['Authorization: Bearer \u00e9\u00ff'], '/readyz'), 'latin1')),
      await raw(request([`Authorization: Bearer ${'a.b.c'.repeat(20_000)}`])),
      await raw(request([auth, `Accept: ${'a/b;q=0.5,'.repeat(5000)}`])),
      await raw(request([auth, 'Accept: application/json;q=NaN, */*;q=-1'])),
      await raw(request([auth, 'Content-Length: 1e3'])),
    ];
    expect(faults(seen)).toEqual([]);
    // Two Authorization headers are one value to the server, `a, b`: refused, never half-read.
    expect([seen[0]?.status, seen[1]?.status]).toEqual([401, 401]);
    expect((await send('/healthz')).status).toBe(200);
  }, 120_000);

  it('a request whose sender closes its side after it still gets its answer', async () => {
    const request = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nConnection: close\r\n\r\n`;
    const [ready, groups, document] = [
      await raw(request('/readyz'), true),
      await raw(request(`/groups?prefix=${run}`), true),
      await raw(request('/openapi.json'), true),
    ];
    expect([ready.status, groups.status, document.status]).toEqual([200, 200, 200]);
    expect(groups.body).toContain(group);
  }, 60_000);
});
