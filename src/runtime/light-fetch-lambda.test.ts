/**
 * hono/aws-lambda answers a small app (cookies, a binary answer, headers set after the answer, JSON
 * and base64 bodies) the same on the light Request, Response and Headers (light-fetch.ts) as on
 * Node's: the app bundled once with the light classes injected and once without.
 */

import { describe, expect, it } from 'vitest';
import { bundled } from '../../test/support/bundled.js';

/** A small Hono app behind hono/aws-lambda, bundled with the light classes injected or not. */
async function lambdaApp(light: boolean): Promise<(event: unknown) => Promise<unknown>> {
  const source = `
    import { Hono } from 'hono';
    import { handle } from 'hono/aws-lambda';
    const app = new Hono();
    app.use('/after', async (c, next) => { await next(); c.header('x-after', 'yes'); });
    app.get('/cookies', (c) => {
      c.header('set-cookie', 'a=1; Path=/', { append: true });
      c.header('Set-Cookie', 'b=2; HttpOnly', { append: true });
      return c.json({ ok: true }, 201, { 'x-many': ['1', '2'] });
    });
    app.get('/binary', (c) => c.body(new Uint8Array([0, 1, 2, 255]), 200, { 'content-type': 'image/png' }));
    app.get('/after', (c) => c.text('late'));
    app.post('/echo', async (c) => c.json({ got: await c.req.json(), type: c.req.header('content-type') }));
    export const handler = handle(app);
  `;
  const out = await bundled<{ handler: (event: unknown) => Promise<unknown> }>(source, {
    inject: light ? ['src/runtime/light-fetch.ts'] : [],
  });
  return out.handler;
}

describe('hono/aws-lambda on the light classes', () => {
  const v2 = (method: string, path: string, body: string | null = null, base64 = false) => ({
    version: '2.0',
    rawPath: path,
    rawQueryString: 'a=1&a=2',
    cookies: ['s=1', 't=2'],
    headers: { host: 'x.example', 'content-type': 'application/json' },
    requestContext: { domainName: 'x.example', http: { method, path } },
    body,
    isBase64Encoded: base64,
  });
  const v1 = (path: string) => ({
    version: '1.0',
    httpMethod: 'GET',
    path,
    headers: { Host: 'x.example' },
    multiValueHeaders: { Host: ['x.example'], 'X-Two': ['a', 'b'] },
    multiValueQueryStringParameters: { q: ['1', '2'] },
    requestContext: { domainName: 'x.example' },
    body: null,
    isBase64Encoded: false,
  });
  const alb = (path: string, multi: boolean) => ({
    requestContext: { elb: { targetGroupArn: 'arn' } },
    httpMethod: 'GET',
    path,
    ...(multi ? { multiValueHeaders: { host: ['x.example'] } } : { headers: { host: 'x.example' } }),
    body: '',
    isBase64Encoded: false,
  });

  it('cookies, binary answers, headers set after the answer, JSON and base64 bodies: as on Node', async () => {
    const [light, node] = [await lambdaApp(true), await lambdaApp(false)];
    const events = [
      v2('GET', '/cookies'),
      v2('GET', '/binary'),
      v2('GET', '/after'),
      v2('GET', '/nowhere'),
      v2('POST', '/echo', '{"x":[1]}'),
      v2('POST', '/echo', Buffer.from('{"y":2}').toString('base64'), true),
      v2('POST', '/echo', '{"bad"'),
      v1('/cookies'),
      v1('/binary'),
      alb('/cookies', true),
      alb('/cookies', false),
    ];
    // As Lambda reads them: the same JSON, header names in the same order.
    for (const event of events)
      expect(JSON.stringify(await light(event)), JSON.stringify(event)).toBe(
        JSON.stringify(await node(event)),
      );
    expect(await light(v2('GET', '/cookies'))).toMatchObject({
      statusCode: 201,
      cookies: ['a=1; Path=/', 'b=2; HttpOnly'],
      headers: { 'x-many': '1, 2' },
    });
    expect(await light(v1('/binary'))).toMatchObject({ isBase64Encoded: true, body: 'AAEC/w==' });
    expect(await light(v2('GET', '/after'))).toMatchObject({ body: 'late', headers: { 'x-after': 'yes' } });
  });
});
