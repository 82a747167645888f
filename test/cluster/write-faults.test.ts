/**
 * Writes on a three-node cluster whose coordinator fails under them: a reset executed while the
 * coordinator hangs (SIGSTOP) and while it is killed (SIGKILL) and the group moves, offsets
 * deleted and a static member removed while the coordinator hangs.
 *
 * A fault at the right moment: the coordinator is stopped or killed just as the write request
 * goes out (the connection handed to the write pauses or kills the node when the write's RPC is
 * sent), so the answer is the one a caller gets when Kafka takes a write and does not answer.
 * Every answer must say honestly whether the write was sent: `sent: false` only where nothing
 * reached Kafka (so nothing may change), `true` where it may have. After recovery the same
 * write again is safe (a reset plan: `already-applied` or `executed`), and each outcome is read
 * back with Kafka's Java Admin client.
 */

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import type { CallOptions } from '../../src/broker/deadline.js';
import type { BrokerConnection } from '../../src/broker/transport/connection.js';
import { loadConfig } from '../../src/config.js';
import type { GroupWrites } from '../../src/groups/writes/group-writes.js';
import { loadedWrites } from '../../src/groups/writes/lazy.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import { createService, type Service } from '../../src/wiring.js';
import type { ClusterNode, RunningCluster } from '../broker-harness/cluster.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminMemberInstances, javaAdminOffsets } from '../broker-harness/java-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import { OpenApiChecker } from '../support/openapi.js';
import { handBack, sharedCluster } from './shared-cluster.js';

const REQUEST_TIMEOUT_MS = 3_000;
/** What a write under a fault may answer besides 200: documented, and saying whether it was sent. */
const HONEST = new Set([
  '/problems/broker-unavailable',
  '/problems/coordinator-unavailable',
  '/problems/broker-timeout',
]);

type App = ReturnType<typeof createApp>;
type Body = Record<string, unknown> & { type?: string; status?: string; sent?: boolean };

let cluster: RunningCluster;
let fixtures: RunningFixtures;
let service: Service;
let app: App;
let checker: OpenApiChecker;
const topic = uniqueName('wf-topic');
const ids = {
  hung: uniqueName('wf-hung'),
  killed: uniqueName('wf-killed'),
  offsets: uniqueName('wf-offsets'),
  members: uniqueName('wf-static'),
};
const prefix = uniqueName('wf-si');
const COMMIT = 10;

beforeAll(async () => {
  cluster = await sharedCluster();
  fixtures = await startFixtures({
    bootstrap: cluster.bootstrap,
    groups: [
      {
        type: 'classic',
        groupId: ids.members,
        topics: [{ name: topic, partitions: 3, records: 20 }],
        members: 2,
        instanceIdPrefix: prefix,
      },
      ...[ids.hung, ids.killed, ids.offsets].map((groupId) => ({
        type: 'empty' as const,
        groupId,
        topics: [topic],
        commit: COMMIT,
      })),
    ],
  });
  const config = loadConfig({
    KAFKA_BROKERS: cluster.bootstrap,
    KAFKA_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    KAFKA_CONNECTION_TIMEOUT_MS: '2000',
    AUTH: 'none',
    WRITES: 'enabled',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  const logger = createLogger('error', () => undefined);
  service = createService(config, { logger });
  app = createApp({ service: service.groups, logger, security: securityFrom(config) });
  checker = await OpenApiChecker.load(async (path) => app.request(path));
}, 420_000);

afterAll(async () => {
  for (const node of cluster?.nodes ?? []) if (node.state() === 'paused') node.resume();
  await service?.close();
  await fixtures?.stop().catch(() => undefined);
  await handBack(cluster);
}, 120_000);

async function call(method: string, path: string, template: string, body?: unknown) {
  const res = await app.request(path, {
    method,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
  const status = res.status;
  return { status, body: (await checker.check(method.toLowerCase(), template, res)) as Body };
}

const reset = (groupId: string, body: unknown, execute = false) =>
  call(
    'POST',
    `/groups/${groupId}/offsets/reset${execute ? '?execute=true' : ''}`,
    '/groups/{groupId}/offsets/reset',
    body,
  );

async function coordinatorOf(groupId: string): Promise<ClusterNode> {
  const res = await app.request(`/groups/${groupId}`);
  const nodeId = ((await res.json()) as { coordinator: { nodeId: number } }).coordinator.nodeId;
  const node = cluster.nodes.find((n) => n.nodeId === nodeId);
  if (!node) throw new Error(`no node ${nodeId}`);
  return node;
}

/**
 * The next time a write sends `api` at a coordinator, `fault` runs first (the node hangs or dies
 * with the request on its way). Once only; undone when the test ends.
 */
async function faultAt(api: string, fault: () => Promise<void> | void): Promise<void> {
  // The writes themselves, not their lazy front: they call their own atCoordinator.
  const writes = await loadedWrites(service.groups.writes as GroupWrites);
  const original = writes.atCoordinator;
  let fired = false;
  writes.atCoordinator = <T>(
    groupId: string,
    options: CallOptions,
    run: (connection: BrokerConnection) => Promise<T>,
  ) =>
    original.call<GroupWrites, [string, CallOptions, (c: BrokerConnection) => Promise<T>], Promise<T>>(
      writes,
      groupId,
      options,
      (connection) =>
        run(
          new Proxy(connection, {
            get(target, prop) {
              if (prop === 'send') {
                const send: BrokerConnection['send'] = async (message, ...rest) => {
                  if (!fired && message.name === api) {
                    fired = true;
                    await fault();
                  }
                  return target.send(message, ...rest);
                };
                return send;
              }
              const value = Reflect.get(target, prop, target) as unknown;
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }),
        ),
    );
  onTestFinished(() => {
    writes.atCoordinator = original;
  });
}

/** A write answered under a fault: 200, or a documented problem; `sent` is there either way. */
function honest(answer: { status: number; body: Body }, what: string): void {
  expect(typeof answer.body.sent, `${what}: sent in ${JSON.stringify(answer.body)}`).toBe('boolean');
  if (answer.status !== 200)
    expect(HONEST.has(answer.body.type ?? ''), `${what}: ${JSON.stringify(answer.body)}`).toBe(true);
}

async function committed(groupId: string): Promise<Record<string, number>> {
  const read = await javaAdminOffsets({ bootstrap: cluster.bootstrap, groupId, timeoutMs: 90_000 });
  return Object.fromEntries([...read.committed].map(([key, c]) => [key, c.offset]));
}

const everyPartition = (offset: number) => ({
  [`${topic}:0`]: offset,
  [`${topic}:1`]: offset,
  [`${topic}:2`]: offset,
});

/** Until `attempt` answers 200 (the cluster recovered): each answer in between must be honest. */
async function untilDone(what: string, attempt: () => Promise<{ status: number; body: Body }>) {
  let last: Body | undefined;
  return waitFor(
    async () => {
      const answer = await attempt();
      honest(answer, what);
      last = answer.body;
      return answer.status === 200 && answer;
    },
    { timeoutMs: 90_000, what: () => `${what}: a success (200); last ${JSON.stringify(last)}` },
  );
}

describe('writes on a three-node cluster whose coordinator fails', () => {
  it('removes a static member while the coordinator hangs as LeaveGroup goes out', async () => {
    // The members' process vanishes: they stay until their session ends (45 s), for an operator to remove.
    process.kill(fixtures.pid, 'SIGKILL');
    await fixtures.stop().catch(() => undefined);
    const node = await coordinatorOf(ids.members);
    await faultAt('LeaveGroup', () => node.pause());
    const path = `/groups/${ids.members}/members/${prefix}-0?type=classic`;
    const hung = await call('DELETE', path, '/groups/{groupId}/members/{instanceId}');
    node.resume();
    honest(hung, 'remove while hung');
    expect(hung.status).toBe(504);
    expect(hung.body.sent).toBe(true);
    // Again, once the node answers: removed now, or already gone (the hung node took it on resuming).
    const again = await untilDone('remove again', async () => {
      const a = await call('DELETE', path, '/groups/{groupId}/members/{instanceId}');
      return a.status === 404 && a.body.type === '/problems/member-not-found' ? { ...a, status: 200 } : a;
    });
    expect(again.status).toBe(200);
    expect(await javaAdminMemberInstances(cluster.bootstrap, ids.members)).toEqual([`${prefix}-1`]);
  }, 150_000);

  it('deletes offsets while the coordinator hangs as OffsetDelete goes out', async () => {
    const node = await coordinatorOf(ids.offsets);
    await faultAt('OffsetDelete', () => node.pause());
    const path = `/groups/${ids.offsets}/offsets?type=classic&topic=${topic}`;
    const hung = await call('DELETE', path, '/groups/{groupId}/offsets');
    node.resume();
    honest(hung, 'delete while hung');
    expect(hung.status).toBe(504);
    expect(hung.body.sent).toBe(true);
    const again = await untilDone('delete again', () => call('DELETE', path, '/groups/{groupId}/offsets'));
    // Deleted now (sent), or nothing left to delete (the hung node took the first on resuming).
    expect((again.body.deleted as unknown[]).length > 0).toBe(again.body.sent);
    expect(await committed(ids.offsets)).toEqual({});
  }, 150_000);

  it('executes a reset while the coordinator hangs, then the same plan again', async () => {
    const body = { type: 'classic', scenario: 'to-offset', offset: 4, allTopics: true };
    const plan = await reset(ids.hung, body);
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const execute = () => reset(ids.hung, { type: 'classic', planToken: plan.body.planToken }, true);
    const node = await coordinatorOf(ids.hung);
    onTestFinished(() => {
      if (node.state() === 'paused') node.resume();
    });

    // Hung before the write: the write gate cannot read the group, so nothing is sent.
    node.pause();
    const before = await execute();
    node.resume();
    honest(before, 'reset, coordinator hung');
    expect(before.status).not.toBe(200);
    expect(before.body.sent).toBe(false);

    // Hung as the commit goes out: Kafka has it and does not answer.
    await faultAt('OffsetCommit', () => node.pause());
    const during = await execute();
    node.resume();
    honest(during, 'reset, coordinator hung as the commit went out');
    expect(during.status).toBe(504);
    expect(during.body.sent).toBe(true);

    const again = await untilDone('reset again', execute);
    expect(['already-applied', 'executed']).toContain(again.body.status);
    expect(again.body.sent).toBe(again.body.status === 'executed');
    expect(await committed(ids.hung)).toEqual(everyPartition(4));
  }, 150_000);

  it('executes a reset while the coordinator is killed and the group moves, then the same plan again', async () => {
    const body = { type: 'classic', scenario: 'to-earliest', allTopics: true };
    const plan = await reset(ids.killed, body);
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    const execute = () => reset(ids.killed, { type: 'classic', planToken: plan.body.planToken }, true);
    const node = await coordinatorOf(ids.killed);
    await faultAt('OffsetCommit', () => node.kill());
    const first = await execute();
    honest(first, 'reset, coordinator killed as the commit went out');
    // The request met a dead node: not answered, so sent (a doubt) unless it went round to the new coordinator.
    expect(first.body.sent).toBe(true);

    const again = await untilDone('reset after the move', execute);
    expect(['already-applied', 'executed']).toContain(again.body.status);
    if (first.status === 200) expect(again.body.status).toBe('already-applied');
    expect((await coordinatorOf(ids.killed)).nodeId).not.toBe(node.nodeId);
    expect(await committed(ids.killed)).toEqual(everyPartition(0));
  }, 180_000);
});
