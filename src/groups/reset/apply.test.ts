/**
 * Applying a plan against offsets that moved, or did not, since it was made: over a fake
 * coordinator that records what is sent. The real broker runs the same paths in
 * test/integration/reset-offsets.test.ts and test/cluster/write-faults.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../broker/deadline.js';
import type { KafkaCluster } from '../../broker/transport/cluster.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { GroupTypeUnavailableError, ShareGroupCreationUnsupportedError } from '../errors.js';
import type { CommittedOffsets } from '../offsets/committed.js';
import { writeProgress } from '../writes/progress.js';
import {
  absentShareGroup,
  OffsetResetter,
  PlanStaleError,
  type PlanToApply,
  type ResetGroup,
} from './apply.js';

const group: ResetGroup = {
  groupId: 'g',
  type: 'classic',
  state: 'Empty',
  groupEpoch: null,
  assignmentEpoch: null,
  members: [],
};

const plan = (rows: [number, number | null, number][]): PlanToApply => ({
  groupId: 'g',
  type: 'classic',
  state: 'Empty',
  groupEpoch: null,
  assignmentEpoch: null,
  partitions: rows.map(([partition, current, target]) => ({ topic: 't', partition, current, target })),
});

/** The highest version of an RPC (by name) the fake brokers offer; absent: they offer none. */
type Offered = Record<string, number>;
const KAFKA_4_2: Offered = { AlterShareGroupOffsets: 0, DescribeShareGroupOffsets: 1, OffsetCommit: 9 };

/**
 * A resetter whose coordinator has `offsets` (t:partition → offset) and answers every commit with
 * no error, on brokers that offer `offered`.
 */
function resetter(offsets: Record<number, number>, offered: Offered = KAFKA_4_2) {
  const sent: { partitions: number[] }[] = [];
  let reads = 0;
  const connection = {
    label: 'b1:9092',
    versionFor: async (api: { name: string }, bounds?: { min?: number }) => {
      const max = offered[api.name];
      return max === undefined || max < (bounds?.min ?? 0) ? undefined : max;
    },
    send: async (_api: unknown, request: { topics: { partitions: { partitionIndex: number }[] }[] }) => {
      const partitions = request.topics.flatMap((t) => t.partitions.map((p) => p.partitionIndex));
      sent.push({ partitions });
      return {
        version: 9,
        response: {
          topics: [{ name: 't', partitions: partitions.map((p) => ({ partitionIndex: p, errorCode: 0 })) }],
          // AlterShareGroupOffsets' shape of the same answer.
          errorCode: 0,
          responses: [
            { topicName: 't', partitions: partitions.map((p) => ({ partitionIndex: p, errorCode: 0 })) },
          ],
        },
      };
    },
  } as unknown as BrokerConnection;
  const writes = {
    async committedOffsets(): Promise<CommittedOffsets> {
      reads += 1;
      return Object.entries(offsets).map(([partition, offset]) => ({
        topic: 't',
        partition: Number(partition),
        offset,
        leaderEpoch: null,
        metadata: '',
        brokerLag: null,
        error: null,
      }));
    },
    atCoordinator: <T>(_groupId: string, _options: unknown, call: (c: BrokerConnection) => Promise<T>) =>
      call(connection),
  };
  const members = { of: () => [], now: async () => [] };
  const cluster = {
    requestTimeoutMs: 30_000,
    anyBroker: <T>(call: (c: BrokerConnection) => Promise<T>) => call(connection),
  } as unknown as KafkaCluster;
  const r = new OffsetResetter(cluster, writes, members);
  return { r, sent, reads: () => reads };
}

describe('applying a reset plan', () => {
  it('sends the plan while the offsets are those it was made from, and marks the write sent', async () => {
    const { r, sent } = resetter({ 0: 8, 1: 8 });
    const progress = writeProgress();
    const done = await r.apply(
      group,
      plan([
        [0, 8, 0],
        [1, 8, 0],
      ]),
      { ...NO_DEADLINE, progress },
    );
    expect(done.outcome).toBe('applied');
    expect(sent).toEqual([{ partitions: [0, 1] }]);
    expect(progress.sent).toBe(true);
  });

  it('answers already-applied, sending nothing, when every offset is at its target', async () => {
    const { r, sent } = resetter({ 0: 0, 1: 0 });
    const progress = writeProgress();
    // Another state or epoch since does not matter: the offsets stand.
    const done = await r.apply(
      { ...group, state: 'Dead' },
      plan([
        [0, 8, 0],
        [1, 8, 0],
      ]),
      { ...NO_DEADLINE, progress },
    );
    expect(done).toEqual({
      outcome: 'already-applied',
      partitions: [
        { topic: 't', partition: 0, before: 8, after: 0, error: null },
        { topic: 't', partition: 1, before: 8, after: 0, error: null },
      ],
    });
    expect(sent).toEqual([]);
    expect(progress.sent).toBe(false);
  });

  it('sends again a plan partly applied (each offset at its start or its target)', async () => {
    const { r, sent } = resetter({ 0: 0, 1: 8 });
    expect(
      (
        await r.apply(
          group,
          plan([
            [0, 8, 0],
            [1, 8, 0],
          ]),
          NO_DEADLINE,
        )
      ).outcome,
    ).toBe('applied');
    expect(sent).toHaveLength(1);
  });

  it('refuses (plan-stale) when an offset moved elsewhere, sending nothing', async () => {
    const { r, sent } = resetter({ 0: 0, 1: 5 });
    await expect(
      r.apply(
        group,
        plan([
          [0, 8, 0],
          [1, 8, 0],
        ]),
        NO_DEADLINE,
      ),
    ).rejects.toBeInstanceOf(PlanStaleError);
    expect(sent).toEqual([]);
  });

  it('executes a plan that changes nothing, rather than calling it already applied', async () => {
    const { r, sent } = resetter({ 0: 8 });
    expect((await r.apply(group, plan([[0, 8, 8]]), NO_DEADLINE)).outcome).toBe('applied');
    expect(sent).toHaveLength(1);
  });

  it('reads no offsets of a share group that does not exist yet', async () => {
    const { r, reads } = resetter({});
    const absent = absentShareGroup('g');
    const share = { ...plan([[0, null, 3]]), type: 'share' as const, state: 'Dead' };
    await r.apply(absent, share, NO_DEADLINE).catch(() => undefined);
    expect(reads()).toBe(0);
  });

  it('creates a share group only on brokers that do (Kafka 4.2+: DescribeShareGroupOffsets v1 beside AlterShareGroupOffsets)', async () => {
    const absent = absentShareGroup('g');
    const share = { ...plan([[0, null, 3]]), type: 'share' as const, state: 'Dead' };
    const on42 = resetter({});
    expect((await on42.r.apply(absent, share, NO_DEADLINE)).outcome).toBe('applied');
    expect(on42.sent).toHaveLength(1);

    // Kafka 4.1: AlterShareGroupOffsets v0 too, but an unknown group is UNKNOWN_SERVER_ERROR there.
    const on41 = resetter({}, { ...KAFKA_4_2, DescribeShareGroupOffsets: 0 });
    const refused = await on41.r.apply(absent, share, NO_DEADLINE).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ShareGroupCreationUnsupportedError);
    expect(refused).toMatchObject({ groupId: 'g', kafkaVersion: '4.1', requiredKafkaVersion: '4.2' });
    expect(on41.sent).toEqual([]);

    const noShare = resetter({}, { OffsetCommit: 9 });
    await expect(noShare.r.apply(absent, share, NO_DEADLINE)).rejects.toBeInstanceOf(
      GroupTypeUnavailableError,
    );
    expect(noShare.sent).toEqual([]);
  });
});
