import { describe, expect, it } from 'vitest';
import { catchUp, type Retention, runway, skew, windowRate } from './forecast.js';

const week: Retention = { retentionMs: 604_800_000, retentionBytes: null, deletes: true };

describe('catchUp', () => {
  it('divides the lag by what consumption gains on production', () => {
    expect(catchUp(1000, 30, 10)).toEqual({ seconds: 50, reason: null });
    expect(catchUp(10, 3, null)).toEqual({ seconds: 3.333, reason: null });
  });

  it('says why when it cannot', () => {
    expect(catchUp(1000, 10, 10)).toEqual({ seconds: null, reason: 'not-catching-up' });
    expect(catchUp(1000, 0, 5)).toEqual({ seconds: null, reason: 'not-catching-up' });
    expect(catchUp(1000, null, 5)).toEqual({ seconds: null, reason: 'no-rate-yet' });
    expect(catchUp(0, 0, 0)).toEqual({ seconds: null, reason: 'idle' });
    expect(catchUp(0, null, null)).toEqual({ seconds: null, reason: 'idle' });
  });

  it('is 0 for a group keeping up with a live topic', () => {
    expect(catchUp(0, 12, 12)).toEqual({ seconds: 0, reason: null });
  });
});

describe('runway', () => {
  const input = { lag: 1000, ageMs: 100_000, consume: 0, produce: 10, bytesPerRecord: null };

  it('by time: what retention.ms leaves of the oldest unread record, slowed by consumption', () => {
    expect(runway(input, week)).toEqual({ seconds: 604_700, reason: null, limit: 'retention.ms' });
    // consuming half of what is produced: the committed record ages at half speed.
    expect(runway({ ...input, consume: 5 }, week).seconds).toBe(1_209_400);
    // nothing produced, nothing consumed: it ages a second per second.
    expect(runway({ ...input, produce: 0 }, week).seconds).toBe(604_700);
    expect(runway({ ...input, ageMs: 700_000_000 }, week).seconds).toBe(0);
  });

  it('by bytes: the log holds retention.bytes / bytes per record, and the start follows the end', () => {
    const bytes: Retention = { retentionMs: null, retentionBytes: 100_000, deletes: true };
    // 1000 records fit at 100 bytes; 1000 - 500 lag = 500 records of room, 10/s net.
    expect(runway({ ...input, lag: 500, bytesPerRecord: 100 }, bytes)).toEqual({
      seconds: 50,
      reason: null,
      limit: 'retention.bytes',
    });
    expect(runway({ ...input, lag: 1500, bytesPerRecord: 100 }, bytes).seconds).toBe(0);
    // both limits: the nearer wins.
    expect(
      runway({ ...input, lag: 500, bytesPerRecord: 100 }, { ...week, retentionBytes: 100_000 }).limit,
    ).toBe('retention.bytes');
  });

  it('says why when there is none', () => {
    expect(runway({ ...input, lag: 0 }, week).reason).toBe('no-lag');
    expect(runway({ ...input, consume: 10 }, week).reason).toBe('catching-up');
    expect(runway(input, undefined).reason).toBe('no-config');
    expect(runway(input, { ...week, deletes: false }).reason).toBe('no-retention');
    expect(runway(input, { retentionMs: null, retentionBytes: null, deletes: true }).reason).toBe(
      'no-retention',
    );
    expect(runway({ ...input, ageMs: null }, week).reason).toBe('no-time-lag');
  });
});

describe('skew', () => {
  const p = (partition: number, lag: number) => ({ topic: 't', partition, lag });

  it('names the partitions holding the lag, with max and median', () => {
    const s = skew([p(0, 10), p(1, 900), p(2, 0), p(3, 90)], 2);
    expect(s.maxLag).toBe(900);
    expect(s.medianLag).toBe(50);
    expect(s.top).toEqual([
      { topic: 't', partition: 1, lag: 900, share: 0.9 },
      { topic: 't', partition: 3, lag: 90, share: 0.09 },
    ]);
    expect(skew([p(0, 1), p(1, 5), p(2, 3)], 5).medianLag).toBe(3);
  });

  it('leaves out partitions without lag, and is empty for no partition', () => {
    expect(skew([p(0, 0)], 5)).toEqual({ maxLag: 0, medianLag: 0, top: [] });
    expect(skew([], 5)).toEqual({ maxLag: null, medianLag: null, top: [] });
  });
});

describe('windowRate', () => {
  it('counts the records since the window start', () => {
    expect(windowRate(400, 1000, 300_000)).toBe(2);
    expect(windowRate(-1, 1000, 300_000)).toBe(0);
    expect(windowRate(null, 1000, 300_000)).toBeNull();
    expect(windowRate(400, null, 300_000)).toBeNull();
  });
});
