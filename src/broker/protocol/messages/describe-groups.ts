/*
  DescribeGroups (API key 15), versions 0-6, flexible from 5
  (DescribeGroupsRequest.json / DescribeGroupsResponse.json)

  Request =>
    Groups                      [string]
    IncludeAuthorizedOperations bool     v3+
  Response =>
    ThrottleTimeMs              int32    v1+
    Groups                      [DescribedGroup]
      ErrorCode                 int16
      ErrorMessage              string?  v6+  (nullable, default null)
      GroupId                   string
      GroupState                string
      ProtocolType              string
      ProtocolData              string
      Members                   [DescribedGroupMember]
        MemberId                string
        GroupInstanceId         string?  v4+  (nullable, default null)
        ClientId                string
        ClientHost              string
        MemberMetadata          bytes
        MemberAssignment        bytes
      AuthorizedOperations      int32    v3+  (default -2147483648: "not requested")
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

/** What AuthorizedOperations holds when they were not asked for (INT32_MIN). */
export const AUTHORIZED_OPERATIONS_OMITTED = -2147483648;

export interface DescribeGroupsRequest extends Tagged {
  groups: string[];
  includeAuthorizedOperations?: boolean;
}

export interface DescribedGroupMember extends Tagged {
  memberId: string;
  groupInstanceId?: string | null;
  clientId: string;
  clientHost: string;
  /** ConsumerProtocolSubscription bytes when protocolType is 'consumer'; empty unless Stable. */
  memberMetadata: Uint8Array;
  /** ConsumerProtocolAssignment bytes when protocolType is 'consumer'; empty unless Stable. */
  memberAssignment: Uint8Array;
}

export interface DescribedGroup extends Tagged {
  errorCode: number;
  errorMessage?: string | null;
  groupId: string;
  groupState: string;
  protocolType: string;
  protocolData: string;
  members: DescribedGroupMember[];
  authorizedOperations?: number;
}

export interface DescribeGroupsResponse extends Tagged {
  throttleTimeMs?: number;
  groups: DescribedGroup[];
}

function writeMember(e: Encoder, m: DescribedGroupMember): void {
  e.string(m.memberId);
  if (e.version >= 4) e.nullableString(m.groupInstanceId ?? null);
  else e.absent('members[].groupInstanceId', m.groupInstanceId, null);
  e.string(m.clientId).string(m.clientHost).bytes(m.memberMetadata).bytes(m.memberAssignment);
  e.tags(m.unknownTaggedFields);
}

function readMember(d: Decoder): DescribedGroupMember {
  return defined({
    memberId: d.string('memberId'),
    groupInstanceId: d.version >= 4 ? d.nullableString('groupInstanceId') : undefined,
    clientId: d.string('clientId'),
    clientHost: d.string('clientHost'),
    memberMetadata: d.bytes('memberMetadata'),
    memberAssignment: d.bytes('memberAssignment'),
    unknownTaggedFields: d.tags(),
  });
}

function writeGroup(e: Encoder, g: DescribedGroup): void {
  e.int16(g.errorCode);
  if (e.version >= 6) e.nullableString(g.errorMessage ?? null);
  else e.absent('groups[].errorMessage', g.errorMessage, null);
  e.string(g.groupId).string(g.groupState).string(g.protocolType).string(g.protocolData);
  e.array(g.members, writeMember);
  if (e.version >= 3) e.int32(g.authorizedOperations ?? AUTHORIZED_OPERATIONS_OMITTED);
  else e.absent('groups[].authorizedOperations', g.authorizedOperations, AUTHORIZED_OPERATIONS_OMITTED);
  e.tags(g.unknownTaggedFields);
}

function readGroup(d: Decoder): DescribedGroup {
  return defined({
    errorCode: d.int16(),
    errorMessage: d.version >= 6 ? d.nullableString('errorMessage') : undefined,
    groupId: d.string('groupId'),
    groupState: d.string('groupState'),
    protocolType: d.string('protocolType'),
    protocolData: d.string('protocolData'),
    members: d.array(readMember, d.flexible ? 7 : 14, 'members'),
    authorizedOperations: d.version >= 3 ? d.int32() : undefined,
    unknownTaggedFields: d.tags(),
  });
}

export const DescribeGroups = defineApi<DescribeGroupsRequest, DescribeGroupsResponse>({
  apiKey: 15,
  name: 'DescribeGroups',
  minVersion: 0,
  maxVersion: 6,
  flexibleFrom: 5,

  writeRequest(e, req) {
    e.stringArray(req.groups);
    if (e.version >= 3) e.boolean(req.includeAuthorizedOperations ?? false);
    else e.absent('includeAuthorizedOperations', req.includeAuthorizedOperations, false);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      groups: d.stringArray('groups'),
      includeAuthorizedOperations: d.version >= 3 ? d.boolean() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    if (e.version >= 1) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    e.array(res.groups, writeGroup);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.version >= 1 ? d.int32() : undefined,
      groups: d.array(readGroup, d.flexible ? 7 : 14, 'groups'),
      unknownTaggedFields: d.tags(),
    });
  },
});
