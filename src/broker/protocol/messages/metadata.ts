/*
  Metadata (API key 3), versions 0-13, flexible from 9 (MetadataRequest.json / MetadataResponse.json)

  Request =>
    Topics                              [MetadataRequestTopic]  (nullable v1+: null = all topics)
      TopicId                           uuid     v10+
      Name                              string   (nullable v10+)
    AllowAutoTopicCreation              bool     v4+   (default true)
    IncludeClusterAuthorizedOperations  bool     v8-10
    IncludeTopicAuthorizedOperations    bool     v8+
  Response =>
    ThrottleTimeMs                      int32    v3+
    Brokers                             [MetadataResponseBroker]
      NodeId                            int32
      Host                              string
      Port                              int32
      Rack                              string?  v1+   (nullable, default null)
    ClusterId                           string?  v2+   (nullable, default null)
    ControllerId                        int32    v1+   (default -1)
    Topics                              [MetadataResponseTopic]
      ErrorCode                         int16
      Name                              string   (nullable v12+)
      TopicId                           uuid     v10+
      IsInternal                        bool     v1+   (default false)
      Partitions                        [MetadataResponsePartition]
        ErrorCode                       int16
        PartitionIndex                  int32
        LeaderId                        int32
        LeaderEpoch                     int32    v7+   (default -1)
        ReplicaNodes                    [int32]
        IsrNodes                        [int32]
        OfflineReplicas                 [int32]  v5+
      TopicAuthorizedOperations         int32    v8+   (default -2147483648)
    ClusterAuthorizedOperations         int32    v8-10 (default -2147483648)
    ErrorCode                           int16    v13+  (KIP-1102: REBOOTSTRAP_REQUIRED)

  In v0 an empty Topics array means "all topics"; from v1 it means "none" and null means all.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ErrorCode } from '../errors.js';
import { ZERO_UUID } from '../uuid.js';

const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

export interface MetadataRequestTopic extends Tagged {
  topicId?: string;
  /** Null only from v10, when asking by topicId (which brokers serve from v12). */
  name: string | null;
}

export interface MetadataRequest extends Tagged {
  topics: MetadataRequestTopic[] | null;
  allowAutoTopicCreation?: boolean;
  includeClusterAuthorizedOperations?: boolean;
  includeTopicAuthorizedOperations?: boolean;
}

export interface MetadataResponseBroker extends Tagged {
  nodeId: number;
  host: string;
  port: number;
  rack?: string | null;
}

export interface MetadataResponsePartition extends Tagged {
  errorCode: number;
  partitionIndex: number;
  leaderId: number;
  leaderEpoch?: number;
  replicaNodes: number[];
  isrNodes: number[];
  offlineReplicas?: number[];
}

export interface MetadataResponseTopic extends Tagged {
  errorCode: number;
  /** Null only from v12, for a topic asked by id that does not exist. */
  name: string | null;
  topicId?: string;
  isInternal?: boolean;
  partitions: MetadataResponsePartition[];
  topicAuthorizedOperations?: number;
}

export interface MetadataResponse extends Tagged {
  throttleTimeMs?: number;
  brokers: MetadataResponseBroker[];
  clusterId?: string | null;
  controllerId?: number;
  topics: MetadataResponseTopic[];
  clusterAuthorizedOperations?: number;
  errorCode?: number;
}

function writeRequestTopic(e: Encoder, t: MetadataRequestTopic): void {
  if (e.version >= 10) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent('topics[].topicId', t.topicId, ZERO_UUID);
  if (e.version >= 10) e.nullableString(t.name);
  else e.string(t.name as string);
  e.tags(t.unknownTaggedFields);
}

function readRequestTopic(d: Decoder): MetadataRequestTopic {
  return defined({
    topicId: d.version >= 10 ? d.uuid() : undefined,
    name: d.version >= 10 ? d.nullableString('name') : d.string('name'),
    unknownTaggedFields: d.tags(),
  });
}

function writeBroker(e: Encoder, b: MetadataResponseBroker): void {
  e.int32(b.nodeId).string(b.host).int32(b.port);
  if (e.version >= 1) e.nullableString(b.rack ?? null);
  else e.absent('brokers[].rack', b.rack, null);
  e.tags(b.unknownTaggedFields);
}

function readBroker(d: Decoder): MetadataResponseBroker {
  return defined({
    nodeId: d.int32(),
    host: d.string('host'),
    port: d.int32(),
    rack: d.version >= 1 ? d.nullableString('rack') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writePartition(e: Encoder, p: MetadataResponsePartition): void {
  e.int16(p.errorCode).int32(p.partitionIndex).int32(p.leaderId);
  if (e.version >= 7) e.int32(p.leaderEpoch ?? -1);
  else e.absent('topics[].partitions[].leaderEpoch', p.leaderEpoch, -1);
  e.int32Array(p.replicaNodes).int32Array(p.isrNodes);
  if (e.version >= 5) e.int32Array(p.offlineReplicas ?? []);
  else e.absent('topics[].partitions[].offlineReplicas', p.offlineReplicas, []);
  e.tags(p.unknownTaggedFields);
}

function readPartition(d: Decoder): MetadataResponsePartition {
  return defined({
    errorCode: d.int16(),
    partitionIndex: d.int32(),
    leaderId: d.int32(),
    leaderEpoch: d.version >= 7 ? d.int32() : undefined,
    replicaNodes: d.int32Array('replicaNodes'),
    isrNodes: d.int32Array('isrNodes'),
    offlineReplicas: d.version >= 5 ? d.int32Array('offlineReplicas') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writeTopic(e: Encoder, t: MetadataResponseTopic): void {
  const v = e.version;
  e.int16(t.errorCode);
  if (v >= 12) e.nullableString(t.name);
  else e.string(t.name as string);
  if (v >= 10) e.uuid(t.topicId ?? ZERO_UUID);
  else e.absent('topics[].topicId', t.topicId, ZERO_UUID);
  if (v >= 1) e.boolean(t.isInternal ?? false);
  else e.absent('topics[].isInternal', t.isInternal, false);
  e.array(t.partitions, writePartition);
  if (v >= 8) e.int32(t.topicAuthorizedOperations ?? AUTHORIZED_OPERATIONS_OMITTED);
  else
    e.absent(
      'topics[].topicAuthorizedOperations',
      t.topicAuthorizedOperations,
      AUTHORIZED_OPERATIONS_OMITTED,
    );
  e.tags(t.unknownTaggedFields);
}

function readTopic(d: Decoder): MetadataResponseTopic {
  const v = d.version;
  return defined({
    errorCode: d.int16(),
    name: v >= 12 ? d.nullableString('name') : d.string('name'),
    topicId: v >= 10 ? d.uuid() : undefined,
    isInternal: v >= 1 ? d.boolean() : undefined,
    partitions: d.array(readPartition, d.flexible ? 14 : 18, 'partitions'),
    topicAuthorizedOperations: v >= 8 ? d.int32() : undefined,
    unknownTaggedFields: d.tags(),
  });
}

export const Metadata = defineApi<MetadataRequest, MetadataResponse>({
  apiKey: 3,
  name: 'Metadata',
  minVersion: 0,
  maxVersion: 13,
  flexibleFrom: 9,

  writeRequest(e, req) {
    const v = e.version;
    if (v >= 1) e.nullableArray(req.topics, writeRequestTopic);
    else e.array(req.topics as MetadataRequestTopic[], writeRequestTopic);
    if (v >= 4) e.boolean(req.allowAutoTopicCreation ?? true);
    else e.absent('allowAutoTopicCreation', req.allowAutoTopicCreation, true);
    if (v >= 8 && v <= 10) e.boolean(req.includeClusterAuthorizedOperations ?? false);
    else e.absent('includeClusterAuthorizedOperations', req.includeClusterAuthorizedOperations, false);
    if (v >= 8) e.boolean(req.includeTopicAuthorizedOperations ?? false);
    else e.absent('includeTopicAuthorizedOperations', req.includeTopicAuthorizedOperations, false);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    const v = d.version;
    return defined({
      topics:
        v >= 1 ? d.nullableArray(readRequestTopic, 2, 'topics') : d.array(readRequestTopic, 2, 'topics'),
      allowAutoTopicCreation: v >= 4 ? d.boolean() : undefined,
      includeClusterAuthorizedOperations: v >= 8 && v <= 10 ? d.boolean() : undefined,
      includeTopicAuthorizedOperations: v >= 8 ? d.boolean() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    const v = e.version;
    if (v >= 3) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    e.array(res.brokers, writeBroker);
    if (v >= 2) e.nullableString(res.clusterId ?? null);
    else e.absent('clusterId', res.clusterId, null);
    if (v >= 1) e.int32(res.controllerId ?? -1);
    else e.absent('controllerId', res.controllerId, -1);
    e.array(res.topics, writeTopic);
    if (v >= 8 && v <= 10) e.int32(res.clusterAuthorizedOperations ?? AUTHORIZED_OPERATIONS_OMITTED);
    else
      e.absent('clusterAuthorizedOperations', res.clusterAuthorizedOperations, AUTHORIZED_OPERATIONS_OMITTED);
    if (v >= 13) e.int16(res.errorCode ?? ErrorCode.NONE);
    else e.absent('errorCode', res.errorCode, 0);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    const v = d.version;
    return defined({
      throttleTimeMs: v >= 3 ? d.int32() : undefined,
      brokers: d.array(readBroker, d.flexible ? 11 : 10, 'brokers'),
      clusterId: v >= 2 ? d.nullableString('clusterId') : undefined,
      controllerId: v >= 1 ? d.int32() : undefined,
      topics: d.array(readTopic, d.flexible ? 4 : 8, 'topics'),
      clusterAuthorizedOperations: v >= 8 && v <= 10 ? d.int32() : undefined,
      errorCode: v >= 13 ? d.int16() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },
});
