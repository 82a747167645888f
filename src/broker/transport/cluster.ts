/**
 * The brokers of one cluster: bootstrap, discovery through Metadata, and one connection per
 * broker address, reused across requests, with at most `maxConnections` sockets open at once.
 */

import type { KafkaConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { BrokerUnavailableError } from '../errors.js';
import { Metadata } from '../protocol/messages/metadata.js';
import {
  type BrokerAddress,
  BrokerConnection,
  type ConnectionSettings,
  formatAddress,
  type KafkaSocket,
} from './connection.js';
import { kafkajsTransport } from './kafkajs/index.js';
import type { SocketFactory } from './link.js';
import { ConnectionPool, type ConnectionStats } from './pool.js';

export interface BrokerInfo extends BrokerAddress {
  nodeId: number;
  rack: string | null;
}

export interface ClusterInfo {
  clusterId: string | null;
  controllerId: number | null;
  brokers: BrokerInfo[];
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
}

export const DEFAULT_IDLE_RETRY_MS = 1_000;

export function parseAddress(address: string): BrokerAddress {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return { host, port: Number(address.slice(at + 1)) };
}

export class KafkaCluster {
  private readonly settings: ConnectionSettings;
  private readonly connections = new Map<string, BrokerConnection>();
  private readonly bootstrap: BrokerAddress[];
  private readonly pool: ConnectionPool;

  constructor(config: KafkaConfig, options: ClusterOptions) {
    this.bootstrap = config.brokers.map(parseAddress);
    this.pool = new ConnectionPool(options.maxConnections);
    const transport = kafkajsTransport(options.logger);
    this.settings = {
      clientId: config.clientId,
      ssl: config.ssl === false ? null : config.ssl,
      sasl: config.sasl ?? null,
      socketFactory: options.socketFactory ?? transport.defaultSocketFactory(),
      connectionTimeoutMs: config.connectionTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      transport,
      pool: this.pool,
      idleRetryMs: options.idleRetryMs ?? DEFAULT_IDLE_RETRY_MS,
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
      connection = new BrokerConnection({ host: address.host, port: address.port }, this.settings);
      this.connections.set(key, connection);
    }
    return connection;
  }

  /**
   * Runs `call` on the first bootstrap broker that can be reached. Only connection failures move on
   * to the next broker: an answer, even an error, is the cluster's answer.
   */
  async anyBroker<T>(call: (connection: BrokerConnection) => Promise<T>): Promise<T> {
    const failures: string[] = [];
    for (const address of this.bootstrap) {
      try {
        return await call(this.connection(address));
      } catch (error) {
        if (!(error instanceof BrokerUnavailableError)) throw error;
        failures.push(error.message);
      }
    }
    throw new BrokerUnavailableError(
      undefined,
      `no bootstrap broker could be reached: ${failures.join('; ')}`,
    );
  }

  /** Brokers, controller and cluster id, from Metadata with no topics. */
  async describe(): Promise<ClusterInfo> {
    return this.anyBroker(async (connection) => {
      const { response } = await connection.send(
        Metadata,
        (version) => ({
          // v0 reads an empty list as "all topics"; v1+ reads it as none.
          topics: [],
          ...(version >= 4 && { allowAutoTopicCreation: false }),
        }),
        { min: 1 },
      );
      return {
        clusterId: response.clusterId ?? null,
        controllerId:
          response.controllerId === undefined || response.controllerId < 0 ? null : response.controllerId,
        brokers: response.brokers
          .map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: b.rack ?? null }))
          .sort((a, b) => a.nodeId - b.nodeId),
      };
    });
  }

  /** Partition leaders of these topics, from Metadata (no topic is created by asking). */
  async topicLeaders(topics: readonly string[]): Promise<Map<string, TopicLeaders>> {
    if (topics.length === 0) return new Map();
    return this.anyBroker(async (connection) => {
      const { response } = await connection.send(
        Metadata,
        (version) => ({
          topics: topics.map((name) => ({ name })),
          ...(version >= 4 && { allowAutoTopicCreation: false }),
        }),
        { min: 1 },
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
    });
  }

  async close(): Promise<void> {
    const connections = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(connections.map((c) => c.close()));
  }
}
