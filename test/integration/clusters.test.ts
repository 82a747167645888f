/**
 * Two clusters behind one API: the suite's broker as `default` and a second single broker started
 * here as `second`, configured as a user does it (KAFKA_BROKERS, KAFKA_CLUSTERS,
 * KAFKA_CLUSTER_SECOND_*). Each has its own group, made by Kafka's Java client on that cluster.
 * Each cluster lists its own groups and has its own readiness and metrics; grants limited to one
 * cluster see that one only; stopping the second leaves the first untouched, and /readyz ready. Every answer is checked against the published document.
 */

import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupList } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import type { Problem } from '../../src/openapi/problems.js';
import { createService } from '../../src/wiring.js';
import { type RunningBroker, startBroker } from '../broker-harness/broker.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { waitFor } from '../broker-harness/wait.js';
import { type BrokerApps, brokerApps } from '../support/broker-apps.js';
import { OpenApiChecker } from '../support/openapi.js';

const run = uniqueName('clu');
const groupA = `${run}-on-default`;
const groupB = `${run}-on-second`;
const KEY = `key-${run}`;

let second: RunningBroker | undefined;
const fixtures: RunningFixtures[] = [];
let checker: OpenApiChecker;

type App = ReturnType<BrokerApps['app']>;

const apps = brokerApps();

function appFrom(env: Record<string, string>): App {
  return apps.app({
    KAFKA_CLUSTERS: 'second',
    KAFKA_CLUSTER_SECOND_BROKERS: second?.bootstrap ?? '127.0.0.1:1',
    // A cluster that is gone should cost its own routes little time, and the others none.
    KAFKA_CLUSTER_SECOND_CONNECTION_TIMEOUT_MS: '1000',
    KAFKA_CLUSTER_SECOND_REQUEST_TIMEOUT_MS: '3000',
    ...env,
  });
}

function templateOf(path: string): string {
  const bare = path.replace(/\?.*/, '');
  const m = /^\/clusters\/[^/]+(\/.*)?$/.exec(bare);
  const rest = m ? (m[1] ?? '') : bare;
  const route = rest.endsWith('/offsets')
    ? '/groups/{groupId}/offsets'
    : rest.startsWith('/groups/')
      ? '/groups/{groupId}'
      : rest;
  return m ? `/clusters/{alias}${route}` : route;
}

async function get<T = Problem>(app: App, path: string, headers: Record<string, string> = {}) {
  const started = Date.now();
  const res = await app.request(path, { headers });
  const body = (await checker.check('get', templateOf(path), res)) as T;
  return { status: res.status, body, ms: Date.now() - started };
}

const ids = (list: GroupList) => list.groups.map((g) => g.groupId);

interface Readiness {
  status: string;
  brokers: { broker: string; answered: boolean }[];
  clusters?: Record<string, { ready: boolean; reason?: string }>;
}

/** The groups a scrape has series of, among this run's. */
async function scraped(app: App, path: string, headers: Record<string, string> = {}) {
  const res = await app.request(`${path}?allow=${run}-.*`, { headers });
  // A scrape is text; a refusal is a problem, checked against the document.
  const text = res.status === 200 ? await res.text() : '';
  if (res.status === 200) expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  else await checker.check('get', templateOf(path), res);
  const groups = [...text.matchAll(/^kafka_group_members\{group="([^"]+)"/gm)].map((m) => m[1]);
  const failures = Number(/^kafka_group_listing_failures (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  return { status: res.status, groups, failures };
}

beforeAll(async () => {
  second = await startBroker({ readyTimeoutMs: 180_000 });
  const spec = (groupId: string) => ({
    type: 'classic' as const,
    groupId,
    topics: [{ name: `${groupId}-events`, partitions: 1, records: 2 }],
    clientId: `${groupId}-cl`,
    commit: 1,
  });
  fixtures.push(
    ...(await Promise.all([
      startFixtures({ bootstrap: inject('kafkaBrokers'), groups: [spec(groupA)] }),
      startFixtures({ bootstrap: second.bootstrap, groups: [spec(groupB)] }),
    ])),
  );
  checker = await OpenApiChecker.load(async (path) => appFrom({ AUTH: 'none' }).request(path));
}, 300_000);

afterAll(async () => {
  await Promise.all(fixtures.map((f) => f.stop()));
  await apps.close();
  await second?.stop();
}, 60_000);

describe('two clusters behind one API', () => {
  it('GET /clusters lists both from the configuration; GET /clusters/{alias} asks each its own', async () => {
    const app = appFrom({ AUTH: 'none' });
    const list = await get<{ clusters: { alias: string; default: boolean; bootstrap: string[] }[] }>(
      app,
      '/clusters',
    );
    expect(list.status).toBe(200);
    expect(list.body.clusters.map((c) => [c.alias, c.default, c.bootstrap])).toEqual([
      ['default', true, [inject('kafkaBrokers')]],
      ['second', false, [second?.bootstrap]],
    ]);
    const a = await get<{
      clusterId: string;
      brokers: { port: number }[];
      groupTypes: string[];
      kafkaVersionHint: string;
    }>(app, '/clusters/default');
    const b = await get<{ clusterId: string; brokers: { port: number }[]; groupTypes: string[] }>(
      app,
      '/clusters/second',
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.clusterId).not.toBe(b.body.clusterId);
    expect(b.body.brokers.map((x) => x.port)).toEqual([second?.port]);
    expect(b.body.groupTypes).toContain('classic');
    expect(a.body.kafkaVersionHint).toMatch(/\d\.\d/);
  });

  it('each cluster lists and describes its own groups; the short routes serve the default', async () => {
    const app = appFrom({ AUTH: 'none' });
    const onDefault = await get<GroupList>(app, `/clusters/default/groups?prefix=${run}`);
    const onSecond = await get<GroupList>(app, `/clusters/second/groups?prefix=${run}`);
    const short = await get<GroupList>(app, `/groups?prefix=${run}`);
    expect(ids(onDefault.body)).toEqual([groupA]);
    expect(ids(onSecond.body)).toEqual([groupB]);
    expect(ids(short.body)).toEqual([groupA]);
    expect((await get(app, `/clusters/second/groups/${groupB}`)).status).toBe(200);
    expect((await get(app, `/clusters/second/groups/${groupB}/offsets`)).status).toBe(200);
    const elsewhere = await get(app, `/clusters/default/groups/${groupB}`);
    expect([elsewhere.status, elsewhere.body.type]).toEqual([404, '/problems/group-not-found']);
  });

  it('each cluster its own readiness, cluster and metrics; /readyz names both ready', async () => {
    const app = appFrom({ AUTH: 'none' });
    const top = await get<Readiness>(app, '/readyz');
    expect([top.status, top.body.clusters]).toEqual([
      200,
      { default: { ready: true }, second: { ready: true } },
    ]);
    const own = await get<Readiness>(app, '/clusters/second/readyz');
    expect(own.status).toBe(200);
    expect(own.body.brokers.map((b) => b.broker)).toContain(second?.bootstrap);
    expect(own.body.clusters).toBeUndefined();
    const cluster = await get<{ brokers: { port: number }[] }>(app, '/clusters/second/cluster');
    expect([cluster.status, cluster.body.brokers.map((b) => b.port)]).toEqual([200, [second?.port]]);
    expect(await scraped(app, '/clusters/second/metrics')).toEqual({
      status: 200,
      groups: [groupB],
      failures: 0,
    });
    expect(await scraped(app, '/clusters/default/metrics')).toEqual({
      status: 200,
      groups: [groupA],
      failures: 0,
    });
    expect(await scraped(app, '/metrics')).toEqual({ status: 200, groups: [groupA], failures: 0 });
  });

  it('an unknown alias: 404 naming the aliases there are', async () => {
    const { status, body } = await get(appFrom({ AUTH: 'none' }), '/clusters/nope/groups');
    expect(status).toBe(404);
    expect(body.type).toBe('/problems/cluster-not-found');
    expect(body.clusters).toEqual(['default', 'second']);
  });

  it('grants limited to one cluster: that cluster only, the others answered as unknown', async () => {
    const hash = createHash('sha256').update(KEY).digest('hex');
    const app = appFrom({
      AUTH_API_KEYS: `team:${hash}`,
      AUTH_GRANTS: JSON.stringify({
        team: { groups: `${run}-*`, actions: ['read', 'offsets'], clusters: ['second'] },
      }),
    });
    const auth = { authorization: `Bearer ${KEY}` };
    const list = await get<{ clusters: { alias: string }[] }>(app, '/clusters', auth);
    expect(list.body.clusters.map((c) => c.alias)).toEqual(['second']);
    const own = await get<GroupList>(app, `/clusters/second/groups?prefix=${run}`, auth);
    expect([own.status, ids(own.body)]).toEqual([200, [groupB]]);
    const other = await get(app, '/clusters/default/groups', auth);
    expect([other.status, other.body.type, other.body.clusters]).toEqual([
      404,
      '/problems/cluster-not-found',
      ['second'],
    ]);
    // The short routes are the default cluster's, which no grant of this key covers.
    expect((await get(app, `/groups/${groupA}`, auth)).status).toBe(403);
    // Metrics alike: the granted cluster's groups, the other cluster's scrape refused.
    expect(await scraped(app, '/clusters/second/metrics', auth)).toEqual({
      status: 200,
      groups: [groupB],
      failures: 0,
    });
    const otherMetrics = await get(app, '/clusters/default/metrics', auth);
    expect([otherMetrics.status, otherMetrics.body.type]).toEqual([404, '/problems/cluster-not-found']);
    expect((await get(app, '/metrics', auth)).status).toBe(403);
  });

  // The network is the test's: a socket factory that, like a DNS or VIP mix-up, leads the default
  // cluster's address to the second cluster's broker once swapped. Both brokers are real.
  it("a broker of the other cluster behind the default's address: 502 naming both ids, none of its groups", async () => {
    const [address = ''] = inject('kafkaBrokers').split(',');
    const portA = Number(address.slice(address.lastIndexOf(':') + 1));
    const idOf = async (app: App, path: string) =>
      ((await (await app.request(path)).json()) as { clusterId: string }).clusterId;
    const idB = await idOf(appFrom({ AUTH: 'none' }), '/clusters/second/cluster');
    const behind = { port: portA };
    const open = new Set<Socket>();
    const config = loadConfig({ AUTH: 'none', KAFKA_BROKERS: address, RATE_LIMIT_PER_MINUTE: '0' });
    const service = createService(config, {
      socketFactory: ({ host, port, onConnect }) => {
        const socket = connect({ host, port: port === portA ? behind.port : port }, onConnect);
        open.add(socket);
        socket.once('close', () => open.delete(socket));
        return socket;
      },
    });
    try {
      const app = createApp({ service: service.groups, security: securityFrom(config) });
      expect((await app.request(`/groups/${groupA}`)).status).toBe(200);
      const idA = await idOf(app, '/cluster');
      expect(idA).not.toBe(idB);
      behind.port = second?.port ?? 0;
      for (const socket of open) socket.destroy();
      for (const path of [`/groups/${groupA}`, `/groups/${groupB}`, `/groups?prefix=${run}`, '/cluster']) {
        const res = await app.request(path);
        const text = await res.text();
        expect(res.status, `${path}: ${text}`).toBe(502);
        expect(JSON.parse(text), path).toMatchObject({
          type: '/problems/cluster-mismatch',
          expectedClusterId: idA,
          seenClusterId: idB,
        });
        // The problem alone (its instance is the path asked): nothing read from the other cluster.
        expect(text.replace(`"instance":"${path.replace(/\?.*/, '')}"`, ''), path).not.toContain(groupB);
      }
      // Configured: the id is known before any broker is asked, and a first connection is judged.
      const misconfigured = appFrom({ AUTH: 'none', KAFKA_CLUSTER_ID: idB });
      const first = await misconfigured.request(`/groups/${groupA}`);
      expect(first.status).toBe(502);
      expect(await first.json()).toMatchObject({ expectedClusterId: idB, seenClusterId: idA });
      // The address leads back to its own cluster: answered again.
      behind.port = portA;
      for (const socket of open) socket.destroy();
      await waitFor(async () => (await app.request(`/groups/${groupA}`)).status === 200, {
        timeoutMs: 15_000,
        what: 'the default cluster answering again',
      });
    } finally {
      await service.close();
    }
  });

  it('the second cluster stopped: its routes answer 503/504, the default answers as before, unslowed', async () => {
    const app = appFrom({ AUTH: 'none' });
    expect((await get(app, `/clusters/second/groups?prefix=${run}`)).status).toBe(200);
    await second?.stop();
    const gone = await get(app, `/clusters/second/groups/${groupB}`);
    expect([503, 504]).toContain(gone.status);
    const [listed, described, short] = await Promise.all([
      get<GroupList>(app, `/clusters/default/groups?prefix=${run}`),
      get(app, `/clusters/default/groups/${groupA}`),
      get<GroupList>(app, `/groups?prefix=${run}`),
      // At the same time, the gone cluster is asked again.
      get(app, `/clusters/second/groups?prefix=${run}`),
    ]);
    expect([listed.status, described.status, short.status]).toEqual([200, 200, 200]);
    expect(ids(listed.body)).toEqual([groupA]);
    expect(listed.body.failures).toEqual([]);
    expect(described.ms).toBeLessThan(3000);
  }, 120_000);

  it('the second cluster stopped: /readyz stays ready and names it not ready; its own readyz is 503', async () => {
    const app = appFrom({ AUTH: 'none' });
    await second?.stop(); // stopped by the test above already when it ran
    const [top, gone, kept] = await Promise.all([
      get<Readiness>(app, '/readyz'),
      get(app, '/clusters/second/readyz'),
      get<Readiness>(app, '/clusters/default/readyz'),
    ]);
    expect(top.status).toBe(200);
    expect(top.body.clusters?.default).toEqual({ ready: true });
    expect(top.body.clusters?.second?.ready).toBe(false);
    expect(top.body.clusters?.second?.reason).toContain(second?.bootstrap);
    expect([gone.status, gone.body.type]).toEqual([503, '/problems/broker-unavailable']);
    expect(kept.status).toBe(200);
    expect(kept.body.clusters).toBeUndefined();
    // Each cluster's scrape answers for that cluster: the default's groups in its own only.
    const lost = await scraped(app, '/clusters/second/metrics');
    // Nothing of it can be read: a problem (checked against the document), no series of the default's.
    expect([503, 504]).toContain(lost.status);
    expect(lost.groups).toEqual([]);
    expect(await scraped(app, '/clusters/default/metrics')).toEqual({
      status: 200,
      groups: [groupA],
      failures: 0,
    });
  }, 120_000);
});
