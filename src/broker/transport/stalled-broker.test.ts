/**
 * The request deadline down to the connections, against a stand-in broker that stalls: a loopback
 * socket that accepts connections and never answers (as a broker hung by SIGSTOP does). No Kafka
 * here: the failover and the abandonment are what is checked; test/cluster/hung-bootstrap.test.ts
 * checks the same against three real brokers.
 */

import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../logger.js';
import { type CallOptions, Deadline, NO_DEADLINE } from '../deadline.js';
import { BrokerTimeoutError } from '../errors.js';
import { KafkaCluster } from './cluster.js';

class StalledBroker {
  private readonly sockets: Socket[] = [];
  private readonly server: Server = createServer((socket) => {
    this.sockets.push(socket);
    socket.on('error', () => undefined);
  });
  address = '';

  listen(): Promise<string> {
    return new Promise((resolve) =>
      this.server.listen(0, '127.0.0.1', () => {
        this.address = `127.0.0.1:${(this.server.address() as { port: number }).port}`;
        resolve(this.address);
      }),
    );
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A port nobody listens on is never asked below: the second broker answers without the network. */
const HEALTHY = '127.0.0.1:9';

describe('broker calls under the request deadline (stand-in broker that stalls)', () => {
  const stalled: StalledBroker[] = [];
  const clusters: KafkaCluster[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    // The stand-in hangs up first: the abandoned calls then end at once, not on their timeout.
    await Promise.all(stalled.splice(0).map((s) => s.close()));
    await Promise.all(clusters.splice(0).map((c) => c.close()));
  });

  async function clusterOf(requestTimeoutMs: number): Promise<{ cluster: KafkaCluster; hung: string }> {
    const broker = new StalledBroker();
    stalled.push(broker);
    const hung = await broker.listen();
    const cluster = new KafkaCluster(
      {
        brokers: [hung, HEALTHY],
        clientId: 'deadline-test',
        ssl: false,
        connectionTimeoutMs: 1_000,
        requestTimeoutMs,
      },
      { logger: silentLogger },
    );
    clusters.push(cluster);
    return { cluster, hung };
  }

  /** ApiVersions on the stalled broker (it never answers); the healthy one answers its name. */
  const ask =
    (hung: string, options: CallOptions) =>
    (connection: { label: string; apiVersions(options: CallOptions): Promise<unknown> }) =>
      connection.label === hung
        ? connection.apiVersions(options).then(() => 'stalled answered')
        : Promise.resolve(connection.label);

  it('a send past what is left of the request deadline is abandoned, not awaited for the Kafka timeout', async () => {
    const { cluster, hung } = await clusterOf(10_000);
    const started = Date.now();
    const error = await cluster
      .connection({ host: '127.0.0.1', port: Number(hung.split(':')[1]) })
      .apiVersions({ deadline: Deadline.after(400) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as Error).message).toContain('abandoned at the request deadline');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a stalled first bootstrap broker costs a share of the deadline: the next broker answers in time', async () => {
    const { cluster, hung } = await clusterOf(10_000);
    const started = Date.now();
    const options = { deadline: Deadline.after(2_000) };
    const answer = await cluster.anyBroker(ask(hung, options), options);
    expect(answer).toBe(HEALTHY);
    // Half of what was left for the stalled one, then the answer: well before the 2 s deadline.
    expect(Date.now() - started).toBeLessThan(1_800);
    // Failing now: asked after the healthy one, so the next call does not wait at all.
    const next = Date.now();
    const again = { deadline: Deadline.after(2_000) };
    expect(await cluster.anyBroker(ask(hung, again), again)).toBe(HEALTHY);
    expect(Date.now() - next).toBeLessThan(200);
  });

  it('without a request deadline, a Kafka request timeout on the first broker still leaves time for the next', async () => {
    const { cluster, hung } = await clusterOf(300);
    await expect(cluster.anyBroker(ask(hung, NO_DEADLINE), NO_DEADLINE)).resolves.toBe(HEALTHY);
  });

  it('the last broker’s try lasts as long as a shared deadline that moved later while it was out', async () => {
    const settings = { clientId: 'deadline-test', ssl: false, connectionTimeoutMs: 1_000 } as const;
    const cluster = new KafkaCluster(
      { ...settings, brokers: [HEALTHY], requestTimeoutMs: 10_000 },
      { logger: silentLogger },
    );
    clusters.push(cluster);
    // Cut at 80 ms at first; a caller with 5 s joins once the try is out. The answer comes at 200 ms.
    const shared = Deadline.shared(Deadline.after(100));
    const answer = cluster.anyBroker(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('answered'), 200)),
      { deadline: shared },
    );
    expect(shared.extendTo(Deadline.after(5_000))).toBe(true);
    await expect(answer).resolves.toBe('answered');
  });

  it('the last broker’s try, abandoned at a shared deadline that moved, says how long it waited and that the deadline ended it', async () => {
    vi.useFakeTimers();
    const settings = { clientId: 'deadline-test', ssl: false, connectionTimeoutMs: 1_000 } as const;
    const cluster = new KafkaCluster(
      { ...settings, brokers: [HEALTHY], requestTimeoutMs: 10_000 },
      { logger: silentLogger },
    );
    clusters.push(cluster);
    // Cut at 950 ms at first (a reserve of 50 ms); moved to 2,850 ms (3 s less 150 ms) once out.
    const shared = Deadline.shared(Deadline.after(1_000));
    const answer = cluster.anyBroker(() => new Promise<string>(() => undefined), { deadline: shared });
    const settled = answer.catch((error: unknown) => error);
    expect(shared.extendTo(Deadline.after(3_000))).toBe(true);
    await vi.advanceTimersByTimeAsync(3_000);
    const error = await settled;
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as Error).message).toBe(
      `${HEALTHY} did not answer a request within 2850 ms (abandoned at the request deadline)`,
    );
  });

  it('a try before the last, whose share runs out after the shared deadline moved later, waits a fresh share', async () => {
    vi.useFakeTimers();
    const settings = { clientId: 'deadline-test', ssl: false, connectionTimeoutMs: 1_000 } as const;
    const cluster = new KafkaCluster(
      { ...settings, brokers: ['127.0.0.1:10', HEALTHY], requestTimeoutMs: 10_000 },
      { logger: silentLogger },
    );
    clusters.push(cluster);
    // The first broker's share is 500 ms (half of 1 s); the deadline moves to 3 s once it is asked,
    // and it answers at 800 ms.
    const shared = Deadline.shared(Deadline.after(1_000));
    const answer = cluster.anyBroker(
      (connection) =>
        connection.label === HEALTHY
          ? Promise.resolve('next broker')
          : new Promise<string>((resolve) => setTimeout(() => resolve('first broker'), 800)),
      { deadline: shared },
    );
    expect(shared.extendTo(Deadline.after(3_000))).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(answer).resolves.toBe('first broker');
  });

  it('a deadline with no time left asks no broker and says so', async () => {
    const { cluster, hung } = await clusterOf(10_000);
    const spent = Deadline.after(10_000);
    spent.abort();
    const options = { deadline: spent };
    await expect(cluster.anyBroker(ask(hung, options), options)).rejects.toThrow(/no time was left/);
  });
});
