/*
  DeleteGroups (API key 42), versions 0-3, flexible from 2
  (DeleteGroupsRequest.json / DeleteGroupsResponse.json)

  Request =>
    GroupsNames             [string]
  Response =>
    ThrottleTimeMs          int32
    Results                 [DeletableGroupResult]
      GroupId               string
      ErrorCode             int16
      ErrorMessage          string?  v3+  (nullable, default null)

  kafka-clients 4.4.0 prints DeleteGroupsResponseData.SCHEMA_3 as
    {throttle_time_ms:INT32,results:COMPACT_ARRAY({group_id:COMPACT_STRING,error_code:INT16,
     error_message:COMPACT_NULLABLE_STRING,_tagged_fields}),_tagged_fields}
  and DeleteGroupsRequestData.SCHEMA_3 as {groups_names:COMPACT_ARRAY(COMPACT_STRING),_tagged_fields}.
  GROUP_DELETION_FAILED (134) comes at v3 only, with a message (a streams group's topology
  description plugin failed); to v0-2 the broker answers UNKNOWN_SERVER_ERROR (-1) instead.

  v1 is v0 with throttling before the answer; the request body is the same in every version. v3
  (new in Kafka 4.4; 3.9 to 4.3 serve 0-2) only adds ErrorMessage to the answer. One request may
  name many groups, all with the same coordinator; each gets its own result: NON_EMPTY_GROUP for a
  group with members, GROUP_ID_NOT_FOUND for a missing one. Any group type is deleted this way.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export interface DeleteGroupsRequest extends Tagged {
  groupsNames: string[];
}

export interface DeletableGroupResult extends Tagged {
  groupId: string;
  errorCode: number;
  /** v3+. */
  errorMessage?: string | null;
}

export interface DeleteGroupsResponse extends Tagged {
  throttleTimeMs: number;
  results: DeletableGroupResult[];
}

function writeResult(e: Encoder, r: DeletableGroupResult): void {
  e.string(r.groupId).int16(r.errorCode);
  if (e.version >= 3) e.nullableString(r.errorMessage ?? null);
  else e.absent('results[].errorMessage', r.errorMessage, null);
  e.tags(r.unknownTaggedFields);
}

function readResult(d: Decoder): DeletableGroupResult {
  return defined({
    groupId: d.string('groupId'),
    errorCode: d.int16(),
    errorMessage: d.version >= 3 ? d.nullableString('errorMessage') : undefined,
    unknownTaggedFields: d.tags(),
  });
}

export const DeleteGroups = defineApi<DeleteGroupsRequest, DeleteGroupsResponse>({
  apiKey: 42,
  name: 'DeleteGroups',
  minVersion: 0,
  maxVersion: 3,
  flexibleFrom: 2,

  writeRequest(e, req) {
    e.stringArray(req.groupsNames);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({ groupsNames: d.stringArray('groupsNames'), unknownTaggedFields: d.tags() });
  },

  writeResponse(e, res) {
    e.int32(res.throttleTimeMs).array(res.results, writeResult);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.int32(),
      results: d.array(readResult, d.flexible ? 3 : 4, 'results'),
      unknownTaggedFields: d.tags(),
    });
  },
});
