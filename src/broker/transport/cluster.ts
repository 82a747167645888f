/**
 * The brokers of one cluster: bootstrap, discovery through Metadata, and one connection per
 * broker address, reused across requests, with at most `maxConnections` sockets open at once.
 */

import type { Logger } from '../../logger.js';
import { abandonAfter, Deadline, NO_DEADLINE } from '../deadline.js';
import { BrokerTimeoutError, BrokerUnavailableError } from '../errors.js';
import type { ApiMessage } from '../protocol/api.js';
import { ApiVersions } from '../protocol/messages/api-versions.js';
import { Metadata } from '../protocol/messages/metadata.js';
import { parseAddress } from './address.js';
import { BrokerHealth, collapsingLogger } from './broker-health.js';
import { ClusterPin } from './cluster-pin.js';
import {
  type BrokerAddress,
  BrokerConnection,
  type CallOptions,
  type ConnectionSettings,
  formatAddress,
  type KafkaSocket,
  type VersionRange,
} from './connection.js';
import { CLIENT_SOFTWARE, type ClusterFeatures, featuresOf } from './features.js';
import { kafkajsTransport } from './kafkajs/index.js';
import type { SocketFactory } from './link.js';
import { ConnectionPool, type ConnectionStats } from './pool.js';
import type { AwsMskIamSigner } from './sasl/aws-msk-iam.js';
import { saslCredentials } from './sasl/credentials.js';
import type { ClusterSettings } from './settings.js';

export interface BrokerInfo extends BrokerAddress {
  nodeId: number;
  rack: string | null;
}

export interface ClusterInfo {
  clusterId: string | null;
  controllerId: number | null;
  brokers: BrokerInfo[];
  features: ClusterFeatures | null;
}

export interface PartitionLeader {
  partition: number;
  leader: BrokerInfo | null;
  leaderEpoch: number | null;
  errorCode: number;
}

export interface TopicLeaders {
  errorCode: number;
  partitions: Map<number, PartitionLeader>;
}

export interface ClusterOptions {
  socketFactory?: SocketFactory;
  logger: Logger;
  /**
   * Most sockets open at once (default: no limit). At the limit the least recently used idle one
   * is closed before another opens; when all are busy the new one waits.
   */
  maxConnections?: number;
  /** See ConnectionSettings.idleRetryMs (default 1000). */
  idleRetryMs?: number;
  /**
   * AWS's signer for KAFKA_SASL_MECHANISM=aws-msk-iam, passed in by the runtimes that can run it
   * (Node, Lambda), so the AWS SDK stays out of the others' bundles.
   */
  awsMskIamSigner?: AwsMskIamSigner;
}

export const DEFAULT_IDLE_RETRY_MS = 1_000;

/** A broker that did not answer (timed out, refused, dropped): another broker may. */
export function isNoAnswer(error: unknown): error is BrokerTimeoutError | BrokerUnavailableError {
  return error instanceof BrokerTimeoutError || error instanceof BrokerUnavailableError;
}

/** One broker's answer to a readiness check. */
export interface BrokerReadiness {
  nodeId: number | null;
  /** host:port */
  broker: string;
  answered: boolean;
  /** Round trip of the Metadata request, when it answered. */
  latencyMs?: number;
  /** Why it did not answer. */
  error?: string;
}

export interface Readiness {
  ready: boolean;
  /** When the brokers were asked (ISO 8601); answers are reused for `READINESS_CACHE_MS`. */
  checkedAt: string;
  brokers: BrokerReadiness[];
}

/** How long one readiness answer serves further probes. */
export const READINESS_CACHE_MS = 1_000;

/**
 * A broker connection that reports each outcome to the cluster's BrokerHealth: failures steer
 * later requests away and are logged once per outage; the first success ends the outage.
 */
class TrackedConnection extends BrokerConnection {
  constructor(
    address: BrokerAddress,
    settings: ConnectionSettings,
    private readonly health: BrokerHealth,
  ) {
    super(address, settings);
  }

  // The calls themselves, not the caller's wait: a call abandoned at a deadline still reports
  // how it ended.
  protected override versionsUnbounded(): Promise<Map<number, VersionRange>> {
    return this.track(() => super.versionsUnbounded());
  }

  protected override sendUnbounded<Req, Res>(
    api: ApiMessage<Req, Res>,
    request: Req | ((version: number) => Req),
    bounds?: Partial<VersionRange>,
  ): Promise<{ version: number; response: Res }> {
    return this.track(() => super.sendUnbounded(api, request, bounds));
  }

  private async track<T>(call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      this.health.succeeded(this.label);
      return result;
    } catch (error) {
      if (isNoAnswer(error)) this.health.failed(this.label, error);
      throw error;
    }
  }
}

export class KafkaCluster {
  private readonly settings: ConnectionSettings;
  private readonly connections = new Map<string, BrokerConnection>();
  private readonly bootstrap: BrokerAddress[];
  /** Brokers the last Metadata answer named: failover goes there too, not only to bootstrap. */
  private discovered: BrokerInfo[] = [];
  /** Node ids of every address Metadata ever named, so readiness names a broker that left it. */
  private readonly nodeIds = new Map<string, number>();
  private readonly pool: ConnectionPool;
  readonly health: BrokerHealth;
  private readiness: { at: number; promise: Promise<Readiness> } | undefined;

  constructor(config: ClusterSettings, options: ClusterOptions) {
    this.bootstrap = config.brokers.map(parseAddress);
    this.pool = new ConnectionPool(options.maxConnections);
    this.health = new BrokerHealth({ logger: options.logger });
    // kafkajs logs every failed connection; one line per kind and broker and interval is enough.
    const transport = kafkajsTransport(collapsingLogger(options.logger));
    this.settings = {
      clientId: config.clientId,
      ssl: config.ssl === false ? null : config.ssl,
      sasl: saslCredentials(config.sasl, options.awsMskIamSigner),
      socketFactory: options.socketFactory ?? transport.defaultSocketFactory(),
      connectionTimeoutMs: config.connectionTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      transport,
      pool: this.pool,
      idleRetryMs: options.idleRetryMs ?? DEFAULT_IDLE_RETRY_MS,
      pin: new ClusterPin(config.clusterId, this.nodeIds),
    };
  }

  /** Sockets opened, closed, open now and at most, since this cluster was made. */
  connectionStats(): ConnectionStats {
    return this.pool.stats();
  }

  /** Every socket open now (diagnostics and tests). */
  openSockets(): KafkaSocket[] {
    return [...this.connections.values()].flatMap((c) => c.openSockets());
  }

  get requestTimeoutMs(): number {
    return this.settings.requestTimeoutMs;
  }

  /** The connection to a broker address, opened on first use and kept. */
  connection(address: BrokerAddress): BrokerConnection {
    const key = formatAddress(address);
    let connection = this.connections.get(key);
    if (!connection) {
      connection = new TrackedConnection(
        { host: address.host, port: address.port },
        this.settings,
        this.health,
      );
      this.connections.set(key, connection);
    }
    return connection;
  }

  /**
   * Runs `call` on one broker: bootstrap brokers and those Metadata named, those that failed lately
   * last. A broker that does not answer (refused, dropped, timed out) passes the call to the next
   * one while the deadline lasts (the one given, else two request timeouts); an answer, even an
   * error, is the cluster's answer. Each try gets at most one request timeout, and while another
   * broker is left to try, at most half of what is left: a hung first broker costs a share of the
   * deadline, never all of it. A try past its budget is abandoned, not awaited.
   */
  async anyBroker<T>(call: (connection: BrokerConnection) => Promise<T>, options: CallOptions): Promise<T> {
    const given = options.deadline;
    const deadline = given ?? Deadline.after(2 * this.settings.requestTimeoutMs);
    try {
      return await this.tryEach(call, deadline);
    } finally {
      if (!given) deadline.abort();
    }
  }

  private async tryEach<T>(
    call: (connection: BrokerConnection) => Promise<T>,
    deadline: Deadline,
  ): Promise<T> {
    const failures: Error[] = [];
    const candidates = this.candidates();
    for (const [i, address] of candidates.entries()) {
      const left = candidates.length - i;
      const budget = deadline.budgetMs(this.settings.requestTimeoutMs);
      const share = left > 1 ? Math.min(budget, Math.ceil(deadline.remainingMs() / 2)) : budget;
      if (share <= 0) break;
      const connection = this.connection(address);
      let abandoned = false;
      // The last try ends at the deadline's cut, wherever a shared deadline moved it, and says so.
      const last = left === 1;
      const began = Date.now();
      let given = share;
      const late = () => {
        abandoned = true;
        if (!last)
          return new BrokerTimeoutError(connection.label, 'a request', given, 'abandoned for another broker');
        const why = Date.now() >= deadline.cutAt() ? 'abandoned at the request deadline' : undefined;
        return new BrokerTimeoutError(connection.label, 'a request', Date.now() - began, why);
      };
      try {
        const answer = call(connection);
        let wait = last ? this.settings.requestTimeoutMs : share;
        for (;;) {
          const until = deadline.expiresAt;
          try {
            return await abandonAfter(answer, wait, deadline, late, last);
          } catch (error) {
            // A share that ran out under a deadline moved later meanwhile: a fresh share of what is left.
            wait = Math.min(
              deadline.budgetMs(this.settings.requestTimeoutMs),
              Math.ceil(deadline.remainingMs() / 2),
            );
            if (!abandoned || last || deadline.expiresAt <= until || wait <= 0) throw error;
            abandoned = false;
            given += wait;
          }
        }
      } catch (error) {
        // Not answering within its share counts as not answering: the calls that follow ask the
        // others first rather than each pay the same share until the call ends on its timeout.
        if (abandoned) this.health.failed(connection.label, error as Error);
        if (!isNoAnswer(error)) throw error;
        failures.push(error);
      }
    }
    // Every broker asked timed out: that is the answer (504); otherwise the cluster is unreachable.
    const [first] = failures;
    if (!first)
      throw new BrokerTimeoutError('any broker', 'a request', 0, 'no time was left in the request deadline');
    if (first instanceof BrokerTimeoutError && failures.every((f) => f instanceof BrokerTimeoutError))
      throw first;
    throw new BrokerUnavailableError(
      undefined,
      `no broker could be reached: ${failures.map((f) => f.message).join('; ')}`,
    );
  }

  private learn(brokers: BrokerInfo[]): void {
    this.discovered = brokers;
    for (const b of brokers) this.nodeIds.set(formatAddress(b), b.nodeId);
  }

  /**
   * Bootstrap and discovered brokers, once each: those with no failure first, then those failing
   * (avoided ones last). A failing broker is not probed through here while another answers: the
   * listing, readiness and calls that need that very broker see it come back.
   */
  private candidates(): BrokerAddress[] {
    const byLabel = new Map<string, BrokerAddress>();
    for (const address of [...this.bootstrap, ...this.discovered]) {
      const key = formatAddress(address);
      if (!byLabel.has(key)) byLabel.set(key, { host: address.host, port: address.port });
    }
    const ordered = this.health.order([...byLabel.values()], formatAddress);
    const failing = (a: BrokerAddress) => this.health.isFailing(formatAddress(a));
    return [...ordered.filter((a) => !failing(a)), ...ordered.filter(failing)];
  }

  /**
   * Asks every known broker for Metadata (a real round trip, not a remembered ApiVersions), each
   * bounded by `perBrokerMs`. Answers are shared for READINESS_CACHE_MS, so a flood of probes
   * costs one round of requests.
   */
  readinessCheck(perBrokerMs = Math.min(2_000, this.settings.requestTimeoutMs)): Promise<Readiness> {
    const now = Date.now();
    if (this.readiness && now - this.readiness.at < READINESS_CACHE_MS) return this.readiness.promise;
    const promise = this.checkBrokers(perBrokerMs);
    this.readiness = { at: now, promise };
    return promise;
  }

  private async checkBrokers(perBrokerMs: number): Promise<Readiness> {
    const checkedAt = new Date().toISOString();
    const addresses = [...this.bootstrap, ...this.discovered];
    const seen = new Set<string>();
    const unique = addresses.filter((a) => {
      const key = formatAddress(a);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const brokers = await Promise.all(
      unique.map(async (address): Promise<BrokerReadiness & { listed?: BrokerInfo[] }> => {
        const broker = formatAddress(address);
        const nodeId = this.nodeIds.get(broker) ?? null;
        const started = Date.now();
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`${broker} did not answer Metadata within ${perBrokerMs} ms`)),
            perBrokerMs,
          );
        });
        try {
          const { response } = await Promise.race([
            this.connection(address).send(
              Metadata,
              (version) => ({ topics: [], ...(version >= 4 && { allowAutoTopicCreation: false }) }),
              { min: 1 },
              // Bounded by its own timer: a probe's answer is shared by the probes of a second.
              NO_DEADLINE,
            ),
            late,
          ]);
          const listed = response.brokers.map((b) => ({
            nodeId: b.nodeId,
            host: b.host,
            port: b.port,
            rack: b.rack ?? null,
          }));
          return { nodeId, broker, answered: true, latencyMs: Date.now() - started, listed };
        } catch (error) {
          return { nodeId, broker, answered: false, error: (error as Error).message };
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const listed = brokers.find((b) => b.listed)?.listed;
    if (listed) this.learn(listed);
    return {
      ready: brokers.some((b) => b.answered),
      checkedAt,
      brokers: brokers.map(({ listed: _listed, ...b }) => ({
        ...b,
        nodeId: this.nodeIds.get(b.broker) ?? b.nodeId,
      })),
    };
  }

  /**
   * Brokers, controller and cluster id, from Metadata with no topics; feature levels from a fresh
   * ApiVersions on the same broker (the negotiated one may be older than a feature upgrade).
   */
  async describe(options: CallOptions): Promise<ClusterInfo> {
    return this.anyBroker(async (connection) => {
      const [{ response }, versions] = await Promise.all([
        connection.send(
          Metadata,
          (version) => ({
            // v0 reads an empty list as "all topics"; v1+ reads it as none.
            topics: [],
            ...(version >= 4 && { allowAutoTopicCreation: false }),
          }),
          { min: 1 },
          options,
        ),
        connection.send(ApiVersions, (version) => (version >= 3 ? CLIENT_SOFTWARE : {}), undefined, options),
      ]);
      const brokers = response.brokers
        .map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null }))
        .sort((a, b) => a.nodeId - b.nodeId);
      if (brokers.length > 0) this.learn(brokers);
      return {
        clusterId: response.clusterId ?? null,
        controllerId:
          response.controllerId === undefined || response.controllerId < 0 ? null : response.controllerId,
        brokers,
        features: featuresOf(versions.version, versions.response),
      };
    }, options);
  }

  /** Partition leaders of these topics, from Metadata (no topic is created by asking). */
  async topicLeaders(topics: readonly string[], options: CallOptions): Promise<Map<string, TopicLeaders>> {
    if (topics.length === 0) return new Map();
    return this.anyBroker(async (connection) => {
      const { response } = await connection.send(
        Metadata,
        (version) => ({
          topics: topics.map((name) => ({ name })),
          ...(version >= 4 && { allowAutoTopicCreation: false }),
        }),
        { min: 1 },
        options,
      );
      const brokers = new Map(
        response.brokers.map((b) => [
          b.nodeId,
          { nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null },
        ]),
      );
      const out = new Map<string, TopicLeaders>();
      for (const topic of response.topics) {
        if (topic.name === null) continue;
        const partitions = new Map<number, PartitionLeader>();
        for (const p of topic.partitions) {
          partitions.set(p.partitionIndex, {
            partition: p.partitionIndex,
            leader: brokers.get(p.leaderId) ?? null,
            leaderEpoch: p.leaderEpoch === undefined || p.leaderEpoch < 0 ? null : p.leaderEpoch,
            errorCode: p.errorCode,
          });
        }
        out.set(topic.name, { errorCode: topic.errorCode, partitions });
      }
      return out;
    }, options);
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }
}
