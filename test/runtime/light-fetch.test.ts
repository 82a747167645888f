/**
 * The Lambda bundle answers on its own Request, Response and Headers (src/runtime/light-fetch.ts)
 * exactly as the same bundle on Node's: both built (one with the light classes injected, one
 * without), both answer one corpus of events from the real broker, and every result must be the
 * same, field for field (statusCode, headers, multiValueHeaders, cookies, body, isBase64Encoded).
 * The streaming handler too, under a stand-in of Lambda's `awslambda` global (its metadata and
 * the bytes it writes). And the first answer, a group made by Kafka's Java clients, leaves Node's
 * fetch classes unloaded on the light classes only.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildLambda } from '../../scripts/build.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';

const run = uniqueName('light');
const groupId = `${run}-classic`;
const missing = `${run}-missing`;
const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

type Event = Record<string, unknown>;

function v2(
  method: string,
  path: string,
  options: {
    query?: string;
    headers?: Record<string, string>;
    body?: string;
    base64?: boolean;
    cookies?: string[];
  } = {},
): Event {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: options.query ?? '',
    headers: { host: HOST, ...options.headers },
    ...(options.cookies && { cookies: options.cookies }),
    requestContext: {
      domainName: HOST,
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'test' },
      requestId: 'r',
      stage: '$default',
    },
    body: options.body ?? null,
    isBase64Encoded: options.base64 ?? false,
  };
}

function v1(
  method: string,
  path: string,
  query: Record<string, string[]>,
  headers: Record<string, string[]>,
): Event {
  return {
    version: '1.0',
    resource: '/{proxy+}',
    path,
    httpMethod: method,
    headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.at(-1)])),
    multiValueHeaders: headers,
    queryStringParameters: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v.at(-1)])),
    multiValueQueryStringParameters: query,
    requestContext: {
      domainName: HOST,
      httpMethod: method,
      path: `/prod${path}`,
      stage: 'prod',
      identity: { sourceIp: '203.0.113.10' },
    },
    body: null,
    isBase64Encoded: false,
  };
}

function alb(path: string, query: string, multi: boolean, headers: Record<string, string[]>): Event {
  const arn = 'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/kgr/0123456789abcdef';
  const params = Object.fromEntries(new URLSearchParams(query));
  return {
    requestContext: { elb: { targetGroupArn: arn } },
    httpMethod: 'GET',
    path,
    ...(multi
      ? {
          multiValueHeaders: headers,
          multiValueQueryStringParameters: Object.fromEntries(
            Object.entries(params).map(([k, v]) => [k, [v]]),
          ),
        }
      : {
          headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.join(',')])),
          queryStringParameters: params,
        }),
    body: '',
    isBase64Encoded: false,
  };
}

const json = { 'content-type': 'application/json' };
const reset = JSON.stringify({ strategy: 'earliest', topics: [{ topic: 'none' }] });
const mcp = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const mcpHeaders = { ...json, accept: 'application/json, text/event-stream' };

/** [name, event]: every shape of event, and the answers the app gives, on both bundles. */
const CORPUS = (): [string, Event][] => [
  ['v2 GET a group', v2('GET', `/groups/${groupId}`, { headers: { accept: 'application/json' } })],
  ['v2 GET /healthz', v2('GET', '/healthz')],
  ['v2 GET a missing group: 404 problem', v2('GET', `/groups/${missing}`)],
  ['v2 GET the groups, a query', v2('GET', '/groups', { query: `prefix=${run}&limit=5` })],
  ['v2 GET /groups?limit=abc: 400 problem', v2('GET', '/groups', { query: 'limit=abc' })],
  ['v2 GET with cookies', v2('GET', '/healthz', { cookies: ['a=1', 'b=2'] })],
  ['v2 HEAD /healthz', v2('HEAD', '/healthz')],
  ['v2 HEAD a group', v2('HEAD', `/groups/${groupId}`)],
  ['v2 DELETE /healthz: 405', v2('DELETE', '/healthz')],
  ['v2 GET an unknown path: 404', v2('GET', '/nowhere/at/all')],
  ['v2 GET the event stream, buffered: 501', v2('GET', `/groups/${groupId}/events`)],
  ['v2 GET with a header Node refuses: 400', v2('GET', '/healthz', { headers: { 'x-bad': 'a\nb' } })],
  ['v2 GET with a body, ignored as the Node server does', v2('GET', '/healthz', { body: 'x' })],
  ['v2 HEAD with a body, ignored', v2('HEAD', '/healthz', { body: 'x' })],
  [
    'v2 POST an invalid base64 body: 400 problem',
    v2('POST', `/groups/${missing}/offsets/reset`, { headers: json, body: '%%%', base64: true }),
  ],
  ['an empty event: 400 problem', {}],
  ['a null event: 400 problem', null as unknown as Event],
  ['v2 GET with a non-ASCII header', v2('GET', '/healthz', { headers: { 'x-name': 'zoë' } })],
  ['v2 GET NDJSON', v2('GET', '/groups.ndjson', { query: `prefix=${run}` })],
  ['v2 GET the document', v2('GET', '/openapi.json')],
  ['v2 GET text/html: 406', v2('GET', `/groups/${groupId}`, { headers: { accept: 'text/html' } })],
  [
    'v2 POST JSON, its fields checked: 400',
    v2('POST', `/groups/${missing}/offsets/reset`, { headers: json, body: reset }),
  ],
  [
    'v2 POST base64 JSON, its fields checked: 400',
    v2('POST', `/groups/${missing}/offsets/reset`, {
      headers: json,
      body: Buffer.from(reset).toString('base64'),
      base64: true,
    }),
  ],
  [
    'v2 POST malformed JSON: 400',
    v2('POST', `/groups/${missing}/offsets/reset`, { headers: json, body: '{"a":' }),
  ],
  [
    'v2 POST text: 415',
    v2('POST', `/groups/${missing}/offsets/reset`, { headers: { 'content-type': 'text/plain' }, body: 'hi' }),
  ],
  ['v2 POST /mcp tools/list', v2('POST', '/mcp', { headers: mcpHeaders, body: mcp })],
  [
    'v1 GET a group, multi-value headers and a query',
    v1(
      'GET',
      `/groups/${groupId}`,
      { type: ['classic'] },
      { Host: [HOST], Accept: ['application/json'], 'X-Many': ['a', 'b'] },
    ),
  ],
  ['v1 GET the groups', v1('GET', '/groups', { prefix: [run], limit: ['5'] }, { Host: [HOST] })],
  [
    'v1 GET the groups, a repeated limit: 400',
    v1('GET', '/groups', { prefix: ['a b'], limit: ['1', '2'] }, { Host: [HOST] }),
  ],
  ['v1 GET a missing group: 404', v1('GET', `/groups/${missing}`, {}, { Host: [HOST] })],
  ['v1 httpMethod null: 405', { ...v1('GET', '/healthz', {}, { Host: [HOST] }), httpMethod: null }],
  ['ALB GET a group', alb(`/groups/${groupId}`, '', false, { host: [HOST], accept: ['application/json'] })],
  [
    'ALB GET the groups, multi-value',
    alb('/groups', `prefix=${run}`, true, { host: [HOST], 'x-many': ['a', 'b'] }),
  ],
  ['ALB GET /groups?limit=-1: 400', alb('/groups', 'limit=-1', true, { host: [HOST] })],
];

/** Streamed, through `streamHandler`. */
const STREAMED = (): [string, Event][] => [
  ['stream GET /healthz', v2('GET', '/healthz')],
  ['stream GET a group', v2('GET', `/groups/${groupId}`)],
  ['stream GET NDJSON', v2('GET', '/groups.ndjson', { query: `prefix=${run}` })],
  ['stream GET a missing group: 404', v2('GET', `/groups/${missing}`)],
];

const CHILD = `
import { readFileSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
globalThis.awslambda = {
  streamifyResponse: (f) => f,
  HttpResponseStream: { from: (stream, meta) => { stream.meta = meta; return stream; } },
};
const { handler, streamHandler, __lambdaInternals } = await import(process.env.BUNDLE);
const { corpus, streamed } = JSON.parse(readFileSync(process.env.CORPUS, 'utf8'));
const out = {};
const undici = () => process.moduleLoadList.some((m) => m.includes('undici'));
const loaded = {};
for (const [name, event] of corpus) {
  out[name] = await handler(event, {});
  loaded[name] = undici();
}
for (const [name, event] of streamed) {
  const sink = new PassThrough();
  const chunks = [];
  sink.on('data', (c) => chunks.push(c));
  await streamHandler(event, sink, {});
  out[name] = { meta: sink.meta, body: Buffer.concat(chunks).toString() };
}
await __lambdaInternals.reset();
writeFileSync(process.env.OUT, JSON.stringify({ out, loaded }));
process.exit(0);
`;

let fixtures: RunningFixtures;
let dir: string;
const answers: Record<'light' | 'node', Record<string, unknown>> = { light: {}, node: {} };
/** Whether Node's fetch classes (undici) were loaded after each answer. */
const loaded: Record<'light' | 'node', Record<string, boolean>> = { light: {}, node: {} };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kgr-light-fetch-'));
  fixtures = await startFixtures({
    bootstrap: inject('kafkaBrokers'),
    topics: [{ name: `${run}-events`, partitions: 2, records: 4 }],
    groups: [{ type: 'classic', groupId, topics: [`${run}-events`] }],
  });
  await writeFile(join(dir, 'corpus.json'), JSON.stringify({ corpus: CORPUS(), streamed: STREAMED() }));
  const built = {
    light: await buildLambda(join(dir, 'light')),
    node: await buildLambda(join(dir, 'node'), []),
  };
  for (const kind of ['light', 'node'] as const) {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD], {
      env: {
        PATH: process.env.PATH,
        KAFKA_BROKERS: inject('kafkaBrokers'),
        AUTH: 'none',
        LOG_LEVEL: 'silent',
        // Quotas left out: their reset counts seconds, which two runs need not share.
        RATE_LIMIT_PER_MINUTE: '0',
        BUNDLE: built[kind].entry,
        CORPUS: join(dir, 'corpus.json'),
        OUT: join(dir, `${kind}.json`),
      },
    });
    ({ out: answers[kind], loaded: loaded[kind] } = JSON.parse(
      await readFile(join(dir, `${kind}.json`), 'utf8'),
    ));
  }
}, 180_000);

afterAll(async () => {
  await fixtures?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the Lambda bundle's own fetch classes answer as Node's", () => {
  it.each(CORPUS().map(([name]) => name))('%s', (name) => {
    expect(answers.light[name]).toBeDefined();
    // As Lambda reads them: the same JSON, keys (header names) in the same order.
    expect(JSON.stringify(answers.light[name])).toBe(JSON.stringify(answers.node[name]));
  });

  it.each(STREAMED().map(([name]) => name))('%s', (name) => {
    expect(answers.light[name]).toBeDefined();
    // As Lambda reads them: the same JSON, keys (header names) in the same order.
    expect(JSON.stringify(answers.light[name])).toBe(JSON.stringify(answers.node[name]));
  });

  it("a first answer, a group found, loads Node's fetch classes on Node's only", () => {
    expect([loaded.light['v2 GET a group'], loaded.node['v2 GET a group']]).toEqual([false, true]);
  });

  it('the corpus reaches the answers it is meant to', () => {
    const status = (name: string) => (answers.node[name] as { statusCode: number }).statusCode;
    expect(status('v2 GET a group')).toBe(200);
    expect(status('v2 GET a missing group: 404 problem')).toBe(404);
    expect(status('v2 GET /groups?limit=abc: 400 problem')).toBe(400);
    expect(status('v2 DELETE /healthz: 405')).toBe(405);
    expect(status('v2 GET the event stream, buffered: 501')).toBe(501);
    expect(status('v2 GET with a header Node refuses: 400')).toBe(400);
    expect(status('v2 GET with a body, ignored as the Node server does')).toBe(200);
    for (const name of [
      'v2 POST an invalid base64 body: 400 problem',
      'an empty event: 400 problem',
      'a null event: 400 problem',
    ])
      expect(JSON.parse((answers.node[name] as { body: string }).body).type).toBe(
        '/problems/malformed-request',
      );
    expect(status('v2 POST text: 415')).toBe(415);
    expect(status('v2 POST /mcp tools/list')).toBe(200);
    expect(status('v1 GET a group, multi-value headers and a query')).toBe(200);
    expect(status('v1 GET the groups, a repeated limit: 400')).toBe(400);
    for (const name of [
      'v2 POST JSON, its fields checked: 400',
      'v2 POST base64 JSON, its fields checked: 400',
    ])
      expect((answers.node[name] as { body: string }).body).toContain("unknown body field 'strategy'");
    expect((answers.node['v2 GET NDJSON'] as { isBase64Encoded: boolean }).isBase64Encoded).toBe(true);
    expect(status('ALB GET a group')).toBe(200);
    const group = answers.node['v2 GET a group'] as { body: string };
    expect(JSON.parse(group.body).groupId).toBe(groupId);
    const streamed = answers.node['stream GET NDJSON'] as { meta: { statusCode: number }; body: string };
    expect(streamed.meta.statusCode).toBe(200);
    expect(streamed.body).toContain(groupId);
  });
});
