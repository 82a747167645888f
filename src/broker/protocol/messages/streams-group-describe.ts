/*
  StreamsGroupDescribe (API key 89), versions 0-1, flexible from 0
  (StreamsGroupDescribeRequest.json / StreamsGroupDescribeResponse.json)

  Request =>
    GroupIds                      [string]
    IncludeAuthorizedOperations   bool
    IncludeTopologyDescription    bool     v1+  (default false)
  Response =>
    ThrottleTimeMs                int32
    Groups                        [DescribedGroup]
      ErrorCode                   int16
      ErrorMessage                string?  (nullable, default null)
      GroupId                     string
      GroupState                  string
      GroupEpoch                  int32
      AssignmentEpoch             int32
      Topology                    Topology?  (nullable struct, default null)
        Epoch                     int32
        Subtopologies             [Subtopology]?  (nullable, default null)
          SubtopologyId           string
          SourceTopics            [string]
          RepartitionSinkTopics   [string]
          StateChangelogTopics    [TopicInfo]
          RepartitionSourceTopics [TopicInfo]
      Members                     [Member]
        MemberId                  string
        MemberEpoch               int32
        InstanceId                string?  (nullable, default null)
        RackId                    string?  (nullable, default null)
        ClientId                  string
        ClientHost                string
        TopologyEpoch             int32
        ProcessId                 string
        UserEndpoint              Endpoint?  (nullable struct, default null)
        ClientTags                [KeyValue]
        TaskOffsets               [TaskOffset]
        TaskEndOffsets            [TaskOffset]
        Assignment                Assignment
        TargetAssignment          Assignment
        IsClassic                 bool
      AuthorizedOperations        int32    (default -2147483648: "not requested")
      TopologyDescription         TopologyDescription?  v1+  (nullable struct, default null)
      TopologyDescriptionStatus   int8     v1+  (default 0: NOT_REQUESTED)
      AssignorName                string?  v1+  (nullable, default null)

  Endpoint         => Host string, Port uint16
  KeyValue         => Key string, Value string
  TaskOffset       => SubtopologyId string, Partition int32, Offset int64
  Assignment       => ActiveTasks [TaskIds], StandbyTasks [TaskIds], WarmupTasks [TaskIds]
  TaskIds          => SubtopologyId string, Partitions [int32]
  TopicInfo        => Name string, Partitions int32, ReplicationFactor int16, TopicConfigs [KeyValue]
  TopologyDescription            => Subtopologies [TopologyDescriptionSubtopology],
                                    GlobalStores [TopologyDescriptionGlobalStore]
  TopologyDescriptionSubtopology => SubtopologyId string, Nodes [TopologyDescriptionNode]
  TopologyDescriptionNode        => Name string, NodeType int8, SourceTopics [string],
                                    SinkTopic string? (nullable, default null), Stores [string],
                                    Successors [string]
  TopologyDescriptionGlobalStore => Source TopologyDescriptionNode, Processor TopologyDescriptionNode

  A nullable struct is a signed byte (-1 null, 1 present; Kafka reads any byte >= 0 as present)
  followed by the struct. v1 (KIP-1331 topology description, KIP-1357 assignor name) comes with
  Kafka 4.4; 4.1-4.3 answer v0 only. kafka-clients 4.4.0 prints the end of a v1 DescribedGroup
  (StreamsGroupDescribeResponseData.SCHEMA_1) as
    …,authorized_operations:INT32,topology_description:{subtopologies:COMPACT_ARRAY({subtopology_id:
    COMPACT_STRING,nodes:COMPACT_ARRAY({name:COMPACT_STRING,node_type:INT8,source_topics:COMPACT_ARRAY(
    COMPACT_STRING),sink_topic:COMPACT_NULLABLE_STRING,stores:COMPACT_ARRAY(COMPACT_STRING),successors:
    COMPACT_ARRAY(COMPACT_STRING),_tagged_fields}),_tagged_fields}),global_stores:COMPACT_ARRAY({source:
    {…node…},processor:{…node…},_tagged_fields}),_tagged_fields},topology_description_status:INT8,
    assignor_name:COMPACT_NULLABLE_STRING,_tagged_fields}
  and the request (SCHEMA_1) as {group_ids:COMPACT_ARRAY(COMPACT_STRING),include_authorized_operations:
  BOOLEAN,include_topology_description:BOOLEAN,_tagged_fields}; which confirms AssignorName as the
  last field. StreamsGroupTopologyDescriptionStatus in 4.4.0: NOT_REQUESTED 0, NOT_STORED 1, ERROR 2,
  AVAILABLE 3.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/** TopologyDescriptionStatus values (v1+): why TopologyDescription is or is not there. */
export const StreamsTopologyDescriptionStatus = {
  NotRequested: 0,
  NotStored: 1,
  Error: 2,
  Available: 3,
} as const;

/** TopologyDescriptionNode.NodeType values. */
export const StreamsTopologyNodeType = { Source: 1, Processor: 2, Sink: 3 } as const;

export interface StreamsGroupDescribeRequest extends Tagged {
  groupIds: string[];
  includeAuthorizedOperations: boolean;
  /** v1+. */
  includeTopologyDescription?: boolean;
}

export interface StreamsGroupKeyValue extends Tagged {
  key: string;
  value: string;
}

export interface StreamsGroupTopicInfo extends Tagged {
  name: string;
  /** 0 when the topology enforces no count; always 0 for changelog topics. */
  partitions: number;
  /** 0 for the broker's default. */
  replicationFactor: number;
  topicConfigs: StreamsGroupKeyValue[];
}

export interface StreamsGroupSubtopology extends Tagged {
  subtopologyId: string;
  sourceTopics: string[];
  repartitionSinkTopics: string[];
  stateChangelogTopics: StreamsGroupTopicInfo[];
  repartitionSourceTopics: StreamsGroupTopicInfo[];
}

export interface StreamsGroupTopology extends Tagged {
  epoch: number;
  /** Null while the group is not configured (source topics missing or partitioned wrongly). */
  subtopologies: StreamsGroupSubtopology[] | null;
}

export interface StreamsGroupEndpoint extends Tagged {
  host: string;
  /** uint16. */
  port: number;
}

export interface StreamsGroupTaskOffset extends Tagged {
  subtopologyId: string;
  partition: number;
  offset: bigint;
}

export interface StreamsGroupTaskIds extends Tagged {
  subtopologyId: string;
  partitions: number[];
}

export interface StreamsGroupAssignment extends Tagged {
  activeTasks: StreamsGroupTaskIds[];
  standbyTasks: StreamsGroupTaskIds[];
  warmupTasks: StreamsGroupTaskIds[];
}

export interface StreamsGroupDescribedMember extends Tagged {
  memberId: string;
  memberEpoch: number;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  topologyEpoch: number;
  processId: string;
  userEndpoint: StreamsGroupEndpoint | null;
  clientTags: StreamsGroupKeyValue[];
  taskOffsets: StreamsGroupTaskOffset[];
  taskEndOffsets: StreamsGroupTaskOffset[];
  assignment: StreamsGroupAssignment;
  targetAssignment: StreamsGroupAssignment;
  /** A member still on the classic protocol, not yet upgraded. */
  isClassic: boolean;
}

export interface StreamsGroupTopologyDescriptionNode extends Tagged {
  name: string;
  /** See StreamsTopologyNodeType. */
  nodeType: number;
  sourceTopics: string[];
  sinkTopic: string | null;
  stores: string[];
  successors: string[];
}

export interface StreamsGroupTopologyDescriptionSubtopology extends Tagged {
  subtopologyId: string;
  nodes: StreamsGroupTopologyDescriptionNode[];
}

export interface StreamsGroupTopologyDescriptionGlobalStore extends Tagged {
  source: StreamsGroupTopologyDescriptionNode;
  processor: StreamsGroupTopologyDescriptionNode;
}

export interface StreamsGroupTopologyDescription extends Tagged {
  subtopologies: StreamsGroupTopologyDescriptionSubtopology[];
  globalStores: StreamsGroupTopologyDescriptionGlobalStore[];
}

export interface StreamsGroupDescribedGroup extends Tagged {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  groupEpoch: number;
  assignmentEpoch: number;
  /** Null on a describe error. */
  topology: StreamsGroupTopology | null;
  members: StreamsGroupDescribedMember[];
  /** INT32_MIN (AUTHORIZED_OPERATIONS_OMITTED) unless includeAuthorizedOperations was set. */
  authorizedOperations: number;
  /** v1+; non-null exactly when topologyDescriptionStatus is Available. */
  topologyDescription?: StreamsGroupTopologyDescription | null;
  /** v1+; see StreamsTopologyDescriptionStatus. */
  topologyDescriptionStatus?: number;
  /** v1+. */
  assignorName?: string | null;
}

export interface StreamsGroupDescribeResponse extends Tagged {
  throttleTimeMs: number;
  groups: StreamsGroupDescribedGroup[];
}

function writeNullable<T>(e: Encoder, value: T | null, write: (e: Encoder, value: T) => void): void {
  if (value === null) {
    e.int8(-1);
    return;
  }
  e.int8(1);
  write(e, value);
}

function readNullable<T>(d: Decoder, read: (d: Decoder) => T): T | null {
  return d.int8() < 0 ? null : read(d);
}

function writeKeyValue(e: Encoder, kv: StreamsGroupKeyValue): void {
  e.string(kv.key).string(kv.value);
  e.tags(kv.unknownTaggedFields);
}

function readKeyValue(d: Decoder): StreamsGroupKeyValue {
  return defined({ key: d.string('key'), value: d.string('value'), unknownTaggedFields: d.tags() });
}

function writeTopicInfo(e: Encoder, t: StreamsGroupTopicInfo): void {
  e.string(t.name).int32(t.partitions).int16(t.replicationFactor).array(t.topicConfigs, writeKeyValue);
  e.tags(t.unknownTaggedFields);
}

function readTopicInfo(d: Decoder): StreamsGroupTopicInfo {
  return defined({
    name: d.string('name'),
    partitions: d.int32(),
    replicationFactor: d.int16(),
    topicConfigs: d.array(readKeyValue, 3, 'topicConfigs'),
    unknownTaggedFields: d.tags(),
  });
}

function writeSubtopology(e: Encoder, s: StreamsGroupSubtopology): void {
  e.string(s.subtopologyId)
    .stringArray(s.sourceTopics)
    .stringArray(s.repartitionSinkTopics)
    .array(s.stateChangelogTopics, writeTopicInfo)
    .array(s.repartitionSourceTopics, writeTopicInfo);
  e.tags(s.unknownTaggedFields);
}

function readSubtopology(d: Decoder): StreamsGroupSubtopology {
  return defined({
    subtopologyId: d.string('subtopologyId'),
    sourceTopics: d.stringArray('sourceTopics'),
    repartitionSinkTopics: d.stringArray('repartitionSinkTopics'),
    stateChangelogTopics: d.array(readTopicInfo, 9, 'stateChangelogTopics'),
    repartitionSourceTopics: d.array(readTopicInfo, 9, 'repartitionSourceTopics'),
    unknownTaggedFields: d.tags(),
  });
}

function writeTopology(e: Encoder, t: StreamsGroupTopology): void {
  e.int32(t.epoch).nullableArray(t.subtopologies, writeSubtopology);
  e.tags(t.unknownTaggedFields);
}

function readTopology(d: Decoder): StreamsGroupTopology {
  return defined({
    epoch: d.int32(),
    subtopologies: d.nullableArray(readSubtopology, 6, 'subtopologies'),
    unknownTaggedFields: d.tags(),
  });
}

function writeEndpoint(e: Encoder, ep: StreamsGroupEndpoint): void {
  e.string(ep.host);
  e.writer.writeUint16(ep.port);
  e.tags(ep.unknownTaggedFields);
}

function readEndpoint(d: Decoder): StreamsGroupEndpoint {
  return defined({ host: d.string('host'), port: d.reader.readUint16(), unknownTaggedFields: d.tags() });
}

function writeTaskOffset(e: Encoder, t: StreamsGroupTaskOffset): void {
  e.string(t.subtopologyId).int32(t.partition).int64(t.offset);
  e.tags(t.unknownTaggedFields);
}

function readTaskOffset(d: Decoder): StreamsGroupTaskOffset {
  return defined({
    subtopologyId: d.string('subtopologyId'),
    partition: d.int32(),
    offset: d.int64(),
    unknownTaggedFields: d.tags(),
  });
}

function writeTaskIds(e: Encoder, t: StreamsGroupTaskIds): void {
  e.string(t.subtopologyId).int32Array(t.partitions);
  e.tags(t.unknownTaggedFields);
}

function readTaskIds(d: Decoder): StreamsGroupTaskIds {
  return defined({
    subtopologyId: d.string('subtopologyId'),
    partitions: d.int32Array('partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeAssignment(e: Encoder, a: StreamsGroupAssignment): void {
  e.array(a.activeTasks, writeTaskIds).array(a.standbyTasks, writeTaskIds).array(a.warmupTasks, writeTaskIds);
  e.tags(a.unknownTaggedFields);
}

function readAssignment(d: Decoder): StreamsGroupAssignment {
  return defined({
    activeTasks: d.array(readTaskIds, 3, 'activeTasks'),
    standbyTasks: d.array(readTaskIds, 3, 'standbyTasks'),
    warmupTasks: d.array(readTaskIds, 3, 'warmupTasks'),
    unknownTaggedFields: d.tags(),
  });
}

function writeMember(e: Encoder, m: StreamsGroupDescribedMember): void {
  e.string(m.memberId)
    .int32(m.memberEpoch)
    .nullableString(m.instanceId)
    .nullableString(m.rackId)
    .string(m.clientId)
    .string(m.clientHost)
    .int32(m.topologyEpoch)
    .string(m.processId);
  writeNullable(e, m.userEndpoint, writeEndpoint);
  e.array(m.clientTags, writeKeyValue)
    .array(m.taskOffsets, writeTaskOffset)
    .array(m.taskEndOffsets, writeTaskOffset);
  writeAssignment(e, m.assignment);
  writeAssignment(e, m.targetAssignment);
  e.boolean(m.isClassic);
  e.tags(m.unknownTaggedFields);
}

function readMember(d: Decoder): StreamsGroupDescribedMember {
  return defined({
    memberId: d.string('memberId'),
    memberEpoch: d.int32(),
    instanceId: d.nullableString('instanceId'),
    rackId: d.nullableString('rackId'),
    clientId: d.string('clientId'),
    clientHost: d.string('clientHost'),
    topologyEpoch: d.int32(),
    processId: d.string('processId'),
    userEndpoint: readNullable(d, readEndpoint),
    clientTags: d.array(readKeyValue, 3, 'clientTags'),
    taskOffsets: d.array(readTaskOffset, 14, 'taskOffsets'),
    taskEndOffsets: d.array(readTaskOffset, 14, 'taskEndOffsets'),
    assignment: readAssignment(d),
    targetAssignment: readAssignment(d),
    isClassic: d.boolean(),
    unknownTaggedFields: d.tags(),
  });
}

function writeNode(e: Encoder, n: StreamsGroupTopologyDescriptionNode): void {
  e.string(n.name)
    .int8(n.nodeType)
    .stringArray(n.sourceTopics)
    .nullableString(n.sinkTopic)
    .stringArray(n.stores)
    .stringArray(n.successors);
  e.tags(n.unknownTaggedFields);
}

function readNode(d: Decoder): StreamsGroupTopologyDescriptionNode {
  return defined({
    name: d.string('name'),
    nodeType: d.int8(),
    sourceTopics: d.stringArray('sourceTopics'),
    sinkTopic: d.nullableString('sinkTopic'),
    stores: d.stringArray('stores'),
    successors: d.stringArray('successors'),
    unknownTaggedFields: d.tags(),
  });
}

function writeDescriptionSubtopology(e: Encoder, s: StreamsGroupTopologyDescriptionSubtopology): void {
  e.string(s.subtopologyId).array(s.nodes, writeNode);
  e.tags(s.unknownTaggedFields);
}

function readDescriptionSubtopology(d: Decoder): StreamsGroupTopologyDescriptionSubtopology {
  return defined({
    subtopologyId: d.string('subtopologyId'),
    nodes: d.array(readNode, 7, 'nodes'),
    unknownTaggedFields: d.tags(),
  });
}

function writeGlobalStore(e: Encoder, g: StreamsGroupTopologyDescriptionGlobalStore): void {
  writeNode(e, g.source);
  writeNode(e, g.processor);
  e.tags(g.unknownTaggedFields);
}

function readGlobalStore(d: Decoder): StreamsGroupTopologyDescriptionGlobalStore {
  return defined({ source: readNode(d), processor: readNode(d), unknownTaggedFields: d.tags() });
}

function writeTopologyDescription(e: Encoder, t: StreamsGroupTopologyDescription): void {
  e.array(t.subtopologies, writeDescriptionSubtopology).array(t.globalStores, writeGlobalStore);
  e.tags(t.unknownTaggedFields);
}

function readTopologyDescription(d: Decoder): StreamsGroupTopologyDescription {
  return defined({
    subtopologies: d.array(readDescriptionSubtopology, 3, 'subtopologies'),
    globalStores: d.array(readGlobalStore, 15, 'globalStores'),
    unknownTaggedFields: d.tags(),
  });
}

function writeGroup(e: Encoder, g: StreamsGroupDescribedGroup): void {
  e.int16(g.errorCode)
    .nullableString(g.errorMessage)
    .string(g.groupId)
    .string(g.groupState)
    .int32(g.groupEpoch)
    .int32(g.assignmentEpoch);
  writeNullable(e, g.topology, writeTopology);
  e.array(g.members, writeMember).int32(g.authorizedOperations);
  if (e.version >= 1) {
    writeNullable(e, g.topologyDescription ?? null, writeTopologyDescription);
    e.int8(g.topologyDescriptionStatus ?? StreamsTopologyDescriptionStatus.NotRequested);
    e.nullableString(g.assignorName ?? null);
  } else {
    e.absent('groups[].topologyDescription', g.topologyDescription, null);
    e.absent(
      'groups[].topologyDescriptionStatus',
      g.topologyDescriptionStatus,
      StreamsTopologyDescriptionStatus.NotRequested,
    );
    e.absent('groups[].assignorName', g.assignorName, null);
  }
  e.tags(g.unknownTaggedFields);
}

function readGroup(d: Decoder): StreamsGroupDescribedGroup {
  const v1 = d.version >= 1;
  return defined({
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    groupId: d.string('groupId'),
    groupState: d.string('groupState'),
    groupEpoch: d.int32(),
    assignmentEpoch: d.int32(),
    topology: readNullable(d, readTopology),
    members: d.array(readMember, 28, 'members'),
    authorizedOperations: d.int32(),
    topologyDescription: v1 ? readNullable(d, readTopologyDescription) : undefined,
    topologyDescriptionStatus: v1 ? d.int8() : undefined,
    assignorName: v1 ? d.nullableString('assignorName') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

export const StreamsGroupDescribe = defineApi<StreamsGroupDescribeRequest, StreamsGroupDescribeResponse>({
  apiKey: 89,
  name: 'StreamsGroupDescribe',
  minVersion: 0,
  maxVersion: 1,
  flexibleFrom: 0,

  writeRequest(e, req) {
    e.stringArray(req.groupIds).boolean(req.includeAuthorizedOperations);
    if (e.version >= 1) e.boolean(req.includeTopologyDescription ?? false);
    else e.absent('includeTopologyDescription', req.includeTopologyDescription, false);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groupIds: d.stringArray('groupIds'),
      includeAuthorizedOperations: d.boolean(),
      includeTopologyDescription: d.version >= 1 ? d.boolean() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).array(res.groups, writeGroup);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      groups: d.array(readGroup, 20, 'groups'),
      unknownTaggedFields: d.tags(),
    });
  },
});
