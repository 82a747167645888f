/**
 * Log-end offsets (or last stable offsets, read_committed) of partitions, asked of each
 * partition's leader: one ListOffsets per leader for all its partitions. A leader that moved is
 * looked up once more; what still fails is that partition's error, never the whole answer.
 * The same path answers the log start offset and the offset at a time (resets plan with them).
 */

import type { CallOptions } from '../../broker/deadline.js';
import { BrokerError, describeKafkaError, type KafkaErrorInfo } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import {
  CONSUMER_REPLICA_ID,
  IsolationLevel,
  ListOffsets,
  ListOffsetsTimestamp,
} from '../../broker/protocol/messages/list-offsets.js';
import type { BrokerInfo, KafkaCluster } from '../../broker/transport/cluster.js';
import { formatAddress } from '../../broker/transport/connection.js';
import { failed, type Outcome, ok } from '../outcome.js';

export type Isolation = 'read_uncommitted' | 'read_committed';

/** A partition's end offset, or the Kafka error that kept it from being read. */
export type EndOffset = Outcome<number, KafkaErrorInfo>;

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

export const tpKey = (topic: string, partition: number) => `${partition}:${topic}`;

/** Errors that mean "ask the new leader": worth one more Metadata round. */
const LEADER_MOVED: ReadonlySet<number> = new Set([
  ErrorCode.LEADER_NOT_AVAILABLE,
  ErrorCode.NOT_LEADER_OR_FOLLOWER,
  ErrorCode.FENCED_LEADER_EPOCH,
  ErrorCode.UNKNOWN_LEADER_EPOCH,
]);

/**
 * Which offset ListOffsets is asked for: the end (high watermark, or last stable offset), the log
 * start, or the first offset whose record time is at or after `timestamp` (epoch ms; the answer is
 * -1 when no record is that new).
 */
export type OffsetSpec =
  | { kind: 'latest'; isolation: Isolation }
  | { kind: 'earliest' }
  | { kind: 'timestamp'; timestamp: number };

export function endOffsets(
  cluster: KafkaCluster,
  partitions: readonly TopicPartitionRef[],
  isolation: Isolation,
  options: CallOptions,
): Promise<Map<string, EndOffset>> {
  return logOffsets(cluster, partitions, { kind: 'latest', isolation }, options);
}

/** Offsets of `spec` per partition (keyed by tpKey), each asked of the partition's leader. */
export async function logOffsets(
  cluster: KafkaCluster,
  partitions: readonly TopicPartitionRef[],
  spec: OffsetSpec,
  options: CallOptions,
): Promise<Map<string, EndOffset>> {
  const out = new Map<string, EndOffset>();
  let pending = dedupe(partitions);
  for (let round = 0; round < 2 && pending.length > 0; round++) {
    const retry: TopicPartitionRef[] = [];
    const leaders = await cluster.topicLeaders([...new Set(pending.map((p) => p.topic))], options);
    const byLeader = new Map<number, { leader: BrokerInfo; partitions: TopicPartitionRef[] }>();
    for (const tp of pending) {
      const topic = leaders.get(tp.topic);
      const known = topic?.partitions.get(tp.partition);
      const code = !topic
        ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        : topic.errorCode !== ErrorCode.NONE
          ? topic.errorCode
          : !known
            ? ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            : known.leader === null
              ? ErrorCode.LEADER_NOT_AVAILABLE
              : ErrorCode.NONE;
      if (code !== ErrorCode.NONE || !known?.leader) {
        if (LEADER_MOVED.has(code) && round === 0) retry.push(tp);
        else out.set(tpKey(tp.topic, tp.partition), failed(describeKafkaError(code)));
        continue;
      }
      const entry = byLeader.get(known.leader.nodeId) ?? { leader: known.leader, partitions: [] };
      entry.partitions.push(tp);
      byLeader.set(known.leader.nodeId, entry);
    }
    await Promise.all(
      [...byLeader.values()].map(async ({ leader, partitions: asked }) => {
        for (const [key, result] of await askLeader(cluster, leader, asked, spec, options)) {
          const [partition, ...topic] = key.split(':');
          if (!result.ok && LEADER_MOVED.has(result.error.code) && round === 0) {
            retry.push({ topic: topic.join(':'), partition: Number(partition) });
          } else {
            out.set(key, result);
          }
        }
      }),
    );
    pending = retry;
  }
  for (const tp of pending)
    out.set(tpKey(tp.topic, tp.partition), failed(describeKafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)));
  return out;
}

async function askLeader(
  cluster: KafkaCluster,
  leader: BrokerInfo,
  partitions: TopicPartitionRef[],
  spec: OffsetSpec,
  options: CallOptions,
): Promise<Map<string, EndOffset>> {
  const readCommitted = spec.kind === 'latest' && spec.isolation === 'read_committed';
  const timestamp =
    spec.kind === 'latest'
      ? ListOffsetsTimestamp.Latest
      : spec.kind === 'earliest'
        ? ListOffsetsTimestamp.Earliest
        : BigInt(spec.timestamp);
  const out = new Map<string, EndOffset>();
  // A leader that just failed to answer is not waited for again: its partitions say why.
  const avoided = cluster.health.skipReason(formatAddress(leader));
  if (avoided) {
    const info = { code: ErrorCode.UNKNOWN_SERVER_ERROR, name: 'BrokerUnavailableError', message: avoided };
    for (const { topic, partition } of partitions) out.set(tpKey(topic, partition), failed(info));
    return out;
  }
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of partitions)
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  try {
    const { response } = await cluster.connection(leader).send(
      ListOffsets,
      (v) => ({
        replicaId: CONSUMER_REPLICA_ID,
        ...(v >= 2 && {
          isolationLevel: readCommitted ? IsolationLevel.ReadCommitted : IsolationLevel.ReadUncommitted,
        }),
        topics: [...byTopic].map(([name, list]) => ({
          name,
          partitions: list.map((partitionIndex) => ({
            partitionIndex,
            timestamp,
          })),
        })),
      }),
      // read_committed needs v2; read_uncommitted works from v1.
      { min: readCommitted ? 2 : 1 },
      options,
    );
    for (const topic of response.topics) {
      for (const p of topic.partitions) {
        out.set(
          tpKey(topic.name, p.partitionIndex),
          p.errorCode === ErrorCode.NONE ? ok(Number(p.offset)) : failed(describeKafkaError(p.errorCode)),
        );
      }
    }
  } catch (error) {
    // The leader cannot be asked: its partitions fail, the others stand.
    if (!(error instanceof BrokerError)) throw error;
    const info = { code: ErrorCode.UNKNOWN_SERVER_ERROR, name: error.name, message: error.message };
    for (const { topic, partition } of partitions) out.set(tpKey(topic, partition), failed(info));
  }
  for (const { topic, partition } of partitions) {
    const key = tpKey(topic, partition);
    if (!out.has(key))
      out.set(
        key,
        failed(
          describeKafkaError(
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            'the leader did not answer for this partition',
          ),
        ),
      );
  }
  return out;
}

function dedupe(partitions: readonly TopicPartitionRef[]): TopicPartitionRef[] {
  const seen = new Map<string, TopicPartitionRef>();
  for (const tp of partitions) seen.set(tpKey(tp.topic, tp.partition), tp);
  return [...seen.values()];
}
