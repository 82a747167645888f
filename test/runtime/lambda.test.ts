/**
 * The Lambda handler as AWS calls it: API Gateway REST (v1), HTTP API (v2), a function URL and an
 * ALB target, each event shape answered from the real broker; then a warm invocation after its
 * sockets died (as they may while Lambda keeps the function frozen).
 */

import { PassThrough } from 'node:stream';
import type { LambdaEvent } from 'hono/aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { __lambdaInternals, handler } from '../../src/runtime/lambda.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { connectMcp, MCP_ERAS } from '../support/mcp-clients.js';

const run = uniqueName('lambda');
const groupId = `${run}-classic`;
const missing = `${run}-missing`;
let fixtures: RunningFixtures;

const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

/** API Gateway REST API (payload 1.0), proxy integration. */
function v1(path: string, query: Record<string, string> = {}): LambdaEvent {
  const hasQuery = Object.keys(query).length > 0;
  return {
    version: '1.0',
    resource: '/{proxy+}',
    path,
    httpMethod: 'GET',
    headers: { Host: HOST, Accept: 'application/json' },
    multiValueHeaders: { Host: [HOST], Accept: ['application/json'] },
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery
      ? Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]]))
      : null,
    pathParameters: { proxy: path.slice(1) },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: HOST,
      httpMethod: 'GET',
      path: `/prod${path}`,
      protocol: 'HTTP/1.1',
      requestId: 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef',
      requestTimeEpoch: 1_700_000_000_000,
      resourcePath: '/{proxy+}',
      stage: 'prod',
      identity: { sourceIp: '203.0.113.10', userAgent: 'test' },
    },
    body: null,
    isBase64Encoded: false,
  } as unknown as LambdaEvent;
}

/** API Gateway HTTP API (payload 2.0); a function URL sends the same shape with its own domain. */
function v2(path: string, query: Record<string, string> = {}, domainName = HOST): LambdaEvent {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { host: domainName, accept: 'application/json' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName,
      domainPrefix: domainName.split('.')[0],
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'test' },
      requestId: 'JKJaXmPLvHcESHA=',
      routeKey: '$default',
      stage: '$default',
      time: '14/Nov/2023:22:13:20 +0000',
      timeEpoch: 1_700_000_000_000,
    },
    body: null,
    isBase64Encoded: false,
  } as unknown as LambdaEvent;
}

/** Application Load Balancer target (multi-value headers off). */
function alb(path: string, query: Record<string, string> = {}): LambdaEvent {
  return {
    requestContext: {
      elb: {
        targetGroupArn:
          'arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/kgr/0123456789abcdef',
      },
    },
    httpMethod: 'GET',
    path,
    // ALB passes query values as they came, still percent-encoded.
    queryStringParameters: Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, encodeURIComponent(v)]),
    ),
    headers: { host: 'kgr-123456789.eu-west-1.elb.amazonaws.com', accept: 'application/json' },
    body: '',
    isBase64Encoded: false,
  } as unknown as LambdaEvent;
}

const shapes: Array<[string, (path: string, query?: Record<string, string>) => LambdaEvent]> = [
  ['API Gateway v1', v1],
  ['API Gateway v2', (p, q) => v2(p, q)],
  ['function URL', (p, q) => v2(p, q, 'abcdefghijklmnop.lambda-url.eu-west-1.on.aws')],
  ['ALB', alb],
];

interface Result {
  statusCode: number;
  body: string;
  isBase64Encoded: boolean;
  headers?: Record<string, string | string[]>;
  multiValueHeaders?: Record<string, string[]>;
}

async function invoke(
  event: LambdaEvent,
): Promise<Result & { json: Record<string, unknown>; contentType: string }> {
  const result = (await handler(event)) as Result;
  const contentType = String(
    result.headers?.['content-type'] ?? result.multiValueHeaders?.['content-type']?.[0],
  );
  return { ...result, json: JSON.parse(result.body) as Record<string, unknown>, contentType };
}

beforeAll(async () => {
  process.env.KAFKA_BROKERS = inject('kafkaBrokers');
  process.env.AUTH = 'none';
  process.env.LOG_LEVEL = 'silent';
  await __lambdaInternals.reset();
  fixtures = await startFixtures({
    bootstrap: inject('kafkaBrokers'),
    topics: [{ name: `${run}-events`, partitions: 2, records: 4 }],
    groups: [{ type: 'classic', groupId, topics: [`${run}-events`] }],
  });
});

afterAll(async () => {
  await __lambdaInternals.reset();
  await fixtures?.stop();
});

describe('the Lambda handler', () => {
  for (const [name, event] of shapes) {
    it(`${name}: GET /groups lists the group (query string included)`, async () => {
      // The prefix keeps the answer to this run's groups whatever else the broker holds.
      const res = await invoke(event('/groups', { prefix: run }));
      expect(res.statusCode).toBe(200);
      expect(res.isBase64Encoded).toBe(false);
      expect(res.contentType).toMatch(/^application\/json/);
      expect(res.json.groups).toEqual([
        expect.objectContaining({ groupId, type: 'classic', state: 'Stable' }),
      ]);
      expect(res.json.failures).toEqual([]);
    });

    it(`${name}: GET /groups/{id} describes it, a missing one is a problem+json 404`, async () => {
      const res = await invoke(event(`/groups/${encodeURIComponent(groupId)}`));
      expect(res.statusCode).toBe(200);
      expect(res.json).toMatchObject({ type: 'classic', groupId, state: 'Stable', protocolType: 'consumer' });
      expect(res.json.members).toHaveLength(1);

      const gone = await invoke(event(`/groups/${missing}`));
      expect(gone.statusCode).toBe(404);
      expect(gone.contentType).toBe('application/problem+json');
      expect(gone.json).toMatchObject({ type: '/problems/group-not-found', status: 404, groupId: missing });
    });
  }

  it('a cold start opens its broker connection before the app needs it: a first /healthz, which asks no broker, opened one', async () => {
    await __lambdaInternals.reset();
    expect(((await handler(v2('/healthz'))) as Result).statusCode).toBe(200);
    const cluster = await __lambdaInternals.cluster();
    await vi.waitFor(() => expect(cluster?.connectionStats().opened).toBe(1));
    await vi.waitFor(() => expect(cluster?.openSockets()).toHaveLength(1));
    expect((await invoke(v2(`/groups/${encodeURIComponent(groupId)}`))).statusCode).toBe(200);
  });

  it('a first invocation that fails on its configuration is built afresh by the next one', async () => {
    await __lambdaInternals.reset();
    const auth = process.env.AUTH;
    process.env.AUTH = 'no-such-mode';
    try {
      await expect(handler(v2('/healthz'))).rejects.toThrow(/^AUTH: /);
    } finally {
      process.env.AUTH = auth;
    }
    expect(((await handler(v2('/healthz'))) as Result).statusCode).toBe(200);
  });

  it('v1 with multi-value headers answers in multi-value headers', async () => {
    const res = (await handler(v1('/healthz'))) as Result;
    expect(res.statusCode).toBe(200);
    expect(res.multiValueHeaders?.['content-type']).toEqual([expect.stringMatching(/^application\/json/)]);
  });

  it('warm invocations reuse the client and its sockets', async () => {
    const cluster = await __lambdaInternals.cluster();
    expect(cluster).toBeDefined();
    const before = cluster?.connectionStats().opened;
    for (let i = 0; i < 3; i++) expect((await invoke(v2(`/groups/${groupId}`))).statusCode).toBe(200);
    expect(await __lambdaInternals.cluster()).toBe(cluster);
    expect(cluster?.connectionStats().opened).toBe(before);
  });

  it('after its sockets died while frozen, the next invocation answers 200 on new ones', async () => {
    const cluster = await __lambdaInternals.cluster();
    const sockets = cluster?.openSockets() ?? [];
    expect(sockets.length).toBeGreaterThan(0);
    const opened = cluster?.connectionStats().opened ?? 0;
    for (const socket of sockets) socket.destroy();

    const started = Date.now();
    const res = await invoke(v2(`/groups/${encodeURIComponent(groupId)}`));
    expect(res.statusCode).toBe(200);
    expect(res.json).toMatchObject({ groupId, state: 'Stable' });
    expect(Date.now() - started, 'no wait for a request timeout').toBeLessThan(3_000);
    expect(cluster?.connectionStats().opened).toBeGreaterThan(opened);
    expect((await invoke(alb('/groups', { prefix: run }))).json.groups).toHaveLength(1);
  });
  it.each(MCP_ERAS)(
    'POST /mcp (HTTP API v2), %s: lists the tools, and a tool call answers from the broker',
    async (_, era) => {
      // The SDK's fetch, as an HTTP API event and back: what API Gateway does in between.
      const viaLambda = async (url: string | URL, init?: RequestInit): Promise<Response> => {
        const event = v2(new URL(url).pathname) as unknown as {
          headers: Record<string, string>;
          requestContext: { http: { method: string } };
          body: string | null;
        };
        event.requestContext.http.method = init?.method ?? 'GET';
        new Headers(init?.headers).forEach((value, name) => {
          event.headers[name] = value;
        });
        event.body = typeof init?.body === 'string' ? init.body : null;
        const result = (await handler(event as unknown as LambdaEvent)) as Result;
        const headers = new Headers(result.headers as Record<string, string>);
        return new Response(result.statusCode === 202 ? null : result.body, {
          status: result.statusCode,
          headers,
        });
      };
      const client = await connectMcp(era, new URL(`https://${HOST}/mcp`), { fetch: viaLambda });
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('describe_consumer_group');
        const described = (await client.callTool({
          name: 'describe_consumer_group',
          arguments: { groupId },
        })) as {
          isError?: boolean;
          structuredContent?: Record<string, unknown>;
        };
        expect(described.isError).toBeFalsy();
        expect(described.structuredContent).toMatchObject({ groupId, type: 'classic', state: 'Stable' });
      } finally {
        await client.close();
      }
    },
  );
});

describe('event streams on Lambda', () => {
  it('the buffered handler answers them 501 event-streams-unsupported', async () => {
    for (const path of [`/groups/${encodeURIComponent(groupId)}/events`, '/groups.events']) {
      const res = await invoke(v2(path));
      expect(res.statusCode, path).toBe(501);
      expect(res.json).toMatchObject({ type: '/problems/event-streams-unsupported' });
    }
  });

  it('streamHandler answers an event that is no HTTP request as the buffered handler does, with no stack logged', async () => {
    const globals = globalThis as { awslambda?: unknown };
    let metadata: { statusCode?: number; headers?: Record<string, string> } = {};
    globals.awslambda = {
      streamifyResponse: (fn: unknown) => fn,
      HttpResponseStream: {
        from: (stream: PassThrough, meta: typeof metadata) => {
          metadata = meta;
          return stream;
        },
      },
    };
    const logged = vi.spyOn(console, 'error');
    vi.resetModules();
    try {
      const lambda = await import('../../src/runtime/lambda.js');
      const events = [
        {},
        { ...v2('/healthz'), rawPath: 'healthz' },
        { ...v2('/healthz'), isBase64Encoded: true, body: '%%%' },
      ];
      for (const event of events) {
        const out = new PassThrough();
        let text = '';
        out.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        await lambda.streamHandler?.(event, out, {});
        await new Promise((resolve) => out.once('end', resolve).resume());
        const buffered = (await lambda.handler(event as never)) as { statusCode: number; body: string };
        expect(metadata.statusCode, JSON.stringify(event).slice(0, 80)).toBe(400);
        expect(metadata.headers?.['content-type']).toBe('application/problem+json');
        expect(JSON.parse(text)).toMatchObject({ type: '/problems/malformed-request', status: 400 });
        expect(text).toBe(buffered.body);
      }
      expect(logged).not.toHaveBeenCalled();
      await lambda.__lambdaInternals.reset();
    } finally {
      logged.mockRestore();
      delete globals.awslambda;
    }
  });

  // Lambda's Node runtime gives response streaming through a global `awslambda`, stood in here
  // by its two calls: streamifyResponse (the handler as is) and HttpResponseStream.from.
  it('streamHandler streams them through response streaming, to the end of their lifetime', async () => {
    const globals = globalThis as { awslambda?: unknown };
    let metadata: { statusCode?: number; headers?: Record<string, string> } = {};
    globals.awslambda = {
      streamifyResponse: (fn: unknown) => fn,
      HttpResponseStream: {
        from: (stream: PassThrough, meta: typeof metadata) => {
          metadata = meta;
          return stream;
        },
      },
    };
    Object.assign(process.env, {
      EVENTS_MIN_POLL_INTERVAL_MS: '200',
      EVENTS_POLL_INTERVAL_MS: '300',
      EVENTS_MAX_LIFETIME_MS: '2000',
    });
    vi.resetModules();
    try {
      const lambda = await import('../../src/runtime/lambda.js');
      expect(lambda.streamHandler).toBeDefined();
      // The stream's 2 s lifetime is for its polls: on a loaded machine the cold module's first
      // connection (connect, ApiVersions, Metadata, FindCoordinator) alone took longer, and the
      // stream ended with no snapshot. One describe first opens the connection the stream reuses.
      const warm = (await lambda.handler(v2(`/groups/${encodeURIComponent(groupId)}`) as never)) as {
        statusCode: number;
      };
      expect(warm.statusCode).toBe(200);
      const out = new PassThrough();
      let text = '';
      out.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      await lambda.streamHandler?.(v2(`/groups/${encodeURIComponent(groupId)}/events`), out, {});
      expect(metadata.statusCode).toBe(200);
      expect(metadata.headers?.['content-type']).toMatch(/^text\/event-stream/);
      expect(text).toMatch(/^event: group$/m);
      expect(text).toMatch(/^event: end$/m);
      await lambda.__lambdaInternals.reset();
    } finally {
      delete globals.awslambda;
      for (const name of ['EVENTS_MIN_POLL_INTERVAL_MS', 'EVENTS_POLL_INTERVAL_MS', 'EVENTS_MAX_LIFETIME_MS'])
        delete process.env[name];
    }
  });
});
