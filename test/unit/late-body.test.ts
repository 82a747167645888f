/**
 * A body that completes only after the request's deadline was answered 408, or whose read fails:
 * the route must not run on it (no describe, no member removal, no config change after the client
 * was told its request did not arrive). The group service is a stand-in that records every call.
 */

import { describe, expect, it } from 'vitest';
import { type StandInMethods, standInApp } from '../support/stand-in-app.js';

const calls: string[] = [];
const recording = new Proxy({} as StandInMethods, {
  get: (_target, name) =>
    name === 'then'
      ? undefined
      : async () => {
          calls.push(String(name));
          throw new Error('stand-in service');
        },
});
const app = standInApp(recording, { WRITES: 'enabled', REQUEST_TIMEOUT_MS: '300' });

const ROUTES = [
  ['POST', '/groups/describe', '{"groupIds":["g1"]}'],
  ['POST', '/groups/g/offsets/reset', '{"type":"classic","scenario":"to-earliest","topics":[{"topic":"t"}]}'],
  ['POST', '/groups/g/members/remove?type=classic', '{"instanceIds":["i1"]}'],
  ['PATCH', '/groups/g/configs?type=share', '{"set":{"share.auto.offset.reset":"earliest"}}'],
] as const;

const send = (method: string, url: string, bytes: Uint8Array, body: ReadableStream<Uint8Array>) =>
  app.request(url, {
    method,
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
    body,
    duplex: 'half',
  } as RequestInit);

describe('a body that completes after its 408, or fails to arrive (stand-in service)', () => {
  for (const [method, url, json] of ROUTES) {
    it(`${method} ${url}: 408 for a body that came late, and the service is never asked`, async () => {
      calls.length = 0;
      const bytes = new TextEncoder().encode(json);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.subarray(0, 5));
          setTimeout(() => {
            controller.enqueue(bytes.subarray(5));
            controller.close();
          }, 600);
        },
      });
      const res = await send(method, url, bytes, body);
      expect(res.status).toBe(408);
      expect(await res.json()).toMatchObject({ type: '/problems/client-timeout' });
      // The rest of the body arrives at 600 ms: give the route its chance to (wrongly) run.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(calls).toEqual([]);
    });
  }

  it('a body whose read fails is answered without the route running', async () => {
    calls.length = 0;
    const [method, url, json] = ROUTES[0];
    const bytes = new TextEncoder().encode(json);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 5));
        setTimeout(() => controller.error(new Error('connection reset')), 20);
      },
    });
    const res = await send(method, url, bytes, body);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: '/problems/malformed-request' });
    expect(calls).toEqual([]);
  });

  it('a whole body still reaches the route', async () => {
    calls.length = 0;
    const [method, url, json] = ROUTES[0];
    const bytes = new TextEncoder().encode(json);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    });
    await send(method, url, bytes, body);
    expect(calls).toEqual(['describeGroups']);
  });
});
