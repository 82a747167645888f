/**
 * What the log holds around a group's position, for lag in time: per partition, the log start
 * offset, the newest record time (the head) and the record batch at the committed offset. Asked of
 * each partition's leader, all its partitions at once: one Fetch (only partitions with lag), one
 * ListOffsets for the log start and one for the head. Nothing is decompressed or parsed beyond the
 * first record batch header, so it runs the same on every runtime.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { BrokerError, describeKafkaError, type KafkaErrorInfo } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import { Fetch, type RecordBatchHeader } from '../../broker/protocol/messages/fetch.js';
import {
  CONSUMER_REPLICA_ID,
  IsolationLevel,
  ListOffsets,
  ListOffsetsTimestamp,
} from '../../broker/protocol/messages/list-offsets.js';
import type { BrokerInfo, KafkaCluster } from '../../broker/transport/cluster.js';
import { type BrokerConnection, formatAddress } from '../../broker/transport/connection.js';
import type { Isolation } from './end-offsets.js';
import { tpKey } from './end-offsets.js';

/** Fetch v13 names topics by id; this probe names them, as every other call here does. */
const FETCH_MAX_BY_NAME = 12;
/**
 * Bytes asked per partition, round after round. A broker sends no part of a batch larger than a
 * partition's budget (it answers empty records instead: ReplicaManager drops an incomplete first
 * batch), except for the first non-empty partition of a Fetch, whose first batch it sends whole
 * (KIP-74). So the budget must hold the whole batch: first the producer's default batch.size, then
 * the broker's default message.max.bytes for what did not fit; partitions still empty after that
 * are asked one per Fetch, where each is first.
 */
const PARTITION_BUDGETS = [16_384, 1_048_588] as const;
/** Partitions asked one per Fetch after the budgets, at most, per leader. */
const ALONE_MAX = 16;
/** The budget of a Fetch that names one partition: its first batch comes whole whatever this is. */
const ALONE_BUDGET = 128;
/** ListOffsets accepts the max-timestamp spec (-3) from v7 (Kafka 3.0). */
const MAX_TIMESTAMP_MIN_VERSION = 7;

export interface ProbeRequest {
  topic: string;
  partition: number;
  /** Where to read the record batch: the committed offset; null when only the head is wanted. */
  fetchAt: number | null;
  /** The end offset, for the head's fallback (a Fetch at end - 1) on brokers before ListOffsets v7. */
  endOffset: number | null;
}

export interface BatchAt {
  baseOffset: number;
  /** The batch's first timestamp (BaseTimestamp) and its largest (MaxTimestamp), ms since the epoch. */
  firstTimestamp: number;
  maxTimestamp: number;
  records: number;
  /** The batch's size on the wire (its length field plus the 12 bytes before it). */
  bytes: number;
  timestampType: RecordBatchHeader['timestampType'];
  isControl: boolean;
}

export interface PartitionProbe {
  /** The log start offset; null when it could not be read. */
  logStartOffset: number | null;
  /** Time of the newest record (largest timestamp); null for an empty log or when unknown. */
  headTimestamp: number | null;
  /** The first batch at or after the committed offset; null when none came back. */
  batch: BatchAt | null;
  /** Why the Fetch at the committed offset gave no batch (out of range, not authorised, …). */
  fetchError: KafkaErrorInfo | null;
}

export async function probeLog(
  cluster: KafkaCluster,
  requests: readonly ProbeRequest[],
  isolation: Isolation,
  options: CallOptions,
): Promise<Map<string, PartitionProbe>> {
  const out = new Map<string, PartitionProbe>();
  if (requests.length === 0) return out;
  const leaders = await cluster.topicLeaders([...new Set(requests.map((r) => r.topic))], options);
  const byLeader = new Map<number, { leader: BrokerInfo; asked: ProbeRequest[] }>();
  for (const r of requests) {
    const topic = leaders.get(r.topic);
    const leader = topic?.partitions.get(r.partition)?.leader ?? null;
    if (!topic || topic.errorCode !== ErrorCode.NONE || !leader) {
      const code =
        topic && topic.errorCode !== ErrorCode.NONE ? topic.errorCode : ErrorCode.LEADER_NOT_AVAILABLE;
      out.set(tpKey(r.topic, r.partition), {
        logStartOffset: null,
        headTimestamp: null,
        batch: null,
        fetchError: describeKafkaError(code),
      });
      continue;
    }
    const entry = byLeader.get(leader.nodeId) ?? { leader, asked: [] };
    entry.asked.push(r);
    byLeader.set(leader.nodeId, entry);
  }
  await Promise.all(
    [...byLeader.values()].map(async ({ leader, asked }) => {
      // A leader that just failed to answer is not waited for again: its partitions say why.
      const avoided = cluster.health.skipReason(formatAddress(leader));
      const probes = avoided
        ? unanswered(asked, {
            code: ErrorCode.UNKNOWN_SERVER_ERROR,
            name: 'BrokerUnavailableError',
            message: avoided,
          })
        : await probeLeader(cluster.connection(leader), asked, isolation, options);
      for (const [key, probe] of probes) out.set(key, probe);
    }),
  );
  return out;
}

async function probeLeader(
  connection: BrokerConnection,
  asked: readonly ProbeRequest[],
  isolation: Isolation,
  options: CallOptions,
): Promise<Map<string, PartitionProbe>> {
  const out = new Map<string, PartitionProbe>();
  for (const r of asked) {
    out.set(tpKey(r.topic, r.partition), {
      logStartOffset: null,
      headTimestamp: null,
      batch: null,
      fetchError: null,
    });
  }
  const at = (topic: string, partition: number) => out.get(tpKey(topic, partition));
  const failAll = (error: unknown) => {
    if (!(error instanceof BrokerError)) throw error;
    const info = { code: ErrorCode.UNKNOWN_SERVER_ERROR, name: error.name, message: error.message };
    for (const probe of out.values()) probe.fetchError ??= info;
  };

  const toFetch = asked.filter((r) => r.fetchAt !== null);
  let hasMaxTimestamp: boolean;
  try {
    hasMaxTimestamp =
      (await connection.versionFor(ListOffsets, { min: MAX_TIMESTAMP_MIN_VERSION }, options)) !== undefined;
  } catch (error) {
    // The leader does not answer at all: its partitions say so, the others stand.
    failAll(error);
    return out;
  }
  await Promise.all([
    fetchWholeBatches(
      connection,
      toFetch.map((r) => ({ topic: r.topic, partition: r.partition, offset: r.fetchAt as number })),
      isolation,
      options,
    )
      .then((batches) => {
        for (const [key, b] of batches) {
          const probe = out.get(key);
          if (!probe) continue;
          probe.batch = b.batch;
          probe.fetchError = b.error;
          if (b.logStartOffset !== null) probe.logStartOffset = b.logStartOffset;
        }
      })
      .catch(failAll),
    listOffsets(connection, asked, ListOffsetsTimestamp.Earliest, 1, options)
      .then((answers) => {
        for (const a of answers) {
          const probe = at(a.topic, a.partition);
          if (probe && a.errorCode === ErrorCode.NONE) probe.logStartOffset = a.offset;
        }
      })
      .catch(failAll),
    hasMaxTimestamp
      ? listOffsets(connection, asked, ListOffsetsTimestamp.MaxTimestamp, MAX_TIMESTAMP_MIN_VERSION, options)
          .then((answers) => {
            for (const a of answers) {
              const probe = at(a.topic, a.partition);
              if (probe && a.errorCode === ErrorCode.NONE && a.timestamp >= 0)
                probe.headTimestamp = a.timestamp;
            }
          })
          .catch(failAll)
      : // Before ListOffsets v7: the last batch's MaxTimestamp, read by a Fetch at end - 1.
        fetchWholeBatches(
          connection,
          asked.flatMap((r) =>
            r.endOffset !== null && r.endOffset > 0
              ? [{ topic: r.topic, partition: r.partition, offset: r.endOffset - 1 }]
              : [],
          ),
          isolation,
          options,
        )
          .then((batches) => {
            for (const [key, b] of batches) {
              const probe = out.get(key);
              if (probe && b.batch) probe.headTimestamp = b.batch.maxTimestamp;
            }
          })
          .catch(failAll),
  ]);
  return out;
}

/** The probes of a leader that was not asked, each with `error`. */
function unanswered(asked: readonly ProbeRequest[], error: KafkaErrorInfo): Map<string, PartitionProbe> {
  return new Map(
    asked.map((r) => [
      tpKey(r.topic, r.partition),
      { logStartOffset: null, headTimestamp: null, batch: null, fetchError: error },
    ]),
  );
}

interface FetchedBatch {
  batch: BatchAt | null;
  error: KafkaErrorInfo | null;
  logStartOffset: number | null;
}

type FetchAt = { topic: string; partition: number; offset: number };

/** The first batch at each offset, with growing budgets until each came whole (see PARTITION_BUDGETS). */
async function fetchWholeBatches(
  connection: BrokerConnection,
  at: readonly FetchAt[],
  isolation: Isolation,
  options: CallOptions,
): Promise<Map<string, FetchedBatch>> {
  const out = new Map<string, FetchedBatch>();
  let pending = [...at];
  const keep = (answers: Map<string, FetchedBatch>) => {
    const empty = new Set<string>();
    for (const [key, answer] of answers) {
      out.set(key, answer);
      if (!answer.batch && !answer.error) empty.add(key);
    }
    pending = pending.filter((p) => empty.has(tpKey(p.topic, p.partition)));
  };
  for (const budget of PARTITION_BUDGETS) {
    if (pending.length === 0) break;
    keep(await fetchBatches(connection, pending, isolation, budget, options));
  }
  for (const one of pending.slice(0, ALONE_MAX)) {
    keep(await fetchBatches(connection, [one], isolation, ALONE_BUDGET, options));
  }
  return out;
}

/** One Fetch for all `at` (one leader), MaxWait 0: what is there now, never a wait for more. */
async function fetchBatches(
  connection: BrokerConnection,
  at: readonly FetchAt[],
  isolation: Isolation,
  budget: number,
  options: CallOptions,
): Promise<Map<string, FetchedBatch>> {
  const out = new Map<string, FetchedBatch>();
  if (at.length === 0) return out;
  const byTopic = new Map<string, { partition: number; offset: number }[]>();
  for (const { topic, partition, offset } of at)
    byTopic.set(topic, [...(byTopic.get(topic) ?? []), { partition, offset }]);
  const { response } = await connection.send(
    Fetch,
    {
      maxWaitMs: 0,
      minBytes: 0,
      // The per-partition budget bounds the answer; this only must not cut it short.
      maxBytes: 0x7fffffff,
      isolationLevel:
        isolation === 'read_committed' ? IsolationLevel.ReadCommitted : IsolationLevel.ReadUncommitted,
      topics: [...byTopic].map(([topic, list]) => ({
        topic,
        partitions: list.map(({ partition, offset }) => ({
          partition,
          fetchOffset: BigInt(offset),
          partitionMaxBytes: budget,
        })),
      })),
    },
    { max: FETCH_MAX_BY_NAME },
    options,
  );
  for (const t of response.responses) {
    for (const p of t.partitions) {
      const header = p.records?.firstBatch ?? null;
      const logStart =
        p.logStartOffset !== undefined && p.logStartOffset >= 0n ? Number(p.logStartOffset) : null;
      out.set(tpKey(t.topic ?? '', p.partitionIndex), {
        batch: header && {
          baseOffset: Number(header.baseOffset),
          firstTimestamp: Number(header.baseTimestamp),
          maxTimestamp: Number(header.maxTimestamp),
          records: header.recordsCount,
          bytes: header.batchLength + 12,
          timestampType: header.timestampType,
          isControl: header.isControl,
        },
        error: p.errorCode === ErrorCode.NONE ? null : describeKafkaError(p.errorCode),
        logStartOffset: p.errorCode === ErrorCode.NONE ? logStart : null,
      });
    }
  }
  return out;
}

async function listOffsets(
  connection: BrokerConnection,
  asked: readonly ProbeRequest[],
  timestamp: bigint,
  minVersion: number,
  options: CallOptions,
): Promise<{ topic: string; partition: number; errorCode: number; offset: number; timestamp: number }[]> {
  const byTopic = new Map<string, number[]>();
  for (const { topic, partition } of asked) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
  const { response } = await connection.send(
    ListOffsets,
    (v) => ({
      replicaId: CONSUMER_REPLICA_ID,
      ...(v >= 2 && { isolationLevel: IsolationLevel.ReadUncommitted }),
      topics: [...byTopic].map(([name, list]) => ({
        name,
        partitions: list.map((partitionIndex) => ({ partitionIndex, timestamp })),
      })),
    }),
    { min: minVersion },
    options,
  );
  return response.topics.flatMap((t) =>
    t.partitions.map((p) => ({
      topic: t.name,
      partition: p.partitionIndex,
      errorCode: p.errorCode,
      offset: Number(p.offset),
      timestamp: Number(p.timestamp),
    })),
  );
}
