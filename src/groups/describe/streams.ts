/** Streams groups (KIP-1071): StreamsGroupDescribe, one request for many groups. */

import {
  type StreamsGroupAssignment,
  StreamsGroupDescribe,
  type StreamsGroupTaskOffset,
} from '../../broker/protocol/messages/streams-group-describe.js';
import type {
  StreamsGroup,
  StreamsSubtopology,
  StreamsTaskOffset,
  StreamsTasksByKind,
  TopicPartitions,
} from '../model.js';
import { type GroupDescriber, perGroup } from './describer.js';
import { latestPerInstance } from './static-members.js';

export const streamsDescriber: GroupDescriber = {
  type: 'streams',
  api: StreamsGroupDescribe.name,
  describe: (connection, coordinator, groupIds, options) =>
    perGroup(
      connection,
      StreamsGroupDescribe,
      groupIds,
      { groupIds: [...groupIds], includeAuthorizedOperations: false },
      (g) => {
        const topology = g.topology
          ? {
              epoch: g.topology.epoch,
              subtopologies: (g.topology.subtopologies ?? []).map(
                (sub): StreamsSubtopology => ({
                  subtopologyId: sub.subtopologyId,
                  sourceTopics: sub.sourceTopics,
                  repartitionSinkTopics: sub.repartitionSinkTopics,
                  stateChangelogTopics: sub.stateChangelogTopics.map(topicInfo),
                  repartitionSourceTopics: sub.repartitionSourceTopics.map(topicInfo),
                }),
              ),
            }
          : null;
        const group: StreamsGroup = {
          type: 'streams',
          groupId: g.groupId,
          state: g.groupState,
          protocolType: 'streams',
          assignor: g.assignorName ?? null,
          groupEpoch: g.groupEpoch,
          assignmentEpoch: g.assignmentEpoch,
          topology,
          coordinator,
          members: latestPerInstance(
            g.members,
            (m) => m.instanceId,
            (m) => m.memberEpoch,
          ).map((m) => {
            const tasks = tasksByKind(m.assignment);
            return {
              memberId: m.memberId,
              instanceId: m.instanceId,
              clientId: m.clientId,
              clientHost: m.clientHost,
              rack: m.rackId,
              partitions: inputPartitions(tasks, topology?.subtopologies ?? []),
              memberEpoch: m.memberEpoch,
              topologyEpoch: m.topologyEpoch,
              processId: m.processId,
              userEndpoint: m.userEndpoint ? { host: m.userEndpoint.host, port: m.userEndpoint.port } : null,
              clientTags: m.clientTags.map(({ key, value }) => ({ key, value })),
              taskOffsets: m.taskOffsets.map(taskOffset),
              taskEndOffsets: m.taskEndOffsets.map(taskOffset),
              tasks,
              targetTasks: tasksByKind(m.targetAssignment),
              usesClassicProtocol: m.isClassic,
            };
          }),
        };
        return group;
      },
      options,
    ),
};

/**
 * The partitions a member reads: active task (subtopology s, partition p) reads partition p of
 * each input topic of s (its source topics and the repartition topics it reads). StreamsGroupDescribe
 * names topics only, so topicId is null.
 */
export function inputPartitions(
  tasks: StreamsTasksByKind,
  subtopologies: readonly StreamsSubtopology[],
): TopicPartitions[] {
  const inputs = new Map(
    subtopologies.map((s) => [
      s.subtopologyId,
      [...s.sourceTopics, ...s.repartitionSourceTopics.map((t) => t.name)],
    ]),
  );
  const byTopic = new Map<string, Set<number>>();
  for (const task of tasks.activeTasks) {
    for (const topic of inputs.get(task.subtopologyId) ?? []) {
      const held = byTopic.get(topic) ?? new Set<number>();
      for (const p of task.partitions) held.add(p);
      byTopic.set(topic, held);
    }
  }
  return [...byTopic]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, held]) => ({ topic, topicId: null, partitions: [...held].sort((x, y) => x - y) }));
}

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

function tasksByKind(a: StreamsGroupAssignment): StreamsTasksByKind {
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
