/**
 * The hostile-caller checks of test/integration/hostile.test.ts on the two other runtimes, in
 * front of the real broker: the Lambda handler (an API Gateway HTTP API event) and the Worker as
 * `wrangler deploy` bundles it, in workerd (Miniflare). A backtracking pattern answers quickly; a
 * body over the cap is a 413 on a percent-encoded or unknown path as on the plain one; an encoded
 * path gets its route's grant decision and content-type answer.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { LambdaEvent } from 'hono/aws-lambda';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { __lambdaInternals, handler } from '../../src/runtime/lambda.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { type RunningWorker, startWorker } from '../support/workerd.js';

const run = uniqueName('rthostile');
const demoGroup = `demo-${randomBytes(4).toString('hex')}`;
const MAX_BODY_BYTES = 65_536;
const newKey = () => randomBytes(24).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = { scraper: newKey(), nothing: newKey(), reader: newKey() };

const ENV: Record<string, string> = {
  AUTH_API_KEYS: Object.entries(KEYS)
    .map(([name, key]) => `${name}:${hashOf(key)}`)
    .join(','),
  AUTH_GRANTS: JSON.stringify({
    scraper: { groups: '*', actions: ['read', 'offsets'] },
    reader: { groups: '*', actions: ['offsets'] },
  }),
  MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  RATE_LIMIT_PER_MINUTE: '0',
  LOG_LEVEL: 'silent',
};

let workerd: RunningWorker;
let mf: Miniflare;

interface Answer {
  status: number;
  text: string;
  ms: number;
}

interface Ask {
  method?: string;
  key: string;
  body?: string;
  type?: string;
}

/** One request on the Lambda handler, as an HTTP API (payload 2.0) event. */
async function lambda(pathAndQuery: string, ask: Ask): Promise<Answer> {
  const [path = '/', query = ''] = pathAndQuery.split('?');
  const method = ask.method ?? 'GET';
  const headers: Record<string, string> = {
    host: 'abc123.execute-api.eu-west-1.amazonaws.com',
    authorization: `Bearer ${ask.key}`,
    ...(ask.type !== undefined && { 'content-type': ask.type }),
    ...(ask.body !== undefined && { 'content-length': String(Buffer.byteLength(ask.body)) }),
  };
  const event = {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: headers.host,
      domainPrefix: 'abc123',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'test' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: '$default',
      stage: '$default',
      time: '14/Nov/2023:22:13:20 +0000',
      timeEpoch: 1_700_000_000_000,
    },
    body: ask.body ?? null,
    isBase64Encoded: false,
  } as unknown as LambdaEvent;
  const start = performance.now();
  const res = (await handler(event)) as { statusCode: number; body: string };
  return { status: res.statusCode, text: res.body, ms: performance.now() - start };
}

/** One request on the Worker in workerd. */
async function worker(pathAndQuery: string, ask: Ask): Promise<Answer> {
  const start = performance.now();
  const res = await mf.dispatchFetch(`http://localhost${pathAndQuery}`, {
    method: ask.method ?? 'GET',
    headers: {
      authorization: `Bearer ${ask.key}`,
      ...(ask.type !== undefined && { 'content-type': ask.type }),
      ...(ask.body !== undefined && { 'content-length': String(Buffer.byteLength(ask.body)) }),
    },
    ...(ask.body !== undefined && { body: ask.body }),
  });
  const text = await res.text();
  return { status: res.status, text, ms: performance.now() - start };
}

beforeAll(async () => {
  Object.assign(process.env, { KAFKA_BROKERS: inject('kafkaBrokers'), ...ENV });
  await __lambdaInternals.reset();
  workerd = await startWorker(
    'hostile',
    {
      topics: [{ name: `${run}-events`, partitions: 1, records: 2 }],
      groups: [{ type: 'classic', groupId: demoGroup, topics: [`${run}-events`] }],
    },
    ENV,
  );
  mf = workerd.mf;
});

afterAll(async () => {
  await workerd?.close();
  await __lambdaInternals.reset();
});

for (const [name, send] of [
  ['the Lambda handler', lambda],
  ['the Worker in workerd', worker],
] as const) {
  describe(`${name} under a hostile caller`, () => {
    it('GET /metrics?allow=demo-(?:.*){32}x answers quickly; a bad pattern is a 400 naming it', async () => {
      const listed = await send(`/groups?prefix=${demoGroup}`, { key: KEYS.scraper });
      expect(listed.text).toContain(demoGroup);
      const scrape = await send(`/metrics?allow=${encodeURIComponent('demo-(?:.*){32}x')}`, {
        key: KEYS.scraper,
      });
      expect(scrape.status).toBe(200);
      expect(scrape.ms).toBeLessThan(5_000);
      const bad = await send(`/metrics?allow=${encodeURIComponent('(a)\\1')}`, { key: KEYS.scraper });
      expect(bad.status).toBe(400);
      expect(bad.text).toContain("query parameter 'allow'");
      expect(bad.text).toContain('RE2 refused it');
    });

    it('a body over the cap is a 413 on the plain, the encoded and an unknown path', async () => {
      const body = JSON.stringify({ groupIds: ['x'.repeat(MAX_BODY_BYTES)] });
      for (const path of ['/groups/describe', '/groups/%64escribe', '/no/such/route']) {
        const res = await send(path, { method: 'POST', key: KEYS.scraper, body, type: 'application/json' });
        expect(res.status, path).toBe(413);
        expect(res.ms, path).toBeLessThan(3_000);
      }
    });

    it('an encoded path gets its route’s grant decision and content-type answer', async () => {
      expect((await send('/%63luster', { key: KEYS.nothing })).status).toBe(403);
      expect((await send('/%63lusters/default', { key: KEYS.reader })).status).toBe(403);
      const plain = await send('/groups/%64escribe', {
        method: 'POST',
        key: KEYS.scraper,
        body: '{"groupIds":["a"]}',
        type: 'text/plain',
      });
      expect(plain.status).toBe(415);
    });
  });
}
