/**
 * The Node server as it runs (`npm start`), over real HTTP, in front of the real broker, against a
 * hostile caller: a pattern that backtracks, bodies sent to percent-encoded paths, keys without the
 * grant of the route they reach, validation answers that grow with the input. Each request here
 * must be answered quickly, and meanwhile another caller's /healthz too: the event loop is never
 * held for seconds (bounds are generous, the machine is shared).
 */

import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { startServerProcess } from '../support/server-process.js';

const run = uniqueName('hostile');
/** `demo-` and 8 more characters: the pattern backtracks for seconds over such an id. */
const demoGroup = `demo-${randomBytes(4).toString('hex')}`;
const MAX_BODY_BYTES = 65_536;
const MB = 1024 * 1024;
/** How long another caller's /healthz may take while a hostile request runs: generous. */
const HEALTHZ_BOUND_MS = 1_500;

const newKey = () => randomBytes(24).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = { scraper: newKey(), nothing: newKey(), reader: newKey(), constructor: newKey() };

let fixtures: RunningFixtures;
let server: ChildProcess;
let base: string;

beforeAll(async () => {
  const [fx, started] = await Promise.all([
    startFixtures({
      bootstrap: inject('kafkaBrokers'),
      topics: [{ name: `${run}-events`, partitions: 1, records: 2 }],
      groups: [{ type: 'classic', groupId: demoGroup, topics: [`${run}-events`] }],
    }),
    startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
      env: {
        KAFKA_BROKERS: inject('kafkaBrokers'),
        AUTH_API_KEYS: Object.entries(KEYS)
          .map(([name, key]) => `${name}:${hashOf(key)}`)
          .join(','),
        // `constructor` has no entry: it holds no grant, like `nothing`.
        AUTH_GRANTS: JSON.stringify({
          scraper: { groups: '*', actions: ['offsets', 'read'] },
          reader: { groups: '*', actions: ['offsets'] },
        }),
        MAX_BODY_BYTES: String(MAX_BODY_BYTES),
        RATE_LIMIT_PER_MINUTE: '0',
      },
    }),
  ]);
  fixtures = fx;
  server = started.child;
  base = started.url;
});

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await fixtures?.stop();
});

const as = (key: string, headers: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${key}`, ...headers },
});

/** Runs `hostile`, and 200 ms into it times another caller's /healthz. */
async function healthzDuring<T>(hostile: () => Promise<T>): Promise<{ result: T; healthzMs: number }> {
  const pending = hostile();
  // Clock wait: /healthz is timed while the hostile caller is well under way.
  await new Promise((r) => setTimeout(r, 200));
  const start = performance.now();
  const res = await fetch(`${base}/healthz`);
  const healthzMs = performance.now() - start;
  expect(res.status).toBe(200);
  return { result: await pending, healthzMs };
}

async function timed(url: string, init?: RequestInit) {
  const start = performance.now();
  const res = await fetch(url, init);
  const text = await res.text();
  return { res, text, ms: performance.now() - start };
}

/**
 * POSTs to `path` declaring a body of `size` bytes, writes 1 MB of it, and resolves with the
 * answer and how long it took: a server that reads the whole body before answering never answers.
 */
function postDeclared(
  path: string,
  size: number,
  key: string,
  timeoutMs = 10_000,
): Promise<{ status: number; body: string; ms: number }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': size },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - start });
      });
    });
    req.on('error', () => {});
    req.write(Buffer.alloc(MB, 0x20));
  });
}

describe('a caller-given pattern', () => {
  it('GET /metrics?allow=demo-(?:.*){32}x answers quickly, and /healthz of another caller too', async () => {
    // The group is listed, so the pattern is tried on its id.
    const listed = await timed(`${base}/groups?prefix=${demoGroup}`, as(KEYS.scraper));
    expect(listed.text).toContain(demoGroup);
    const { result, healthzMs } = await healthzDuring(() =>
      timed(`${base}/metrics?allow=${encodeURIComponent('demo-(?:.*){32}x')}`, as(KEYS.scraper)),
    );
    expect(result.res.status).toBe(200);
    expect(result.ms).toBeLessThan(5_000);
    expect(result.text).not.toContain(demoGroup);
    expect(healthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
    // The same pattern without the trailing x matches it.
    const matched = await timed(
      `${base}/metrics?allow=${encodeURIComponent('demo-(?:.*){32}')}`,
      as(KEYS.scraper),
    );
    expect(matched.text).toContain(`group="${demoGroup}"`);
  });

  it('answers 400 naming the parameter and what RE2 refused for a backreference or lookaround', async () => {
    for (const [pattern, refused] of [
      ['(a)\\1', 'invalid escape'],
      ['(?=a)b', 'Perl syntax'],
    ] as const) {
      const { res, text } = await timed(
        `${base}/metrics?deny=${encodeURIComponent(pattern)}`,
        as(KEYS.scraper),
      );
      expect(res.status).toBe(400);
      const body = JSON.parse(text) as { detail: string; errors: Array<{ name: string; expected: string }> };
      expect(body.errors[0]?.name).toBe('deny');
      expect(body.detail).toContain("query parameter 'deny'");
      expect(body.errors[0]?.expected).toContain('RE2 refused it');
      expect(body.errors[0]?.expected).toContain(refused);
    }
  });
});

describe('percent-encoded paths', () => {
  it('POST /groups/%64escribe declaring 100 MiB gets 413 at once, as the plain path', async () => {
    for (const path of ['/groups/describe', '/groups/%64escribe', '/no/such/route']) {
      const { status, body, ms } = await postDeclared(path, 100 * MB, KEYS.scraper);
      expect(status, path).toBe(413);
      expect(JSON.parse(body)).toMatchObject({ type: '/problems/payload-too-large' });
      expect(ms, path).toBeLessThan(3_000);
    }
  });

  it('a chunked body over the cap: the encoded path reads no more of it before its 413 than the plain one', async () => {
    const readBefore413 = (path: string) =>
      new Promise<{ status: number; sent: number }>((resolve, reject) => {
        const url = new URL(base);
        let sent = 0;
        let answered = false;
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path,
            method: 'POST',
            agent: false,
            headers: { authorization: `Bearer ${KEYS.scraper}`, 'content-type': 'application/json' },
          },
          (res) => {
            answered = true;
            res.resume();
            resolve({ status: res.statusCode ?? 0, sent });
          },
        );
        req.on('error', (error) => (answered ? undefined : reject(error)));
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        // Written as the socket takes it, up to 64 times the cap: the server's 413 stops it.
        const pump = () => {
          while (!answered && sent < 64 * MAX_BODY_BYTES) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
    const plain = await readBefore413('/groups/describe');
    const encoded = await readBefore413('/groups/%64escribe');
    expect([plain.status, encoded.status]).toEqual([413, 413]);
    // `sent` counts what the client's socket took, loopback's buffers (some MiB) included: alike for
    // both paths when the server stops reading at the same point.
    expect(encoded.sent).toBeLessThan(plain.sent + 1 * MB);
  });

  it('GET /%63luster with a key without grants: 403, as /cluster', async () => {
    for (const path of ['/cluster', '/%63luster', '/%63%6C%75%73%74%65%72']) {
      const { res, text } = await timed(`${base}${path}`, as(KEYS.nothing));
      expect(res.status, path).toBe(403);
      expect(text).not.toContain('clusterId');
    }
  });

  it('GET /%63lusters/default with an offsets-only key: 403, as /clusters/default', async () => {
    for (const path of ['/clusters/default', '/%63lusters/default', '/%63lusters/%64efault']) {
      const { res } = await timed(`${base}${path}`, as(KEYS.reader));
      expect(res.status, path).toBe(403);
    }
  });

  it('text/plain to /groups/%64escribe: 415, not 500', async () => {
    const { res, text } = await timed(`${base}/groups/%64escribe`, {
      method: 'POST',
      ...as(KEYS.scraper, { 'content-type': 'text/plain' }),
      body: '{"groupIds":["a"]}',
    });
    expect(res.status).toBe(415);
    expect(JSON.parse(text)).toMatchObject({ type: '/problems/unsupported-media-type' });
  });
});

describe('validation answers', () => {
  it('6,000 unknown body fields: a small 400 quickly, and /healthz of another caller meanwhile', async () => {
    // Short names, so that the body (about 50 KB) fits under this server's 64 KiB cap.
    const fields = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`_${i.toString(36)}`, 0]));
    const { result, healthzMs } = await healthzDuring(() =>
      timed(`${base}/groups/describe`, {
        method: 'POST',
        ...as(KEYS.scraper, { 'content-type': 'application/json' }),
        body: JSON.stringify({ groupIds: ['a'], ...fields }),
      }),
    );
    expect(result.res.status).toBe(400);
    expect(result.text.length).toBeLessThan(8_000);
    expect(result.ms).toBeLessThan(2_000);
    expect(healthzMs).toBeLessThan(HEALTHZ_BOUND_MS);
  });

  // 30,000 deep fits under this server's 64 KiB cap, and is deep enough to overflow a recursive echo.
  it('JSON nested 30,000 deep: 400, not 500', async () => {
    const { res } = await timed(`${base}/groups/describe`, {
      method: 'POST',
      ...as(KEYS.scraper, { 'content-type': 'application/json' }),
      body: '['.repeat(30_000) + ']'.repeat(30_000),
    });
    expect(res.status).toBe(400);
  });
});

describe('the OpenAPI document', () => {
  it('names no host a first request chose: servers is relative', async () => {
    const first = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/openapi.json', base), {
        headers: { host: 'attacker.example' },
        agent: false,
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    expect(first).toBe(200);
    const { res, text } = await timed(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(text).not.toContain('attacker.example');
    expect((JSON.parse(text) as { servers: unknown }).servers).toEqual([
      { url: '/', description: expect.any(String) },
    ]);
  });
});

describe('lookups by caller-given names', () => {
  it('GET /docs/assets/__proto__ (constructor, toString, hasOwnProperty): 404, not 500', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const { res, text } = await timed(`${base}/docs/assets/${name}`);
      expect(res.status, name).toBe(404);
      expect(JSON.parse(text)).toMatchObject({ type: '/problems/route-not-found' });
    }
    expect((await timed(`${base}/docs/assets/swagger-ui.css`)).res.status).toBe(200);
  });

  it('an API key named constructor without a grants entry is refused with 403, not 500', async () => {
    for (const path of ['/groups', '/cluster', `/groups/${demoGroup}/offsets`, '/metrics']) {
      const { res } = await timed(`${base}${path}`, as(KEYS.constructor));
      expect(res.status, path).toBe(403);
    }
    expect((await timed(`${base}/clusters`, as(KEYS.constructor))).res.status).not.toBe(500);
  });
});

/**
 * Over a raw socket: headers declaring `size` bytes with `Connection: close`, then the body written
 * as fast as the socket takes it, as a client that does not wait for an interim answer does.
 * Resolves with everything read back before the connection ended or was reset.
 */
function rawOversized(size: number, key: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let sent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(
        `POST /groups/describe HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`,
      );
      pump();
    });
    socket.setEncoding('latin1');
    socket.on('data', (d) => {
      received += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(received));
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

describe('a refused body', () => {
  it('Connection: close with an oversized body: the 413 is read, 10 times out of 10', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const received = await rawOversized(16 * MB, KEYS.scraper);
      outcomes.push(received.split('\r\n')[0] ?? '(nothing)');
    }
    expect(outcomes).toEqual(Array(10).fill('HTTP/1.1 413 Payload Too Large'));
  });
});
