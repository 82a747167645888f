/*
  ListGroups (API key 16), versions 0-5, flexible from 3 (ListGroupsRequest.json / ListGroupsResponse.json)

  Request =>
    StatesFilter   [string]  v4+
    TypesFilter    [string]  v5+
  Response =>
    ThrottleTimeMs int32     v1+
    ErrorCode      int16
    Groups         [ListedGroup]
      GroupId      string
      ProtocolType string
      GroupState   string    v4+
      GroupType    string    v5+
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';

export interface ListGroupsRequest extends Tagged {
  /** Empty: every state (the broker compares case-insensitively; an unknown state matches nothing). */
  statesFilter?: string[];
  /** Empty: every type ('classic', 'consumer', 'share', 'streams'). */
  typesFilter?: string[];
}

export interface ListedGroup extends Tagged {
  groupId: string;
  protocolType: string;
  groupState?: string;
  groupType?: string;
}

export interface ListGroupsResponse extends Tagged {
  throttleTimeMs?: number;
  errorCode: number;
  groups: ListedGroup[];
}

function writeGroup(e: Encoder, g: ListedGroup): void {
  e.string(g.groupId).string(g.protocolType);
  if (e.version >= 4) e.string(g.groupState ?? '');
  else e.absent('groups[].groupState', g.groupState, '');
  if (e.version >= 5) e.string(g.groupType ?? '');
  else e.absent('groups[].groupType', g.groupType, '');
  e.tags(g.unknownTaggedFields);
}

// An answer lists every group of the broker, 100,000 and more: each entry is built with only the
// fields its version has, rather than built whole and trimmed by `defined` (deleting a property
// turns an object into a slow dictionary, for the decoder and for everything that reads it).
function readGroup(d: Decoder): ListedGroup {
  const groupId = d.string('groupId');
  const protocolType = d.string('protocolType');
  let group: ListedGroup;
  if (d.version >= 5)
    group = { groupId, protocolType, groupState: d.string('groupState'), groupType: d.string('groupType') };
  else if (d.version === 4) group = { groupId, protocolType, groupState: d.string('groupState') };
  else group = { groupId, protocolType };
  const tags = d.tags();
  if (tags) group.unknownTaggedFields = tags;
  return group;
}

export const ListGroups = defineApi<ListGroupsRequest, ListGroupsResponse>({
  apiKey: 16,
  name: 'ListGroups',
  minVersion: 0,
  maxVersion: 5,
  flexibleFrom: 3,

  writeRequest(e, req) {
    if (e.version >= 4) e.stringArray(req.statesFilter ?? []);
    else e.absent('statesFilter', req.statesFilter, []);
    if (e.version >= 5) e.stringArray(req.typesFilter ?? []);
    else e.absent('typesFilter', req.typesFilter, []);
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      statesFilter: d.version >= 4 ? d.stringArray('statesFilter') : undefined,
      typesFilter: d.version >= 5 ? d.stringArray('typesFilter') : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    if (e.version >= 1) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    e.int16(res.errorCode);
    e.array(res.groups, writeGroup);
    e.tags(res.unknownTaggedFields);
  },

  readResponse(d) {
    return defined({
      throttleTimeMs: d.version >= 1 ? d.int32() : undefined,
      errorCode: d.int16(),
      groups: d.array(readGroup, d.flexible ? 3 : 4, 'groups'),
      unknownTaggedFields: d.tags(),
    });
  },
});
