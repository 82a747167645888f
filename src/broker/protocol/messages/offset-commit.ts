/*
  OffsetCommit (API key 8), versions 2-10, flexible from 8
  (OffsetCommitRequest.json / OffsetCommitResponse.json)

  Request =>
    GroupId                     string
    GenerationIdOrMemberEpoch   int32     (default -1)
    MemberId                    string
    GroupInstanceId             string?   v7+  (nullable, default null)
    RetentionTimeMs             int64     v2-4 (default -1: the broker's retention)
    Topics                      [OffsetCommitRequestTopic]
      Name                      string    v2-9
      TopicId                   uuid      v10+
      Partitions                [OffsetCommitRequestPartition]
        PartitionIndex          int32
        CommittedOffset         int64
        CommittedLeaderEpoch    int32     v6+  (default -1)
        CommittedMetadata       string?   (nullable)
  Response =>
    ThrottleTimeMs              int32     v3+
    Topics                      [OffsetCommitResponseTopic]
      Name                      string    v2-9
      TopicId                   uuid      v10+
      Partitions                [OffsetCommitResponsePartition]
        PartitionIndex          int32
        ErrorCode               int16

  v0-1 were removed in Kafka 4.0, so 2 is the floor (Kafka 3.9 also serves 2-9). v3, v4, v8 and
  v9 change no bytes of the request; v9 is the first a KIP-848 consumer group accepts, and its
  answer may carry GROUP_ID_NOT_FOUND and STALE_MEMBER_EPOCH. v10 (stable from Kafka 4.2) names
  topics by id only.

  An admin commit (what Kafka's Admin.alterConsumerGroupOffsets sends) is GenerationIdOrMemberEpoch
  -1, MemberId "" and GroupInstanceId null: the coordinator accepts it only while the group has no
  members (a live group answers UNKNOWN_MEMBER_ID), and it CREATES an Empty classic group when the
  id is unknown, so a caller that must not create groups checks first. Errors are per partition.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ZERO_UUID } from '../uuid.js';

/** GenerationIdOrMemberEpoch of a commit made from outside the group (an admin commit). */
export const ADMIN_COMMIT_GENERATION = -1;

export interface OffsetCommitRequestPartition extends Tagged {
  partitionIndex: number;
  committedOffset: bigint;
  /** v6+; -1 when unknown. */
  committedLeaderEpoch?: number;
  committedMetadata: string | null;
}

export interface OffsetCommitRequestTopic extends Tagged {
  /** v2-9. */
  name?: string;
  /** v10+. */
  topicId?: string;
  partitions: OffsetCommitRequestPartition[];
}

export interface OffsetCommitRequest extends Tagged {
  groupId: string;
  /** ADMIN_COMMIT_GENERATION for an admin commit. */
  generationIdOrMemberEpoch: number;
  /** "" for an admin commit. */
  memberId: string;
  /** v7+. */
  groupInstanceId?: string | null;
  /** v2-4; -1 leaves it to the broker. */
  retentionTimeMs?: bigint;
  topics: OffsetCommitRequestTopic[];
}

export interface OffsetCommitResponsePartition extends Tagged {
  partitionIndex: number;
  errorCode: number;
}

export interface OffsetCommitResponseTopic extends Tagged {
  /** v2-9. */
  name?: string;
  /** v10+. */
  topicId?: string;
  partitions: OffsetCommitResponsePartition[];
}

export interface OffsetCommitResponse extends Tagged {
  /** v3+. */
  throttleTimeMs?: number;
  topics: OffsetCommitResponseTopic[];
}

/** Name up to v9, id from v10: the one a version lacks may only hold its default. */
function writeTopicKey(e: Encoder, t: { name?: string; topicId?: string }): void {
  if (e.version <= 9) e.string(t.name ?? '');
  else e.absent('topics[].name', t.name, '');
  if (e.version >= 10) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent('topics[].topicId', t.topicId, ZERO_UUID);
}

function readTopicKey(d: Decoder): { name?: string; topicId?: string } {
  return d.version <= 9 ? { name: d.string('name') } : { topicId: d.uuid() };
}

function writeRequestPartition(e: Encoder, p: OffsetCommitRequestPartition): void {
  e.int32(p.partitionIndex).int64(p.committedOffset);
  if (e.version >= 6) e.int32(p.committedLeaderEpoch ?? -1);
  else e.absent('topics[].partitions[].committedLeaderEpoch', p.committedLeaderEpoch, -1);
  e.nullableString(p.committedMetadata);
  e.tags(p.unknownTaggedFields);
}

function readRequestPartition(d: Decoder): OffsetCommitRequestPartition {
  return defined({
    partitionIndex: d.int32(),
    committedOffset: d.int64(),
    committedLeaderEpoch: d.version >= 6 ? d.int32() : undefined,
    committedMetadata: d.nullableString('committedMetadata'),
    unknownTaggedFields: d.tags(),
  });
}

function writeRequestTopic(e: Encoder, t: OffsetCommitRequestTopic): void {
  writeTopicKey(e, t);
  e.array(t.partitions, writeRequestPartition);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): OffsetCommitRequestTopic {
  return defined({
    ...readTopicKey(d),
    partitions: d.array(readRequestPartition, 13, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponsePartition(e: Encoder, p: OffsetCommitResponsePartition): void {
  e.int32(p.partitionIndex).int16(p.errorCode);
  e.tags(p.unknownTaggedFields);
}

function readResponsePartition(d: Decoder): OffsetCommitResponsePartition {
  return defined({ partitionIndex: d.int32(), errorCode: d.int16(), unknownTaggedFields: d.tags() });
}

function writeResponseTopic(e: Encoder, t: OffsetCommitResponseTopic): void {
  writeTopicKey(e, t);
  e.array(t.partitions, writeResponsePartition);
  e.tags(t.unknownTaggedFields);
}

function readResponseTopic(d: Decoder): OffsetCommitResponseTopic {
  return defined({
    ...readTopicKey(d),
    partitions: d.array(readResponsePartition, 6, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

/** The least a topic takes on the wire: an empty name and no partitions, or a uuid. */
const topicBytes = (d: Decoder) => (d.version >= 10 ? 18 : d.flexible ? 3 : 6);

export const OffsetCommit = defineApi<OffsetCommitRequest, OffsetCommitResponse>({
  apiKey: 8,
  name: 'OffsetCommit',
  minVersion: 2,
  maxVersion: 10,
  flexibleFrom: 8,

  writeRequest(e, req) {
    const v = e.version;
    e.string(req.groupId).int32(req.generationIdOrMemberEpoch).string(req.memberId);
    if (v >= 7) e.nullableString(req.groupInstanceId ?? null);
    else e.absent('groupInstanceId', req.groupInstanceId, null);
    if (v <= 4) e.int64(req.retentionTimeMs ?? -1n);
    else e.absent('retentionTimeMs', req.retentionTimeMs, -1n);
    e.array(req.topics, writeRequestTopic);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    return defined({
      groupId: d.string('groupId'),
      generationIdOrMemberEpoch: d.int32(),
      memberId: d.string('memberId'),
      groupInstanceId: v >= 7 ? d.nullableString('groupInstanceId') : undefined,
      retentionTimeMs: v <= 4 ? d.int64() : undefined,
      topics: d.array(readRequestTopic, topicBytes(d), 'topics'),
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    if (e.version >= 3) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    e.array(res.topics, writeResponseTopic);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.version >= 3 ? d.int32() : undefined,
      topics: d.array(readResponseTopic, topicBytes(d), 'topics'),
      unknownTaggedFields: d.tags(),
    });
  },
});
