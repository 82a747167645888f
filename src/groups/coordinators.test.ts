import { afterEach, describe, expect, it, vi } from 'vitest';
import { bounded, type CallOptions, Deadline, NO_DEADLINE } from '../broker/deadline.js';
import { BrokerTimeoutError } from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import type { KafkaCluster } from '../broker/transport/cluster.js';
import type { BrokerConnection } from '../broker/transport/connection.js';
import { Coordinators } from './coordinators.js';
import { CoordinatorUnavailableError } from './errors.js';
import type { BrokerRef } from './model.js';
import { ok } from './outcome.js';

/**
 * A link that answers FindCoordinator from a table after `delayMs` and records each request's
 * keys: ids starting with 'x' have no coordinator yet (COORDINATOR_NOT_AVAILABLE).
 */
function fakeLink({
  delayMs = 5,
  version = 6,
  slowKey = '',
  slowMs = 0,
  held,
}: {
  delayMs?: number;
  version?: number;
  slowKey?: string;
  slowMs?: number;
  held?: Promise<void>;
} = {}) {
  const requests: string[][] = [];
  const nodeOf = (id: string) => (id.charCodeAt(id.length - 1) % 2) + 1;
  const connection = {
    label: 'fake:9092',
    versionFor: async () => version,
    async send(_api: unknown, build: unknown) {
      const request = (typeof build === 'function' ? build(version) : build) as {
        coordinatorKeys?: string[];
        key?: string;
      };
      const keys = request.coordinatorKeys ?? [request.key as string];
      requests.push([...keys]);
      // A request with `slowKey` waits `slowMs`, or for `held` when given: the order of turns then
      // does not hang on timers firing on time.
      if (held && keys.includes(slowKey)) await held;
      else await new Promise((resolve) => setTimeout(resolve, keys.includes(slowKey) ? slowMs : delayMs));
      const answer = (key: string) => ({
        key,
        nodeId: key.startsWith('x') ? -1 : nodeOf(key),
        host: key.startsWith('x') ? '' : 'broker',
        port: key.startsWith('x') ? -1 : 9090 + nodeOf(key),
        errorCode: key.startsWith('x') ? ErrorCode.COORDINATOR_NOT_AVAILABLE : ErrorCode.NONE,
        errorMessage: null,
      });
      return version >= 4
        ? { response: { coordinators: keys.map(answer) } }
        : { response: answer(keys[0] as string) };
    },
  } as unknown as BrokerConnection;
  const cluster = {
    requestTimeoutMs: 30_000,
    anyBroker: <T>(call: (c: BrokerConnection) => Promise<T>) => call(connection),
  } as unknown as KafkaCluster;
  return { cluster, requests, nodeOf };
}

const NO_RETRY = { attempts: 1, initialBackoffMs: 1, maxBackoffMs: 1 };

/** Each group's coordinator, as forEachCoordinator hands it to the call. */
async function coordinatorsOf(coordinators: Coordinators, ids: string[], options: CallOptions = NO_DEADLINE) {
  const seen = new Map<string, BrokerRef>();
  const outcomes = await coordinators.forEachCoordinator(
    ids,
    async (coordinator, held) => {
      for (const id of held) seen.set(id, coordinator);
      return new Map(held.map((id) => [id, ok(id)]));
    },
    options,
  );
  return { seen, outcomes };
}

describe('Coordinators: batched lookups', () => {
  it('looks up the groups of 64 concurrent requests in one FindCoordinator, each answered for its own', async () => {
    const { cluster, requests, nodeOf } = fakeLink();
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const ids = Array.from({ length: 64 }, (_, i) => `g${i}`);
    const results = await Promise.all(ids.map((id) => coordinatorsOf(coordinators, [id])));
    expect(requests).toHaveLength(1);
    expect(requests[0]?.sort()).toEqual([...ids].sort());
    results.forEach(({ seen, outcomes }, i) => {
      const id = ids[i] as string;
      expect([...seen.keys()]).toEqual([id]);
      expect(seen.get(id)).toEqual({ nodeId: nodeOf(id), host: 'broker', port: 9090 + nodeOf(id) });
      expect(outcomes.get(id)).toEqual(ok(id));
    });
  });

  it('remembers coordinators: a second describe of the same groups asks nothing', async () => {
    const { cluster, requests } = fakeLink();
    const coordinators = new Coordinators(cluster, NO_RETRY);
    await coordinatorsOf(coordinators, ['a', 'b', 'c']);
    await Promise.all(['a', 'b', 'c'].map((id) => coordinatorsOf(coordinators, [id])));
    expect(requests).toEqual([['a', 'b', 'c']]);
  });

  it('gives each group its own error: one without a coordinator fails alone', async () => {
    const { cluster } = fakeLink();
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const [good, bad] = await Promise.all([
      coordinatorsOf(coordinators, ['g1']),
      coordinatorsOf(coordinators, ['x1']),
    ]);
    expect(good.outcomes.get('g1')).toEqual(ok('g1'));
    const failure = bad.outcomes.get('x1');
    expect(failure?.ok).toBe(false);
    expect(failure && !failure.ok && failure.error.name).toBe('CoordinatorUnavailableError');
  });

  it('keeps at most maxInFlight lookups out: later ones wait and leave together', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { cluster, requests } = fakeLink({ slowKey: 'a', held });
    const coordinators = new Coordinators(cluster, NO_RETRY, { maxInFlight: 1, windowMs: 1_000 });
    const first = coordinatorsOf(coordinators, ['a']);
    await new Promise((resolve) => setTimeout(resolve, 5)); // 'a' is out
    const later = ['b', 'c', 'd'].map(async (id, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      return coordinatorsOf(coordinators, [id]);
    });
    // 'a' comes back only after d's turn: a timer due later fires after the earlier ones.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([first, ...later]);
    // b, c and d came in different turns while 'a' was out: one request once it came back.
    expect(requests).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('does not wait longer than the window for a free slot', async () => {
    const { cluster, requests } = fakeLink({ slowKey: 'a', slowMs: 300 });
    const coordinators = new Coordinators(cluster, NO_RETRY, { maxInFlight: 1, windowMs: 10 });
    const first = coordinatorsOf(coordinators, ['a']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await coordinatorsOf(coordinators, ['b']);
    expect(Date.now() - started).toBeLessThan(250);
    await first;
    expect(requests).toEqual([['a'], ['b']]);
  });

  it('splits a batch at maxKeys', async () => {
    const { cluster, requests } = fakeLink();
    const coordinators = new Coordinators(cluster, NO_RETRY, { maxKeys: 10 });
    const ids = Array.from({ length: 25 }, (_, i) => `g${i}`);
    const { seen } = await coordinatorsOf(coordinators, ids);
    expect(requests.map((r) => r.length)).toEqual([10, 10, 5]);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());
  });

  it('batches before FindCoordinator v4 too: one request per key, but every key of the batch at once', async () => {
    const { cluster, requests } = fakeLink({ version: 3 });
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const ids = ['a', 'b', 'c', 'd'];
    const results = await Promise.all(ids.map((id) => coordinatorsOf(coordinators, [id])));
    expect(requests.map((r) => r.length)).toEqual([1, 1, 1, 1]);
    results.forEach(({ seen }, i) => {
      expect([...seen.keys()]).toEqual([ids[i]]);
    });
  });
});

describe('Coordinators under faults and the request deadline', () => {
  it('a lookup no broker answers fails each group with that error, and no group fails another', async () => {
    const timeout = new BrokerTimeoutError('fake:9092', 'FindCoordinator', 100);
    const cluster = {
      requestTimeoutMs: 30_000,
      anyBroker: () => Promise.reject(timeout),
    } as unknown as KafkaCluster;
    const { outcomes } = await coordinatorsOf(new Coordinators(cluster), ['a', 'b']);
    expect([...outcomes.keys()].sort()).toEqual(['a', 'b']);
    for (const outcome of outcomes.values()) expect(outcome).toEqual({ ok: false, error: timeout });
  });

  it('stops retrying when the request deadline has no room for another round', async () => {
    const { cluster, requests } = fakeLink();
    const coordinators = new Coordinators(cluster, {
      attempts: 8,
      initialBackoffMs: 200,
      maxBackoffMs: 1_000,
    });
    const started = Date.now();
    const { outcomes } = await coordinatorsOf(coordinators, ['x1'], { deadline: Deadline.after(500) });
    // x1 never has a coordinator: without the deadline, eight rounds and seconds of backoff.
    expect(Date.now() - started).toBeLessThan(500);
    expect(requests.length).toBeLessThan(8);
    const outcome = outcomes.get('x1');
    expect(outcome?.ok).toBe(false);
    expect(outcome && !outcome.ok && outcome.error).toBeInstanceOf(CoordinatorUnavailableError);
  });
});

/**
 * A connection that finds every group's coordinator after `answerMs`, its FindCoordinator bounded
 * by the deadline it is given (as BrokerConnection's are); records the keys of each request.
 */
function slowLookups(answerMs: number) {
  const requests: string[][] = [];
  const connection = {
    label: 'stand-in:9092',
    versionFor: async () => 4,
    send(
      api: { name: string },
      request: { coordinatorKeys: string[] },
      _bounds: unknown,
      options: CallOptions,
    ) {
      requests.push([...request.coordinatorKeys]);
      const answer = new Promise((resolve) => setTimeout(resolve, answerMs)).then(() => ({
        response: {
          coordinators: request.coordinatorKeys.map((key) => ({
            key,
            nodeId: 1,
            host: 'broker',
            port: 9091,
            errorCode: ErrorCode.NONE,
            errorMessage: null,
          })),
        },
      }));
      return bounded('stand-in:9092', api.name, options, answer);
    },
  } as unknown as BrokerConnection;
  const cluster = {
    requestTimeoutMs: 30_000,
    anyBroker: <T>(call: (c: BrokerConnection) => Promise<T>) => call(connection),
  } as unknown as KafkaCluster;
  return { cluster, requests };
}

/** `id`'s outcome and when it came (ms after `started`), asked under `deadline`. */
async function timedLookup(coordinators: Coordinators, id: string, deadline: Deadline, started: number) {
  const outcomes = await coordinators.forEachCoordinator(
    [id],
    async (_coordinator, held) => new Map(held.map((g) => [g, ok(g)])),
    { deadline },
  );
  return { outcome: outcomes.get(id), atMs: Date.now() - started };
}

describe('Coordinators: a lookup shared by callers with different deadlines', () => {
  // Fake clocks: the order of the cuts and the answer does not hang on timers firing on time.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs under the latest of its callers’ deadlines: one with 20 ms left does not cut it short for one with 5 s', async () => {
    vi.useFakeTimers();
    const { cluster, requests } = slowLookups(80);
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const started = Date.now();
    const both = Promise.all([
      timedLookup(coordinators, 'g1', Deadline.after(20), started),
      timedLookup(coordinators, 'g1', Deadline.after(5_000), started),
    ]);
    await vi.advanceTimersByTimeAsync(100);
    const [soon, later] = await both;
    expect(requests).toEqual([['g1']]);
    expect(later.outcome).toEqual(ok('g1'));
    // The first stops waiting at its own deadline, with its own timeout, long before the answer.
    expect(soon.outcome?.ok === false && soon.outcome.error).toBeInstanceOf(BrokerTimeoutError);
    expect(soon.atMs).toBeLessThan(60);
  });

  it('is moved later by a caller that joins it in flight, and its first caller still times out at its own deadline', async () => {
    vi.useFakeTimers();
    const { cluster, requests } = slowLookups(250);
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const started = Date.now();
    // Cut at 100 ms (its reserve is 20 ms); the lookup is out by the time the second caller comes.
    const first = timedLookup(coordinators, 'g1', Deadline.after(120), started);
    await vi.advanceTimersByTimeAsync(30);
    expect(requests).toEqual([['g1']]);
    const second = timedLookup(coordinators, 'g1', Deadline.after(5_000), started);
    await vi.advanceTimersByTimeAsync(300);
    const [soon, later] = await Promise.all([first, second]);
    expect(requests).toEqual([['g1']]);
    expect(later.outcome).toEqual(ok('g1'));
    expect(later.atMs).toBeGreaterThanOrEqual(240);
    const error = soon.outcome?.ok === false && soon.outcome.error;
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as Error).message).toContain('abandoned at the request deadline');
    expect(soon.atMs).toBeGreaterThanOrEqual(90);
    expect(soon.atMs).toBeLessThan(200);
  });

  it('a caller with no deadline does not wait on a lookup that went out under one: it asks anew', async () => {
    vi.useFakeTimers();
    const { cluster, requests } = slowLookups(100);
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const started = Date.now();
    const first = timedLookup(coordinators, 'g1', Deadline.after(60), started);
    await vi.advanceTimersByTimeAsync(10);
    const asked = coordinatorsOf(coordinators, ['g1']);
    await vi.advanceTimersByTimeAsync(200);
    const { outcomes } = await asked;
    expect(outcomes.get('g1')).toEqual(ok('g1'));
    expect(requests).toEqual([['g1'], ['g1']]);
    expect((await first).outcome?.ok).toBe(false);
  });
});

/** A broker that takes connections but never answers, its calls bounded by their deadline (as BrokerConnection's are). */
function stalledBroker() {
  const never = () => new Promise<never>(() => undefined);
  const connection = {
    label: 'stand-in:9092',
    versionFor: (_api: unknown, _bounds: unknown, options: CallOptions) =>
      bounded('stand-in:9092', 'ApiVersions', options, never),
    send: (api: { name: string }, _request: unknown, _bounds: unknown, options: CallOptions) =>
      bounded('stand-in:9092', api.name, options, never),
  } as unknown as BrokerConnection;
  return {
    requestTimeoutMs: 30_000,
    anyBroker: <T>(call: (c: BrokerConnection) => Promise<T>) => call(connection),
  } as unknown as KafkaCluster;
}

describe('Coordinators: a caller that stops waiting on a shared lookup', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names the broker the lookup is asking and the RPC it waits on, and remembers that broker, not "any broker"', async () => {
    vi.useFakeTimers();
    const coordinators = new Coordinators(stalledBroker(), NO_RETRY);
    // A stream's deadline: a broker that did not answer under it is not asked again under it.
    const deadline = Deadline.after(1_000, Date.now, { oncePerBroker: true });
    const asked = coordinators.forEachCoordinator(
      ['g1'],
      async (_coordinator, held) => new Map(held.map((g) => [g, ok(g)])),
      { deadline },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    const outcome = (await asked).get('g1');
    const error = outcome?.ok === false ? outcome.error : undefined;
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as BrokerTimeoutError).broker).toBe('stand-in:9092');
    expect((error as Error).message).toMatch(
      /^stand-in:9092 did not answer ApiVersions within \d+ ms \(abandoned at the request deadline\)$/,
    );
    expect(deadline.notAnswering('any broker', 'FindCoordinator')).toBeUndefined();
    expect(deadline.notAnswering('stand-in:9092', 'FindCoordinator')).toBeInstanceOf(BrokerTimeoutError);
  });

  it('a caller with no deadline that joins a lookup made under another request’s deadline waits for the answer, not for that deadline', async () => {
    vi.useFakeTimers();
    const { cluster, requests } = slowLookups(300);
    const coordinators = new Coordinators(cluster, NO_RETRY);
    const started = Date.now();
    // The lookup is made under a deadline cut at 80 ms; the second caller has none.
    const scoped = timedLookup(coordinators, 'g1', Deadline.after(100), started);
    const free = coordinatorsOf(coordinators, ['g1']).then(({ outcomes }) => ({
      outcome: outcomes.get('g1'),
      atMs: Date.now() - started,
    }));
    await vi.advanceTimersByTimeAsync(400);
    const [soon, later] = await Promise.all([scoped, free]);
    expect(requests).toEqual([['g1']]);
    expect(later.outcome).toEqual(ok('g1'));
    expect(later.atMs).toBeGreaterThanOrEqual(300);
    expect(soon.outcome?.ok).toBe(false);
    expect(soon.atMs).toBeLessThan(300);
  });
});
