/*
  OffsetFetch (API key 9), versions 1-10, flexible from 6
  (OffsetFetchRequest.json / OffsetFetchResponse.json)

  Request =>
    GroupId                   string    v1-7
    Topics                    [OffsetFetchRequestTopic]  v1-7  (nullable v2-7: null = all topics)
      Name                    string
      PartitionIndexes        [int32]
    Groups                    [OffsetFetchRequestGroup]  v8+
      GroupId                 string
      MemberId                string?   v9+  (nullable, default null)
      MemberEpoch             int32     v9+  (default -1)
      Topics                  [OffsetFetchRequestTopics]?  (nullable: null = all topics)
        Name                  string    v8-9
        TopicId               uuid      v10+
        PartitionIndexes      [int32]
    RequireStable             bool      v7+  (default false)
  Response =>
    ThrottleTimeMs            int32     v3+
    Topics                    [OffsetFetchResponseTopic]  v1-7
      Name                    string
      Partitions              [OffsetFetchResponsePartition]
        PartitionIndex        int32
        CommittedOffset       int64
        CommittedLeaderEpoch  int32     v5-7  (default -1)
        Metadata              string?   (nullable)
        ErrorCode             int16
    ErrorCode                 int16     v2-7  (default 0)
    Groups                    [OffsetFetchResponseGroup]  v8+
      GroupId                 string
      Topics                  [OffsetFetchResponseTopics]
        Name                  string    v8-9
        TopicId               uuid      v10+
        Partitions            [OffsetFetchResponsePartitions]
          PartitionIndex      int32
          CommittedOffset     int64
          CommittedLeaderEpoch int32    (default -1)
          Metadata            string?   (nullable)
          ErrorCode           int16
      ErrorCode               int16

  v0 (offsets in ZooKeeper) was removed in Kafka 4.0, so 1 is the floor. v8 replaced the single
  group with a batch of groups: the types keep both layouts, as on the wire, under the schema's own
  struct names (…Topic/…Partition for v1-7, …Topics/…Partitions for v8+). v10 names topics by id
  only, so a v10 caller resolves names itself (Metadata). A partition without a committed offset has
  CommittedOffset -1 and error 0. Errors live at three levels: top-level (v2-7), per group (v8+) and
  per partition. v1 has only the partition level: Kafka's client takes any partition error other
  than UNKNOWN_TOPIC_OR_PARTITION or TOPIC_AUTHORIZATION_FAILED there as the group's error.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ProtocolEncodeError } from '../decode-error.js';
import { ErrorCode } from '../errors.js';
import { ZERO_UUID } from '../uuid.js';

/** What CommittedOffset holds for a partition with no committed offset. */
export const NO_COMMITTED_OFFSET = -1n;

export interface OffsetFetchRequestTopic extends Tagged {
  name: string;
  partitionIndexes: number[];
}

export interface OffsetFetchRequestTopics extends Tagged {
  /** v8-9. */
  name?: string;
  /** v10+. */
  topicId?: string;
  partitionIndexes: number[];
}

export interface OffsetFetchRequestGroup extends Tagged {
  groupId: string;
  /** v9+; set only by a member of a consumer group (KIP-848) fetching its own offsets. */
  memberId?: string | null;
  /** v9+. */
  memberEpoch?: number;
  /** Null: every topic the group has offsets for. */
  topics: OffsetFetchRequestTopics[] | null;
}

export interface OffsetFetchRequest extends Tagged {
  /** v1-7. */
  groupId?: string;
  /** v1-7; null (v2-7 only): every topic the group has offsets for. */
  topics?: OffsetFetchRequestTopic[] | null;
  /** v8+. */
  groups?: OffsetFetchRequestGroup[];
  /** v7+. */
  requireStable?: boolean;
}

export interface OffsetFetchResponsePartition extends Tagged {
  partitionIndex: number;
  committedOffset: bigint;
  /** v5-7. */
  committedLeaderEpoch?: number;
  metadata: string | null;
  errorCode: number;
}

export interface OffsetFetchResponseTopic extends Tagged {
  name: string;
  partitions: OffsetFetchResponsePartition[];
}

export interface OffsetFetchResponsePartitions extends Tagged {
  partitionIndex: number;
  committedOffset: bigint;
  committedLeaderEpoch: number;
  metadata: string | null;
  errorCode: number;
}

export interface OffsetFetchResponseTopics extends Tagged {
  /** v8-9. */
  name?: string;
  /** v10+. */
  topicId?: string;
  partitions: OffsetFetchResponsePartitions[];
}

export interface OffsetFetchResponseGroup extends Tagged {
  groupId: string;
  topics: OffsetFetchResponseTopics[];
  errorCode: number;
}

export interface OffsetFetchResponse extends Tagged {
  /** v3+. */
  throttleTimeMs?: number;
  /** v1-7. */
  topics?: OffsetFetchResponseTopic[];
  /** v2-7. */
  errorCode?: number;
  /** v8+. */
  groups?: OffsetFetchResponseGroup[];
}

function writeRequestTopic(e: Encoder, t: OffsetFetchRequestTopic): void {
  e.string(t.name).int32Array(t.partitionIndexes);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): OffsetFetchRequestTopic {
  return defined({
    name: d.string('name'),
    partitionIndexes: d.int32Array('partitionIndexes'),
    unknownTaggedFields: d.tags(),
  });
}

function writeRequestTopics(e: Encoder, t: OffsetFetchRequestTopics): void {
  if (e.version <= 9) e.string(t.name ?? '');
  else e.absent('groups[].topics[].name', t.name, '');
  if (e.version >= 10) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent('groups[].topics[].topicId', t.topicId, ZERO_UUID);
  e.int32Array(t.partitionIndexes);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopics(d: Decoder): OffsetFetchRequestTopics {
  return defined({
    name: d.version <= 9 ? d.string('name') : undefined,
    topicId: d.version >= 10 ? d.uuid() : undefined,
    partitionIndexes: d.int32Array('partitionIndexes'),
    unknownTaggedFields: d.tags(),
  });
}

function writeRequestGroup(e: Encoder, g: OffsetFetchRequestGroup): void {
  e.string(g.groupId);
  if (e.version >= 9) e.nullableString(g.memberId ?? null).int32(g.memberEpoch ?? -1);
  else {
    e.absent('groups[].memberId', g.memberId, null);
    e.absent('groups[].memberEpoch', g.memberEpoch, -1);
  }
  e.nullableArray(g.topics, writeRequestTopics);
  e.tags(g.unknownTaggedFields);
}

function readRequestGroup(d: Decoder): OffsetFetchRequestGroup {
  const v9 = d.version >= 9;
  return defined({
    groupId: d.string('groupId'),
    memberId: v9 ? d.nullableString('memberId') : undefined,
    memberEpoch: v9 ? d.int32() : undefined,
    topics: d.nullableArray(readRequestTopics, d.version >= 10 ? 18 : 3, 'topics'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponsePartition(e: Encoder, p: OffsetFetchResponsePartition): void {
  e.int32(p.partitionIndex).int64(p.committedOffset);
  if (e.version >= 5) e.int32(p.committedLeaderEpoch ?? -1);
  else e.absent('topics[].partitions[].committedLeaderEpoch', p.committedLeaderEpoch, -1);
  e.nullableString(p.metadata).int16(p.errorCode);
  e.tags(p.unknownTaggedFields);
}

function readResponsePartition(d: Decoder): OffsetFetchResponsePartition {
  return defined({
    partitionIndex: d.int32(),
    committedOffset: d.int64(),
    committedLeaderEpoch: d.version >= 5 ? d.int32() : undefined,
    metadata: d.nullableString('metadata'),
    errorCode: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponseTopic(e: Encoder, t: OffsetFetchResponseTopic): void {
  e.string(t.name).array(t.partitions, writeResponsePartition);
  e.tags(t.unknownTaggedFields);
}

function readResponseTopic(d: Decoder): OffsetFetchResponseTopic {
  return defined({
    name: d.string('name'),
    partitions: d.array(readResponsePartition, 16, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponsePartitions(e: Encoder, p: OffsetFetchResponsePartitions): void {
  e.int32(p.partitionIndex)
    .int64(p.committedOffset)
    .int32(p.committedLeaderEpoch)
    .nullableString(p.metadata)
    .int16(p.errorCode);
  e.tags(p.unknownTaggedFields);
}

function readResponsePartitions(d: Decoder): OffsetFetchResponsePartitions {
  return defined({
    partitionIndex: d.int32(),
    committedOffset: d.int64(),
    committedLeaderEpoch: d.int32(),
    metadata: d.nullableString('metadata'),
    errorCode: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponseTopics(e: Encoder, t: OffsetFetchResponseTopics): void {
  if (e.version <= 9) e.string(t.name ?? '');
  else e.absent('groups[].topics[].name', t.name, '');
  if (e.version >= 10) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent('groups[].topics[].topicId', t.topicId, ZERO_UUID);
  e.array(t.partitions, writeResponsePartitions);
  e.tags(t.unknownTaggedFields);
}

function readResponseTopics(d: Decoder): OffsetFetchResponseTopics {
  return defined({
    name: d.version <= 9 ? d.string('name') : undefined,
    topicId: d.version >= 10 ? d.uuid() : undefined,
    partitions: d.array(readResponsePartitions, 20, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponseGroup(e: Encoder, g: OffsetFetchResponseGroup): void {
  e.string(g.groupId).array(g.topics, writeResponseTopics).int16(g.errorCode);
  e.tags(g.unknownTaggedFields);
}

function readResponseGroup(d: Decoder): OffsetFetchResponseGroup {
  return defined({
    groupId: d.string('groupId'),
    topics: d.array(readResponseTopics, d.version >= 10 ? 18 : 3, 'topics'),
    errorCode: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

export const OffsetFetch = defineApi<OffsetFetchRequest, OffsetFetchResponse>({
  apiKey: 9,
  name: 'OffsetFetch',
  minVersion: 1,
  maxVersion: 10,
  flexibleFrom: 6,

  writeRequest(e, req) {
    const v = e.version;
    if (v <= 7) {
      e.string(req.groupId ?? '');
      const topics = req.topics === undefined ? [] : req.topics;
      if (topics === null && v < 2) {
        // v1 has no way to say "all topics"; an empty array would silently ask for none.
        throw new ProtocolEncodeError('topics cannot be null before v2 (fetching all topics needs v2+)');
      }
      if (v >= 2) e.nullableArray(topics, writeRequestTopic);
      else e.array(topics as OffsetFetchRequestTopic[], writeRequestTopic);
      e.absent('groups', req.groups, []);
    } else {
      e.absent('groupId', req.groupId, '');
      e.absent('topics', req.topics, []);
      e.array(req.groups ?? [], writeRequestGroup);
    }
    if (v >= 7) e.boolean(req.requireStable ?? false);
    else e.absent('requireStable', req.requireStable, false);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    const single = v <= 7;
    const topicBytes = d.flexible ? 3 : 6;
    return defined({
      groupId: single ? d.string('groupId') : undefined,
      topics: !single
        ? undefined
        : v >= 2
          ? d.nullableArray(readRequestTopic, topicBytes, 'topics')
          : d.array(readRequestTopic, topicBytes, 'topics'),
      groups: single ? undefined : d.array(readRequestGroup, 3, 'groups'),
      requireStable: v >= 7 ? d.boolean() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    const v = e.version;
    if (v >= 3) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    if (v <= 7) {
      e.array(res.topics ?? [], writeResponseTopic);
      if (v >= 2) e.int16(res.errorCode ?? ErrorCode.NONE);
      else e.absent('errorCode', res.errorCode, 0);
      e.absent('groups', res.groups, []);
    } else {
      e.absent('topics', res.topics, []);
      e.absent('errorCode', res.errorCode, 0);
      e.array(res.groups ?? [], writeResponseGroup);
    }
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    const v = d.version;
    const single = v <= 7;
    return defined({
      throttleTimeMs: v >= 3 ? d.int32() : undefined,
      topics: single ? d.array(readResponseTopic, d.flexible ? 3 : 6, 'topics') : undefined,
      errorCode: single && v >= 2 ? d.int16() : undefined,
      groups: single ? undefined : d.array(readResponseGroup, 5, 'groups'),
      unknownTaggedFields: d.tags(),
    });
  },
});
