import { describe, expect, it } from 'vitest';
import { diagnose } from './diagnose.js';
import { readSnapshot, snapshotOf } from './snapshot.js';
import { sourceTopicsMissing, standbysUnassigned, topologyEpochsDiffer, warmups } from './streams.js';
import { AT, reading, streamsGroup } from './test-data.js';

function member0(g: ReturnType<typeof streamsGroup>) {
  const m = g.members[0];
  if (!m) throw new Error('example has a member');
  return m;
}

describe('streams group rules', () => {
  it('find nothing in a stable group, even with standbys configured that are placed', () => {
    const g = streamsGroup();
    const configs = new Map([['streams.num.standby.replicas', '0']]);
    expect(diagnose(reading(g, { configs })).findings).toEqual([]);
  });

  it('TOPOLOGY_EPOCHS_DIFFER: members on two topology epochs', () => {
    const g = streamsGroup();
    g.members.push({ ...structuredClone(member0(g)), memberId: 'b', topologyEpoch: 1 });
    const [f] = topologyEpochsDiffer(reading(g));
    expect(f?.code).toBe('TOPOLOGY_EPOCHS_DIFFER');
    expect(f?.evidence[0]).toEqual({
      field: 'members[].topologyEpoch',
      source: 'StreamsGroupDescribe Members.TopologyEpoch',
      value: [0, 1],
    });
  });

  it('WARMUP_TASKS_PENDING from one reading, WARMUP_NOT_CONVERGING when the restore lag does not shrink', () => {
    const g = streamsGroup();
    const m = member0(g);
    m.tasks.warmupTasks = [{ subtopologyId: '1', partitions: [2] }];
    m.taskOffsets = [{ subtopologyId: '1', partition: 2, offset: 100 }];
    m.taskEndOffsets = [{ subtopologyId: '1', partition: 2, offset: 500 }];
    const [f] = warmups(reading(g));
    expect([f?.code, f?.evidence[1]?.value]).toEqual(['WARMUP_TASKS_PENDING', 400]);
    const before = readSnapshot(snapshotOf(g, reading(g).offsets, AT - 70_000, undefined), AT - 70_000);
    m.taskEndOffsets = [{ subtopologyId: '1', partition: 2, offset: 700 }];
    m.taskOffsets = [{ subtopologyId: '1', partition: 2, offset: 250 }];
    expect(warmups(reading(g, { ...(before && { before }) })).map((x) => x.code)).toEqual([
      'WARMUP_NOT_CONVERGING',
    ]);
    m.taskOffsets = [{ subtopologyId: '1', partition: 2, offset: 650 }];
    expect(warmups(reading(g, { ...(before && { before }) })).map((x) => x.code)).toEqual([
      'WARMUP_TASKS_PENDING',
    ]);
  });

  it('SOURCE_TOPICS_MISSING: NotReady, naming the source topics', () => {
    const g = streamsGroup();
    g.state = 'NotReady';
    const [f] = sourceTopicsMissing(reading(g));
    expect(f?.code).toBe('SOURCE_TOPICS_MISSING');
    expect(f?.evidence[1]?.value).toEqual(['demo-events']);
  });

  it('STANDBY_TASKS_UNASSIGNED: one standby per stateful task wanted, none placed on one process', () => {
    const g = streamsGroup();
    const configs = new Map([['streams.num.standby.replicas', '1']]);
    const [f] = standbysUnassigned(reading(g, { configs }));
    expect(f?.code).toBe('STANDBY_TASKS_UNASSIGNED');
    // Subtopology 1 has the changelog: three stateful tasks, one standby each.
    expect(f?.summary).toMatch(/^3 of 3 standby tasks/);
    member0(g).targetTasks.standbyTasks = [{ subtopologyId: '1', partitions: [0, 1, 2] }];
    expect(standbysUnassigned(reading(g, { configs }))).toEqual([]);
    expect(standbysUnassigned(reading(streamsGroup()))).toEqual([]);
  });
});
