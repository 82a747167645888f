/*
  AlterShareGroupOffsets (API key 91), version 0 only, flexible from 0
  (AlterShareGroupOffsetsRequest.json / AlterShareGroupOffsetsResponse.json)

  Request =>
    GroupId                 string
    Topics                  [AlterShareGroupOffsetsRequestTopic]
      TopicName             string
      Partitions            [AlterShareGroupOffsetsRequestPartition]
        PartitionIndex      int32
        StartOffset         int64
  Response =>
    ThrottleTimeMs          int32
    ErrorCode               int16
    ErrorMessage            string?  (nullable, default null)
    Responses               [AlterShareGroupOffsetsResponseTopic]
      TopicName             string
      TopicId               uuid
      Partitions            [AlterShareGroupOffsetsResponsePartition]
        PartitionIndex      int32
        ErrorCode           int16
        ErrorMessage        string?  (nullable, default null)

  New in Kafka 4.1 (KIP-932); 4.1 to 4.4 serve v0 only, 3.9 and 4.0 do not have it (ask ApiVersions).
  Sets the share-partition start offset, the share group's counterpart of a committed offset. The
  group must have no members: a live group answers NON_EMPTY_GROUP at the top level. Errors are at
  the top level (the group) and per partition, each with a message.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export interface AlterShareGroupOffsetsRequestPartition extends Tagged {
  partitionIndex: number;
  startOffset: bigint;
}

export interface AlterShareGroupOffsetsRequestTopic extends Tagged {
  topicName: string;
  partitions: AlterShareGroupOffsetsRequestPartition[];
}

export interface AlterShareGroupOffsetsRequest extends Tagged {
  groupId: string;
  topics: AlterShareGroupOffsetsRequestTopic[];
}

export interface AlterShareGroupOffsetsResponsePartition extends Tagged {
  partitionIndex: number;
  errorCode: number;
  errorMessage: string | null;
}

export interface AlterShareGroupOffsetsResponseTopic extends Tagged {
  topicName: string;
  topicId: string;
  partitions: AlterShareGroupOffsetsResponsePartition[];
}

export interface AlterShareGroupOffsetsResponse extends Tagged {
  throttleTimeMs: number;
  errorCode: number;
  errorMessage: string | null;
  responses: AlterShareGroupOffsetsResponseTopic[];
}

function writeRequestPartition(e: Encoder, p: AlterShareGroupOffsetsRequestPartition): void {
  e.int32(p.partitionIndex).int64(p.startOffset);
  e.tags(p.unknownTaggedFields);
}

function readRequestPartition(d: Decoder): AlterShareGroupOffsetsRequestPartition {
  return defined({ partitionIndex: d.int32(), startOffset: d.int64(), unknownTaggedFields: d.tags() });
}

function writeRequestTopic(e: Encoder, t: AlterShareGroupOffsetsRequestTopic): void {
  e.string(t.topicName).array(t.partitions, writeRequestPartition);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): AlterShareGroupOffsetsRequestTopic {
  return defined({
    topicName: d.string('topicName'),
    partitions: d.array(readRequestPartition, 13, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponsePartition(e: Encoder, p: AlterShareGroupOffsetsResponsePartition): void {
  e.int32(p.partitionIndex).int16(p.errorCode).nullableString(p.errorMessage);
  e.tags(p.unknownTaggedFields);
}

function readResponsePartition(d: Decoder): AlterShareGroupOffsetsResponsePartition {
  return defined({
    partitionIndex: d.int32(),
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    unknownTaggedFields: d.tags(),
  });
}

function writeResponseTopic(e: Encoder, t: AlterShareGroupOffsetsResponseTopic): void {
  e.string(t.topicName).uuid(t.topicId).array(t.partitions, writeResponsePartition);
  e.tags(t.unknownTaggedFields);
}

function readResponseTopic(d: Decoder): AlterShareGroupOffsetsResponseTopic {
  return defined({
    topicName: d.string('topicName'),
    topicId: d.uuid(),
    partitions: d.array(readResponsePartition, 8, 'partitions'),
    unknownTaggedFields: d.tags(),
  });
}

export const AlterShareGroupOffsets = defineApi<
  AlterShareGroupOffsetsRequest,
  AlterShareGroupOffsetsResponse
>({
  apiKey: 91,
  name: 'AlterShareGroupOffsets',
  minVersion: 0,
  maxVersion: 0,
  flexibleFrom: 0,

  writeRequest(e, req) {
    e.string(req.groupId).array(req.topics, writeRequestTopic);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groupId: d.string('groupId'),
      topics: d.array(readRequestTopic, 3, 'topics'),
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).int16(res.errorCode).nullableString(res.errorMessage);
    e.array(res.responses, writeResponseTopic);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      errorCode: d.int16(),
      errorMessage: d.nullableString('errorMessage'),
      responses: d.array(readResponseTopic, 19, 'responses'),
      unknownTaggedFields: d.tags(),
    });
  },
});
