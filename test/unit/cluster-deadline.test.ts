/**
 * The cluster routes (GET /cluster, GET /clusters, GET /clusters/{alias}) pass the request's deadline
 * to the service. A stand-in service never answers: each call made under the request's deadline is
 * cut at that deadline.
 */

import { afterEach, describe, expect, it, vi } from 'vitest';
import { bounded, type CallOptions } from '../../src/broker/deadline.js';
import { standInApp } from '../support/stand-in-app.js';

const never = () => new Promise<never>(() => undefined);

/** The app over a service whose broker calls never answer; the calls made, with their options. */
function stalledApp() {
  const asked: { call: string; options: CallOptions | undefined }[] = [];
  const stall = (call: string) => (options: CallOptions) => {
    asked.push({ call, options });
    return bounded('stand-in:9092', call, options, never());
  };
  // A reserve of 1 s between the calls' cut and the request's 504: the broker's timeout answers.
  const app = standInApp(
    { describeCluster: stall('Metadata'), apiVersions: stall('ApiVersions') },
    { REQUEST_TIMEOUT_MS: '20000' },
  );
  return { app, asked };
}

describe('the cluster routes pass the request’s deadline (stand-in service that never answers)', () => {
  // Fake clocks: a timer that fires late on a loaded machine cannot turn the broker's timeout into
  // the request's, and no test waits the 20 s.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('GET /cluster and GET /clusters/{alias} are cut at the deadline they pass', async () => {
    vi.useFakeTimers();
    const { app, asked } = stalledApp();
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
  });

  it('GET /clusters asks no broker', async () => {
    const { app, asked } = stalledApp();
    const answer = await app.request('/clusters');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { clusters: { alias: string }[] }).clusters.map((k) => k.alias)).toEqual(
      ['default'],
    );
    expect(asked).toEqual([]);
  });
});
