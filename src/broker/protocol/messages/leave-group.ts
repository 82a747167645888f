/*
  LeaveGroup (API key 13), versions 3-5, flexible from 4
  (LeaveGroupRequest.json / LeaveGroupResponse.json)

  Request =>
    GroupId                 string
    MemberId                string   v0-2 (not implemented here)
    Members                 [MemberIdentity]   v3+
      MemberId              string
      GroupInstanceId       string?  (nullable, default null)
      Reason                string?  v5+  (nullable, default null)
  Response =>
    ThrottleTimeMs          int32    (v1+)
    ErrorCode               int16
    Members                 [MemberResponse]   v3+
      MemberId              string
      GroupInstanceId       string?  (nullable)
      ErrorCode             int16

  Only the batched form (v3+, KIP-345) is implemented: it is the one that names a static member by
  group.instance.id, which is how an administrator removes members from outside the group (Kafka's
  Admin.removeMembersFromConsumerGroup sends MemberId "" and the instance id). Kafka 3.9 to 4.4
  all serve 0-5. v5 adds Reason, which the coordinator logs. Errors: top level for the group
  (GROUP_ID_NOT_FOUND, NOT_COORDINATOR, ...), then one per member (UNKNOWN_MEMBER_ID for an
  instance id that is not in the group, FENCED_INSTANCE_ID when the member id does not match).
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/** MemberId to send when removing a static member by its group.instance.id alone. */
export const UNKNOWN_MEMBER_ID = '';

export interface MemberIdentity extends Tagged {
  memberId: string;
  groupInstanceId: string | null;
  /** v5+. */
  reason?: string | null;
}

export interface LeaveGroupRequest extends Tagged {
  groupId: string;
  members: MemberIdentity[];
}

export interface LeaveGroupMemberResponse extends Tagged {
  memberId: string;
  groupInstanceId: string | null;
  errorCode: number;
}

export interface LeaveGroupResponse extends Tagged {
  throttleTimeMs: number;
  errorCode: number;
  members: LeaveGroupMemberResponse[];
}

function writeMember(e: Encoder, m: MemberIdentity): void {
  e.string(m.memberId).nullableString(m.groupInstanceId);
  if (e.version >= 5) e.nullableString(m.reason ?? null);
  else e.absent('members[].reason', m.reason, null);
  e.tags(m.unknownTaggedFields);
}

function readMember(d: Decoder): MemberIdentity {
  return defined({
    memberId: d.string('memberId'),
    groupInstanceId: d.nullableString('groupInstanceId'),
    reason: d.version >= 5 ? d.nullableString('reason') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

function writeMemberResponse(e: Encoder, m: LeaveGroupMemberResponse): void {
  e.string(m.memberId).nullableString(m.groupInstanceId).int16(m.errorCode);
  e.tags(m.unknownTaggedFields);
}

function readMemberResponse(d: Decoder): LeaveGroupMemberResponse {
  return defined({
    memberId: d.string('memberId'),
    groupInstanceId: d.nullableString('groupInstanceId'),
    errorCode: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

export const LeaveGroup = defineApi<LeaveGroupRequest, LeaveGroupResponse>({
  apiKey: 13,
  name: 'LeaveGroup',
  minVersion: 3,
  maxVersion: 5,
  flexibleFrom: 4,

  writeRequest(e, req) {
    e.string(req.groupId).array(req.members, writeMember);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groupId: d.string('groupId'),
      members: d.array(readMember, d.flexible ? 3 : 4, 'members'),
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).int16(res.errorCode).array(res.members, writeMemberResponse);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      errorCode: d.int16(),
      members: d.array(readMemberResponse, d.flexible ? 5 : 6, 'members'),
      unknownTaggedFields: d.tags(),
    });
  },
});
