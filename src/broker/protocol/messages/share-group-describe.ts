/*
  ShareGroupDescribe (API key 77), version 1, flexible from 0
  (ShareGroupDescribeRequest.json / ShareGroupDescribeResponse.json)

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
        RackId                  string?  (nullable, default null)
        MemberEpoch             int32
        ClientId                string
        ClientHost              string
        SubscribedTopicNames    [string]
        Assignment              Assignment
      AuthorizedOperations      int32    (default -2147483648: "not requested")

  Assignment =>
    TopicPartitions             [TopicPartitions]
      TopicId                   uuid
      TopicName                 string
      Partitions                [int32]

  The schema's validVersions is "1": v0 was the KIP-932 early access of Kafka 4.0 and was removed in
  4.1, so no broker this product can use answers it. v0 and v1 share one layout, but a 4.0 broker's
  share groups are not the stable feature, so the codec refuses v0 rather than pretend to speak it.
  Errors are per group (a group of another type is GROUP_ID_NOT_FOUND, told apart only by message).
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export interface ShareGroupDescribeRequest extends Tagged {
  groupIds: string[];
  includeAuthorizedOperations: boolean;
}

export interface ShareGroupDescribeTopicPartitions extends Tagged {
  topicId: string;
  topicName: string;
  partitions: number[];
}

export interface ShareGroupDescribeAssignment extends Tagged {
  topicPartitions: ShareGroupDescribeTopicPartitions[];
}

export interface ShareGroupDescribedMember extends Tagged {
  memberId: string;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  assignment: ShareGroupDescribeAssignment;
}

export interface ShareGroupDescribedGroup extends Tagged {
  errorCode: number;
  errorMessage: string | null;
  groupId: string;
  groupState: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignorName: string;
  members: ShareGroupDescribedMember[];
  /** INT32_MIN (AUTHORIZED_OPERATIONS_OMITTED) unless includeAuthorizedOperations was set. */
  authorizedOperations: number;
}

export interface ShareGroupDescribeResponse extends Tagged {
  throttleTimeMs: number;
  groups: ShareGroupDescribedGroup[];
}

function writeTopicPartitions(e: Encoder, t: ShareGroupDescribeTopicPartitions): void {
  e.uuid(t.topicId).string(t.topicName).int32Array(t.partitions);
  e.tags(t.unknownTaggedFields);
}

function readTopicPartitions(d: Decoder): ShareGroupDescribeTopicPartitions {
  return defined({
    topicId: d.uuid(),
    topicName: d.string('topicName'),
    partitions: d.int32Array('partitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeAssignment(e: Encoder, a: ShareGroupDescribeAssignment): void {
  e.array(a.topicPartitions, writeTopicPartitions);
  e.tags(a.unknownTaggedFields);
}

function readAssignment(d: Decoder): ShareGroupDescribeAssignment {
  return defined({
    topicPartitions: d.array(readTopicPartitions, 19, 'topicPartitions'),
    unknownTaggedFields: d.tags(),
  });
}

function writeMember(e: Encoder, m: ShareGroupDescribedMember): void {
  e.string(m.memberId)
    .nullableString(m.rackId)
    .int32(m.memberEpoch)
    .string(m.clientId)
    .string(m.clientHost)
    .stringArray(m.subscribedTopicNames);
  writeAssignment(e, m.assignment);
  e.tags(m.unknownTaggedFields);
}

function readMember(d: Decoder): ShareGroupDescribedMember {
  return defined({
    memberId: d.string('memberId'),
    rackId: d.nullableString('rackId'),
    memberEpoch: d.int32(),
    clientId: d.string('clientId'),
    clientHost: d.string('clientHost'),
    subscribedTopicNames: d.stringArray('subscribedTopicNames'),
    assignment: readAssignment(d),
    unknownTaggedFields: d.tags(),
  });
}

function writeGroup(e: Encoder, g: ShareGroupDescribedGroup): void {
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

function readGroup(d: Decoder): ShareGroupDescribedGroup {
  return defined({
    errorCode: d.int16(),
    errorMessage: d.nullableString('errorMessage'),
    groupId: d.string('groupId'),
    groupState: d.string('groupState'),
    groupEpoch: d.int32(),
    assignmentEpoch: d.int32(),
    assignorName: d.string('assignorName'),
    members: d.array(readMember, 12, 'members'),
    authorizedOperations: d.int32(),
    unknownTaggedFields: d.tags(),
  });
}

export const ShareGroupDescribe = defineApi<ShareGroupDescribeRequest, ShareGroupDescribeResponse>({
  apiKey: 77,
  name: 'ShareGroupDescribe',
  minVersion: 1,
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
