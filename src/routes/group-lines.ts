/**
 * The NDJSON listing with each group's lag: the listing is read in batches (one describe, one
 * offsets RPC per coordinator, one ListOffsets per partition leader each) and every batch's lines
 * are written as soon as it is in, so lag of a hundred thousand groups streams with a batch in memory.
 */

import type { CallOptions, Deadline } from '../broker/deadline.js';
import { pipelined, UnreadError } from '../groups/estate.js';
import type { BrokerFailure, GroupListing } from '../groups/model.js';
import type { Outcome } from '../groups/outcome.js';
import type { GroupService, ListedDetails, ListedOffsetsOptions, OffsetTable } from '../groups/service.js';
import type { Problem } from '../openapi/problems.js';
import { ndjsonBatches } from './ndjson-stream.js';
import { startAfter } from './paging.js';

/** Reads the details of one batch; a batch that fails whole fails each of its groups. */
export function batchReader(service: GroupService, offsets: ListedOffsetsOptions, skipEmpty = false) {
  return async (
    batch: readonly GroupListing[],
    { deadline }: CallOptions,
  ): Promise<ListedDetails | Error> => {
    try {
      return await service.describeListed(batch, { offsets, skipEmpty, deadline });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
}

/** Reads the lag of one batch; a batch that fails whole fails each of its groups. */
function lagReader(service: GroupService, offsets: ListedOffsetsOptions) {
  return async (
    batch: readonly GroupListing[],
    { deadline }: CallOptions,
  ): Promise<ReadonlyMap<string, Outcome<OffsetTable>> | Error> => {
    try {
      return await service.offsetsOfGroups(batch, { ...offsets, deadline });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
}

/** The sorted listing after `after`, each group with its lag, as application/x-ndjson. */
export function ndjsonWithLag(
  service: GroupService,
  sorted: readonly GroupListing[],
  failures: readonly BrokerFailure[],
  after: string | undefined,
  offsets: ListedOffsetsOptions,
  problem: (error: unknown) => Problem,
  headers: Record<string, string> = {},
  deadline?: Deadline,
): Response {
  let groups = 0;
  let lagErrors = 0;
  let unread = 0;
  async function* lines(): AsyncGenerator<string> {
    const rest = sorted.slice(startAfter(sorted, after));
    // Only the tables: groups listed Empty are not described (they hold nothing).
    const reads = pipelined(rest, lagReader(service, offsets), deadline ? { deadline } : {});
    for await (const { batch, answer } of reads) {
      if (answer instanceof UnreadError) unread += batch.length;
      let text = '';
      for (const listing of batch) {
        const table = answer instanceof Error ? undefined : answer.get(listing.groupId);
        // The listing's own text with one field added: a spread followed by a new field makes an
        // object in V8's slow mode, paid once per group of the estate.
        const head = JSON.stringify(listing).slice(0, -1);
        if (table?.ok) text += `${head},"lag":${JSON.stringify(table.value.totals)}}\n`;
        else {
          lagErrors++;
          const cause = answer instanceof Error ? answer : table ? table.error : new Error('no offsets read');
          text += `${head},"lagError":${JSON.stringify(problem(cause))}}\n`;
        }
        groups++;
      }
      yield text;
    }
  }
  return ndjsonBatches(
    {
      head: failures.map((failure) => `${JSON.stringify({ failure })}\n`),
      batches: lines(),
      end: () => ({ end: { groups, failures: failures.length, lagErrors, ...(unread > 0 && { unread }) } }),
      ...(deadline && { deadline }),
    },
    headers,
  );
}
