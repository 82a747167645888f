/**
 * Faults a real broker will not produce (unreadable bytes, stalls, dropped sockets, scripted error
 * sequences), injected by a stand-in broker on loopback and seen through the HTTP API. Every
 * response is checked against the published OpenAPI document and for leaked internals.
 */

import { createServer, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import {
  ApiKey,
  ApiVersions,
  decodeResponseFrame,
  ErrorCode,
  encodeConsumerProtocolAssignment,
  encodeRequestFrame,
  Metadata,
} from '../../src/broker/protocol/index.js';
import { loadConfig } from '../../src/config.js';
import type { ClassicGroup, GroupList } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import type { Problem } from '../../src/openapi/problems.js';
import { createService, type Service } from '../../src/wiring.js';
import { OpenApiChecker } from '../support/openapi.js';
import { codecApiVersions, describedGroup, reply, StandInBroker } from '../support/stand-in-broker.js';

const RETRY = { attempts: 4, initialBackoffMs: 5, maxBackoffMs: 20 };
const REQUEST_TIMEOUT_MS = 300;

type App = ReturnType<typeof createApp>;

let standIn: StandInBroker;
let checker: OpenApiChecker;
const services: Service[] = [];
/** Every response body of the run, for the leak check. */
const bodies: string[] = [];

/** A fresh app (no cached connections or coordinators) over `brokers`, by default the stand-in. */
function appFor(brokers: string[] = [standIn.address], requestTimeoutMs = REQUEST_TIMEOUT_MS): App {
  const kafka = {
    ...loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' }).kafka,
    brokers,
    connectionTimeoutMs: 1000,
    requestTimeoutMs,
  };
  const service = createService(
    { ...loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' }), kafka },
    { retry: RETRY },
  );
  services.push(service);
  return createApp({
    service: service.groups,
    security: securityFrom(loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' })),
  });
}

const templateOf = (path: string) => (path.startsWith('/groups/') ? '/groups/{groupId}' : path);

/** GETs `path`, checks the response against the OpenAPI document and for leaked internals. */
async function get<T = Problem>(
  app: App,
  path: string,
): Promise<{ status: number; headers: Headers; body: T }> {
  const res = await app.request(path);
  const text = await res.clone().text();
  bodies.push(text);
  expectNoInternals(text);
  const body = (await checker.check('get', templateOf(path), res)) as T;
  return { status: res.status, headers: res.headers, body };
}

function expectNoInternals(text: string): void {
  expect(text, 'no stack frame').not.toMatch(/\bat .*:\d+:\d+|\n\s+at /);
  expect(text, 'no JS exception text').not.toMatch(/Error:/);
}

function expect503(res: { status: number; headers: Headers }): void {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const stableGroup = (groupId: string) =>
  describedGroup(groupId, { protocolType: 'consumer', protocolData: 'range' });

beforeAll(async () => {
  standIn = await StandInBroker.start();
  checker = await OpenApiChecker.load(async (path) => appFor().request(path));
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
  expect(standIn.problems, 'requests the stand-in could not read').toEqual([]);
  standIn.reset();
});

afterAll(async () => {
  await standIn?.stop();
});

describe('stand-in broker', () => {
  it('stand-in: reads frames split across TCP chunks and several frames in one chunk', async () => {
    const apiVersions = encodeRequestFrame(ApiVersions, 3, 7, 'raw', {
      clientSoftwareName: 'raw',
      clientSoftwareVersion: '1',
    });
    const metadata = encodeRequestFrame(Metadata, 12, 8, 'raw', {
      topics: [],
      allowAutoTopicCreation: false,
    });
    const socket = new Socket();
    socket.setNoDelay(true);
    await new Promise<void>((resolve) => socket.connect(standIn.port, standIn.host, resolve));
    let received = Buffer.alloc(0);
    const twoFrames = new Promise<Buffer[]>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const frames: Buffer[] = [];
        let rest = received;
        while (rest.length >= 4 && rest.length >= 4 + rest.readInt32BE(0)) {
          frames.push(rest.subarray(0, 4 + rest.readInt32BE(0)));
          rest = rest.subarray(4 + rest.readInt32BE(0));
        }
        if (frames.length === 2) resolve(frames);
      });
    });
    // Half of the first frame, then (after a pause, so it is another chunk) its rest with the second frame.
    socket.write(apiVersions.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 30));
    socket.write(Buffer.concat([apiVersions.subarray(5), metadata]));
    const [first, second] = await twoFrames;
    socket.destroy();

    const versions = decodeResponseFrame(ApiVersions, 3, new Uint8Array(first as Buffer));
    expect(versions.correlationId).toBe(7);
    expect(versions.response.errorCode).toBe(0);
    expect(versions.response.apiKeys).toEqual(codecApiVersions());
    const cluster = decodeResponseFrame(Metadata, 12, new Uint8Array(second as Buffer));
    expect(cluster.correlationId).toBe(8);
    expect(cluster.response.brokers).toEqual([
      { nodeId: 1, host: standIn.host, port: standIn.port, rack: null },
    ]);
    expect(standIn.calls.map((c) => [c.apiKey, c.correlationId])).toEqual([
      [ApiKey.ApiVersions, 7],
      [ApiKey.Metadata, 8],
    ]);
  });

  it('stand-in: DescribeGroups answered with garbage → 502 broker-response-unreadable, then the next request succeeds', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.garbage());
    // Not a test of timeouts: beside two busy loops a fresh connection's round (connect,
    // ApiVersions, Metadata, FindCoordinator) outlived the 300 ms the timeout tests use, a 504.
    const app = appFor([standIn.address], 5_000);

    const bad = await get(app, '/groups/g');
    expect(bad.status).toBe(502);
    expect(bad.body.type).toBe('/problems/broker-response-unreadable');
    expect(bad.body.broker).toBe(standIn.address);
    expect(bad.body.detail).toContain('DescribeGroups v6');

    const good = await get<ClassicGroup>(app, '/groups/g');
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ type: 'classic', groupId: 'g', state: 'Stable' });
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(2);
    expect(standIn.connections, 'the same connection served both').toBe(1);
  });

  it('stand-in: DescribeGroups stalls longer than REQUEST_TIMEOUT_MS → the call is abandoned before the deadline: 504 broker-timeout naming the broker', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.stall());
    const config = loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', REQUEST_TIMEOUT_MS: '300' });
    const service = createService(
      { ...config, kafka: { ...config.kafka, brokers: [standIn.address], requestTimeoutMs: 10_000 } },
      { retry: RETRY },
    );
    services.push(service);
    const app = createApp({ service: service.groups, security: securityFrom(config) });
    const started = performance.now();
    const res = await get(app, '/groups/g');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(504);
    expect(res.body.type).toBe('/problems/broker-timeout');
    expect(res.body.broker).toBe(standIn.address);
    expect(res.body.detail).toContain('abandoned at the request deadline');
    // Within the request's deadline, long before the broker's own 10 s timeout.
    expect(elapsed).toBeLessThan(1_000);
  });

  it('stand-in: DescribeGroups stalls → 504 broker-timeout within the request timeout', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.stall());
    const app = appFor();

    const started = performance.now();
    const res = await get(app, '/groups/g');
    const elapsed = performance.now() - started;
    expect(res.status).toBe(504);
    expect(res.body.type).toBe('/problems/broker-timeout');
    expect(res.body.broker).toBe(standIn.address);
    expect(res.body.detail).toContain(`within ${REQUEST_TIMEOUT_MS} ms`);
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 10);
    expect(elapsed).toBeLessThan(REQUEST_TIMEOUT_MS + 1000);
    expect(standIn.count(ApiKey.DescribeGroups), 'a timeout is not retried').toBe(1);

    expect((await get(app, '/groups/g')).status, 'the connection still serves').toBe(200);
  });

  it('stand-in: FindCoordinator answers COORDINATOR_LOAD_IN_PROGRESS twice → 200 after three lookups', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(
      ApiKey.FindCoordinator,
      reply.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS),
      reply.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS),
    );
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    expect(res.body.coordinator).toEqual({ nodeId: 1, host: standIn.host, port: standIn.port });
    expect(standIn.count(ApiKey.FindCoordinator)).toBe(3);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(1);
  });

  it('stand-in: DescribeGroups answers COORDINATOR_LOAD_IN_PROGRESS twice → 200, the coordinator is not looked up again', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(
      ApiKey.DescribeGroups,
      reply.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS),
      reply.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS),
    );
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    expect(res.body.state).toBe('Stable');
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(3);
    expect(standIn.count(ApiKey.FindCoordinator)).toBe(1);
  });

  it('stand-in: DescribeGroups answers NOT_COORDINATOR twice → 200, each retry looks the coordinator up again', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(
      ApiKey.DescribeGroups,
      reply.error(ErrorCode.NOT_COORDINATOR),
      reply.error(ErrorCode.NOT_COORDINATOR),
    );
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(3);
    expect(standIn.count(ApiKey.FindCoordinator)).toBe(3);
  });

  it('stand-in: DescribeGroups answers COORDINATOR_NOT_AVAILABLE forever → 503 coordinator-unavailable after exactly `attempts` tries', async () => {
    standIn.otherwise(ApiKey.DescribeGroups, reply.error(ErrorCode.COORDINATOR_NOT_AVAILABLE));
    const res = await get(appFor(), '/groups/g');
    expect503(res);
    expect(res.body).toMatchObject({
      type: '/problems/coordinator-unavailable',
      groupId: 'g',
      broker: standIn.address,
      kafkaError: { code: ErrorCode.COORDINATOR_NOT_AVAILABLE, name: 'COORDINATOR_NOT_AVAILABLE' },
    });
    expect(res.body.detail).toContain(`after ${RETRY.attempts} attempts`);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(RETRY.attempts);
    expect(standIn.count(ApiKey.FindCoordinator), '15 forgets the coordinator').toBe(RETRY.attempts);
  });

  it('stand-in: FindCoordinator answers COORDINATOR_NOT_AVAILABLE forever → 503 coordinator-unavailable after exactly `attempts` lookups', async () => {
    standIn.otherwise(ApiKey.FindCoordinator, reply.error(ErrorCode.COORDINATOR_NOT_AVAILABLE));
    const res = await get(appFor(), '/groups/g');
    expect503(res);
    expect(res.body).toMatchObject({
      type: '/problems/coordinator-unavailable',
      groupId: 'g',
      kafkaError: { code: ErrorCode.COORDINATOR_NOT_AVAILABLE, name: 'COORDINATOR_NOT_AVAILABLE' },
    });
    expect(standIn.count(ApiKey.FindCoordinator)).toBe(RETRY.attempts);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(0);
  });

  it('stand-in: DescribeGroups answers GROUP_AUTHORIZATION_FAILED → 502 kafka-error with its code and name', async () => {
    standIn.script(ApiKey.DescribeGroups, reply.error(ErrorCode.GROUP_AUTHORIZATION_FAILED));
    const res = await get(appFor(), '/groups/g');
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      type: '/problems/kafka-error',
      broker: standIn.address,
      kafkaError: {
        code: ErrorCode.GROUP_AUTHORIZATION_FAILED,
        name: 'GROUP_AUTHORIZATION_FAILED',
        message: null,
      },
    });
    expect(standIn.count(ApiKey.DescribeGroups), 'not a coordinator error: no retry').toBe(1);
  });

  it('stand-in: ListGroups answered with garbage → 200 with the broker in failures', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.ListGroups, reply.garbage());
    const res = await get<GroupList>(appFor(), '/groups');
    expect(res.status).toBe(200);
    expect(res.body.groups).toEqual([]);
    expect(res.body.failures).toEqual([
      {
        broker: { nodeId: 1, host: standIn.host, port: standIn.port },
        error: { name: 'BrokerResponseError', message: expect.stringContaining('ListGroups v5') },
      },
    ]);
  });

  it('stand-in: ListGroups answers COORDINATOR_LOAD_IN_PROGRESS once → asked again, complete, no failures', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.ListGroups, reply.error(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS));
    // Another round is asked only while it fits in one request timeout: 300 ms left a loaded
    // machine's first round (connect, ApiVersions, Metadata, ListGroups) no room for the retry.
    const res = await get<GroupList>(appFor([standIn.address], 5_000), '/groups');
    expect(res.status).toBe(200);
    expect(res.body.failures).toEqual([]);
    expect(res.body.groups.map((g) => g.groupId)).toEqual(['g']);
    expect(standIn.count(ApiKey.ListGroups)).toBe(2);
  });

  it('stand-in: ListGroups keeps answering COORDINATOR_NOT_AVAILABLE → 200 with the broker and kafkaError in failures', async () => {
    standIn.otherwise(ApiKey.ListGroups, reply.error(ErrorCode.COORDINATOR_NOT_AVAILABLE));
    const res = await get<GroupList>(appFor(), '/groups');
    expect(res.status).toBe(200);
    expect(res.body.failures).toEqual([
      {
        broker: { nodeId: 1, host: standIn.host, port: standIn.port },
        error: {
          name: 'KafkaResponseError',
          message: expect.any(String),
          kafkaError: {
            code: ErrorCode.COORDINATOR_NOT_AVAILABLE,
            name: 'COORDINATOR_NOT_AVAILABLE',
            message: null,
          },
        },
      },
    ]);
  });

  it('stand-in: nothing listening (a closed port) → 503 broker-unavailable with Retry-After; /readyz 503', async () => {
    const address = `127.0.0.1:${await closedPort()}`;
    const app = appFor([address]);
    for (const path of ['/groups/g', '/groups', '/cluster', '/readyz']) {
      const res = await get(app, path);
      expect503(res);
      expect(res.body.type, path).toBe('/problems/broker-unavailable');
      expect(res.body.detail, path).toContain(address);
    }
  });

  it('stand-in: the socket closes mid-request on every try → 503 broker-unavailable; the next request reconnects', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, ...Array.from({ length: RETRY.attempts }, () => reply.close()));
    const app = appFor();

    const res = await get(app, '/groups/g');
    expect503(res);
    expect(res.body.type).toBe('/problems/broker-unavailable');
    expect(res.body.broker).toBe(standIn.address);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(RETRY.attempts);

    const next = await get<ClassicGroup>(app, '/groups/g');
    expect(next.status).toBe(200);
    expect(standIn.connections).toBe(RETRY.attempts + 1);
  });

  it('stand-in: the socket closes once mid-request → the retry reconnects and the same request succeeds', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.close());
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(2);
    expect(standIn.connections).toBe(2);
  });

  it('stand-in: a truncated frame → 504; the next request still works', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.truncated());
    const app = appFor();

    const res = await get(app, '/groups/g');
    expect(res.status).toBe(504);
    expect(res.body.type).toBe('/problems/broker-timeout');
    expect(res.body.broker).toBe(standIn.address);

    const next = await get<ClassicGroup>(app, '/groups/g');
    expect(next.status).toBe(200);
  });

  it("stand-in: corrupt consumer memberMetadata in a Stable group → 200, decodeError in the member's consumerProtocol, raw base64 kept", async () => {
    const corrupt = Uint8Array.of(0x00, 0x03, 0x00, 0x00, 0x00, 0x05, 0x00); // v3, 5 topics, then nothing
    const assignment = encodeConsumerProtocolAssignment({
      version: 3,
      assignedPartitions: [{ topic: 'events', partitions: [0, 1] }],
      userData: null,
    });
    standIn.groups.set(
      'g',
      describedGroup('g', {
        protocolType: 'consumer',
        members: [
          {
            memberId: 'm-1',
            groupInstanceId: null,
            clientId: 'client-1',
            clientHost: '/127.0.0.1',
            memberMetadata: corrupt,
            memberAssignment: assignment,
          },
        ],
      }),
    );
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    const [member] = res.body.members;
    expect(member).toMatchObject({
      memberId: 'm-1',
      memberMetadata: Buffer.from(corrupt).toString('base64'),
      memberAssignment: Buffer.from(assignment).toString('base64'),
      consumerProtocol: {
        subscription: null,
        assignment: {
          version: 3,
          partitions: [{ topic: 'events', topicId: null, partitions: [0, 1] }],
          userData: null,
        },
      },
      partitions: [{ topic: 'events', topicId: null, partitions: [0, 1] }],
    });
    expect(member?.consumerProtocol?.decodeError).toMatch(/^memberMetadata: /);
    expect(member?.consumerProtocol?.decodeError).not.toContain('memberAssignment');
  });

  it('stand-in: ApiVersions at a version it does not support → error 35 in v0, the client asks again at v2 and works', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(
      ApiKey.ApiVersions,
      reply.response(
        {
          errorCode: ErrorCode.UNSUPPORTED_VERSION,
          apiKeys: [{ apiKey: ApiKey.ApiVersions, minVersion: 0, maxVersion: 2 }],
        },
        { version: 0 },
      ),
    );
    const res = await get<ClassicGroup>(appFor(), '/groups/g');
    expect(res.status).toBe(200);
    expect(standIn.versions(ApiKey.ApiVersions)).toEqual([ApiVersions.maxVersion, 2]);
    expect(standIn.versions(ApiKey.DescribeGroups)).toEqual([6]);
  });

  it('stand-in: a broker that shares no DescribeGroups version → 502 unsupported-broker-api', async () => {
    standIn.script(
      ApiKey.ApiVersions,
      reply.response({
        errorCode: ErrorCode.NONE,
        apiKeys: codecApiVersions({ [ApiKey.DescribeGroups]: { minVersion: 7, maxVersion: 9 } }),
      }),
    );
    const res = await get(appFor(), '/groups/g');
    expect(res.status).toBe(502);
    expect(res.body.type).toBe('/problems/unsupported-broker-api');
    expect(res.body.broker).toBe(standIn.address);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(0);
  });

  it('stand-in: concurrent first requests share one connection, and close() leaves none open', async () => {
    for (const id of ['a', 'b', 'c', 'd']) standIn.groups.set(id, stableGroup(id));
    const app = appFor();
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) => get<ClassicGroup>(app, `/groups/${id}`)),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await Promise.all(services.splice(0).map((service) => service.close()));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(standIn.openConnections, 'sockets left open after close()').toBe(0);
    expect(standIn.connections, 'connections opened').toBe(1);
    expect(standIn.count(ApiKey.ApiVersions)).toBe(1);
  });

  it('stand-in: the socket closes in the middle of an answer → the retry reconnects and the request succeeds', async () => {
    standIn.groups.set('g', stableGroup('g'));
    standIn.script(ApiKey.DescribeGroups, reply.truncated({ close: true }));
    const app = appFor();

    const res = await get<ClassicGroup>(app, '/groups/g');
    expect(res.status).toBe(200);
    expect(standIn.count(ApiKey.DescribeGroups)).toBe(2);
    expect(standIn.connections).toBe(2);
    expect((await get(app, '/groups/g')).status).toBe(200);
  });

  it('stand-in: /readyz when ApiVersions is answered with garbage → 503 (documented)', async () => {
    standIn.otherwise(ApiKey.ApiVersions, reply.garbage());
    expect503(await get(appFor(), '/readyz'));
  });

  it('stand-in: /readyz when ApiVersions answers UNSUPPORTED_VERSION with no range → 503 (documented)', async () => {
    standIn.otherwise(ApiKey.ApiVersions, reply.error(ErrorCode.UNSUPPORTED_VERSION));
    expect503(await get(appFor(), '/readyz'));
  });

  it('stand-in: share groups switched off (UNSUPPORTED_VERSION on every group) → 501 for ?type=share, never 404', async () => {
    // A 4.x broker with share.version=0 advertises ShareGroupDescribe but refuses it per group.
    standIn.serveShareGroups = true;
    standIn.otherwise(ApiKey.ShareGroupDescribe, reply.error(ErrorCode.UNSUPPORTED_VERSION));
    const app = appFor();
    const asShare = await get(app, '/groups/missing?type=share');
    expect(asShare.status).toBe(501);
    expect(asShare.body).toMatchObject({
      type: '/problems/group-type-unavailable',
      groupId: 'missing',
      expectedType: 'share',
      kafkaError: { code: ErrorCode.UNSUPPORTED_VERSION, name: 'UNSUPPORTED_VERSION' },
    });
    // A classic group asked as share is still told apart: it exists, as classic.
    standIn.groups.set('g', stableGroup('g'));
    const classic = await get(app, '/groups/g?type=share');
    expect(classic.status).toBe(409);
    expect(classic.body).toMatchObject({ expectedType: 'share', actualType: 'classic' });
    // Without a type asserted, a group no served type knows is missing.
    expect((await get(app, '/groups/missing')).status).toBe(404);
    expect(standIn.count(ApiKey.ShareGroupDescribe)).toBeGreaterThanOrEqual(3);
  });

  it('stand-in: no response body carries a stack trace or a JS exception name', async () => {
    // Every fault again on one app, plus Metadata faults on /cluster; `get` checks each body.
    standIn.groups.set('g', stableGroup('g'));
    const app = appFor();
    const faults = [
      reply.garbage(),
      reply.garbage(new Uint8Array(0)),
      reply.stall(),
      reply.error(ErrorCode.GROUP_AUTHORIZATION_FAILED),
      reply.error(-1),
      reply.error(9999),
    ];
    for (const fault of faults) {
      standIn.script(ApiKey.DescribeGroups, fault);
      expect((await get(app, '/groups/g')).status).toBeGreaterThanOrEqual(500);
    }
    standIn.script(ApiKey.Metadata, reply.garbage());
    expect((await get(app, '/cluster')).status).toBe(502);
    standIn.script(ApiKey.ListGroups, reply.garbage());
    expect((await get(app, '/groups')).status).toBe(200);

    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) expectNoInternals(body);
  });
});
