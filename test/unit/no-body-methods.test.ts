/**
 * On the Node server, a request of a method no route serves there, sent with neither a length nor
 * chunks (Node's client sends OPTIONS and DELETE so; PUT and PATCH get a length of 0), has no body
 * (HTTP/1.1): it is a 405 with `Allow`, not a 415 for a body it never sent. A
 * body it does announce is still checked for its type. The group service is a stand-in: nothing
 * here reaches a broker.
 */

import { once } from 'node:events';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInApp } from '../support/stand-in-app.js';

const app = standInApp();

let server: ReturnType<typeof serve>;
let port = 0;
beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; allow: string | undefined; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          allow: res.headers.allow,
          type: res.headers['content-type'],
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a method without a route, on the Node server', () => {
  it.each(['OPTIONS', 'DELETE'])(
    '%s /healthz with no body is a 405 naming what is allowed',
    async (method) => {
      const res = await send(method, '/healthz');
      expect(res.status).toBe(405);
      expect(res.allow).toContain('GET');
      expect(res.type).toContain('application/problem+json');
    },
  );

  it('a body it announces is still refused for its type', async () => {
    const res = await send(
      'PUT',
      '/healthz',
      { 'content-type': 'text/plain', 'content-length': '5' },
      'hello',
    );
    expect(res.status).toBe(415);
  });
});
