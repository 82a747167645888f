/**
 * GET /metrics at group granularity, written while it is computed: the groups are read in batches
 * (one describe, one OffsetFetch per coordinator, one ListOffsets, Fetch and two ListOffsets per
 * partition leader each) and the lag family's samples go out as each batch completes. The format
 * wants every family's samples together, so the other families' lines wait, as text, until the lag
 * family is done: the Kafka answers are held one batch at a time, never for the whole estate.
 */

import type { Deadline } from '../broker/deadline.js';
import { pipelined } from '../groups/estate.js';
import type { BrokerFailure, Group, GroupListing } from '../groups/model.js';
import type { GroupService, OffsetTable } from '../groups/service.js';
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
import { batchReader } from './group-lines.js';

export interface GroupReading {
  listing: GroupListing;
  group: Group;
  table: OffsetTable;
}

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
  /**
   * Bounds the reads (the stream's deadline, aborted when the client leaves): a group whose
   * brokers did not answer in time, or whose batch came after it, is counted in
   * kafka_group_offsets_errors and named in a comment line.
   */
  deadline?: Deadline;
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

async function* scrapeText(service: GroupService, scrape: StreamedScrape): AsyncGenerator<string> {
  const read = batchReader(service, { timeLag: true });
  let errors = 0;
  let dropped = 0;
  let seriesLeft = scrape.maxSeries;
  /** The families after the first, their lines so far, one piece per batch. */
  let rest: { family: MetricFamily; pieces: string[] }[] | undefined;
  const start = (families: MetricFamily[]) => {
    rest = families.slice(1).map((family) => ({ family, pieces: [] }));
    return familyHeader(families[0] as MetricFamily);
  };
  const deadline = scrape.deadline;
  for await (const { batch, answer } of pipelined(scrape.listed, read, deadline ? { deadline } : {})) {
    const readings: GroupReading[] = [];
    let unread = '';
    for (const listing of batch) {
      const group = answer instanceof Error ? undefined : answer.groups.get(listing.groupId);
      const table = answer instanceof Error ? undefined : answer.offsets?.get(listing.groupId);
      if (!group?.ok || !table?.ok) {
        errors++;
        const cause =
          answer instanceof Error
            ? answer
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
      readings.push({ listing, group: group.value, table: table.value });
    }
    const made = scrape.families(readings, seriesLeft, Date.now());
    dropped += made.dropped;
    let text = rest ? '' : start(made.families);
    text += sampleLines(made.families[0] as MetricFamily) + unread;
    made.families.forEach((family, i) => {
      seriesLeft -= family.samples.length;
      if (i > 0) rest?.[i - 1]?.pieces.push(sampleLines(family));
    });
    yield text;
  }
  if (!rest) yield start(scrape.families([], 0, Date.now()).families);
  for (const { family, pieces } of rest ?? []) {
    yield familyHeader(family) + pieces.join('');
    pieces.length = 0;
  }
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
export function streamedScrape(service: GroupService, scrape: StreamedScrape): Response {
  const encoder = new TextEncoder();
  const text = scrapeText(service, scrape);
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
