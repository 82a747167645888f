/**
 * The ListGroups answer a listing holds, for ids of Stable classic consumer groups: a broker's v5
 * answer, encoded and decoded as the listing decodes it.
 */

import { ErrorCode } from '../../src/broker/protocol/index.js';
import { type ListedGroupsTable, ListGroupsTable } from '../../src/broker/protocol/list-groups-table.js';
import { ListGroups } from '../../src/broker/protocol/messages/list-groups.js';

export function stableClassicTable(ids: readonly string[]): ListedGroupsTable {
  return ListGroupsTable.decodeResponse(
    5,
    ListGroups.encodeResponse(5, {
      errorCode: ErrorCode.NONE,
      groups: ids.map((groupId) => ({
        groupId,
        protocolType: 'consumer',
        groupState: 'Stable',
        groupType: 'classic',
      })),
    }),
  );
}
