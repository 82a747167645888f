/**
 * The NDJSON listing with each group's lag: the listing is read in batches (one describe, one
 * offsets RPC per coordinator, one ListOffsets per partition leader each) and every batch's lines
 * are written as soon as it is in, so lag of a hundred thousand groups streams with a batch in memory.
 */

import { z } from '@hono/zod-openapi';
import type { Deadline } from '../broker/deadline.js';
import { ESTATE_BATCH_GROUPS, pipelined, UnreadError } from '../groups/estate.js';
import type { BrokerFailure, GroupListing } from '../groups/model.js';
import type { Outcome } from '../groups/outcome.js';
import type { GroupService, ListedDetails, ListedOffsetsOptions, OffsetTable } from '../groups/service.js';
import type { Problem } from '../openapi/problems.js';
import { ProblemSchema } from '../openapi/problems.js';
import { BrokerFailureSchema, GroupListingSchema, LagTotalsSchema } from '../openapi/schemas.js';
import { ndjsonBatches } from './ndjson-stream.js';
import { startAfter } from './paging.js';

/** One line of the application/x-ndjson listing. */
export const ListingLineSchema = z
  .union([
    GroupListingSchema.extend({
      lag: LagTotalsSchema.optional(),
      lagError: ProblemSchema.optional(),
    }).openapi('GroupListingLagLine', {
      description:
        'A group as listed; with include=lag (or timeLag) also `lag` (its totals) or `lagError` (why not)',
    }),
    z.object({ failure: BrokerFailureSchema }).openapi({
      description: 'A broker whose ListGroups failed: the groups it coordinates are missing from the stream',
    }),
    z
      .object({
        end: z.object({
          groups: z.number().int().openapi({ format: 'int32', description: 'Group lines sent' }),
          failures: z.number().int().openapi({ format: 'int32', description: 'Failure lines sent' }),
          lagErrors: z
            .number()
            .int()
            .optional()
            .openapi({ format: 'int32', description: 'With include=lag: group lines with `lagError`' }),
          unread: z.number().int().optional().openapi({
            format: 'int32',
            description:
              "Group lines not read because the stream's deadline (STREAM_TIMEOUT_MS) passed first, each with a `request-timeout` `lagError` (counted in `lagErrors` too); absent when none",
          }),
        }),
      })
      .openapi({ description: 'The last line: a stream without it was cut short' }),
  ])
  .openapi('GroupListingLine', {
    description:
      'With `Accept: application/x-ndjson` every line is one JSON object: first a `{"failure": …}` line per broker ' +
      'whose ListGroups failed, then one group per line sorted by group id, then `{"end": {"groups": n, "failures": m}}`. ' +
      'With include=lag each group line carries its lag totals (or `lagError`), written as each batch of ' +
      `${ESTATE_BATCH_GROUPS} groups is read under the stream's deadline (STREAM_TIMEOUT_MS): a group whose coordinator ` +
      'does not answer in time has a `broker-timeout` `lagError` naming the broker, and the groups left when the deadline ' +
      'passes each a `request-timeout` one; every listed group is in the stream once.',
    example: { groupId: 'demo-classic', type: 'classic', protocolType: 'consumer', state: 'Stable' },
  });

/** Reads the details of one batch; a batch that fails whole fails each of its groups. */
export function batchReader(service: GroupService, offsets: ListedOffsetsOptions, skipEmpty = false) {
  return async (batch: readonly GroupListing[]): Promise<ListedDetails | Error> => {
    try {
      return await service.describeListed(batch, { offsets, skipEmpty });
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
}

/** Reads the lag of one batch; a batch that fails whole fails each of its groups. */
function lagReader(service: GroupService, offsets: ListedOffsetsOptions) {
  return async (
    batch: readonly GroupListing[],
  ): Promise<ReadonlyMap<string, Outcome<OffsetTable>> | Error> => {
    try {
      return await service.offsetsOfGroups(batch, offsets);
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
