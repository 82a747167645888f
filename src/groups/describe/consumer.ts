/** Consumer groups (KIP-848): ConsumerGroupDescribe, one request for many groups. */

import {
  ConsumerGroupDescribe,
  type ConsumerGroupDescribeAssignment,
  ConsumerGroupMemberType,
} from '../../broker/protocol/messages/consumer-group-describe.js';
import type { ConsumerGroup, ConsumerMember, TopicPartitions } from '../model.js';
import { type GroupDescriber, perGroup } from './describer.js';
import { latestPerInstance } from './static-members.js';

export const consumerDescriber: GroupDescriber = {
  type: 'consumer',
  api: ConsumerGroupDescribe.name,
  describe: (connection, coordinator, groupIds, options) =>
    perGroup(
      connection,
      ConsumerGroupDescribe,
      groupIds,
      { groupIds: [...groupIds], includeAuthorizedOperations: false },
      (g) => {
        const group: ConsumerGroup = {
          type: 'consumer',
          groupId: g.groupId,
          state: g.groupState,
          protocolType: 'consumer',
          assignor: g.assignorName,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          coordinator,
          members: latestPerInstance(
            g.members,
            (m) => m.instanceId,
            (m) => m.memberEpoch,
          ).map(
            (m): ConsumerMember => ({
              memberId: m.memberId,
              instanceId: m.instanceId,
              clientId: m.clientId,
              clientHost: m.clientHost,
              rack: m.rackId,
              partitions: topicIdPartitions(m.assignment),
              memberEpoch: m.memberEpoch,
              subscribedTopicNames: m.subscribedTopicNames,
              // Brokers send an empty string for "no regex"; the API says null.
              subscribedTopicRegex: m.subscribedTopicRegex || null,
              targetPartitions: topicIdPartitions(m.targetAssignment),
              usesClassicProtocol:
                m.memberType === ConsumerGroupMemberType.Classic
                  ? true
                  : m.memberType === ConsumerGroupMemberType.Consumer
                    ? false
                    : null,
            }),
          ),
        };
        return group;
      },
      options,
    ),
};

export function topicIdPartitions(
  assignment: Pick<ConsumerGroupDescribeAssignment, 'topicPartitions'>,
): TopicPartitions[] {
  return assignment.topicPartitions
    .map((tp) => ({
      topicId: tp.topicId,
      topic: tp.topicName,
      partitions: [...tp.partitions].sort((a, b) => a - b),
    }))
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
}
