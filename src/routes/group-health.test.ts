import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { healthOf } from '../groups/health/assess.js';
import { progressOf } from '../groups/health/progress-token.js';
import { DEFAULT_THRESHOLDS } from '../groups/health/verdicts.js';
import type { Group, GroupOffsets, PartitionOffsets } from '../groups/model.js';
import { groupFamilies } from './metrics.js';

const AT = Date.parse('2026-11-30T22:40:00.000Z');

const row = (
  partition: number,
  offset: number | null,
  endOffset: number,
  extra: Partial<PartitionOffsets> = {},
) => ({
  partition,
  offset,
  leaderEpoch: null,
  metadata: null,
  endOffset,
  lag: offset === null ? null : Math.max(0, endOffset - offset),
  owners: [],
  error: null,
  logStartOffset: 0,
  belowLogStart: false,
  timeLagMs: offset === null ? null : offset >= endOffset ? { min: 0, max: 0 } : { min: 5_000, max: 6_000 },
  timeLagReason: offset === null ? ('no-offset' as const) : null,
  headAgeMs: 100,
  ...extra,
});

function offsets(partitions: ReturnType<typeof row>[]): GroupOffsets {
  return {
    groupId: 'g',
    type: 'classic',
    state: 'Stable',
    offsetKind: 'committed',
    isolation: 'read_uncommitted',
    topics: [{ topic: 't', lag: partitions.reduce((s, p) => s + (p.lag ?? 0), 0), partitions }],
    totals: {
      lag: partitions.reduce((s, p) => s + (p.lag ?? 0), 0),
      maxLag: null,
      partitions: partitions.length,
      partitionsWithoutOffset: 0,
      partitionsWithErrors: 0,
      maxTimeLagMs: { min: 5_000, max: 6_000 },
    },
  };
}

const group = (members: number) =>
  ({
    groupId: 'g',
    type: 'classic',
    state: members > 0 ? 'Stable' : 'Empty',
    members: Array.from({ length: members }, () => ({})),
  }) as unknown as Group;

describe('healthOf', () => {
  it('gives the group its worst partition, and no since without a snapshot', () => {
    const h = healthOf(
      { group: group(1), offsets: offsets([row(0, 10, 10), row(1, 0, 2_000)]), at: AT },
      DEFAULT_THRESHOLDS,
    );
    expect(h.partitions.map((p) => p.verdict)).toEqual(['OK', 'LAGGING']);
    expect(h.verdict).toBe('LAGGING');
    expect(h.since).toBeNull();
    expect(h.partitions[1]?.consumptionRate).toBeNull();
  });

  it('with a snapshot: STALLED, REWOUND, and rates over the interval', () => {
    const before = progressOf(offsets([row(0, 10, 20), row(1, 50, 60)]));
    if (!before) throw new Error('no snapshot');
    const now = offsets([row(0, 10, 26), row(1, 40, 66)]);
    const h = healthOf({ group: group(2), offsets: now, at: AT }, DEFAULT_THRESHOLDS, {
      snapshot: before,
      issuedAt: AT - 2_000,
    });
    expect(
      h.partitions.map((p) => [p.verdict, p.previousOffset, p.consumptionRate, p.productionRate]),
    ).toEqual([
      ['STALLED', 10, 0, 3],
      ['REWOUND', 50, -5, 3],
    ]);
    expect(h.verdict).toBe('REWOUND');
    expect(h.since).toEqual({
      issuedAt: new Date(AT - 2_000).toISOString(),
      intervalMs: 2_000,
      consumptionRate: -5,
      productionRate: 6,
      partitionsCompared: 2,
    });
  });

  it('with a snapshot taken before a partition had a commit: its production still counts', () => {
    const before = progressOf(offsets([row(0, 10, 20), row(1, null, 60)]));
    if (!before) throw new Error('no snapshot');
    const now = offsets([row(0, 30, 40), row(1, 50, 80)]);
    const h = healthOf({ group: group(1), offsets: now, at: AT }, DEFAULT_THRESHOLDS, {
      snapshot: before,
      issuedAt: AT - 10_000,
    });
    expect(h.partitions.map((p) => [p.previousOffset, p.consumptionRate, p.productionRate])).toEqual([
      [10, 2, 2],
      [null, null, 2],
    ]);
    expect(h.forecast).toMatchObject({
      rateSource: 'since',
      consumptionRate: 2,
      productionRate: 4,
      // lag 10 + 30 = 40, and consumption (2) below production (4).
      catchUpSeconds: null,
      catchUpReason: 'not-catching-up',
    });
  });
});

describe('metric families', () => {
  const reading = (id: string, members: number) => ({
    listing: { groupId: id, type: 'classic' as const, protocolType: 'consumer', state: 'Stable' },
    group: group(members),
    table: offsets([row(0, 10, 12), row(1, 3, 3)]),
  });

  it('per partition: lag and time lag labelled with topic and partition; members, state and verdict per group', () => {
    const { families, dropped } = groupFamilies([reading('a', 0)], 'partition', DEFAULT_THRESHOLDS, 100, AT);
    const byName = Object.fromEntries(families.map((f) => [f.name, f.samples]));
    expect(byName.kafka_group_lag_records).toEqual([
      { labels: { group: 'a', type: 'classic', topic: 't', partition: '0' }, value: 2 },
      { labels: { group: 'a', type: 'classic', topic: 't', partition: '1' }, value: 0 },
    ]);
    expect(byName.kafka_group_time_lag_min_seconds?.map((s) => s.value)).toEqual([5, 0]);
    expect(byName.kafka_group_verdict).toEqual([
      { labels: { group: 'a', type: 'classic', verdict: 'STOPPED' }, value: 1 },
    ]);
    // skew over the partition lags 2 and 0.
    expect(byName.kafka_group_partition_lag_max_records?.map((s) => s.value)).toEqual([2]);
    expect(byName.kafka_group_partition_lag_median_records?.map((s) => s.value)).toEqual([1]);
    expect(dropped).toBe(0);
  });

  it('caps whole groups at maxSeries and counts what was dropped', () => {
    // group granularity: lag, time lag min and max, members, state, verdict, max and median
    // partition lag = 8 series a group.
    const { families, dropped } = groupFamilies(
      [reading('a', 1), reading('b', 1)],
      'group',
      DEFAULT_THRESHOLDS,
      15,
      AT,
    );
    const members = families
      .find((f) => f.name === 'kafka_group_members')
      ?.samples.map((s) => s.labels.group);
    expect(members).toEqual(['a']);
    expect(dropped).toBe(8);
  });

  it('lists every native series in the metric table of docs/health-and-metrics.md', () => {
    const docs = readFileSync(new URL('../../docs/health-and-metrics.md', import.meta.url), 'utf8');
    const { families } = groupFamilies([reading('a', 1)], 'group', DEFAULT_THRESHOLDS, 100, AT);
    expect(families.map((f) => f.name).filter((name) => !docs.includes(`\`${name}\``))).toEqual([]);
  });
});
