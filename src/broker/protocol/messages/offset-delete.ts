/*
  OffsetDelete (API key 47), version 0 only, not flexible
  (OffsetDeleteRequest.json / OffsetDeleteResponse.json)

  Request =>
    GroupId                 string
    Topics                  [OffsetDeleteRequestTopic]
      Name                  string
      Partitions            [OffsetDeleteRequestPartition]
        PartitionIndex      int32
  Response =>
    ErrorCode               int16    (top level: the group)
    ThrottleTimeMs          int32
    Topics                  [OffsetDeleteResponseTopic]
      Name                  string
      Partitions            [OffsetDeleteResponsePartition]
        PartitionIndex      int32
        ErrorCode           int16

  Kafka 3.9 to 4.4 all serve v0 and nothing else; with no flexible version, no struct has tags. Unlike most answers, ErrorCode comes BEFORE
  ThrottleTimeMs. The group-level error covers the group (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP for a
  group that is not Empty and whose protocol is not `consumer`); a partition of a topic the live
  group still subscribes to gets GROUP_SUBSCRIBED_TO_TOPIC, the others are deleted.
*/

import { defineApi } from '../api.js';
import type { Decoder, Encoder } from '../codec.js';

export interface OffsetDeleteRequestPartition {
  partitionIndex: number;
}

export interface OffsetDeleteRequestTopic {
  name: string;
  partitions: OffsetDeleteRequestPartition[];
}

export interface OffsetDeleteRequest {
  groupId: string;
  topics: OffsetDeleteRequestTopic[];
}

export interface OffsetDeleteResponsePartition {
  partitionIndex: number;
  errorCode: number;
}

export interface OffsetDeleteResponseTopic {
  name: string;
  partitions: OffsetDeleteResponsePartition[];
}

export interface OffsetDeleteResponse {
  errorCode: number;
  throttleTimeMs: number;
  topics: OffsetDeleteResponseTopic[];
}

function writeRequestTopic(e: Encoder, t: OffsetDeleteRequestTopic): void {
  e.string(t.name).array(t.partitions, (e, p) => e.int32(p.partitionIndex));
}

function readRequestTopic(d: Decoder): OffsetDeleteRequestTopic {
  return {
    name: d.string('name'),
    partitions: d.array((d) => ({ partitionIndex: d.int32() }), 4, 'partitions'),
  };
}

function writeResponsePartition(e: Encoder, p: OffsetDeleteResponsePartition): void {
  e.int32(p.partitionIndex).int16(p.errorCode);
}

function readResponsePartition(d: Decoder): OffsetDeleteResponsePartition {
  return { partitionIndex: d.int32(), errorCode: d.int16() };
}

function writeResponseTopic(e: Encoder, t: OffsetDeleteResponseTopic): void {
  e.string(t.name).array(t.partitions, writeResponsePartition);
}

function readResponseTopic(d: Decoder): OffsetDeleteResponseTopic {
  return {
    name: d.string('name'),
    partitions: d.array(readResponsePartition, 6, 'partitions'),
  };
}

export const OffsetDelete = defineApi<OffsetDeleteRequest, OffsetDeleteResponse>({
  apiKey: 47,
  name: 'OffsetDelete',
  minVersion: 0,
  maxVersion: 0,
  flexibleFrom: Number.POSITIVE_INFINITY,

  writeRequest(e, req) {
    e.string(req.groupId).array(req.topics, writeRequestTopic);
  },

  readRequest(d) {
    return {
      groupId: d.string('groupId'),
      topics: d.array(readRequestTopic, 6, 'topics'),
    };
  },

  writeResponse(e, res) {
    e.int16(res.errorCode).int32(res.throttleTimeMs).array(res.topics, writeResponseTopic);
  },

  readResponse(d) {
    return {
      errorCode: d.int16(),
      throttleTimeMs: d.int32(),
      topics: d.array(readResponseTopic, 6, 'topics'),
    };
  },
});
