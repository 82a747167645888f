/**
 * REQUEST_TIMEOUT_MS as one deadline per request, reaching the broker calls under the route. The
 * group service is a stand-in; its broker call is a stand-in that stalls (never answers).
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { bounded, type CallOptions, type Deadline } from '../../src/broker/deadline.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

function appWith(
  listUnsorted: (filter: unknown, options: CallOptions) => Promise<unknown>,
  timeoutMs: number,
) {
  const service = new Proxy({} as GroupService, {
    get: (_target, name) =>
      name === 'then'
        ? undefined
        : name === 'listUnsorted'
          ? listUnsorted
          : () => Promise.reject(new Error('stand-in service')),
  });
  const config = loadConfig({
    KAFKA_BROKERS: '127.0.0.1:9',
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    REQUEST_TIMEOUT_MS: String(timeoutMs),
  });
  return createApp({ service, security: securityFrom(config) });
}

describe('the request deadline (stand-in service and a stand-in broker call that stalls)', () => {
  it('is made once per request, from REQUEST_TIMEOUT_MS, and handed to the service', async () => {
    const seen: (Deadline | undefined)[] = [];
    const app = appWith(async (_filter, { deadline }) => {
      seen.push(deadline);
      return { groups: [], failures: [] };
    }, 5_000);
    expect((await app.request('/groups')).status).toBe(200);
    expect((await app.request('/groups')).status).toBe(200);
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    expect(first).toBeDefined();
    expect(first).not.toBe(second);
    expect(first?.totalMs).toBe(5_000);
    // Each counts from its own request: the second, made later, has at least as long left. (Not a
    // figure against the clock: beside two busy loops the two requests once took 2 s.)
    expect(first?.remainingMs()).toBeLessThanOrEqual(5_000);
    expect(second?.remainingMs()).toBeGreaterThanOrEqual(first?.remainingMs() ?? Number.POSITIVE_INFINITY);
  });

  it('abandons a broker call that would outlive it: the broker is named before the deadline', async () => {
    const app = appWith(
      (_filter, options) =>
        bounded('127.0.0.1:9092', 'ListGroups', options, new Promise<never>(() => undefined)),
      // The calls are cut a twentieth of the deadline before it: 20 ms of a 400 ms one, which a
      // loaded machine's timer lag overran, so the request's own timeout answered first. 100 ms of
      // 2 s is past that lag.
      2_000,
    );
    const started = Date.now();
    const res = await app.request('/groups');
    const elapsed = Date.now() - started;
    const body = (await res.json()) as { type: string; detail: string };
    expect(res.status).toBe(504);
    // The broker call's timeout, naming the broker, not the request's own (request-timeout): the
    // call was abandoned before the deadline, with the time left to answer.
    expect(body.type).toBe('/problems/broker-timeout');
    expect(body.detail).toContain('127.0.0.1:9092');
    // At the deadline less its reserve (what the answer is made in); the slack is for a loaded machine.
    expect(elapsed).toBeGreaterThanOrEqual(1_850);
    expect(elapsed).toBeLessThan(4_000);
  });
});
