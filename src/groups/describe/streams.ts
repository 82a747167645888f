/** Streams groups (KIP-1071): StreamsGroupDescribe, one request for many groups. */

import {
  type StreamsGroupAssignment,
  StreamsGroupDescribe,
  type StreamsGroupTaskOffset,
} from '../../broker/protocol/messages/streams-group-describe.js';
import type { StreamsAssignment, StreamsGroup, StreamsTaskOffset } from '../model.js';
import { type GroupDescriber, perGroup } from './outcome.js';
import { latestPerInstance } from './static-members.js';

export const streamsDescriber: GroupDescriber = {
  type: 'streams',
  api: StreamsGroupDescribe.name,
  describe: (connection, coordinator, groupIds) =>
    perGroup(
      connection,
      StreamsGroupDescribe,
      groupIds,
      { groupIds: [...groupIds], includeAuthorizedOperations: false },
      (g) => {
        const group: StreamsGroup = {
          type: 'streams',
          groupId: g.groupId,
          state: g.groupState,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          assignor: g.assignorName ?? null,
          topology: g.topology
            ? {
                epoch: g.topology.epoch,
                subtopologies: (g.topology.subtopologies ?? []).map((s) => ({
                  subtopologyId: s.subtopologyId,
                  sourceTopics: s.sourceTopics,
                  repartitionSinkTopics: s.repartitionSinkTopics,
                  stateChangelogTopics: s.stateChangelogTopics.map(topicInfo),
                  repartitionSourceTopics: s.repartitionSourceTopics.map(topicInfo),
                })),
              }
            : null,
          coordinator,
          members: latestPerInstance(
            g.members,
            (m) => m.instanceId,
            (m) => m.memberEpoch,
          ).map((m) => ({
            memberId: m.memberId,
            memberEpoch: m.memberEpoch,
            instanceId: m.instanceId,
            rackId: m.rackId,
            clientId: m.clientId,
            clientHost: m.clientHost,
            topologyEpoch: m.topologyEpoch,
            processId: m.processId,
            userEndpoint: m.userEndpoint ? { host: m.userEndpoint.host, port: m.userEndpoint.port } : null,
            clientTags: m.clientTags.map(({ key, value }) => ({ key, value })),
            taskOffsets: m.taskOffsets.map(taskOffset),
            taskEndOffsets: m.taskEndOffsets.map(taskOffset),
            assignment: assignment(m.assignment),
            targetAssignment: assignment(m.targetAssignment),
            isClassic: m.isClassic,
          })),
        };
        return group;
      },
    ),
};

function topicInfo(t: {
  name: string;
  partitions: number;
  replicationFactor: number;
  topicConfigs: { key: string; value: string }[];
}) {
  return {
    name: t.name,
    partitions: t.partitions,
    replicationFactor: t.replicationFactor,
    topicConfigs: t.topicConfigs.map(({ key, value }) => ({ key, value })),
  };
}

function taskOffset(t: StreamsGroupTaskOffset): StreamsTaskOffset {
  return { subtopologyId: t.subtopologyId, partition: t.partition, offset: Number(t.offset) };
}

function assignment(a: StreamsGroupAssignment): StreamsAssignment {
  const tasks = (list: StreamsGroupAssignment['activeTasks']) =>
    list.map((t) => ({
      subtopologyId: t.subtopologyId,
      partitions: [...t.partitions].sort((x, y) => x - y),
    }));
  return {
    activeTasks: tasks(a.activeTasks),
    standbyTasks: tasks(a.standbyTasks),
    warmupTasks: tasks(a.warmupTasks),
  };
}
