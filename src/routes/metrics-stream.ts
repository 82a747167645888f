/**
 * GET /metrics written while it is computed: the groups are read in batches (one describe of the
 * groups not listed Empty, one OffsetFetch per coordinator, one ListOffsets, Fetch and two
 * ListOffsets per partition leader each; with forecasts one ListOffsets by timestamp per leader
 * and one DescribeConfigs for topics not yet seen) and every family of a batch is made at once. The format wants each family's samples
 * together, so the first family's lines go out as each batch completes and the others are held as
 * numbers (HeldFamilies, about 24 bytes a sample, not text) and written family by family at the
 * end, a chunk at a time. Reading the estate once per family instead would hold nothing, but would
 * cost every Kafka read once per family (eleven times with forecasts).
 */

import type { CallOptions, Deadline } from '../broker/deadline.js';
import { pipelined, UnreadError } from '../groups/estate.js';
import type { Retention } from '../groups/health/forecast.js';
import type { BrokerFailure, GroupListing, GroupType } from '../groups/model.js';
import { type Outcome, ok } from '../groups/outcome.js';
import { type GroupService, type ListedDetails, listedWithoutMembers } from '../groups/service.js';
import type { permissionsOf } from '../http/middleware.js';
import { problemFor } from '../http/problem-rows.js';
import {
  escapeLabelValue,
  exposition,
  familyHeader,
  type MetricFamily,
  PROMETHEUS_CONTENT_TYPE,
  sampleLines,
} from '../http/prometheus.js';
import { HeldFamilies } from '../http/prometheus-held.js';
import type { ForecastReads, GroupReading, GroupSummary } from '../metrics/families.js';
import { batchReader } from './group-lines.js';

export type { GroupReading } from '../metrics/families.js';

/** The families of some groups' readings, until `maxSeries` series (a group whole or not at all). */
export type FamiliesOf = (
  readings: readonly GroupReading[],
  maxSeries: number,
  at: number,
) => { families: MetricFamily[]; dropped: number };

export interface StreamedScrape {
  listed: readonly GroupListing[];
  failures: readonly BrokerFailure[];
  families: FamiliesOf;
  maxSeries: number;
  permissions: ReturnType<typeof permissionsOf>;
  /** Read what forecasts need with each batch (the production window's offsets, retention). */
  forecast?: boolean;
  /**
   * Bounds the reads (the stream's deadline, aborted when the client leaves): a group whose
   * brokers did not answer in time, or whose batch came after it, is counted in
   * kafka_group_offsets_errors and named in a comment line.
   */
  deadline?: Deadline;
}

/** Held samples, for a test to see that memory follows the samples, not their text. */
export interface ScrapeProbe {
  held?: HeldFamilies;
}

/** The group as described, or as listed when its listing shows it Empty (not described: no members). */
function summaryOf(listing: GroupListing, details: ListedDetails): Outcome<GroupSummary> | undefined {
  const described = details.groups.get(listing.groupId);
  if (described || !listedWithoutMembers(listing)) return described;
  return ok({ type: listing.type as GroupType, state: 'Empty', members: [] });
}

/** A comment naming a group that could not be read and why (parsers skip it; people and logs read it). */
function unreadLine(listing: GroupListing, error: unknown): string {
  const { slug, detail } = problemFor(error, '/metrics');
  const label = (v: string) => `"${escapeLabelValue(v)}"`;
  return `# not read: group=${label(listing.groupId)} type=${label(listing.type ?? '')} problem=${label(slug)} detail=${label(detail)}\n`;
}

const gauge = (name: string, help: string, value: number): MetricFamily => ({
  name,
  help,
  type: 'gauge',
  samples: [{ labels: {}, value }],
});

interface BatchAnswer {
  details: ListedDetails | Error;
  window?: ForecastReads['window'];
}

/**
 * Reads a batch; with forecasts, then the window's start offsets of its partitions and the
 * retention of topics no earlier batch asked for (kept in `retention`, bounded by the topics).
 */
function forecastReader(service: GroupService, forecast: boolean, retention: Map<string, Retention>) {
  // Groups listed Empty are not described (streams groups are): their listing says all a describe would.
  const read = batchReader(service, { timeLag: true, ...(forecast && { bytesPerRecord: true }) }, true);
  const asked = new Set<string>();
  return async (batch: readonly GroupListing[], options: CallOptions): Promise<BatchAnswer> => {
    const details = await read(batch, options);
    if (!forecast || details instanceof Error || !service.forecastReads) return { details };
    const partitions = new Map<string, { topic: string; partition: number }>();
    for (const table of details.offsets?.values() ?? []) {
      if (!table.ok) continue;
      for (const t of table.value.topics)
        for (const p of t.partitions)
          partitions.set(`${p.partition}:${t.topic}`, { topic: t.topic, partition: p.partition });
    }
    const topics = [...new Set([...partitions.values()].map((p) => p.topic))].filter((t) => !asked.has(t));
    for (const t of topics) asked.add(t);
    try {
      const reads = await service.forecastReads([...partitions.values()], topics, Date.now(), options);
      for (const [topic, r] of reads.retention) retention.set(topic, r);
      return { details, window: reads.window };
    } catch {
      // Forecasts are series more, never a failed scrape: this batch's groups go without them.
      return { details };
    }
  };
}

async function* scrapeText(
  service: GroupService,
  scrape: StreamedScrape,
  probe: ScrapeProbe,
): AsyncGenerator<string> {
  const retention = new Map<string, Retention>();
  const read = forecastReader(service, scrape.forecast === true, retention);
  let errors = 0;
  let dropped = 0;
  let seriesLeft = scrape.maxSeries;
  const [first, ...others] = scrape.families([], 0, Date.now()).families as [MetricFamily, ...MetricFamily[]];
  const held = new HeldFamilies(others);
  probe.held = held;
  let head = familyHeader(first);
  const deadline = scrape.deadline;
  for await (const { batch, answer } of pipelined(scrape.listed, read, deadline ? { deadline } : {})) {
    // A batch the deadline left unread is an error for each of its groups, named like the others.
    const details = answer instanceof UnreadError ? answer : answer.details;
    const window = answer instanceof UnreadError ? undefined : answer.window;
    const readings: GroupReading[] = [];
    let unread = '';
    for (const listing of batch) {
      const group = details instanceof Error ? undefined : summaryOf(listing, details);
      const table = details instanceof Error ? undefined : details.offsets?.get(listing.groupId);
      if (!group?.ok || !table?.ok) {
        errors++;
        const cause =
          details instanceof Error
            ? details
            : group && !group.ok
              ? group.error
              : table?.ok
                ? null
                : table?.error;
        unread += unreadLine(listing, cause ?? new Error('no answer for this group'));
        continue;
      }
      // A listing without a type (old brokers) is checked again once the type is known.
      if (!scrape.permissions.allows('offsets', listing.groupId, group.value.type)) continue;
      const reading: GroupReading = { listing, group: group.value, table: table.value };
      if (scrape.forecast) {
        const bytesPerRecord =
          details instanceof Error ? undefined : details.bytesPerRecord?.get(listing.groupId);
        reading.forecast = { window, retention, bytesPerRecord };
      }
      readings.push(reading);
    }
    const made = scrape.families(readings, seriesLeft, Date.now());
    dropped += made.dropped;
    made.families.forEach((family, i) => {
      seriesLeft -= family.samples.length;
      if (i > 0) held.add(i - 1, family);
    });
    yield head + sampleLines(made.families[0] as MetricFamily) + unread;
    head = '';
  }
  if (head) yield head;
  yield* held.write();
  yield exposition([
    gauge(
      'kafka_group_offsets_errors',
      'Groups listed whose offsets or description could not be read in this scrape.',
      errors,
    ),
    gauge(
      'kafka_group_listing_failures',
      'Brokers whose ListGroups failed in this scrape: their groups are missing.',
      scrape.failures.length,
    ),
    gauge(
      'kafka_group_series_limit_reached',
      '1 when groups were left out because the answer reached maxSeries.',
      dropped > 0 ? 1 : 0,
    ),
    gauge('kafka_group_series_dropped', 'Series left out because the answer reached maxSeries.', dropped),
  ]);
}

/** The scrape as a streamed text/plain answer: pulled by the client, a batch at a time. */
export function streamedScrape(
  service: GroupService,
  scrape: StreamedScrape,
  probe: ScrapeProbe = {},
): Response {
  const encoder = new TextEncoder();
  const text = scrapeText(service, scrape, probe);
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await text.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        // The client left: the broker calls in flight are abandoned, and no batch after them is read.
        scrape.deadline?.abort();
        await text.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { 'content-type': PROMETHEUS_CONTENT_TYPE } });
}
