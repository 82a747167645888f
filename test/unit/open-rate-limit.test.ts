/**
 * The open paths (/healthz, /readyz, /openapi.json, /docs and its assets) have a bucket of their
 * own per client address: generous by default, never unlimited, and apart from the callers'
 * buckets. The group service is a stand-in: /healthz never calls it.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { type Env, loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { bindingLimiter } from '../../src/http/rate-limit.js';
import { securityFrom } from '../../src/http/security.js';

const stub = new Proxy({} as GroupService, {
  get: (_target, name) => (name === 'then' ? undefined : () => Promise.reject(new Error('stand-in service'))),
});
const appWith = (env: Env) =>
  createApp({ service: stub, security: securityFrom(loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', ...env })) });

describe('the open paths’ bucket', () => {
  it('limits /healthz, /openapi.json and /docs together, with a Retry-After', async () => {
    const app = appWith({
      AUTH: 'none',
      RATE_LIMIT_PER_MINUTE: '0',
      // One token every 10 s: the first /openapi.json builds the document, which may take a
      // second on a loaded machine, and must not see the bucket refill meanwhile.
      RATE_LIMIT_OPEN_PER_MINUTE: '6',
      RATE_LIMIT_OPEN_BURST: '3',
    });
    for (const path of ['/healthz', '/openapi.json', '/docs'])
      expect((await app.request(path)).status, path).toBe(200);
    const refused = await app.request('/healthz');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({ type: '/problems/rate-limited' });
    expect((await app.request('/docs')).status).toBe(429);
  });

  it('is on by default: 600 at once (and 100 a second), then 429', async () => {
    const app = appWith({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
    const statuses = new Map<number, number>();
    for (let i = 0; i < 800; i++) {
      const { status } = await app.request('/healthz');
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(statuses.get(200)).toBeGreaterThanOrEqual(600);
    expect(statuses.get(429)).toBeGreaterThanOrEqual(1);
  });

  it('is apart from the callers’ bucket: an exhausted API bucket leaves /healthz open, and back', async () => {
    const app = appWith({
      AUTH: 'none',
      RATE_LIMIT_PER_MINUTE: '60',
      RATE_LIMIT_BURST: '1',
      RATE_LIMIT_OPEN_BURST: '2',
      // One token a minute: none comes back between the requests, however slow the machine. The
      // default (100 a second) gave one back within 10 ms, and a loaded run saw a third 200.
      RATE_LIMIT_OPEN_PER_MINUTE: '1',
    });
    await app.request('/groups');
    expect((await app.request('/groups')).status).toBe(429);
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/healthz')).status).toBe(429);
  });
});

describe("the Worker's rate-limit binding", () => {
  it('a refusal carries RateLimit with nothing left; the binding’s unknown limit, no policy and no draft-06 trio', async () => {
    let success = true;
    const binding = { limit: async () => ({ success }) };
    const config = loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', AUTH: 'none', RATE_LIMIT_PER_MINUTE: '60' });
    const app = createApp({
      service: stub,
      security: securityFrom(config, { rateLimiter: bindingLimiter(binding) }),
    });
    const passed = await app.request('/groups/g/lag');
    expect(passed.headers.get('ratelimit')).toBeNull();
    success = false;
    const refused = await app.request('/groups/g/lag');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit')).toBe('"default";r=0;t=60');
    expect(refused.headers.get('retry-after')).toBe('60');
    for (const name of ['ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'])
      expect(refused.headers.get(name), name).toBeNull();
  });
});
