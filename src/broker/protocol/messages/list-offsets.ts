/*
  ListOffsets (API key 2), versions 1-11, flexible from 6
  (ListOffsetsRequest.json / ListOffsetsResponse.json)

  Request =>
    ReplicaId               int32    (-1 for a client)
    IsolationLevel          int8     v2+  (0 read uncommitted, 1 read committed)
    Topics                  [ListOffsetsTopic]
      Name                  string
      Partitions            [ListOffsetsPartition]
        PartitionIndex      int32
        CurrentLeaderEpoch  int32    v4+  (default -1: no fencing)
        Timestamp           int64
    TimeoutMs               int32    v10+
  Response =>
    ThrottleTimeMs          int32    v2+
    Topics                  [ListOffsetsTopicResponse]
      Name                  string
      Partitions            [ListOffsetsPartitionResponse]
        PartitionIndex      int32
        ErrorCode           int16
        Timestamp           int64    (default -1)
        Offset              int64    (default -1)
        LeaderEpoch         int32    v4+  (default -1)

  v0 (several offsets per partition, MaxNumOffsets) was removed in Kafka 4.0, so 1 is the floor.
  Versions 3, 5, 7, 8, 9 and 11 change no bytes of the request: most tell the broker the client
  understands one more special Timestamp (see ListOffsetsTimestamp), so a caller must pick at least
  that version to use it. v10 adds TimeoutMs, for offsets that live in remote (tiered) storage.
  Errors are per partition only; the request goes to each partition's leader, not to a coordinator.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/**
 * Special Timestamp values (ListOffsetsRequest.java), with the first version that accepts each:
 * a real timestamp asks for the first offset whose record time is at or after it.
 */
export const ListOffsetsTimestamp = {
  /** v1+: the high watermark (or the last stable offset under read committed). */
  Latest: -1n,
  /** v1+: the log start offset. */
  Earliest: -2n,
  /** v7+: the offset of the record with the largest timestamp. */
  MaxTimestamp: -3n,
  /** v8+: the local log start offset (tiered storage). */
  EarliestLocal: -4n,
  /** v9+: the last offset already in remote storage. */
  LatestTiered: -5n,
  /** v11+: the earliest offset not yet uploaded to remote storage. */
  EarliestPendingUpload: -6n,
} as const;

export const IsolationLevel = { ReadUncommitted: 0, ReadCommitted: 1 } as const;

/** ReplicaId of an ordinary client (brokers send their own id). */
export const CONSUMER_REPLICA_ID = -1;

export interface ListOffsetsPartition extends Tagged {
  partitionIndex: number;
  /** v4+; -1 skips the leader-epoch fencing check. */
  currentLeaderEpoch?: number;
  timestamp: bigint;
}

export interface ListOffsetsTopic extends Tagged {
  name: string;
  partitions: ListOffsetsPartition[];
}

export interface ListOffsetsRequest extends Tagged {
  replicaId: number;
  /** v2+; see IsolationLevel. */
  isolationLevel?: number;
  topics: ListOffsetsTopic[];
  /** v10+; how long the broker may wait on remote (tiered) storage. */
  timeoutMs?: number;
}

export interface ListOffsetsPartitionResponse extends Tagged {
  partitionIndex: number;
  errorCode: number;
  timestamp: bigint;
  offset: bigint;
  /** v4+. */
  leaderEpoch?: number;
}

export interface ListOffsetsTopicResponse extends Tagged {
  name: string;
  partitions: ListOffsetsPartitionResponse[];
}

export interface ListOffsetsResponse extends Tagged {
  /** v2+. */
  throttleTimeMs?: number;
  topics: ListOffsetsTopicResponse[];
}

function writePartition(e: Encoder, p: ListOffsetsPartition): void {
  e.int32(p.partitionIndex);
  if (e.version >= 4) e.int32(p.currentLeaderEpoch ?? -1);
  else e.absent('topics[].partitions[].currentLeaderEpoch', p.currentLeaderEpoch, -1);
  e.int64(p.timestamp);
  e.tags(p.unknownTaggedFields);
}

function readPartition(d: Decoder): ListOffsetsPartition {
  return defined({
    partitionIndex: d.int32(),
    currentLeaderEpoch: d.version >= 4 ? d.int32() : undefined,
    timestamp: d.int64(),
    unknownTaggedFields: d.tags(),
  });
}

function writeTopic(e: Encoder, t: ListOffsetsTopic): void {
  e.string(t.name).array(t.partitions, writePartition);
  e.tags(t.unknownTaggedFields);
}

function readTopic(d: Decoder): ListOffsetsTopic {
  return defined({
    name: d.string('name'),
    partitions: d.array(readPartition, 12, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writePartitionResponse(e: Encoder, p: ListOffsetsPartitionResponse): void {
  e.int32(p.partitionIndex).int16(p.errorCode).int64(p.timestamp).int64(p.offset);
  if (e.version >= 4) e.int32(p.leaderEpoch ?? -1);
  else e.absent('topics[].partitions[].leaderEpoch', p.leaderEpoch, -1);
  e.tags(p.unknownTaggedFields);
}

function readPartitionResponse(d: Decoder): ListOffsetsPartitionResponse {
  return defined({
    partitionIndex: d.int32(),
    errorCode: d.int16(),
    timestamp: d.int64(),
    offset: d.int64(),
    leaderEpoch: d.version >= 4 ? d.int32() : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writeTopicResponse(e: Encoder, t: ListOffsetsTopicResponse): void {
  e.string(t.name).array(t.partitions, writePartitionResponse);
  e.tags(t.unknownTaggedFields);
}

function readTopicResponse(d: Decoder): ListOffsetsTopicResponse {
  return defined({
    name: d.string('name'),
    partitions: d.array(readPartitionResponse, 22, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

export const ListOffsets = defineApi<ListOffsetsRequest, ListOffsetsResponse>({
  apiKey: 2,
  name: 'ListOffsets',
  minVersion: 1,
  maxVersion: 11,
  flexibleFrom: 6,

  writeRequest(e, req) {
    const v = e.version;
    e.int32(req.replicaId);
    if (v >= 2) e.int8(req.isolationLevel ?? IsolationLevel.ReadUncommitted);
    else e.absent('isolationLevel', req.isolationLevel, IsolationLevel.ReadUncommitted);
    e.array(req.topics, writeTopic);
    if (v >= 10) e.int32(req.timeoutMs ?? 0);
    else e.absent('timeoutMs', req.timeoutMs, 0);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    return defined({
      replicaId: d.int32(),
      isolationLevel: v >= 2 ? d.int8() : undefined,
      topics: d.array(readTopic, d.flexible ? 3 : 6, 'topics'),
      timeoutMs: v >= 10 ? d.int32() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    if (e.version >= 2) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    e.array(res.topics, writeTopicResponse);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.version >= 2 ? d.int32() : undefined,
      topics: d.array(readTopicResponse, d.flexible ? 3 : 6, 'topics'),
      unknownTaggedFields: d.tags(),
    });
  },
});
