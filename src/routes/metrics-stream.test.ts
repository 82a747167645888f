import { describe, expect, it } from 'vitest';
import type { Group, GroupListing } from '../groups/model.js';
import { ok } from '../groups/outcome.js';
import type { GroupService, ListedDetails, OffsetTable } from '../groups/service.js';
import { BLOCK } from '../http/prometheus-held.js';
import { DEFAULT_THRESHOLDS } from '../vocabulary.js';
import { groupFamilies } from './metrics.js';
import { type ScrapeProbe, streamedScrape } from './metrics-stream.js';

const COUNT = 5_500;
const listed: GroupListing[] = Array.from({ length: COUNT }, (_, i) => ({
  groupId: `g${String(i).padStart(5, '0')}`,
  type: 'classic',
  protocolType: '',
  state: 'Empty',
}));

const table = (lag: number): OffsetTable => ({
  topics: [],
  totals: { lag, maxLag: null, partitions: 0, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
});
const groupOf = (groupId: string) =>
  ({
    type: 'classic',
    groupId,
    state: 'Empty',
    protocolType: '',
    assignor: null,
    groupEpoch: null,
    assignmentEpoch: null,
    coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
    members: [],
  }) as Group;

/** A service whose batches are read one at a time, on demand, and counted. */
function stub() {
  const asked: number[] = [];
  const service = {
    async describeListed(batch: readonly GroupListing[]): Promise<ListedDetails> {
      asked.push(batch.length);
      return {
        groups: new Map(batch.map((g) => [g.groupId, ok(groupOf(g.groupId))])),
        offsets: new Map(batch.map((g) => [g.groupId, ok(table(Number(g.groupId.slice(1))))])),
      };
    },
  } as unknown as GroupService;
  return { service, asked };
}

const scrape = (service: GroupService, maxSeries = 1_000_000) =>
  streamedScrape(service, {
    listed,
    failures: [],
    maxSeries,
    permissions: { allows: () => true } as never,
    families: (readings, max, at) => groupFamilies(readings, 'group', DEFAULT_THRESHOLDS, max, at),
  });

describe('GET /metrics written as it is computed', () => {
  it('sends the lag family before the last batch is read, and every family once, whole', async () => {
    const { service, asked } = stub();
    const reader = (scrape(service).body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith('# HELP kafka_group_lag_records')).toBe(true);
    expect(first).toContain('kafka_group_lag_records{group="g00000",type="classic"} 0');
    // Bounded: the first lines are out with the first batch read and two more asked for, no more.
    expect(asked.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3_000);
    let text = first;
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += new TextDecoder().decode(r.value);
    expect(asked).toEqual([1_000, 1_000, 1_000, 1_000, 1_000, 500]);
    const lines = text.trimEnd().split('\n');
    const families = lines.filter((l) => l.startsWith('# TYPE')).map((l) => l.split(' ')[2]);
    expect(new Set(families).size).toBe(families.length);
    // Each family's samples follow its own TYPE line, none elsewhere.
    let current = '';
    for (const line of lines) {
      if (line.startsWith('# TYPE')) current = line.split(' ')[2] as string;
      else if (!line.startsWith('#')) expect(line.startsWith(current), line).toBe(true);
    }
    const lag = lines.filter((l) => l.startsWith('kafka_group_lag_records{'));
    expect(lag).toHaveLength(COUNT);
    expect(lag.at(-1)).toBe('kafka_group_lag_records{group="g05499",type="classic"} 5499');
    expect(lines.filter((l) => l.startsWith('kafka_group_members{'))).toHaveLength(COUNT);
    expect(text).toContain('kafka_group_series_dropped 0\n');
  });

  it('does not describe groups listed Empty: their state and members come from the listing', async () => {
    const skips: unknown[] = [];
    const mixed = listed.map((g, i) => (i % 2 === 0 ? g : { ...g, state: 'Stable' }));
    const service = {
      async describeListed(
        batch: readonly GroupListing[],
        options: { skipEmpty?: boolean },
      ): Promise<ListedDetails> {
        skips.push(options.skipEmpty);
        // As the service answers with skipEmpty: no description of a group listed Empty.
        const described = batch.filter((g) => g.state !== 'Empty');
        return {
          groups: new Map(described.map((g) => [g.groupId, ok({ ...groupOf(g.groupId), state: 'Stable' })])),
          offsets: new Map(batch.map((g) => [g.groupId, ok(table(1))])),
        };
      },
    } as unknown as GroupService;
    const text = await streamedScrape(service, {
      listed: mixed,
      failures: [],
      maxSeries: 1_000_000,
      permissions: { allows: () => true } as never,
      families: (readings, max, at) => groupFamilies(readings, 'group', DEFAULT_THRESHOLDS, max, at),
    }).text();
    expect(new Set(skips)).toEqual(new Set([true]));
    expect(text).toContain('kafka_group_offsets_errors 0\n');
    expect(text).toContain('kafka_group_state{group="g00000",type="classic",state="Empty"} 1\n');
    expect(text).toContain('kafka_group_state{group="g00001",type="classic",state="Stable"} 1\n');
    expect(text).toContain('kafka_group_members{group="g00000",type="classic"} 0\n');
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('kafka_group_state{'))).toHaveLength(COUNT);
  });

  it('stops at maxSeries across batches, whole groups at a time', async () => {
    const text = await scrape(stub().service, 4 * 1_500 + 3).text();
    // Four series a group (lag, members, state, verdict): 1,500 groups fit, the rest are dropped.
    expect(text.split('\n').filter((l) => l.startsWith('kafka_group_lag_records{'))).toHaveLength(1_500);
    expect(text).toContain(`kafka_group_series_dropped ${4 * 4_000}\n`);
    expect(text).toContain('kafka_group_series_limit_reached 1\n');
  });
});

/** Two partitions a group on topic `t`, lag 5 on each; 100 records appended over the window on each. */
function partitioned() {
  const partition = (n: number) => ({
    partition: n,
    offset: 95,
    leaderEpoch: 0,
    metadata: null,
    endOffset: 100,
    lag: 5,
    owners: [],
    error: null,
    logStartOffset: 0,
    timeLagMs: { min: 1_000, max: 2_000 },
  });
  const withTopics: OffsetTable = {
    topics: [{ topic: 't', lag: 10, partitions: [partition(0), partition(1)] }],
    totals: { lag: 10, maxLag: null, partitions: 2, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
  } as OffsetTable;
  const forecastAsks: number[] = [];
  const service = {
    async describeListed(batch: readonly GroupListing[]): Promise<ListedDetails> {
      return {
        groups: new Map(batch.map((g) => [g.groupId, ok(groupOf(g.groupId))])),
        offsets: new Map(batch.map((g) => [g.groupId, ok(withTopics)])),
      };
    },
    async forecastReads(partitions: readonly unknown[], topics: readonly string[]) {
      forecastAsks.push(partitions.length, topics.length);
      return {
        window: {
          ms: 300_000,
          startOffsets: new Map([
            ['0:t', 0],
            ['1:t', 0],
          ]),
        },
        retention: new Map(
          topics.map((t) => [t, { retentionMs: 3_600_000, retentionBytes: null, deletes: true }]),
        ),
      };
    },
  } as unknown as GroupService;
  return { service, forecastAsks };
}

describe('GET /metrics at partition granularity with forecasts', () => {
  it('keeps every family contiguous, writes pieces bounded by the batch, and holds numbers', async () => {
    const { service, forecastAsks } = partitioned();
    const probe: ScrapeProbe = {};
    const res = streamedScrape(
      service,
      {
        listed,
        failures: [],
        maxSeries: 1_000_000,
        forecast: true,
        permissions: { allows: () => true } as never,
        families: (readings, max, at) =>
          groupFamilies(readings, 'partition', DEFAULT_THRESHOLDS, max, at, true),
      },
      probe,
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const pieces: string[] = [];
    let heldAtEnd = 0;
    let samplesAtEnd = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      const piece = new TextDecoder().decode(r.value);
      // The first held family's header: every batch is in, nothing held is written yet.
      if (piece.startsWith('# HELP kafka_group_time_lag_min_seconds')) {
        heldAtEnd = probe.held?.bytes() ?? 0;
        samplesAtEnd = probe.held?.samples() ?? 0;
      }
      pieces.push(piece);
    }
    // One window read per batch (its two partitions), the topic's retention asked once.
    expect(forecastAsks).toEqual([2, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0]);
    // No piece holds more than a batch of groups' lines (1,000 groups, two partitions each).
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(2_000 * 120);
    const lines = pieces.join('').trimEnd().split('\n');
    const families = lines.filter((l) => l.startsWith('# TYPE')).map((l) => l.split(' ')[2]);
    expect(new Set(families).size).toBe(families.length);
    let current = '';
    for (const line of lines) {
      if (line.startsWith('# TYPE')) current = line.split(' ')[2] as string;
      else if (!line.startsWith('#'))
        expect(line.startsWith(`${current}{`) || line.startsWith(`${current} `), line).toBe(true);
    }
    const named = (name: string) => lines.filter((l) => l.startsWith(`${name}{`));
    expect(named('kafka_group_lag_records')).toHaveLength(2 * COUNT);
    // 100 records over 300 s on each partition; catch-up cannot be said without a consumption rate.
    expect(named('kafka_group_production_rate_records_per_second')).toHaveLength(2 * COUNT);
    expect(named('kafka_group_production_rate_records_per_second')[0]).toBe(
      'kafka_group_production_rate_records_per_second{group="g00000",type="classic",topic="t",partition="0"} 0.333',
    );
    expect(named('kafka_group_catch_up_seconds')).toHaveLength(0);
    expect(named('kafka_group_retention_runway_seconds')).toHaveLength(2 * COUNT);
    // Held as numbers: at most five indexes and a value (28 bytes) a sample, and at most a block
    // unused per family, where the same samples as text take over 80.
    expect(samplesAtEnd).toBeGreaterThan(10 * COUNT);
    expect(heldAtEnd).toBeLessThanOrEqual(28 * samplesAtEnd + 11 * BLOCK * (4 + 8));
    const text = pieces.join('');
    expect(text.length / (lines.length - 2 * families.length)).toBeGreaterThan(80);
  });
});
