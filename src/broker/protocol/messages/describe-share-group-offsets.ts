/*
  DescribeShareGroupOffsets (API key 90), versions 0-1, flexible from 0
  (DescribeShareGroupOffsetsRequest.json / DescribeShareGroupOffsetsResponse.json)

  Request =>
    Groups                  [DescribeShareGroupOffsetsRequestGroup]
      GroupId               string
      Topics                [DescribeShareGroupOffsetsRequestTopic]?  (nullable: null = all topics)
        TopicName           string
        Partitions          [int32]
  Response =>
    ThrottleTimeMs          int32
    Groups                  [DescribeShareGroupOffsetsResponseGroup]
      GroupId               string
      Topics                [DescribeShareGroupOffsetsResponseTopic]
        TopicName           string
        TopicId             uuid
        Partitions          [DescribeShareGroupOffsetsResponsePartition]
          PartitionIndex    int32
          StartOffset       int64
          LeaderEpoch       int32
          Lag               int64    v1+  (default -1: unknown)
          ErrorCode         int16
          ErrorMessage      string?  (nullable, default null)
      ErrorCode             int16
      ErrorMessage          string?  (nullable, default null)

  Request v1 is byte-identical to v0; it asks for the v1 answer, which carries Lag (KIP-1226).
  StartOffset is the share-partition start offset (every record before it is acknowledged or
  archived), not a committed offset as in OffsetFetch. Errors are per group and per partition, each with a message.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/** What Lag holds when the broker cannot tell it (and what v0 implies). */
export const SHARE_LAG_UNKNOWN = -1n;

export interface DescribeShareGroupOffsetsRequestTopic extends Tagged {
  topicName: string;
  partitions: number[];
}

export interface DescribeShareGroupOffsetsRequestGroup extends Tagged {
  groupId: string;
  /** Null: every topic-partition the group has state for. */
  topics: DescribeShareGroupOffsetsRequestTopic[] | null;
}

export interface DescribeShareGroupOffsetsRequest extends Tagged {
  groups: DescribeShareGroupOffsetsRequestGroup[];
}

export interface DescribeShareGroupOffsetsResponsePartition extends Tagged {
  partitionIndex: number;
  startOffset: bigint;
  leaderEpoch: number;
  /** v1+; SHARE_LAG_UNKNOWN when the broker cannot tell. */
  lag?: bigint;
  errorCode: number;
  errorMessage: string | null;
}

export interface DescribeShareGroupOffsetsResponseTopic extends Tagged {
  topicName: string;
  topicId: string;
  partitions: DescribeShareGroupOffsetsResponsePartition[];
}

export interface DescribeShareGroupOffsetsResponseGroup extends Tagged {
  groupId: string;
  topics: DescribeShareGroupOffsetsResponseTopic[];
  errorCode: number;
  errorMessage: string | null;
}

export interface DescribeShareGroupOffsetsResponse extends Tagged {
  throttleTimeMs: number;
  groups: DescribeShareGroupOffsetsResponseGroup[];
}

function writeRequestTopic(e: Encoder, t: DescribeShareGroupOffsetsRequestTopic): void {
  e.string(t.topicName).int32Array(t.partitions);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): DescribeShareGroupOffsetsRequestTopic {
  return defined({
    topicName: d.string('topicName'),
    partitions: d.int32Array('partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeRequestGroup(e: Encoder, g: DescribeShareGroupOffsetsRequestGroup): void {
  e.string(g.groupId).nullableArray(g.topics, writeRequestTopic);
  e.tags(g.unknownTaggedFields);
}

function readRequestGroup(d: Decoder): DescribeShareGroupOffsetsRequestGroup {
  return defined({
    groupId: d.string('groupId'),
    topics: d.nullableArray(readRequestTopic, 3, 'topics'),
    unknownTaggedFields: d.tags(),
  });
}

function writePartition(e: Encoder, p: DescribeShareGroupOffsetsResponsePartition): void {
  e.int32(p.partitionIndex).int64(p.startOffset).int32(p.leaderEpoch);
  if (e.version >= 1) e.int64(p.lag ?? SHARE_LAG_UNKNOWN);
  else e.absent('groups[].topics[].partitions[].lag', p.lag, SHARE_LAG_UNKNOWN);
  e.int16(p.errorCode).nullableString(p.errorMessage);
  e.tags(p.unknownTaggedFields);
}

function readPartition(d: Decoder): DescribeShareGroupOffsetsResponsePartition {
  return defined({
    partitionIndex: d.int32(),
    startOffset: d.int64(),
    leaderEpoch: d.int32(),
    lag: d.version >= 1 ? d.int64() : undefined,
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    unknownTaggedFields: d.tags(),
  });
}

function writeTopic(e: Encoder, t: DescribeShareGroupOffsetsResponseTopic): void {
  e.string(t.topicName).uuid(t.topicId).array(t.partitions, writePartition);
  e.tags(t.unknownTaggedFields);
}

function readTopic(d: Decoder): DescribeShareGroupOffsetsResponseTopic {
  return defined({
    topicName: d.string('topicName'),
    topicId: d.uuid(),
    partitions: d.array(readPartition, 20, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeGroup(e: Encoder, g: DescribeShareGroupOffsetsResponseGroup): void {
  e.string(g.groupId).array(g.topics, writeTopic).int16(g.errorCode).nullableString(g.errorMessage);
  e.tags(g.unknownTaggedFields);
}

function readGroup(d: Decoder): DescribeShareGroupOffsetsResponseGroup {
  return defined({
    groupId: d.string('groupId'),
    topics: d.array(readTopic, 19, 'topics'),
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    unknownTaggedFields: d.tags(),
  });
}

export const DescribeShareGroupOffsets = defineApi<
  DescribeShareGroupOffsetsRequest,
  DescribeShareGroupOffsetsResponse
>({
  apiKey: 90,
  name: 'DescribeShareGroupOffsets',
  minVersion: 0,
  maxVersion: 1,
  flexibleFrom: 0,

  writeRequest(e, req) {
    e.array(req.groups, writeRequestGroup);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({ groups: d.array(readRequestGroup, 3, 'groups'), unknownTaggedFields: d.tags() });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).array(res.groups, writeGroup);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      groups: d.array(readGroup, 6, 'groups'),
      unknownTaggedFields: d.tags(),
    });
  },
});
