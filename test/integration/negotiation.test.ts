/**
 * What a caller's headers get back, over real groups: content negotiation on GET /groups
 * (RFC 9110 §12.5.1: q-values, order, `*\/*` and `type/*`, q=0, 406), the document's link on every
 * answer (RFC 8631), the next page's link beside nextCursor (RFC 8288), followed to the end as an
 * OpenAPI-driven CLI would, and the rate-limit quota on every limited answer, exposed to browsers.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { type TestApp, testApp } from '../support/app.js';

const JSON_TYPE = 'application/json';
const NDJSON = 'application/x-ndjson';
const PROBLEM = 'application/problem+json';
const SERVICE_DESC = '</openapi.json>; rel="service-desc"';

const run = uniqueName('neg');
// A prefix with a space and a non-ASCII letter: the next link must carry it encoded, and back.
const prefix = `${run} ü`;
const groupIds = Array.from({ length: 5 }, (_, i) => `${prefix}-${i}`);

let t: TestApp;
let limited: TestApp;
let fixtures: RunningFixtures;

beforeAll(async () => {
  t = await testApp();
  limited = await testApp({
    RATE_LIMIT_PER_MINUTE: '60',
    RATE_LIMIT_BURST: '3',
    CORS_ORIGINS: 'https://ui.example.com',
  });
  fixtures = await startFixtures({
    bootstrap: t.bootstrap,
    topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
    groups: groupIds.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
    readyTimeoutMs: 300_000,
  });
}, 330_000);

afterAll(async () => {
  await fixtures?.stop();
  await t?.close();
  await limited?.close();
});

const listing = `/groups?prefix=${encodeURIComponent(prefix)}`;
const mediaType = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]?.trim();

describe('content negotiation on GET /groups', () => {
  it.each([
    ['no Accept', undefined, JSON_TYPE],
    ['*/*', '*/*', JSON_TYPE],
    ['application/*', 'application/*', JSON_TYPE],
    // What OpenAPI Generator's Java native client sent when the 200 listed both types.
    [
      'the generated Java client of 1.0',
      'application/json, application/x-ndjson, application/problem+json',
      JSON_TYPE,
    ],
    ['json and ndjson, a tie', 'application/json, application/x-ndjson', JSON_TYPE],
    ['ndjson excluded by q=0', 'application/json, application/x-ndjson;q=0', JSON_TYPE],
    ['ndjson alone (curl)', NDJSON, NDJSON],
    ['ndjson first, a tie all the same', 'application/x-ndjson, application/json', JSON_TYPE],
    ['ndjson by q-value', 'application/json;q=0.5, application/x-ndjson;q=0.9', NDJSON],
    ['json excluded by q=0 under */*', '*/*, application/json;q=0', NDJSON],
    ['type/* below ndjson', 'application/*;q=0.1, application/x-ndjson', NDJSON],
    // JSON Lines' name for it (OpenAPI 3.2's application/jsonl): the stream, under NDJSON's name.
    ['jsonl alone', 'application/jsonl', NDJSON],
    ['jsonl by q-value', 'application/json;q=0.5, application/jsonl', NDJSON],
  ])('%s (Accept: %s) → %s', async (_, accept, expected) => {
    const res = await t.app.request(listing, accept === undefined ? {} : { headers: { accept } });
    expect(res.status).toBe(200);
    expect(mediaType(res)).toBe(expected);
    expect(res.headers.get('vary')?.toLowerCase()).toContain('accept');
    if (expected === JSON_TYPE) {
      const page = (await t.checker.check('get', '/groups', res)) as { groups: { groupId: string }[] };
      expect(page.groups.map((g) => g.groupId)).toEqual(groupIds);
    } else {
      const lines = (await res.text()).trim().split('\n');
      expect(lines).toHaveLength(groupIds.length + 1);
    }
  });

  it.each([
    ['an unknown type', 'text/html'],
    ['problems only', PROBLEM],
    ['both types at q=0', 'application/json;q=0, application/x-ndjson;q=0'],
    ['everything at q=0', '*/*;q=0'],
    ['another charset', 'application/json; charset=iso-8859-1'],
  ])('%s (Accept: %s) → 406 problem naming what the route offers', async (_, accept) => {
    for (const path of [listing, `/clusters/default${listing}`]) {
      const res = await t.app.request(path, { headers: { accept } });
      expect(res.status).toBe(406);
      expect(mediaType(res)).toBe(PROBLEM);
      const template = path.startsWith('/clusters') ? '/clusters/{alias}/groups' : '/groups';
      const problem = (await t.checker.check('get', template, res)) as Record<string, unknown>;
      expect(problem).toMatchObject({
        type: '/problems/not-acceptable',
        status: 406,
        offers: [JSON_TYPE, NDJSON],
      });
      expect(problem.detail).toContain(accept);
    }
  });

  it('answers problems as problem+json whatever the Accept', async () => {
    const res = await t.app.request('/groups?limit=0', { headers: { accept: NDJSON } });
    expect(res.status).toBe(400);
    expect(mediaType(res)).toBe(PROBLEM);
  });
});

describe('links', () => {
  it('link the document from every answer, errors and guards included', async () => {
    const answers = await Promise.all([
      t.app.request(listing),
      t.app.request(`/groups/${encodeURIComponent(`${run}-missing`)}`),
      t.app.request(listing, { headers: { accept: 'text/html' } }),
      t.app.request('/groups', { method: 'PUT' }),
      t.app.request('/no-such-route'),
      t.app.request('/healthz'),
      t.app.request('/openapi.json'),
      t.app.request('/groups.ndjson?prefix=x'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 404, 406, 405, 404, 200, 200, 200]);
    for (const res of answers) expect(res.headers.get('link')).toContain(SERVICE_DESC);
  });

  it('link the next page beside nextCursor, relative to the request, keeping the query; followed to the end', async () => {
    for (const base of ['/groups', '/clusters/default/groups']) {
      let url = new URL(`http://api.test${base}?prefix=${encodeURIComponent(prefix)}&limit=2&type=classic`);
      const seen: string[] = [];
      for (let pages = 0; pages < 10; pages++) {
        const res = await t.app.request(url.pathname + url.search);
        expect(res.status).toBe(200);
        const page = (await res.json()) as { groups: { groupId: string }[]; nextCursor: string | null };
        seen.push(...page.groups.map((g) => g.groupId));
        const link = res.headers.get('link') ?? '';
        const next = /<([^>]*)>;\s*rel="next"/.exec(link)?.[1];
        if (page.nextCursor === null) {
          expect(next).toBeUndefined();
          break;
        }
        expect(next).toMatch(/^groups\?/);
        // Nothing in the reference needs quoting inside <…>: spaces and non-ASCII are percent-encoded.
        expect(next).toMatch(/^[A-Za-z0-9\-._~%?&=]+$/);
        url = new URL(next as string, url);
        expect(url.pathname).toBe(base);
        expect(url.searchParams.get('prefix')).toBe(prefix);
        expect(url.searchParams.get('limit')).toBe('2');
        expect(url.searchParams.get('type')).toBe('classic');
        expect(url.searchParams.get('cursor')).toBe(page.nextCursor);
      }
      expect(seen).toEqual(groupIds);
    }
  });
});

describe('rate-limit headers', () => {
  it('carry the quota on limited answers, with Retry-After on the 429, and none on the probes', async () => {
    const key = { headers: { 'x-forwarded-for': '198.51.100.7' } };
    const first = await limited.app.request(listing, key);
    expect(first.status).toBe(200);
    // Draft-11's two structured fields: 3 in a burst, refilled in 3 s at 60 a minute.
    expect(first.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3');
    expect(first.headers.get('ratelimit')).toMatch(/^"default";r=2;t=[1-9]\d*$/);
    // Draft-06's three, deprecated.
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
    const rest = [];
    for (let i = 0; i < 3; i++) rest.push(await limited.app.request('/groups/x-missing', key));
    const refused = rest.at(-1) as Response;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-limit')).toBe('3');
    expect(refused.headers.get('ratelimit')).toMatch(/^"default";r=0;t=[1-9]\d*$/);
    expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3');
    expect(refused.headers.get('link')).toContain(SERVICE_DESC);
    const probe = await limited.app.request('/healthz', key);
    expect(probe.headers.get('ratelimit-limit')).toBeNull();
    expect(probe.headers.get('ratelimit')).toBeNull();
    expect(probe.headers.get('ratelimit-policy')).toBeNull();
  });

  it('let a browser send every method the API has: a preflight for PATCH (group configs) is allowed', async () => {
    const res = await limited.app.request('/groups/x/configs', {
      method: 'OPTIONS',
      headers: { origin: 'https://ui.example.com', 'access-control-request-method': 'PATCH' },
    });
    const allowed = (res.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
  });

  it('are readable by browsers (CORS expose-headers) and in the document', async () => {
    const res = await limited.app.request('/healthz', { headers: { origin: 'https://ui.example.com' } });
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(exposed).toEqual(
      expect.arrayContaining([
        'link',
        'ratelimit-policy',
        'ratelimit',
        'ratelimit-limit',
        'ratelimit-remaining',
        'ratelimit-reset',
        'retry-after',
      ]),
    );
    const doc = t.checker.document as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>
      >;
    };
    const responses = doc.paths['/groups']?.get?.responses ?? {};
    for (const status of ['200', '406', '429'])
      expect(Object.keys(responses[status]?.headers ?? {})).toEqual(
        expect.arrayContaining([
          'Link',
          'RateLimit-Policy',
          'RateLimit',
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
        ]),
      );
    const headers = (t.checker.document as unknown as { components: { headers: Record<string, unknown> } })
      .components.headers;
    expect(headers['RateLimit-Limit']).toMatchObject({ deprecated: true });
    expect(headers.RateLimit).not.toHaveProperty('deprecated');
  });
});
