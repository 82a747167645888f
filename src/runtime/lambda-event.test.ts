import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { __lambdaInternals, handler } from './lambda.js';

const HOST = 'abc123.execute-api.eu-west-1.amazonaws.com';

function v2(method: string, path: string, extra: Record<string, unknown> = {}) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { host: HOST },
    requestContext: {
      domainName: HOST,
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.10', userAgent: 'test' },
      requestId: 'r',
      stage: '$default',
    },
    body: null,
    isBase64Encoded: false,
    ...extra,
  };
}

const call = (event: unknown) => handler(event as never, {} as never);

describe('a Lambda event that is no ordinary request', () => {
  const saved = { ...process.env };
  let errors: ReturnType<typeof vi.spyOn>;
  beforeAll(() => {
    // /healthz needs no broker: a port nothing listens on, the function's own configuration.
    Object.assign(process.env, { AUTH: 'none', KAFKA_BROKERS: '127.0.0.1:1', LOG_LEVEL: 'silent' });
    errors = vi.spyOn(console, 'error');
  });
  afterAll(async () => {
    await __lambdaInternals.reset();
    process.env = saved;
    errors.mockRestore();
  });

  it.each(['GET', 'HEAD', 'get'])(
    '%s with a body: the body ignored, the route answers, as the Node server does',
    async (method) => {
      const result = await call(v2(method, '/healthz', { body: 'x' }));
      expect(result.statusCode).toBe(200);
      if (method !== 'HEAD') expect(JSON.parse(result.body)).toEqual({ status: 'ok' });
      const base64 = await call(v2(method, '/healthz', { body: '%%', isBase64Encoded: true }));
      expect(base64.statusCode).toBe(400);
    },
  );

  it.each([
    [
      'an invalid base64 body',
      v2('POST', '/groups/describe', { body: '%%%', isBase64Encoded: true }),
      'not valid base64',
    ],
    ['an empty event', {}, "expected a path starting with '/'"],
    ['a null event', null, 'expected an object, received null'],
    ['an array', [], 'received an array'],
    [
      'a v1 event with no path',
      { httpMethod: 'GET', headers: {}, multiValueHeaders: {} },
      'rawPath for payload 2.0',
    ],
  ])('%s: a 400 malformed-request problem naming the fault', async (_name, event, detail) => {
    const result = (await call(event)) as {
      statusCode: number;
      headers?: Record<string, string>;
      multiValueHeaders?: Record<string, string[]>;
      body: string;
    };
    expect(result.statusCode).toBe(400);
    const type = result.headers?.['content-type'] ?? result.multiValueHeaders?.['content-type']?.[0];
    expect(type).toBe('application/problem+json');
    const problem = JSON.parse(result.body);
    expect(problem).toMatchObject({ type: '/problems/malformed-request', status: 400 });
    expect(problem.detail).toContain(detail);
  });

  it('logs no stack for any of them', () => {
    expect(errors).not.toHaveBeenCalled();
  });
});
