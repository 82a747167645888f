/**
 * What groups have committed, read at their coordinator: OffsetFetch for classic, consumer and
 * streams groups (all groups of a coordinator in one request from v8), DescribeShareGroupOffsets
 * for share groups (their start offsets). Reading only: nothing here commits.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { describeKafkaError, type KafkaErrorInfo, KafkaResponseError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import {
  DescribeShareGroupOffsets,
  SHARE_LAG_UNKNOWN,
} from '../../broker/protocol/messages/describe-share-group-offsets.js';
import { NO_COMMITTED_OFFSET, OffsetFetch } from '../../broker/protocol/messages/offset-fetch.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { failed, type Outcome, ok } from '../outcome.js';

/**
 * Most groups in one OffsetFetch (v8+) or DescribeShareGroupOffsets: a coordinator answers every
 * group of a request in one response, so the batch bounds the response (and what is held of it).
 */
export const OFFSETS_BATCH_GROUPS = 500;

/** OffsetFetch before v8 carries one group: so many requests are out at once per coordinator. */
const SINGLE_GROUP_CONCURRENCY = 32;

/** `ids` cut into batches of at most `size`. */
export function batchesOf<T>(ids: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Runs `read` per batch of ids (all at once: the caller bounds how many ids it hands in) and merges. */
async function inBatches<T>(
  ids: readonly string[],
  read: (batch: string[]) => Promise<Map<string, Outcome<T>>>,
): Promise<Map<string, Outcome<T>>> {
  const answers = await Promise.all(batchesOf(ids, OFFSETS_BATCH_GROUPS).map(read));
  return answers.length === 1
    ? (answers[0] as Map<string, Outcome<T>>)
    : new Map(answers.flatMap((a) => [...a]));
}

export interface CommittedPartition {
  topic: string;
  partition: number;
  /** null: no offset committed (or no start offset yet, for share groups). */
  offset: number | null;
  leaderEpoch: number | null;
  metadata: string | null;
  /** Share groups: the lag the broker computed, where it did (DescribeShareGroupOffsets v1). */
  brokerLag: number | null;
  error: KafkaErrorInfo | null;
}

export type CommittedOffsets = CommittedPartition[];

const asNumber = (value: bigint): number | null => (value < 0n ? null : Number(value));
const epoch = (value: number | undefined): number | null => (value === undefined || value < 0 ? null : value);

/** A group's answer: its offsets, or the error Kafka gave for it (coordinator errors are retried). */
function groupOutcome<T>(
  broker: string,
  api: string,
  code: number,
  message: string | null,
  value: () => T,
): Outcome<T> {
  return code === ErrorCode.NONE ? ok(value()) : failed(new KafkaResponseError(broker, api, code, message));
}

/**
 * Each asked group's outcome from a batched answer (OffsetFetch v8+, DescribeShareGroupOffsets).
 * Kafka answers every group it is asked about; one left out fails alone, the others stand.
 */
function outcomesByGroup<G extends { groupId: string }>(
  broker: string,
  api: string,
  groupIds: readonly string[],
  answered: readonly G[],
  outcome: (group: G) => Outcome<CommittedOffsets>,
): Map<string, Outcome<CommittedOffsets>> {
  const byId = new Map(answered.map((g) => [g.groupId, g]));
  const out = new Map<string, Outcome<CommittedOffsets>>();
  for (const id of groupIds) {
    const group = byId.get(id);
    out.set(
      id,
      group
        ? outcome(group)
        : failed(
            new KafkaResponseError(broker, api, ErrorCode.UNKNOWN_SERVER_ERROR, 'no answer for this group'),
          ),
    );
  }
  return out;
}

/**
 * Committed offsets of groups that share this coordinator. v10 names topics by id only, so the
 * request stays at v9 at most: names are what the rest of the answer is keyed by.
 */
export async function fetchCommitted(
  connection: BrokerConnection,
  groupIds: readonly string[],
  options: CallOptions,
): Promise<Map<string, Outcome<CommittedOffsets>>> {
  const version = await connection.versionFor(OffsetFetch, { min: 2, max: 9 }, options);
  if (version !== undefined && version >= 8)
    return inBatches(groupIds, (batch) => fetchCommittedBatch(connection, batch, options));
  const out = new Map<string, Outcome<CommittedOffsets>>();
  // Before v8 a request holds one group: one per group, a bounded number out at once.
  let next = 0;
  const worker = async () => {
    while (next < groupIds.length) {
      const groupId = groupIds[next++] as string;
      const { response } = await connection.send(
        OffsetFetch,
        (v) => ({ groupId, topics: null, ...(v >= 7 && { requireStable: false }) }),
        { min: 2, max: 7 },
        options,
      );
      out.set(
        groupId,
        groupOutcome(connection.label, 'OffsetFetch', response.errorCode ?? ErrorCode.NONE, null, () =>
          committedTopics(response.topics ?? []),
        ),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(SINGLE_GROUP_CONCURRENCY, groupIds.length) }, worker));
  return out;
}

/** One OffsetFetch v8+ for a batch of groups; each group's error is its own. */
async function fetchCommittedBatch(
  connection: BrokerConnection,
  groupIds: readonly string[],
  options: CallOptions,
): Promise<Map<string, Outcome<CommittedOffsets>>> {
  const { response } = await connection.send(
    OffsetFetch,
    { groups: groupIds.map((groupId) => ({ groupId, topics: null })), requireStable: false },
    { min: 8, max: 9 },
    options,
  );
  return outcomesByGroup(connection.label, OffsetFetch.name, groupIds, response.groups ?? [], (group) =>
    groupOutcome(connection.label, OffsetFetch.name, group.errorCode, null, () =>
      committedTopics(group.topics),
    ),
  );
}

/** The committed offsets of an OffsetFetch answer, whichever layout (v1-7 or v8+) it came in. */
function committedTopics(
  topics: readonly {
    name?: string;
    partitions: readonly {
      partitionIndex: number;
      committedOffset: bigint;
      committedLeaderEpoch?: number;
      metadata: string | null;
      errorCode: number;
    }[];
  }[],
): CommittedPartition[] {
  return topics.flatMap((t) =>
    t.partitions.map((p) =>
      committed(
        t.name ?? '',
        p.partitionIndex,
        p.committedOffset,
        p.committedLeaderEpoch,
        p.metadata,
        p.errorCode,
      ),
    ),
  );
}

function committed(
  topic: string,
  partition: number,
  offset: bigint,
  leaderEpoch: number | undefined,
  metadata: string | null,
  errorCode: number,
): CommittedPartition {
  return {
    topic,
    partition,
    offset: offset === NO_COMMITTED_OFFSET ? null : asNumber(offset),
    leaderEpoch: epoch(leaderEpoch),
    metadata: metadata === '' ? null : metadata,
    brokerLag: null,
    error: errorCode === ErrorCode.NONE ? null : describeKafkaError(errorCode),
  };
}

/** Start offsets (and lag, from v1) of share groups that share this coordinator, in one request. */
export function fetchShareStartOffsets(
  connection: BrokerConnection,
  groupIds: readonly string[],
  options: CallOptions,
): Promise<Map<string, Outcome<CommittedOffsets>>> {
  return inBatches(groupIds, (batch) => fetchShareBatch(connection, batch, options));
}

async function fetchShareBatch(
  connection: BrokerConnection,
  groupIds: readonly string[],
  options: CallOptions,
): Promise<Map<string, Outcome<CommittedOffsets>>> {
  const { response } = await connection.send(
    DescribeShareGroupOffsets,
    { groups: groupIds.map((groupId) => ({ groupId, topics: null })) },
    undefined,
    options,
  );
  return outcomesByGroup(
    connection.label,
    DescribeShareGroupOffsets.name,
    groupIds,
    response.groups,
    (group) =>
      groupOutcome(
        connection.label,
        DescribeShareGroupOffsets.name,
        group.errorCode,
        group.errorMessage,
        () =>
          group.topics.flatMap((t) =>
            t.partitions.map((p) => ({
              topic: t.topicName,
              partition: p.partitionIndex,
              offset: asNumber(p.startOffset),
              leaderEpoch: epoch(p.leaderEpoch),
              metadata: null,
              brokerLag: p.lag === undefined || p.lag === SHARE_LAG_UNKNOWN ? null : asNumber(p.lag),
              error: p.errorCode === ErrorCode.NONE ? null : describeKafkaError(p.errorCode, p.errorMessage),
            })),
          ),
      ),
  );
}
