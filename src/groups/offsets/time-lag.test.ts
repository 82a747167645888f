import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../broker/protocol/errors.js';
import type { BatchAt } from './log-probe.js';
import { type TimeLagInput, timeLagOf } from './time-lag.js';

const NOW = 1_700_000_100_000;
const batch = (over: Partial<BatchAt> = {}): BatchAt => ({
  baseOffset: 5,
  firstTimestamp: 1_700_000_000_000,
  maxTimestamp: 1_700_000_000_500,
  records: 2,
  bytes: 200,
  timestampType: 'CreateTime',
  isControl: false,
  ...over,
});
const input = (over: Partial<TimeLagInput> = {}): TimeLagInput => ({
  offset: 6,
  lag: 4,
  logStartOffset: 0,
  batch: batch(),
  fetchErrorCode: null,
  ...over,
});

describe('time lag', () => {
  it('is bounded by the batch: now - MaxTimestamp to now - BaseTimestamp', () => {
    expect(timeLagOf(input(), NOW)).toEqual({ ok: true, ms: { min: 99_500, max: 100_000 } });
  });

  it('is exact for a batch of one record, and for broker time (LogAppendTime: every record has MaxTimestamp)', () => {
    expect(
      timeLagOf(input({ batch: batch({ records: 1, firstTimestamp: 1_700_000_000_500 }) }), NOW),
    ).toEqual({
      ok: true,
      ms: { min: 99_500, max: 99_500 },
    });
    expect(timeLagOf(input({ batch: batch({ timestampType: 'LogAppendTime' }) }), NOW)).toEqual({
      ok: true,
      ms: { min: 99_500, max: 99_500 },
    });
  });

  it('is 0 with nothing behind, whatever the batch', () => {
    expect(timeLagOf(input({ lag: 0, batch: null }), NOW)).toEqual({ ok: true, ms: { min: 0, max: 0 } });
  });

  it('never goes below 0 when the producer clock is ahead', () => {
    const ahead = batch({ firstTimestamp: NOW + 10, maxTimestamp: NOW + 20 });
    expect(timeLagOf(input({ batch: ahead }), NOW)).toEqual({ ok: true, ms: { min: 0, max: 0 } });
  });

  it('is null with a reason when it cannot be known', () => {
    const reason = (over: Partial<TimeLagInput>) => {
      const r = timeLagOf(input(over), NOW);
      return r.ok ? 'known' : r.reason;
    };
    expect(reason({ offset: null })).toBe('no-offset');
    expect(reason({ offset: 2, logStartOffset: 6 })).toBe('below-log-start');
    expect(reason({ fetchErrorCode: ErrorCode.OFFSET_OUT_OF_RANGE })).toBe('offset-out-of-range');
    expect(reason({ fetchErrorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })).toBe('not-authorized');
    expect(reason({ fetchErrorCode: ErrorCode.NOT_LEADER_OR_FOLLOWER })).toBe('unreadable');
    expect(reason({ lag: null })).toBe('unreadable');
    expect(reason({ batch: null })).toBe('no-record');
    expect(reason({ batch: batch({ firstTimestamp: -1, maxTimestamp: -1 }) })).toBe('no-timestamp');
  });
});
