/**
 * The memory of a /metrics scrape over a large estate, without a broker: a stand-in service answers
 * each batch at once (every group on two partitions of one topic), so what is measured is the
 * writer: the families made per batch, the held samples, the text. Prints the process's peak RSS,
 * the held samples' bytes and the size of the text they became.
 *
 *   npx tsx bench/metrics-memory.ts 100000 [group|topic|partition] [forecast]
 *
 * With `node --expose-gc --import tsx`, also the live heap (after a full collection) once the
 * listing is made and once every batch is read: what the scrape keeps, apart from garbage not yet
 * collected (which RSS counts).
 */

import type { GroupListing } from '../src/groups/model.js';
import { ok } from '../src/groups/outcome.js';
import type { GroupService, ListedDetails, OffsetTable } from '../src/groups/service.js';
import type { Granularity } from '../src/metrics/families.js';
import { groupFamilies } from '../src/metrics/families.js';
import { type ScrapeProbe, streamedScrape } from '../src/routes/metrics-stream.js';
import { DEFAULT_THRESHOLDS } from '../src/vocabulary.js';

const count = Number(process.argv[2] ?? 100_000);
const granularity = (process.argv[3] ?? 'group') as Granularity;
const forecast = process.argv[4] === 'forecast';

const listed: GroupListing[] = Array.from({ length: count }, (_, i) => ({
  groupId: `bench-${String(i).padStart(7, '0')}`,
  type: 'classic',
  protocolType: 'consumer',
  state: 'Empty',
}));
const partition = (n: number) => ({
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
});
const table = {
  topics: [{ topic: 'bench-offsets', lag: 20, partitions: [partition(0), partition(1)] }],
  totals: { lag: 20, maxLag: null, partitions: 2, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
} as OffsetTable;
const service = {
  async describeListed(batch: readonly GroupListing[]): Promise<ListedDetails> {
    const group = (groupId: string) =>
      ({ type: 'classic', groupId, state: 'Empty', protocolType: 'consumer', members: [] }) as never;
    return {
      groups: new Map(batch.map((g) => [g.groupId, ok(group(g.groupId))])),
      offsets: new Map(batch.map((g) => [g.groupId, ok(table)])),
    };
  },
  async forecastReads(_p: unknown, topics: readonly string[]) {
    return {
      window: {
        ms: 300_000,
        startOffsets: new Map([
          ['0:bench-offsets', 0],
          ['1:bench-offsets', 0],
        ]),
      },
      retention: new Map(
        topics.map((t) => [t, { retentionMs: 3_600_000, retentionBytes: null, deletes: true }]),
      ),
    };
  },
} as unknown as GroupService;

const gc = (globalThis as { gc?: () => void }).gc;
const liveHeap = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const heapAtStart = liveHeap();
let heapAfterReading = 0;
let peak = process.memoryUsage().rss;
const sample = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 5);
const startRss = peak;
const started = performance.now();
const probe: ScrapeProbe = {};
const reader = (
  streamedScrape(
    service,
    {
      listed,
      failures: [],
      maxSeries: 10_000_000,
      forecast,
      permissions: { allows: () => true } as never,
      families: (readings, max, at) =>
        groupFamilies(readings, granularity, DEFAULT_THRESHOLDS, max, at, forecast),
    },
    probe,
  ).body as ReadableStream<Uint8Array>
).getReader();
let bytes = 0;
let heldBytes = 0;
let heldSamples = 0;
let heldText = 0;
let writing = false;
for (let r = await reader.read(); !r.done; r = await reader.read()) {
  const piece = new TextDecoder().decode(r.value);
  if (!writing && piece.startsWith('# HELP kafka_group_time_lag_min_seconds')) {
    writing = true;
    heldBytes = probe.held?.bytes() ?? 0;
    heldSamples = probe.held?.samples() ?? 0;
    heapAfterReading = liveHeap();
  }
  if (writing && !piece.startsWith('# HELP kafka_group_offsets_errors')) heldText += piece.length;
  bytes += r.value.byteLength;
  peak = Math.max(peak, process.memoryUsage().rss);
}
clearInterval(sample);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
console.log(
  `${count} groups, ${granularity}${forecast ? ', forecast' : ''}: ${(performance.now() - started).toFixed(0)} ms, ` +
    `answer ${mb(bytes)}; held ${heldSamples} samples in ${mb(heldBytes)} (as text ${mb(heldText)}); ` +
    `RSS ${mb(startRss)} at start, peak ${mb(peak)}` +
    (gc
      ? `; live heap ${mb(heapAtStart)} with the listing, ${mb(heapAfterReading)} once every batch is read`
      : ''),
);
