import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../health/verdicts.js';
import type { OffsetTable } from '../offsets/tables.js';
import { type Judged, judge, kept, type LagCriteria, lagKnown, rankOf } from './criteria.js';

function table(lags: (number | null)[], timeLagMin: number | null = null, errors = 0): OffsetTable {
  const partitions = lags.map((lag, partition) => ({
    partition,
    offset: lag === null ? null : 10,
    endOffset: 10 + (lag ?? 0),
    lag,
    owners: [],
    error: null,
  }));
  return {
    topics: [{ topic: 't', partitions }],
    totals: {
      lag: lags.reduce<number>((s, l) => s + (l ?? 0), 0),
      maxLag: null,
      partitions: lags.length,
      partitionsWithoutOffset: lags.filter((l) => l === null).length,
      partitionsWithErrors: errors,
      ...(timeLagMin !== null && { maxTimeLagMs: { min: timeLagMin, max: timeLagMin } }),
    },
  } as unknown as OffsetTable;
}

const criteria = (more: Partial<LagCriteria> = {}): LagCriteria => ({
  thresholds: DEFAULT_THRESHOLDS,
  ...more,
});

describe('the estate lag criteria', () => {
  it('keeps a group by its total lag, its time lag and its verdict', () => {
    const behind = judge(table([400, 200], 90_000), 0, criteria({ verdicts: new Set(['STOPPED']) }));
    expect(behind).toEqual({ lag: 600, timeLagMs: 90_000, verdict: 'STOPPED' });
    expect(kept(behind, criteria({ minLag: 600 }))).toBe(true);
    expect(kept(behind, criteria({ minLag: 601 }))).toBe(false);
    expect(kept(behind, criteria({ minTimeLagMs: 90_000 }))).toBe(true);
    expect(kept(behind, criteria({ minTimeLagMs: 90_001 }))).toBe(false);
    expect(kept(behind, criteria({ verdicts: new Set(['STOPPED', 'LAGGING']) }))).toBe(true);
    expect(kept(behind, criteria({ verdicts: new Set(['OK']) }))).toBe(false);
    // Members present and above maxLag (1,000 by default): LAGGING, not STOPPED.
    expect(judge(table([1600]), 2, criteria({ verdicts: new Set(['LAGGING']) })).verdict).toBe('LAGGING');
  });

  it('never takes an unknown time lag for a small one', () => {
    const unknown = judge(table([5]), 1, criteria());
    expect(unknown.timeLagMs).toBeNull();
    expect(kept(unknown, criteria({ minTimeLagMs: 0 }))).toBe(false);
    const byTime = (js: Judged[], sort: '-timeLag' | 'timeLag') =>
      [...js].sort((a, b) => (rankOf(sort)(a, b) ? -1 : rankOf(sort)(b, a) ? 1 : 0));
    const js: Judged[] = [
      { lag: 1, timeLagMs: null },
      { lag: 1, timeLagMs: 5 },
      { lag: 1, timeLagMs: 50 },
    ];
    expect(byTime(js, '-timeLag').map((j) => j.timeLagMs)).toEqual([50, 5, null]);
    expect(byTime(js, 'timeLag').map((j) => j.timeLagMs)).toEqual([5, 50, null]);
  });

  it('orders by lag either way', () => {
    expect(rankOf('-lag')({ lag: 9, timeLagMs: null }, { lag: 1, timeLagMs: null })).toBe(true);
    expect(rankOf('lag')({ lag: 9, timeLagMs: null }, { lag: 1, timeLagMs: null })).toBe(false);
  });

  it('knows a lag only when every partition was read', () => {
    expect(lagKnown(table([1, 2]))).toBe(true);
    expect(lagKnown(table([1, null], null, 1))).toBe(false);
  });
});
