import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../vocabulary.js';
import type { Group, GroupOffsets } from '../model.js';
import { healthOf, verdictOf } from './assess.js';

type Partition = GroupOffsets['topics'][number]['partitions'][number];

const partition = (n: number, over: Partial<Partition>): Partition => ({
  partition: n,
  offset: 90,
  leaderEpoch: 0,
  metadata: null,
  endOffset: 100,
  lag: 10,
  owners: [],
  error: null,
  logStartOffset: 0,
  timeLagMs: { min: 1_000, max: 2_000 },
  headAgeMs: 500,
  ...over,
});

const offsets = (partitions: Partition[][]): GroupOffsets => ({
  groupId: 'g',
  type: 'classic',
  state: 'Stable',
  offsetKind: 'committed',
  isolation: 'read_uncommitted',
  topics: partitions.map((ps, i) => ({
    topic: `t${i}`,
    lag: ps.reduce((n, p) => n + (p.lag ?? 0), 0),
    partitions: ps,
  })),
  totals: { lag: 0, maxLag: null, partitions: 0, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
});

const cases: [string, Partition[][]][] = [
  ['no partitions', []],
  ['a topic without partitions', [[]]],
  ['odd count', [[partition(0, { lag: 3 }), partition(1, { lag: 9 }), partition(2, { lag: 1 })]]],
  [
    'even count over topics',
    [
      [partition(0, { lag: 4 })],
      [partition(0, { lag: 20 }), partition(1, { lag: 0 })],
      [partition(3, { lag: 7 })],
    ],
  ],
  ['no commit on one', [[partition(0, { offset: null, lag: null }), partition(1, { lag: 2 })]]],
  [
    'a failed partition',
    [[partition(0, { error: { code: 6, name: 'NOT_LEADER_OR_FOLLOWER' } as never }), partition(1, {})]],
  ],
  ['below the log start', [[partition(0, { offset: 5, logStartOffset: 50 })]]],
  ['caught up and idle', [[partition(0, { offset: 100, lag: 0, headAgeMs: 10_000_000, timeLagMs: null })]]],
  ['far behind in time', [[partition(0, { lag: 1, timeLagMs: { min: 90_000_000, max: 90_000_001 } })]]],
  ['lag over the threshold', [[partition(0, { offset: 0, endOffset: 10_000_000, lag: 10_000_000 })]]],
];

describe('verdictOf', () => {
  for (const members of [0, 2]) {
    for (const [name, topics] of cases) {
      it(`gives healthOf's verdict and skew: ${name}, ${members} members`, () => {
        const reading = offsets(topics);
        const group = { members: Array.from({ length: members }, () => ({})) } as unknown as Group;
        const health = healthOf({ group, offsets: reading, at: 1_000_000 }, DEFAULT_THRESHOLDS);
        expect(verdictOf(reading, members, DEFAULT_THRESHOLDS)).toEqual({
          verdict: health.verdict,
          maxLag: health.forecast.skew.maxLag,
          medianLag: health.forecast.skew.medianLag,
        });
      });
    }
  }

  it('tells the cases apart (the comparison is not of one answer)', () => {
    const verdicts = new Set(cases.map(([, t]) => verdictOf(offsets(t), 2, DEFAULT_THRESHOLDS).verdict));
    expect(verdicts.size).toBeGreaterThanOrEqual(5);
  });
});
