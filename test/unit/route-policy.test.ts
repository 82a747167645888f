/**
 * The guards judge the route Hono matched, not the spelling of its path: for every route of the
 * app (the mirrors under /clusters/{alias} included) and random percent-encodings of the letters of
 * its path, the grant decision, the body cap and the content-type answer equal the plain path's.
 * The group service is a stand-in that fails every call: a request the guards let through ends
 * there, the same way for both spellings; nothing here needs a broker.
 */

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const MAX_BODY_BYTES = 2048;

const stub = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('stand-in service'))),
});

function appWith(): ReturnType<typeof createApp> {
  const config = loadConfig({
    KAFKA_BROKERS: '127.0.0.1:9',
    AUTH_API_KEYS: ['nothing', 'offsets', 'reader', 'all']
      .map((name) => `${name}:${hashOf(`${name}-key`)}`)
      .join(','),
    AUTH_GRANTS: JSON.stringify({
      offsets: { groups: '*', actions: ['offsets'] },
      reader: { groups: '*', actions: ['read'] },
      all: {
        groups: '*',
        actions: ['read', 'offsets', 'delete', 'delete-offsets', 'reset-offsets', 'remove-members'],
      },
    }),
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    RATE_LIMIT_PER_MINUTE: '0',
    WRITES: 'enabled',
  });
  return createApp({ service: stub, security: securityFrom(config) });
}

const app = appWith();
const routes = app.routes
  .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
  .map((r) => ({ method: r.method.toUpperCase(), path: r.path.replace(/:[A-Za-z]+/g, 'p1') }));

/** The letters of `path`, each percent-encoded where `mask` says so, in upper or lower hex. */
function encoded(path: string, mask: boolean[], lower: boolean): string {
  let i = 0;
  return path.replace(/[A-Za-z]/g, (letter) => {
    if (!mask[i++ % mask.length]) return letter;
    const hex = letter.charCodeAt(0).toString(16);
    return `%${lower ? hex : hex.toUpperCase()}`;
  });
}

/** What the guards decided: the status and the problem type, if any. */
async function decision(res: Response): Promise<string> {
  const type = res.headers.get('content-type')?.includes('problem+json')
    ? ((await res.json()) as { type: string }).type
    : '';
  return `${res.status} ${type}`;
}

function send(method: string, path: string, key: string, init: { body?: string; type?: string } = {}) {
  return app.request(path, {
    method,
    headers: {
      authorization: `Bearer ${key}-key`,
      ...(init.type !== undefined && { 'content-type': init.type }),
      ...(init.body !== undefined && { 'content-length': String(Buffer.byteLength(init.body)) }),
    },
    ...(init.body !== undefined && { body: init.body }),
  });
}

describe('route policies under percent-encoded paths', () => {
  it('covers every route: the app has mirrored routes and body routes to check', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.some((r) => r.path.startsWith('/clusters/default/groups'))).toBe(true);
    expect(routes.filter((r) => r.method === 'POST').length).toBeGreaterThanOrEqual(3);
  });

  it('gives an encoded path the grant decision, body cap and content-type answer of the plain one', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom('nothing', 'offsets', 'reader', 'all'),
        async (route, mask, lower, key) => {
          const other = encoded(route.path, mask, lower);
          const same = async (init: { body?: string; type?: string }) =>
            expect(
              await decision(await send(route.method, other, key, init)),
              `${route.method} ${other}`,
            ).toBe(await decision(await send(route.method, route.path, key, init)));
          await same({});
          if (route.method === 'GET' || route.method === 'HEAD') return;
          await same({ body: 'x'.repeat(MAX_BODY_BYTES + 1), type: 'application/json' });
          await same({ body: 'hello', type: 'text/plain' });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a key without grants on GET /%63luster, and an offsets key on /%63lusters/default', async () => {
    expect(await decision(await send('GET', '/%63luster', 'nothing'))).toBe('403 /problems/forbidden');
    expect(await decision(await send('GET', '/%63lusters/default', 'offsets'))).toBe(
      '403 /problems/forbidden',
    );
  });

  it('caps the body and checks its type on encoded and unknown paths alike', async () => {
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    for (const path of ['/groups/%64escribe', '/no/such/route', '/%67roups/describe/extra']) {
      expect(await decision(await send('POST', path, 'all', { body: big, type: 'application/json' }))).toBe(
        '413 /problems/payload-too-large',
      );
      expect(await decision(await send('POST', path, 'all', { body: 'hello', type: 'text/plain' }))).toBe(
        '415 /problems/unsupported-media-type',
      );
    }
  });
});
