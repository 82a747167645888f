/**
 * Streams groups (KIP-1071), from StreamsGroupDescribe and the group's configs: members on
 * different topology epochs, warm-up tasks and whether they converge, missing source topics,
 * standby tasks the group wants but could not place, members behind the target assignment.
 */

import type { StreamsGroup } from '../model.js';
import { ev, type Finding, finding, plural, type Reading, type Rule, who } from './finding.js';
import { idHash, warmupLag } from './snapshot.js';

const RPC = 'StreamsGroupDescribe';

/** Members on different topology epochs: a rolling upgrade of the application in flight. */
export const topologyEpochsDiffer: Rule<StreamsGroup> = ({ group }) => {
  const epochs = [...new Set(group.members.map((m) => m.topologyEpoch))].sort((a, b) => a - b);
  if (epochs.length < 2) return [];
  return [
    finding(
      'TOPOLOGY_EPOCHS_DIFFER',
      'warning',
      null,
      `Members run ${plural(epochs.length, 'topology epoch')} (${epochs.join(', ')}); the group's topology is at ${group.topology?.epoch ?? 'none'}`,
      [
        ev('members[].topologyEpoch', `${RPC} Members.TopologyEpoch`, epochs),
        ev('topology.epoch', `${RPC} Topology.Epoch`, group.topology?.epoch ?? null),
      ],
      'Finish rolling out the same application version to every instance: members on another topology get no tasks of the new one.',
    ),
  ];
};

/**
 * Warm-up tasks restore state before an active task moves to their member. One reading says how
 * much is left; across readings (`since=`) whether it shrinks. No released broker (4.1 to 4.4)
 * assigns warm-up tasks yet (docs/diagnosis.md has the sources), so this reads what one that does
 * will send, as StreamsGroupDescribe already carries it.
 */
export function warmups({ group, at, before, stuckAfterMs }: Reading<StreamsGroup>): Finding[] {
  const out: Finding[] = [];
  for (const m of group.members) {
    const lag = warmupLag(m);
    if (lag === null) continue;
    const tasks = m.tasks.warmupTasks
      .flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`))
      .sort();
    const then = before?.members.get(idHash(m.memberId))?.warmupLag ?? null;
    const evidence = [
      ev('tasks.warmupTasks', `${RPC} Members.WarmupTasks`, tasks),
      ev('warmupLag', `${RPC} Members.TaskEndOffsets minus Members.TaskOffsets`, lag),
    ];
    const stuck =
      before !== undefined && then !== null && lag > 0 && lag >= then && at - before.issuedAt >= stuckAfterMs;
    out.push(
      stuck
        ? finding(
            'WARMUP_NOT_CONVERGING',
            'warning',
            m.memberId,
            `Member ${who(m)} has ${plural(tasks.length, 'warm-up task')} with ${lag} changelog records to restore, no fewer than ${then} at the snapshot`,
            [...evidence, ev('since.warmupLag', 'the since snapshot', then)],
            'The warm-up does not catch up with the changelog: the instance restores slower than the state is written. Give it ' +
              'more resources, or raise acceptable.recovery.lag so the task can move while it is still behind.',
          )
        : finding(
            'WARMUP_TASKS_PENDING',
            'info',
            m.memberId,
            `Member ${who(m)} warms up ${plural(tasks.length, 'task')} (${lag} changelog records to restore)`,
            evidence,
            'Nothing: the tasks move to this member once restored. Ask again with since= to see whether the lag shrinks.',
          ),
    );
  }
  return out;
}

/** NotReady: the group waits for topics (source topics missing, internal topics not created). */
export const sourceTopicsMissing: Rule<StreamsGroup> = ({ group }) => {
  if (group.state !== 'NotReady') return [];
  const sources = [...new Set((group.topology?.subtopologies ?? []).flatMap((s) => s.sourceTopics))].sort();
  return [
    finding(
      'SOURCE_TOPICS_MISSING',
      'error',
      null,
      `The group is NotReady: the topics its topology reads (${sources.join(', ') || 'unknown'}) are missing or its internal topics could not be created`,
      [
        ev('state', `${RPC} GroupState`, group.state),
        ev('topology.subtopologies[].sourceTopics', `${RPC} Topology.Subtopologies.SourceTopics`, sources),
      ],
      "Create the source topics (or fix the topology's topic names); if they exist, look at the coordinator's log for why the " +
        'internal topics were not created (permissions, replication factor).',
    ),
  ];
};

/**
 * Standby replicas the group is configured for (streams.num.standby.replicas) against the standby
 * tasks placed: a standby cannot share a process with its active task, so too few instances leave
 * some unplaced.
 */
export const standbysUnassigned: Rule<StreamsGroup> = ({ group, configs }) => {
  const wanted = Number(configs?.get('streams.num.standby.replicas') ?? 0);
  if (!Number.isInteger(wanted) || wanted <= 0 || !group.topology || group.members.length === 0) return [];
  // Only tasks with state get standbys: the active tasks of subtopologies with changelog topics.
  const stateful = new Set(
    group.topology.subtopologies.filter((s) => s.stateChangelogTopics.length > 0).map((s) => s.subtopologyId),
  );
  const active = new Set(
    group.members.flatMap((m) =>
      m.targetTasks.activeTasks
        .filter((t) => stateful.has(t.subtopologyId))
        .flatMap((t) => t.partitions.map((p) => `${t.subtopologyId}_${p}`)),
    ),
  );
  const tasks = active.size;
  const expected = tasks * wanted;
  const placed = group.members.reduce(
    (n, m) => n + m.targetTasks.standbyTasks.reduce((k, t) => k + t.partitions.length, 0),
    0,
  );
  if (expected === 0 || placed >= expected) return [];
  const processes = new Set(group.members.map((m) => m.processId)).size;
  return [
    finding(
      'STANDBY_TASKS_UNASSIGNED',
      'warning',
      null,
      `${expected - placed} of ${expected} standby tasks are not placed (${wanted} per stateful task, ${plural(processes, 'process')} in the group)`,
      [
        ev('streams.num.standby.replicas', 'DescribeConfigs (GROUP) streams.num.standby.replicas', wanted),
        ev('members[].targetTasks.standbyTasks', `${RPC} Members.TargetAssignment.StandbyTasks`, placed),
        ev('members[].processId', `${RPC} Members.ProcessId`, processes),
      ],
      'A standby never shares a process with its active task: run at least streams.num.standby.replicas + 1 instances ' +
        '(processes), or lower streams.num.standby.replicas. Until then a failover restores state from the changelog.',
    ),
  ];
};

/** A member behind the target assignment epoch. */
export const streamsReconciling: Rule<StreamsGroup> = ({ group, at, before, stuckAfterMs }) =>
  group.members.flatMap((m) => {
    if (m.memberEpoch >= group.assignmentEpoch) return [];
    const then = before?.members.get(idHash(m.memberId));
    const stuck =
      before !== undefined && then?.memberEpoch === m.memberEpoch && at - before.issuedAt >= stuckAfterMs;
    const evidence = [
      ev('memberEpoch', `${RPC} Members.MemberEpoch`, m.memberEpoch),
      ev('assignmentEpoch', `${RPC} AssignmentEpoch`, group.assignmentEpoch),
    ];
    return [
      stuck
        ? finding(
            'MEMBER_NOT_RECONCILING',
            'error',
            m.memberId,
            `Member ${who(m)} has stayed at epoch ${m.memberEpoch}, behind the target assignment at ${group.assignmentEpoch}`,
            evidence,
            'The instance does not take its new tasks: it stopped heartbeating or its stream thread is stuck. Look at the instance.',
          )
        : finding(
            'MEMBER_RECONCILING',
            'info',
            m.memberId,
            `Member ${who(m)} is at epoch ${m.memberEpoch}, behind the target assignment at ${group.assignmentEpoch}`,
            evidence,
            'Nothing, if it catches up within a few heartbeats.',
          ),
    ];
  });

export const STREAMS_RULES: readonly Rule<StreamsGroup>[] = [
  topologyEpochsDiffer,
  warmups,
  sourceTopicsMissing,
  standbysUnassigned,
  streamsReconciling,
];
