/**
 * GET /groups and GET /groups.ndjson with lag criteria (minLag, minTimeLagSeconds, verdict, sort):
 * the estate read batch by batch (groups/worst-first/scan.ts), each group judged as its batch
 * comes in. A page without sort holds the groups of one page; with sort, a heap of `limit`; the
 * stream, a batch. A group whose lag is not known is named apart (`lagUnknown`, or a line with
 * `lagError` or with its partial lag), never filtered or sorted as if it had none.
 */

import type { Context } from 'hono';
import type { Deadline } from '../broker/deadline.js';
import type { BrokerFailure, GroupListing } from '../groups/model.js';
import type { Isolation } from '../groups/offsets/end-offsets.js';
import type { GroupService } from '../groups/service.js';
import { type Judged, type LagCriteria, rankOf } from '../groups/worst-first/criteria.js';
import { type Scanned, scanned } from '../groups/worst-first/scan.js';
import { TopK } from '../groups/worst-first/top-k.js';
import { nextLink } from '../http/links.js';
import { RouteProblem } from '../http/route-problem.js';
import type { Problem } from '../openapi/problems.js';
import { ndjsonBatches } from './ndjson-stream.js';
import { encodeCursor, startAfter } from './paging.js';

export interface WorstFirstQuery {
  limit?: number | undefined;
  isolation?: Isolation | undefined;
  cursor?: { after: string } | undefined;
}

interface Listed {
  groups: readonly GroupListing[];
  failures: readonly BrokerFailure[];
}

/** A group of the answer: as listed, with its lag totals and, when asked, its verdict. */
function entryOf(s: Scanned, problem: (e: unknown) => Problem) {
  switch (s.kind) {
    case 'kept':
      return { ...s.listing, lag: s.table.totals, ...(s.judged.verdict && { verdict: s.judged.verdict }) };
    case 'partial':
      return { ...s.listing, lag: s.table.totals };
    case 'unknown':
    case 'unread':
      return { ...s.listing, lagError: problem(s.error) };
    default:
      return { ...s.listing };
  }
}

/** A cursor walks the group id order; a sorted answer is the top of every group, with no next page. */
export function refuseCursorWithSort(c: Context, criteria: LagCriteria, query: WorstFirstQuery): void {
  if (!criteria.sort || query.cursor === undefined) return;
  const message = `sort=${criteria.sort} answers the top \`limit\` of the whole estate in one page; a cursor does not apply`;
  throw new RouteProblem('invalid-input', message, {
    errors: [
      {
        in: 'query',
        name: 'cursor',
        expected: 'absent with sort',
        received: c.req.query('cursor') ?? null,
        message,
      },
    ],
  });
}

interface Counts {
  scanned: number;
  lagUnknown: number;
  unread: number;
}

function count(counts: Counts, s: Scanned): void {
  counts.scanned++;
  if (s.kind === 'unknown' || s.kind === 'partial') counts.lagUnknown++;
  if (s.kind === 'unread') counts.unread++;
}

/** The JSON page: the first `limit` groups kept after the cursor, or with sort the top `limit` of all. */
export async function worstFirstPage(
  c: Context,
  service: GroupService,
  listed: Listed,
  criteria: LagCriteria,
  query: WorstFirstQuery & { limit: number },
  problem: (e: unknown) => Problem,
  deadline: Deadline | undefined,
): Promise<Response> {
  const { limit } = query;
  const rest = listed.groups.slice(startAfter(listed.groups, query.cursor?.after));
  const counts: Counts = { scanned: 0, lagUnknown: 0, unread: 0 };
  const unknown: ReturnType<typeof entryOf>[] = [];
  const options = { ...(query.isolation && { isolation: query.isolation }), ...(deadline && { deadline }) };
  const name = (s: Scanned) => {
    count(counts, s);
    if (s.kind !== 'kept' && s.kind !== 'dropped' && unknown.length < limit)
      unknown.push(entryOf(s, problem));
  };
  let groups: ReturnType<typeof entryOf>[];
  let nextCursor: string | null = null;
  if (criteria.sort) {
    const rank = rankOf(criteria.sort);
    const top = new TopK<{ judged: Judged; s: Scanned }>(limit, (a, b) => rank(a.judged, b.judged));
    for await (const batch of scanned(service, rest, criteria, options)) {
      for (const s of batch) {
        name(s);
        if (s.kind === 'kept') top.offer({ judged: s.judged, s });
      }
    }
    groups = top.sorted().map(({ s }) => entryOf(s, problem));
  } else {
    groups = [];
    let last: string | undefined;
    scan: for await (const batch of scanned(service, rest, criteria, options)) {
      for (const s of batch) {
        if (groups.length === limit) {
          // One more group after the page's last: there is a next page, cut after that last.
          nextCursor = encodeCursor(last as string);
          break scan;
        }
        name(s);
        last = s.listing.groupId;
        if (s.kind === 'kept') groups.push(entryOf(s, problem));
      }
    }
    if (nextCursor !== null) c.header('link', nextLink(c, nextCursor), { append: true });
  }
  return c.json({ groups, failures: listed.failures, nextCursor, lagUnknown: unknown, scanned: counts }, 200);
}

/** The NDJSON stream: the kept groups as their batches come in; with sort, the top `limit` at the end. */
export function worstFirstStream(
  service: GroupService,
  listed: Listed,
  criteria: LagCriteria,
  query: WorstFirstQuery,
  problem: (e: unknown) => Problem,
  deadline: Deadline,
  headers: Record<string, string> = {},
): Response {
  const rest = listed.groups.slice(startAfter(listed.groups, query.cursor?.after));
  const counts: Counts = { scanned: 0, lagUnknown: 0, unread: 0 };
  let written = 0;
  let lagErrors = 0;
  const options = { ...(query.isolation && { isolation: query.isolation }), deadline };
  const line = (s: Scanned) => {
    written++;
    if (s.kind === 'unknown' || s.kind === 'unread') lagErrors++;
    return `${JSON.stringify(entryOf(s, problem))}\n`;
  };
  async function* lines(): AsyncGenerator<string> {
    const rank = criteria.sort ? rankOf(criteria.sort) : undefined;
    const top = rank
      ? new TopK<{ judged: Judged; s: Scanned }>(query.limit ?? 100, (a, b) => rank(a.judged, b.judged))
      : undefined;
    for await (const batch of scanned(service, rest, criteria, options)) {
      let text = '';
      for (const s of batch) {
        count(counts, s);
        if (s.kind === 'dropped') continue;
        if (s.kind === 'kept' && top) top.offer({ judged: s.judged, s });
        else text += line(s);
      }
      yield text;
    }
    if (top)
      yield top
        .sorted()
        .map(({ s }) => line(s))
        .join('');
  }
  return ndjsonBatches(
    {
      head: listed.failures.map((failure) => `${JSON.stringify({ failure })}\n`),
      batches: lines(),
      end: () => ({
        end: {
          groups: written,
          failures: listed.failures.length,
          lagErrors,
          ...(counts.unread > 0 && { unread: counts.unread }),
          scanned: counts.scanned,
          lagUnknown: counts.lagUnknown,
        },
      }),
      deadline,
    },
    headers,
  );
}
