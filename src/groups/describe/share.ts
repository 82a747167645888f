/** Share groups (KIP-932): ShareGroupDescribe, one request for many groups. */

import { ShareGroupDescribe } from '../../broker/protocol/messages/share-group-describe.js';
import type { ShareGroup } from '../model.js';
import { topicIdPartitions } from './consumer.js';
import { type GroupDescriber, perGroup } from './describer.js';

export const shareDescriber: GroupDescriber = {
  type: 'share',
  api: ShareGroupDescribe.name,
  describe: (connection, coordinator, groupIds, options) =>
    perGroup(
      connection,
      ShareGroupDescribe,
      groupIds,
      { groupIds: [...groupIds], includeAuthorizedOperations: false },
      (g) => {
        const group: ShareGroup = {
          type: 'share',
          groupId: g.groupId,
          state: g.groupState,
          protocolType: 'share',
          assignor: g.assignorName,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          coordinator,
          members: g.members.map((m) => ({
            memberId: m.memberId,
            // Share groups have no static membership.
            instanceId: null,
            clientId: m.clientId,
            clientHost: m.clientHost,
            rack: m.rackId,
            partitions: topicIdPartitions(m.assignment),
            memberEpoch: m.memberEpoch,
            subscribedTopicNames: m.subscribedTopicNames,
          })),
        };
        return group;
      },
      options,
    ),
};
