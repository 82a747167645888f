import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  clamp,
  durationTimestamp,
  type PartitionFacts,
  parseDuration,
  planTargets,
  ResetPlanError,
  type ResetScenario,
} from './plan.js';

const facts = (over: Partial<PartitionFacts> = {}): PartitionFacts => ({
  topic: 't',
  partition: 0,
  current: 50,
  earliest: 10,
  latest: 100,
  ...over,
});

const one = (scenario: ResetScenario, f: Partial<PartitionFacts> = {}) => {
  const [row] = planTargets(scenario, [facts(f)]);
  if (!row) throw new Error('no row');
  return row;
};

describe('planTargets, per scenario as kafka-consumer-groups.sh', () => {
  it('to-earliest and to-latest take the log start and end', () => {
    expect(one({ kind: 'to-earliest' })).toMatchObject({ requested: 10, target: 10, clampedTo: null });
    expect(one({ kind: 'to-latest' })).toMatchObject({ requested: 100, target: 100, clampedTo: null });
  });

  it('to-offset clamps above the end and below the start, saying why', () => {
    expect(one({ kind: 'to-offset', offset: 70 })).toMatchObject({
      target: 70,
      clampedTo: null,
      reason: null,
    });
    expect(one({ kind: 'to-offset', offset: 500 })).toMatchObject({
      requested: 500,
      target: 100,
      clampedTo: 'latest',
      reason: '500 is above the latest offset 100',
    });
    expect(one({ kind: 'to-offset', offset: 3 })).toMatchObject({
      requested: 3,
      target: 10,
      clampedTo: 'earliest',
      reason: '3 is below the earliest offset 10',
    });
  });

  it('shift-by moves from the committed offset and clamps', () => {
    expect(one({ kind: 'shift-by', shiftBy: -5 })).toMatchObject({ requested: 45, target: 45 });
    expect(one({ kind: 'shift-by', shiftBy: 80 })).toMatchObject({
      requested: 130,
      target: 100,
      clampedTo: 'latest',
    });
    expect(one({ kind: 'shift-by', shiftBy: -80 })).toMatchObject({
      requested: -30,
      target: 10,
      clampedTo: 'earliest',
    });
  });

  it('shift-by refuses partitions without a committed offset, naming them', () => {
    const run = () =>
      planTargets({ kind: 'shift-by', shiftBy: 1 }, [facts(), facts({ partition: 3, current: null })]);
    expect(run).toThrow(ResetPlanError);
    expect(run).toThrow('cannot shift partitions with no committed offset: t:3');
  });

  it('to-datetime takes the offset at the time, and the end when no record is that new', () => {
    expect(one({ kind: 'to-datetime', timestamp: 1 }, { atTimestamp: 42 })).toMatchObject({
      target: 42,
      reason: null,
    });
    expect(one({ kind: 'to-datetime', timestamp: 1 }, { atTimestamp: null })).toMatchObject({
      target: 100,
      clampedTo: null,
      reason: 'no record at or after the time: the latest offset',
    });
  });

  it('by-duration looks for now minus the duration', () => {
    expect(durationTimestamp(1_000_000, 60_000)).toBe(940_000);
    expect(one({ kind: 'by-duration', durationMs: 1 }, { atTimestamp: 20 })).toMatchObject({ target: 20 });
  });

  it('to-current keeps the commit, and goes to the end where there is none', () => {
    expect(one({ kind: 'to-current' })).toMatchObject({ requested: 50, target: 50, reason: null });
    expect(one({ kind: 'to-current' }, { current: null })).toMatchObject({
      target: 100,
      reason: 'no committed offset: the latest offset',
    });
    // Unlike Kafka's tool, a commit outside the log is clamped too.
    expect(one({ kind: 'to-current' }, { current: 5 })).toMatchObject({ target: 10, clampedTo: 'earliest' });
  });

  it('from-list takes each partition its own offset, clamped', () => {
    const rows = planTargets(
      {
        kind: 'from-list',
        offsets: [
          { topic: 't', partition: 0, offset: 20 },
          { topic: 't', partition: 1, offset: 999 },
        ],
      },
      [facts(), facts({ partition: 1 })],
    );
    expect(rows.map((r) => [r.partition, r.target, r.clampedTo])).toEqual([
      [0, 20, null],
      [1, 100, 'latest'],
    ]);
  });
});

describe('clamp', () => {
  it('leaves offsets in range alone', () => {
    expect(clamp(10, 10, 10)).toEqual({ target: 10, clampedTo: null, reason: null });
  });
});

const partitionFacts = fc
  .record({
    earliest: fc.nat({ max: 1_000_000 }),
    width: fc.nat({ max: 1_000_000 }),
    current: fc.option(fc.integer({ min: -10, max: 3_000_000 }), { nil: null }),
    at: fc.option(fc.integer({ min: -1, max: 3_000_000 }), { nil: null }),
  })
  .map(({ earliest, width, current, at }) => ({
    topic: 't',
    partition: 0,
    earliest,
    latest: earliest + width,
    current,
    atTimestamp: at,
  }));

const scenarios: fc.Arbitrary<ResetScenario> = fc.oneof(
  fc.constant({ kind: 'to-earliest' as const }),
  fc.constant({ kind: 'to-latest' as const }),
  fc.constant({ kind: 'to-current' as const }),
  fc.nat().map((offset) => ({ kind: 'to-offset' as const, offset })),
  fc.integer({ min: -5_000_000, max: 5_000_000 }).map((shiftBy) => ({ kind: 'shift-by' as const, shiftBy })),
  fc.nat().map((timestamp) => ({ kind: 'to-datetime' as const, timestamp })),
  fc.nat().map((offset) => ({ kind: 'from-list' as const, offsets: [{ topic: 't', partition: 0, offset }] })),
);

describe('planTargets properties', () => {
  it('every target lies in [earliest, latest], and is marked clamped exactly when it is not what was asked', () => {
    fc.assert(
      fc.property(scenarios, partitionFacts, (scenario, f) => {
        if (scenario.kind === 'shift-by' && f.current === null) return;
        const [row] = planTargets(scenario, [f]);
        if (!row) return false;
        expect(row.target).toBeGreaterThanOrEqual(f.earliest);
        expect(row.target).toBeLessThanOrEqual(f.latest);
        expect(row.clampedTo !== null).toBe(row.target !== row.requested);
        if (row.clampedTo === 'latest') expect(row.requested).toBeGreaterThan(f.latest);
        if (row.clampedTo === 'earliest') expect(row.requested).toBeLessThan(f.earliest);
        if (row.clampedTo !== null) expect(row.reason).not.toBeNull();
      }),
    );
  });

  it('keeps the partitions and their order', () => {
    fc.assert(
      fc.property(fc.array(partitionFacts, { maxLength: 20 }), (list) => {
        const named = list.map((f, i) => ({ ...f, partition: i }));
        const rows = planTargets({ kind: 'to-earliest' }, named);
        expect(rows.map((r) => r.partition)).toEqual(named.map((f) => f.partition));
      }),
    );
  });
});

describe('parseDuration (Java Duration.parse, unsigned)', () => {
  it.each([
    ['PT1H', 3_600_000],
    ['PT15M', 900_000],
    ['P1D', 86_400_000],
    ['P1DT2H3M4S', 93_784_000],
    ['PT0.5S', 500],
    ['pt30s', 30_000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', 'P', 'PT', '1H', 'P1DT', '-PT1H', 'PT-1H', 'P1W', 'PT1H30'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
