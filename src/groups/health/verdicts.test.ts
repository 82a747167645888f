import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS,
  type PartitionState,
  partitionVerdict,
  SEVERITY,
  VERDICTS,
  worst,
} from './verdicts.js';

const state = (over: Partial<PartitionState> = {}): PartitionState => ({
  offset: 10,
  lag: 5,
  logStartOffset: 0,
  timeLagMinMs: 1_000,
  headAgeMs: 500,
  failed: false,
  ...over,
});
const t = DEFAULT_THRESHOLDS;

describe('partition verdicts', () => {
  it('OK: a little behind, members present', () => {
    expect(partitionVerdict(state(), 1, t)).toBe('OK');
  });

  it('UNKNOWN when the offsets could not be read, before any other rule', () => {
    expect(partitionVerdict(state({ failed: true, offset: 1, logStartOffset: 5 }), 0, t)).toBe('UNKNOWN');
  });

  it('NO_OFFSET without a commit', () => {
    expect(partitionVerdict(state({ offset: null, lag: null }), 1, t)).toBe('NO_OFFSET');
  });

  it('DATA_LOSS below the log start, whatever else holds', () => {
    expect(partitionVerdict(state({ offset: 2, logStartOffset: 6 }), 0, t, { offset: 9, lag: 1 })).toBe(
      'DATA_LOSS',
    );
    // At the log start nothing was skipped.
    expect(partitionVerdict(state({ offset: 6, logStartOffset: 6 }), 1, t)).toBe('OK');
  });

  it('REWOUND when the offset went backwards since the snapshot, even with no lag', () => {
    expect(partitionVerdict(state({ offset: 3, lag: 0 }), 1, t, { offset: 8, lag: 0 })).toBe('REWOUND');
  });

  it('STOPPED: no members and lag above zero; no members and no lag is not', () => {
    expect(partitionVerdict(state(), 0, t)).toBe('STOPPED');
    expect(partitionVerdict(state({ lag: 0, timeLagMinMs: 0 }), 0, t)).toBe('OK');
  });

  it("STALLED (Burrow's rule): members, offset unchanged, lag above zero both times and not falling", () => {
    expect(partitionVerdict(state({ lag: 5 }), 2, t, { offset: 10, lag: 5 })).toBe('STALLED');
    expect(partitionVerdict(state({ lag: 9 }), 2, t, { offset: 10, lag: 5 })).toBe('STALLED');
    // Lag fell (records deleted, or a transaction aborted): not stalled.
    expect(partitionVerdict(state({ lag: 4 }), 2, t, { offset: 10, lag: 5 })).toBe('OK');
    // Any zero lag in the window is OK.
    expect(partitionVerdict(state({ lag: 3 }), 2, t, { offset: 10, lag: 0 })).toBe('OK');
    // The offset moved.
    expect(partitionVerdict(state({ offset: 11 }), 2, t, { offset: 10, lag: 5 })).toBe('OK');
    // No members: STOPPED says more.
    expect(partitionVerdict(state(), 0, t, { offset: 10, lag: 5 })).toBe('STOPPED');
  });

  it('LAGGING above maxLag, or when the lower bound of the time lag is above maxTimeLagSeconds', () => {
    expect(partitionVerdict(state({ lag: t.maxLag + 1 }), 1, t)).toBe('LAGGING');
    expect(partitionVerdict(state({ lag: t.maxLag }), 1, t)).toBe('OK');
    expect(partitionVerdict(state({ timeLagMinMs: t.maxTimeLagSeconds * 1000 + 1 }), 1, t)).toBe('LAGGING');
    expect(partitionVerdict(state({ timeLagMinMs: null }), 1, t)).toBe('OK');
  });

  it('IDLE: nothing to consume and the newest record older than idleAfterSeconds, or no record at all', () => {
    const caughtUp = { lag: 0, timeLagMinMs: 0 };
    expect(partitionVerdict(state({ ...caughtUp, headAgeMs: t.idleAfterSeconds * 1000 + 1 }), 1, t)).toBe(
      'IDLE',
    );
    expect(partitionVerdict(state({ ...caughtUp, headAgeMs: null }), 1, t)).toBe('IDLE');
    expect(partitionVerdict(state({ ...caughtUp, headAgeMs: 10 }), 1, t)).toBe('OK');
  });
});

describe('group verdict', () => {
  it('is the worst partition; NO_OFFSET for a group without partitions', () => {
    expect(worst(['OK', 'LAGGING', 'IDLE'])).toBe('LAGGING');
    expect(worst(['STALLED', 'DATA_LOSS', 'REWOUND'])).toBe('DATA_LOSS');
    expect(worst([])).toBe('NO_OFFSET');
  });

  it('ranks verdicts in the documented order', () => {
    expect(VERDICTS.map((v) => SEVERITY[v])).toEqual([...VERDICTS.keys()]);
    expect(SEVERITY.STOPPED).toBeGreaterThan(SEVERITY.STALLED);
    expect(SEVERITY.LAGGING).toBeGreaterThan(SEVERITY.NO_OFFSET);
  });
});
