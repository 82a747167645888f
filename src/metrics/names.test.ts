import { describe, expect, it } from 'vitest';
import { compatibleFamilies } from './names.js';

const partition = (n: number, offset: number | null, endOffset: number) => ({
  partition: n,
  offset,
  leaderEpoch: 0,
  metadata: null,
  endOffset,
  lag: offset === null ? null : endOffset - offset,
  owners: [],
  error: null,
  logStartOffset: 0,
  timeLagMs: offset === null ? null : { min: 2_000, max: 3_000 },
});

/** A group with a partition without a commit, as OffsetFetch reports it (offset -1: null here). */
const reading = (groupId: string) =>
  ({
    listing: { groupId, type: 'classic' },
    group: { type: 'classic', state: 'Empty', members: [] },
    table: {
      topics: [{ topic: 't', lag: 6, partitions: [partition(0, 4, 10), partition(1, null, 7)] }],
      totals: { lag: 6 },
    },
  }) as never;

const values = (families: { name: string; samples: { labels: object; value: number }[] }[], name: string) =>
  families.find((f) => f.name === name)?.samples.map((s) => [s.labels, s.value]);

describe('compatible metric names', () => {
  it('kafka-exporter: -1 for a partition without a commit, left out of the sums', () => {
    const { families } = compatibleFamilies([reading('g')], 'kafka-exporter', 'default', 100);
    expect(values(families, 'kafka_consumergroup_lag')).toEqual([
      [{ consumergroup: 'g', topic: 't', partition: '0' }, 6],
      [{ consumergroup: 'g', topic: 't', partition: '1' }, -1],
    ]);
    expect(values(families, 'kafka_consumergroup_current_offset')?.map(([, v]) => v)).toEqual([4, -1]);
    expect(values(families, 'kafka_consumergroup_lag_sum')).toEqual([
      [{ consumergroup: 'g', topic: 't' }, 6],
    ]);
    expect(values(families, 'kafka_consumergroup_current_offset_sum')?.[0]?.[1]).toBe(4);
  });

  it('kafka-lag-exporter: no partition series without a commit; time lag from the lower bound', () => {
    const { families } = compatibleFamilies([reading('g')], 'kafka-lag-exporter', 'eu', 100);
    expect(values(families, 'kafka_consumergroup_group_lag')).toEqual([
      [
        {
          cluster_name: 'eu',
          group: 'g',
          topic: 't',
          partition: '0',
          member_host: '',
          consumer_id: '',
          client_id: '',
        },
        6,
      ],
    ]);
    expect(values(families, 'kafka_consumergroup_group_lag_seconds')?.map(([, v]) => v)).toEqual([2]);
    expect(values(families, 'kafka_consumergroup_group_max_lag')).toEqual([
      [{ cluster_name: 'eu', group: 'g', is_simple_consumer: 'true' }, 6],
    ]);
    expect(values(families, 'kafka_partition_latest_offset')?.map(([, v]) => v)).toEqual([10, 7]);
  });

  it('stops at maxSeries, whole groups at a time, and counts what it left out', () => {
    const { families, dropped } = compatibleFamilies([reading('a'), reading('b')], 'kafka-exporter', 'd', 8);
    expect(values(families, 'kafka_consumergroup_members')).toEqual([[{ consumergroup: 'a' }, 0]]);
    expect(dropped).toBe(7);
  });
});
