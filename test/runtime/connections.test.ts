/**
 * The transport's socket rules the runtimes rely on, seen at the broker end with stand-in brokers
 * (loopback, scripted): the connection cap (Workers), and a socket that died while idle (Lambda).
 */

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import { ApiKey, Metadata } from '../../src/broker/protocol/index.js';
import { KafkaCluster } from '../../src/broker/transport/cluster.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { reply, StandInBroker } from '../support/stand-in-broker.js';

const REQUEST_TIMEOUT_MS = 400;
let brokers: StandInBroker[];
const clusters: KafkaCluster[] = [];

function clusterOf(options: { maxConnections?: number; idleRetryMs?: number } = {}): KafkaCluster {
  const kafka = {
    ...loadConfig({ AUTH: 'none' }).kafka,
    brokers: brokers.map((b) => b.address),
    connectionTimeoutMs: 1000,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
  };
  const cluster = new KafkaCluster(kafka, { logger: silentLogger, ...options });
  clusters.push(cluster);
  return cluster;
}

/** One Metadata call to stand-in `i` (its own connection). */
function ask(cluster: KafkaCluster, i: number) {
  const b = brokers[i] as StandInBroker;
  return cluster
    .connection({ host: b.host, port: b.port })
    .send(Metadata, { topics: [] }, { min: 1 }, NO_DEADLINE);
}

const open = () => brokers.map((b) => b.openConnections);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  brokers = await Promise.all(Array.from({ length: 7 }, () => StandInBroker.start()));
});

afterEach(async () => {
  await Promise.all(clusters.splice(0).map((c) => c.close()));
  for (const b of brokers) {
    expect(b.problems).toEqual([]);
    b.reset();
  }
});

afterAll(async () => {
  await Promise.all(brokers.map((b) => b.stop()));
});

describe('connection cap (maxConnections)', () => {
  it('stand-in: 7 brokers at once with a cap of 5 → all answered, never more than 5 sockets open', async () => {
    const cluster = clusterOf({ maxConnections: 5 });
    let most = 0;
    const watch = setInterval(() => {
      most = Math.max(most, cluster.openSockets().length);
    }, 1);
    try {
      const answers = await Promise.all(brokers.map((_, i) => ask(cluster, i)));
      expect(answers.map((a) => a.response.brokers.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    } finally {
      clearInterval(watch);
    }
    const stats = cluster.connectionStats();
    expect(stats.peak).toBe(5);
    expect(stats.opened).toBe(7);
    expect(stats.evicted).toBe(2);
    expect(most).toBeLessThanOrEqual(5);
    expect(open().reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(5);
  });

  it('stand-in: at the cap the least recently used idle socket is closed first', async () => {
    const cluster = clusterOf({ maxConnections: 2 });
    await ask(cluster, 0);
    await ask(cluster, 1);
    await ask(cluster, 0); // broker 1 is now the least recently used
    await ask(cluster, 2);
    await sleep(50);
    expect(open().slice(0, 3)).toEqual([1, 0, 1]);
    expect(cluster.connectionStats()).toMatchObject({ opened: 3, closed: 1, open: 2, peak: 2, evicted: 1 });
    // The closed one comes back on demand (closing broker 0 now, the least recently used).
    await ask(cluster, 1);
    expect(brokers[1]?.connections).toBe(2);
  });

  it('stand-in: with every socket busy, the next one waits until one is free', async () => {
    const cluster = clusterOf({ maxConnections: 1 });
    await ask(cluster, 0);
    brokers[0]?.script(ApiKey.Metadata, reply.stall());
    const started = Date.now();
    const stalled = ask(cluster, 0).catch((error: Error) => error);
    await sleep(20);
    const waiting = ask(cluster, 1);
    await sleep(100);
    expect(brokers[1]?.connections, 'no socket to broker 1 while broker 0 is busy').toBe(0);
    expect(await stalled).toMatchObject({ name: 'BrokerTimeoutError' });
    await waiting;
    expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(cluster.connectionStats()).toMatchObject({ peak: 1, waited: 1 });
  });

  it('stand-in: close() closes every socket and waits for it', async () => {
    const cluster = clusterOf({ maxConnections: 5 });
    await Promise.all([0, 1, 2].map((i) => ask(cluster, i)));
    expect(cluster.openSockets()).toHaveLength(3);
    await cluster.close();
    expect(cluster.connectionStats()).toMatchObject({ opened: 3, closed: 3, open: 0 });
    await sleep(50);
    expect(open()).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('a socket that died while idle', () => {
  it('stand-in: destroyed locally (as a frozen Lambda may find it) → the next call reconnects at once', async () => {
    const cluster = clusterOf();
    await ask(cluster, 0);
    for (const socket of cluster.openSockets()) socket.destroy();
    const started = Date.now();
    await ask(cluster, 0);
    expect(Date.now() - started, 'no wait for the request timeout').toBeLessThan(REQUEST_TIMEOUT_MS);
    expect(brokers[0]?.connections).toBe(2);
  });

  it('stand-in: the broker drops an idle socket under the next request → one retry on a new socket succeeds', async () => {
    const cluster = clusterOf({ idleRetryMs: 100 });
    await ask(cluster, 0);
    // Clock wait: the socket must sit idle longer than idleRetryMs (100 ms).
    await sleep(150);
    brokers[0]?.script(ApiKey.Metadata, reply.close());
    const { response } = await ask(cluster, 0);
    expect(response.clusterId).toBe('stand-in-cluster');
    // Each new connection also sends one Metadata that names its cluster (cluster-pin.ts): the
    // first socket's and the ask, the dropped ask, the new socket's and the retried ask.
    expect(brokers[0]?.count(ApiKey.Metadata)).toBe(5);
    expect(brokers[0]?.connections).toBe(2);
  });

  it('stand-in: a socket that carried an answer just now and drops → no retry at this level', async () => {
    const cluster = clusterOf({ idleRetryMs: 10_000 });
    await ask(cluster, 0);
    brokers[0]?.script(ApiKey.Metadata, reply.close());
    await expect(ask(cluster, 0)).rejects.toMatchObject({ name: 'BrokerUnavailableError' });
    // The socket's own cluster check, the ask, the dropped ask: no second socket.
    expect(brokers[0]?.count(ApiKey.Metadata)).toBe(3);
  });

  it('stand-in: calls that start together on a dead idle socket each retry once, on one new socket', async () => {
    const cluster = clusterOf({ idleRetryMs: 100 });
    await ask(cluster, 0);
    // Clock wait: the socket must sit idle longer than idleRetryMs (100 ms).
    await sleep(150);
    brokers[0]?.script(ApiKey.Metadata, reply.close());
    const answers = await Promise.all([ask(cluster, 0), ask(cluster, 0), ask(cluster, 0)]);
    expect(answers).toHaveLength(3);
    expect(brokers[0]?.connections).toBe(2);
  });
});
