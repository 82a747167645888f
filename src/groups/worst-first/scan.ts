/**
 * The estate read for the lag criteria: the listing after a cursor, in the batches of
 * `pipelined` (one offsets RPC per coordinator, one ListOffsets per partition leader each; with
 * verdicts also one describe, for the members), each group judged as its batch comes in. Only a
 * batch is held; what a caller keeps of it (a page, a top k) is its own.
 */

import type { CallOptions, Deadline } from '../../broker/deadline.js';
import { pipelined, UnreadError } from '../estate.js';
import type { GroupListing } from '../model.js';
import type { Isolation } from '../offsets/end-offsets.js';
import type { OffsetTable } from '../offsets/tables.js';
import type { Outcome } from '../outcome.js';
import type { GroupService } from '../service.js';
import { type Judged, judge, kept, type LagCriteria, lagKnown } from './criteria.js';

/** One group of a batch, as the criteria see it. */
export type Scanned =
  /** Its lag is known and the criteria keep it. */
  | { kind: 'kept'; listing: GroupListing; table: OffsetTable; judged: Judged }
  /** Its lag is known and the criteria leave it out. */
  | { kind: 'dropped'; listing: GroupListing }
  /**
   * Its lag is not known: `error` when its offsets could not be read at all, `table` when some
   * partitions could not (each names its own error; the totals count them in partitionsWithErrors).
   */
  | { kind: 'unknown'; listing: GroupListing; error: unknown }
  | { kind: 'partial'; listing: GroupListing; table: OffsetTable }
  /** Not read before the deadline. */
  | { kind: 'unread'; listing: GroupListing; error: UnreadError };

export interface ScanOptions {
  isolation?: Isolation;
  deadline?: Deadline;
}

/** Whether the criteria need each partition's time lag read (one Fetch, two ListOffsets more per leader). */
export function needsTimeLag(criteria: LagCriteria): boolean {
  return (
    criteria.minTimeLagMs !== undefined ||
    (criteria.sort?.endsWith('imeLag') ?? false) ||
    criteria.verdicts !== undefined
  );
}

/** Reads one batch: its tables and, with verdicts, its members. A batch that fails whole fails each group. */
function reader(service: GroupService, criteria: LagCriteria, options: ScanOptions) {
  const offsets = {
    timeLag: needsTimeLag(criteria),
    ...(options.isolation && { isolation: options.isolation }),
  };
  return async (
    batch: readonly GroupListing[],
    { deadline }: CallOptions,
  ): Promise<
    { tables: ReadonlyMap<string, Outcome<OffsetTable>>; members: (g: GroupListing) => number } | Error
  > => {
    try {
      if (!criteria.verdicts) {
        const tables = await service.offsetsOfGroups(batch, { ...offsets, deadline });
        return { tables, members: () => 0 };
      }
      // Groups listed Empty hold no members: only the others are described.
      const details = await service.describeListed(batch, { offsets, skipEmpty: true, deadline });
      return {
        tables: details.offsets ?? new Map(),
        members: (g) => {
          const described = details.groups.get(g.groupId);
          return described?.ok ? described.value.members.length : 0;
        },
      };
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  };
}

/** Each batch of `rest` (a listing in its order), its groups judged by `criteria`. */
export async function* scanned(
  service: GroupService,
  rest: readonly GroupListing[],
  criteria: LagCriteria,
  options: ScanOptions = {},
): AsyncGenerator<Scanned[]> {
  const reads = pipelined(
    rest,
    reader(service, criteria, options),
    options.deadline ? { deadline: options.deadline } : {},
  );
  for await (const { batch, answer } of reads) {
    const out: Scanned[] = [];
    for (const listing of batch) {
      if (answer instanceof UnreadError) {
        out.push({ kind: 'unread', listing, error: answer });
        continue;
      }
      if (answer instanceof Error) {
        out.push({ kind: 'unknown', listing, error: answer });
        continue;
      }
      const table = answer.tables.get(listing.groupId);
      if (!table) out.push({ kind: 'unknown', listing, error: new Error('no offsets read') });
      else if (!table.ok) out.push({ kind: 'unknown', listing, error: table.error });
      else if (!lagKnown(table.value)) out.push({ kind: 'partial', listing, table: table.value });
      else {
        const judged = judge(table.value, answer.members(listing), criteria);
        out.push(
          kept(judged, criteria)
            ? { kind: 'kept', listing, table: table.value, judged }
            : { kind: 'dropped', listing },
        );
      }
    }
    yield out;
  }
}
