/**
 * A body that stops coming: the request's deadline passes while the client still owes bytes, so
 * the answer is the client's 408, not the 504 of a deadline the server missed. The group service
 * is a stand-in (a body that never completes reaches no broker).
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const service = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('stand-in service'))),
});
const appWith = (timeoutMs: number) =>
  createApp({
    service,
    security: securityFrom(
      loadConfig({
        KAFKA_BROKERS: '127.0.0.1:9',
        AUTH: 'none',
        WRITES: 'enabled',
        RATE_LIMIT_PER_MINUTE: '0',
        REQUEST_TIMEOUT_MS: String(timeoutMs),
      }),
    ),
  });
const app = appWith(300);

/** A body that sends its first bytes and then nothing more, ever. */
const stalled = (first: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
  });

describe('a request body that stops coming (stand-in service)', () => {
  for (const [method, path, declared] of [
    ['POST', '/groups/describe', '100'],
    ['POST', '/groups/describe', undefined],
    ['PATCH', '/groups/g/configs?type=classic&dryRun=true', '100'],
    ['POST', '/groups/g/offsets/reset', '100'],
    ['POST', '/mcp', '100'],
  ] as const) {
    it(`${method} ${path}, ${declared ? 'its length declared' : 'chunked'}: 408 client-timeout at the deadline`, async () => {
      const started = Date.now();
      const res = await app.request(path, {
        method,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(declared ? { 'content-length': declared } : { 'transfer-encoding': 'chunked' }),
        },
        body: stalled('{"groupIds":'),
        duplex: 'half',
      } as RequestInit);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(res.status).toBe(408);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const problem = (await res.json()) as { type: string; detail: string };
      expect(problem.type).toBe('/problems/client-timeout');
      expect(problem.detail).toBe('the request body did not arrive within 300 ms');
    });
  }

  it("a body that arrived in full is the route's to answer", async () => {
    const res = await appWith(10_000).request('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});
