/**
 * The describe path carries the request's deadline down as an argument. Each layer is checked with
 * a stand-in broker connection whose describe RPCs never answer: the call made under the request's
 * deadline is cut at that deadline.
 */

import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { bounded, type CallOptions, Deadline } from '../../src/broker/deadline.js';
import { BrokerTimeoutError } from '../../src/broker/errors.js';
import { ErrorCode } from '../../src/broker/protocol/errors.js';
import type { KafkaCluster } from '../../src/broker/transport/cluster.js';
import type { BrokerConnection } from '../../src/broker/transport/connection.js';
import { loadConfig } from '../../src/config.js';
import { Coordinators } from '../../src/groups/coordinators.js';
import { coalesced } from '../../src/groups/describe/coalesce.js';
import type { GroupDescriber, TypedOutcome } from '../../src/groups/describe/describer.js';
import type { BrokerRef } from '../../src/groups/model.js';
import { type GroupService, KafkaGroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

const never = () => new Promise<never>(() => undefined);

/**
 * A connection that finds every group's coordinator (FindCoordinator v4) and never answers a
 * describe; it sends the way BrokerConnection does, bounded by the options it is given. Records
 * the deadline each call was given.
 */
function stalledBroker() {
  const given: { api: string; deadline: Deadline | undefined }[] = [];
  const connection = {
    label: 'stand-in:9092',
    versionFor: async (_api: unknown, _bounds: unknown, options: CallOptions) => {
      given.push({ api: 'versions', deadline: options?.deadline });
      return 4;
    },
    // Every API is served: each describe is sent (and never answered).
    lacks: () => false,
    send(api: { name: string }, build: unknown, _bounds: unknown, options: CallOptions) {
      given.push({ api: api.name, deadline: options?.deadline });
      if (api.name !== 'FindCoordinator') return bounded('stand-in:9092', api.name, options, never());
      const request = (typeof build === 'function' ? build(4) : build) as { coordinatorKeys: string[] };
      const coordinators = request.coordinatorKeys.map((key) => ({
        key,
        nodeId: 1,
        host: 'stand-in',
        port: 9092,
        errorCode: ErrorCode.NONE,
        errorMessage: null,
      }));
      return bounded('stand-in:9092', api.name, options, Promise.resolve({ response: { coordinators } }));
    },
  } as unknown as BrokerConnection;
  const cluster = {
    requestTimeoutMs: 30_000,
    connection: () => connection,
    anyBroker: <T>(call: (c: BrokerConnection) => Promise<T>, options: CallOptions) => {
      given.push({ api: 'anyBroker', deadline: options?.deadline });
      return call(connection);
    },
    close: async () => undefined,
  } as unknown as KafkaCluster;
  return { cluster, given };
}

/**
 * The deadline a call was given is `deadline`, or, for the coordinator lookup (shared by the
 * callers that need it), one that ends with it: here the lookup's only caller.
 */
function endsWith(given: Deadline | undefined, deadline: Deadline): boolean {
  return (
    given === deadline || (given?.expiresAt === deadline.expiresAt && given.totalMs === deadline.totalMs)
  );
}

describe('the request deadline passed down the describe path (stand-in broker that never answers a describe)', () => {
  it('coordinators: the lookup goes out under the given deadline, and no round starts past it', async () => {
    const { cluster, given } = stalledBroker();
    const coordinators = new Coordinators(cluster, {
      attempts: 8,
      initialBackoffMs: 200,
      maxBackoffMs: 1_000,
    });
    const deadline = Deadline.after(500);
    const started = Date.now();
    const outcomes = await coordinators.forEachCoordinator(
      ['g1'],
      (_coordinator, _ids) =>
        bounded('stand-in:9092', 'DescribeGroups', { deadline }, never()).then(() => new Map()),
      { deadline },
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    const outcome = outcomes.get('g1');
    expect(outcome?.ok === false && outcome.error).toBeInstanceOf(BrokerTimeoutError);
    const lookup = given.filter((g) => g.api === 'FindCoordinator' || g.api === 'anyBroker');
    expect(lookup.map((g) => g.api)).toEqual(['anyBroker', 'FindCoordinator']);
    for (const call of lookup) expect(endsWith(call.deadline, deadline), call.api).toBe(true);
  });

  it('coalesced describes: a lone caller’s deadline reaches the RPC; a batch goes under its latest caller’s', async () => {
    const seen: (Deadline | undefined)[][] = [];
    const describer: GroupDescriber = {
      type: 'classic',
      api: 'DescribeGroups',
      describe: async (_connection, _coordinator, ids, options) => {
        seen.push([options?.deadline]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        return new Map<string, TypedOutcome>(ids.map((id) => [id, { kind: 'absent' }]));
      },
    };
    const lanes = coalesced(describer);
    const connection = { label: 'stand-in:9092' } as BrokerConnection;
    const coordinator: BrokerRef = { nodeId: 1, host: 'stand-in', port: 9092 };
    const [first, second, third] = [Deadline.after(5_000), Deadline.after(6_000), Deadline.after(7_000)];
    await lanes.describe(connection, coordinator, ['a'], { deadline: first });
    expect(seen).toEqual([[first]]);
    // One out (a), then b and c wait for the end of the turn and leave together under c's deadline,
    // the later of the two: b's, sooner, does not cut the RPC short for c.
    await Promise.all([
      lanes.describe(connection, coordinator, ['a'], { deadline: first }),
      lanes.describe(connection, coordinator, ['b'], { deadline: second }),
      lanes.describe(connection, coordinator, ['c'], { deadline: third }),
    ]);
    expect(seen).toEqual([[first], [first], [third]]);
  });

  it('coalesced describes: a caller whose deadline comes sooner than its batch’s stops waiting at its own', async () => {
    const describer: GroupDescriber = {
      type: 'classic',
      api: 'DescribeGroups',
      describe: async (_connection, _coordinator, ids) => {
        await new Promise((resolve) => setTimeout(resolve, 600));
        return new Map<string, TypedOutcome>(ids.map((id) => [id, { kind: 'absent' }]));
      },
    };
    const lanes = coalesced(describer);
    const connection = { label: 'stand-in:9092' } as BrokerConnection;
    const coordinator: BrokerRef = { nodeId: 1, host: 'stand-in', port: 9092 };
    const started = Date.now();
    const [out, soon, later] = await Promise.allSettled([
      lanes.describe(connection, coordinator, ['a'], { deadline: Deadline.after(5_000) }),
      lanes.describe(connection, coordinator, ['b'], { deadline: Deadline.after(200) }),
      lanes.describe(connection, coordinator, ['c'], { deadline: Deadline.after(5_000) }),
    ]);
    expect(out.status).toBe('fulfilled');
    expect(later).toEqual({ status: 'fulfilled', value: new Map([['c', { kind: 'absent' }]]) });
    expect(soon.status).toBe('rejected');
    const error = (soon as PromiseRejectedResult).reason as Error;
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect(error.message).toContain('abandoned at the request deadline');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
  });

  it('the group service: a describe that never answers is cut at the deadline passed to describeGroup', async () => {
    const { cluster, given } = stalledBroker();
    const service = new KafkaGroupService(cluster, { coalesce: false });
    const deadline = Deadline.after(400);
    const started = Date.now();
    const error = await service.describeGroup('g1', { deadline }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as Error).message).toContain('abandoned at the request deadline');
    expect(Date.now() - started).toBeLessThan(1_000);
    // Every call on the way had the request's deadline: the lookup, the versions, the describe.
    expect(given.map((g) => g.api)).toEqual(
      expect.arrayContaining(['anyBroker', 'FindCoordinator', 'versions', 'DescribeGroups']),
    );
    for (const call of given) expect(endsWith(call.deadline, deadline), call.api).toBe(true);
    expect(given.find((g) => g.api === 'DescribeGroups')?.deadline).toBe(deadline);
  });

  it('the describe routes: GET /groups/{id} and POST /groups/describe pass the request’s deadline', async () => {
    const asked: (CallOptions | undefined)[] = [];
    const stall = (options: CallOptions) => {
      asked.push(options);
      return bounded('stand-in:9092', 'DescribeGroups', options, never());
    };
    const service = new Proxy({} as GroupService, {
      get: (_target, name) =>
        name === 'then'
          ? undefined
          : name === 'describeGroup'
            ? (_id: string, options: CallOptions) => stall(options)
            : name === 'describeGroups'
              ? (_ids: string[], options: CallOptions) => stall(options)
              : () => Promise.reject(new Error('stand-in service')),
    });
    const config = loadConfig({
      KAFKA_BROKERS: '127.0.0.1:9',
      AUTH: 'none',
      RATE_LIMIT_PER_MINUTE: '0',
      REQUEST_TIMEOUT_MS: '400',
    });
    const app = createApp({ service, security: securityFrom(config) });
    const started = Date.now();
    const one = await app.request('/groups/g1?type=classic');
    expect(one.status).toBe(504);
    expect(((await one.json()) as { type: string }).type).toBe('/problems/broker-timeout');
    const many = await app.request('/groups/describe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupIds: ['g1', 'g2'] }),
    });
    expect(many.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(asked).toHaveLength(2);
    for (const options of asked) expect(options?.deadline?.totalMs).toBe(400);
    expect(asked[0]).toMatchObject({ expected: 'classic' });
  });
});
