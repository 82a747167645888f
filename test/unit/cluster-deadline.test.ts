/**
 * The cluster routes (GET /cluster, GET /clusters, GET /clusters/{alias}) pass the request's deadline
 * to the service themselves, outside the deadline's async scope (on Node 20 the first scope entered
 * turns on promise hooks for the whole process). A stand-in service never answers: each call made
 * under the request's deadline is cut at that deadline, and no deadline scope is ever entered.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { bounded, type CallOptions, deadlineScopeUsed } from '../../src/broker/deadline.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const never = () => new Promise<never>(() => undefined);

function stalledService() {
  const asked: { call: string; options: CallOptions | undefined }[] = [];
  const stall = (call: string) => (options?: CallOptions) => {
    asked.push({ call, options });
    return bounded('stand-in:9092', call, options, never());
  };
  const calls: Record<string, unknown> = {
    describeCluster: stall('Metadata'),
    apiVersions: stall('ApiVersions'),
  };
  const service = new Proxy({} as GroupService, {
    get: (_target, name) =>
      name === 'then' ? undefined : (calls[name as string] ?? (() => Promise.reject(new Error('stand-in')))),
  });
  return { service, asked };
}

describe('the cluster routes pass the request’s deadline (stand-in service that never answers)', () => {
  const config = loadConfig({
    KAFKA_BROKERS: '127.0.0.1:9',
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    // A reserve of 1 s between the calls' cut and the request's 504: the broker's timeout answers.
    REQUEST_TIMEOUT_MS: '20000',
  });
  // Fake clocks: a timer that fires late on a loaded machine cannot turn the broker's timeout into
  // the request's, and no test waits the 20 s.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GET /cluster and GET /clusters/{alias} are cut at the deadline they pass, in no scope', async () => {
    vi.useFakeTimers();
    const { service, asked } = stalledService();
    const app = createApp({ service, security: securityFrom(config) });
    const started = Date.now();
    for (const path of ['/cluster', '/clusters/default', '/clusters/default/cluster']) {
      const answering = app.request(path);
      await vi.advanceTimersByTimeAsync(19_000);
      const answer = await answering;
      expect(answer.status, path).toBe(504);
      expect(((await answer.json()) as { type: string }).type).toBe('/problems/broker-timeout');
    }
    // Each cut at its calls' cut (19 s), none at the request's 504 (20 s).
    expect(Date.now() - started).toBe(3 * 19_000);
    expect(asked.map((a) => a.call)).toEqual(['Metadata', 'Metadata', 'ApiVersions', 'Metadata']);
    for (const { options } of asked) expect(options?.deadline?.totalMs).toBe(20_000);
    expect(deadlineScopeUsed()).toBe(false);
  });

  it('GET /clusters asks no broker and enters no scope', async () => {
    const { service, asked } = stalledService();
    const app = createApp({ service, security: securityFrom(config) });
    const answer = await app.request('/clusters');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { clusters: { alias: string }[] }).clusters.map((k) => k.alias)).toEqual(
      ['default'],
    );
    expect(asked).toEqual([]);
    expect(deadlineScopeUsed()).toBe(false);
  });
});
