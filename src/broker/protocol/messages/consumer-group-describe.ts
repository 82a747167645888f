/*
  ConsumerGroupDescribe (API key 69), versions 0-1, flexible from 0
  (ConsumerGroupDescribeRequest.json / ConsumerGroupDescribeResponse.json)

  Request =>
    GroupIds                    [string]
    IncludeAuthorizedOperations bool
  Response =>
    ThrottleTimeMs              int32
    Groups                      [DescribedGroup]
      ErrorCode                 int16
      ErrorMessage              string?  (nullable, default null)
      GroupId                   string
      GroupState                string
      GroupEpoch                int32
      AssignmentEpoch           int32
      AssignorName              string
      Members                   [Member]
        MemberId                string
        InstanceId              string?  (nullable, default null)
        RackId                  string?  (nullable, default null)
        MemberEpoch             int32
        ClientId                string
        ClientHost              string
        SubscribedTopicNames    [string]
        SubscribedTopicRegex    string?  (nullable, default null)
        Assignment              Assignment
        TargetAssignment        Assignment
        MemberType              int8     v1+  (default -1: unknown)
      AuthorizedOperations      int32    (default -2147483648: "not requested")

  Assignment =>
    TopicPartitions             [TopicPartitions]
      TopicId                   uuid
      TopicName                 string
      Partitions                [int32]

  Request v1 is byte-identical to v0: it was bumped only so that a broker answers v1 (with
  MemberType) to the clients that can read it. Errors are per group; there is no top-level error.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/** MemberType values (v1+): how the member talks to the coordinator. */
export const ConsumerGroupMemberType = { Unknown: -1, Classic: 0, Consumer: 1 } as const;

export interface ConsumerGroupDescribeRequest extends Tagged {
  groupIds: string[];
  includeAuthorizedOperations: boolean;
}

export interface ConsumerGroupDescribeTopicPartitions extends Tagged {
  topicId: string;
  topicName: string;
  partitions: number[];
}

export interface ConsumerGroupDescribeAssignment extends Tagged {
  topicPartitions: ConsumerGroupDescribeTopicPartitions[];
}

export interface ConsumerGroupDescribedMember extends Tagged {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  assignment: ConsumerGroupDescribeAssignment;
  targetAssignment: ConsumerGroupDescribeAssignment;
  /** v1+; see ConsumerGroupMemberType. A classic member is one still on the JoinGroup protocol. */
  memberType?: number;
}

export interface ConsumerGroupDescribedGroup extends Tagged {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: ConsumerGroupDescribedMember[];
  /** INT32_MIN (AUTHORIZED_OPERATIONS_OMITTED) unless includeAuthorizedOperations was set. */
  authorizedOperations: number;
}

export interface ConsumerGroupDescribeResponse extends Tagged {
  throttleTimeMs: number;
  groups: ConsumerGroupDescribedGroup[];
}

function writeTopicPartitions(e: Encoder, t: ConsumerGroupDescribeTopicPartitions): void {
  e.uuid(t.topicId).string(t.topicName).int32Array(t.partitions);
  e.tags(t.unknownTaggedFields);
}

function readTopicPartitions(d: Decoder): ConsumerGroupDescribeTopicPartitions {
  return defined({
    topicId: d.uuid(),
    topicName: d.string('topicName'),
    partitions: d.int32Array('partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeAssignment(e: Encoder, a: ConsumerGroupDescribeAssignment): void {
  e.array(a.topicPartitions, writeTopicPartitions);
  e.tags(a.unknownTaggedFields);
}

function readAssignment(d: Decoder): ConsumerGroupDescribeAssignment {
  return defined({
    topicPartitions: d.array(readTopicPartitions, 19, 'topicPartitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeMember(e: Encoder, m: ConsumerGroupDescribedMember): void {
  e.string(m.memberId)
    .nullableString(m.instanceId)
    .nullableString(m.rackId)
    .int32(m.memberEpoch)
    .string(m.clientId)
    .string(m.clientHost)
    .stringArray(m.subscribedTopicNames)
    .nullableString(m.subscribedTopicRegex);
  writeAssignment(e, m.assignment);
  writeAssignment(e, m.targetAssignment);
  if (e.version >= 1) e.int8(m.memberType ?? ConsumerGroupMemberType.Unknown);
  else e.absent('groups[].members[].memberType', m.memberType, ConsumerGroupMemberType.Unknown);
  e.tags(m.unknownTaggedFields);
}

function readMember(d: Decoder): ConsumerGroupDescribedMember {
  return defined({
    memberId: d.string('memberId'),
    instanceId: d.nullableString('instanceId'),
    rackId: d.nullableString('rackId'),
    memberEpoch: d.int32(),
    clientId: d.string('clientId'),
    clientHost: d.string('clientHost'),
    subscribedTopicNames: d.stringArray('subscribedTopicNames'),
    subscribedTopicRegex: d.nullableString('subscribedTopicRegex'),
    assignment: readAssignment(d),
    targetAssignment: readAssignment(d),
    memberType: d.version >= 1 ? d.int8() : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writeGroup(e: Encoder, g: ConsumerGroupDescribedGroup): void {
  e.int16(g.errorCode)
    .nullableString(g.errorMessage)
    .string(g.groupId)
    .string(g.groupState)
    .int32(g.groupEpoch)
    .int32(g.assignmentEpoch)
    .string(g.assignorName)
    .array(g.members, writeMember)
    .int32(g.authorizedOperations);
  e.tags(g.unknownTaggedFields);
}

function readGroup(d: Decoder): ConsumerGroupDescribedGroup {
  return defined({
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    groupId: d.string('groupId'),
    groupState: d.string('groupState'),
    groupEpoch: d.int32(),
    assignmentEpoch: d.int32(),
    assignorName: d.string('assignorName'),
    members: d.array(readMember, 17, 'members'),
    authorizedOperations: d.int32(),
    unknownTaggedFields: d.tags(),
  });
}

export const ConsumerGroupDescribe = defineApi<ConsumerGroupDescribeRequest, ConsumerGroupDescribeResponse>({
  apiKey: 69,
  name: 'ConsumerGroupDescribe',
  minVersion: 0,
  maxVersion: 1,
  flexibleFrom: 0,

  writeRequest(e, req) {
    e.stringArray(req.groupIds).boolean(req.includeAuthorizedOperations);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groupIds: d.stringArray('groupIds'),
      includeAuthorizedOperations: d.boolean(),
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
