/**
 * Property-based fuzzing (fast-check) of every route and method, in front of the real broker:
 * random paths and group ids (unicode, %00, slashes, 32 and 40 KiB), query values, headers, and
 * bodies of random size and type. Whatever comes, the answer is problem+json or a documented
 * success, never a 5xx other than the documented broker problems, never the internal error; and
 * the app still answers /readyz afterwards. Run with authentication on, so the guards are fuzzed too.
 */

import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { createService, type Service } from '../../src/wiring.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const KEY = randomBytes(24).toString('base64url');
/** The broker problems a route may answer with a 5xx; anything else of 5xx is a failure. */
const BROKER_5XX = new Set([
  '/problems/group-type-unavailable',
  '/problems/broker-response-unreadable',
  '/problems/unsupported-broker-api',
  '/problems/kafka-error',
  '/problems/broker-unavailable',
  '/problems/coordinator-unavailable',
  '/problems/broker-timeout',
  '/problems/request-timeout',
]);

let service: Service;
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  const config = loadConfig({
    KAFKA_BROKERS: inject('kafkaBrokers'),
    AUTH_API_KEYS: `fuzz:${createHash('sha256').update(KEY).digest('hex')}`,
    AUTH_GRANTS: JSON.stringify({ fuzz: { groups: ['*'], actions: ['read', 'offsets'] } }),
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_BODY_BYTES: '65536',
  });
  service = createService(config);
  app = createApp({ service: service.groups, security: securityFrom(config) });
});

afterAll(() => service?.close());

const segment = fc.oneof(
  fc.constantFrom(
    'groups',
    'describe',
    'offsets',
    'cluster',
    'healthz',
    'readyz',
    'openapi.json',
    'docs',
    '',
  ),
  fc.string({ unit: 'grapheme', maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('%00', '%2F', '%2f%2e%2e', '..', '%', '%zz', '%C3', '%FF%FE', '%E2%80%AE'),
  fc.constantFrom(32 * 1024, 40 * 1024).map((n) => encodeURIComponent('x'.repeat(n))),
);
const path = fc.oneof(
  fc.constant('/groups/describe'),
  fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => `/${parts.join('/')}`),
  fc.constantFrom('/groups', '/groups/describe', '/cluster', '/healthz', '/readyz', '/openapi.json', '/mcp'),
  segment.map((id) => `/groups/${id}`),
  segment.map((id) => `/groups/${id}/offsets`),
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'type',
        'state',
        'limit',
        'cursor',
        'include',
        'prefix',
        'isolation',
        'protocolType',
        'x',
      ),
      fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('consumer', 'share,classic', '0', '1001', 'lag', '%00'),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND');
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'application/json; charset=utf-8',
  'application/merge-patch+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
  'application/json\u00e9'.replace(/[^\x20-\x7e]/g, ''),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc
    .record({
      groupIds: fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }),
      type: fc.string({ maxLength: 10 }),
    })
    .map((v) => JSON.stringify(v)),
  fc.integer({ min: 60_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const authorization = fc.oneof(
  { arbitrary: fc.constant(`Bearer ${KEY}`), weight: 6 },
  {
    arbitrary: fc.constantFrom(undefined, 'Bearer nope', 'Basic Zm9vOmJhcg==', 'Bearer a.b.c', ''),
    weight: 1,
  },
);

let requests = 0;
const statuses = new Map<number, number>();

describe('fuzz', () => {
  it(`answers ${RUNS} random requests with documented problems and no crash`, async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        query,
        contentType,
        body,
        authorization,
        async (m, p, q, type, b, auth) => {
          const withBody = b !== undefined && m !== 'GET' && m !== 'HEAD';
          const res = await app.request(`${p}${q}`, {
            method: m,
            headers: {
              ...(type !== undefined && { 'content-type': type }),
              ...(auth !== undefined && { authorization: auth }),
            },
            ...(withBody && { body: b }),
          });
          requests++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const text = await res.text();
          if (res.status >= 400 && m !== 'HEAD') {
            expect(res.headers.get('content-type'), `${m} ${p}${q} → ${res.status}`).toBe(
              'application/problem+json',
            );
            const problem = JSON.parse(text) as { type: string; status: number };
            expect(problem.status).toBe(res.status);
            if (res.status >= 500)
              expect(BROKER_5XX, `${m} ${p}${q}: ${text.slice(0, 300)}`).toContain(problem.type);
          }
          expect(res.status, `${m} ${p}${q}`).not.toBe(500);
          if (res.status === 405) expect(res.headers.get('allow')).toBeTruthy();
          if (res.status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        },
      ),
      { numRuns: RUNS, interruptAfterTimeLimit: 240_000 },
    );
    console.log(
      `fuzz: ${requests} requests; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(requests).toBeGreaterThanOrEqual(Math.min(RUNS, 200));
    expect((await app.request('/readyz')).status).toBe(200);
  }, 300_000);
});
