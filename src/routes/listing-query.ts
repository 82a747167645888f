/** The listing's query: filters, pages and includes, shared by /groups and /topics/{topic}/groups. */

import { z } from '@hono/zod-openapi';
import { canonicalState, GROUP_STATES, type GroupState } from '../groups/listing.js';
import { GROUP_TYPES, type GroupType } from '../groups/model.js';
import type { Isolation } from '../groups/offsets/end-offsets.js';
import type { ListedOffsetsOptions } from '../groups/service.js';
import { LAG_SORTS, type LagCriteria, type LagSort } from '../groups/worst-first/criteria.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { VERDICTS, type Verdict } from '../vocabulary.js';
import { listParam } from './list-param.js';
import { decodePageCursor } from './paging.js';
import { IsolationParam } from './params.js';
import { LAG_RULE, SECONDS_RULE, ThresholdParams, thresholdsOf, wholeNumber } from './threshold-params.js';

export { listParam } from './list-param.js';

export const TOPIC_RULE = "a topic name: 1 to 249 of a-z, A-Z, 0-9, '.', '_', '-'";
export const TOPIC_PATTERN = /^[a-zA-Z0-9._-]{1,249}$/;

const typeOf = (value: string) => GROUP_TYPES.find((t) => t === value.toLowerCase());
const LIMIT_RULE = 'an integer from 1 to 1000';
export const DEFAULT_LIMIT = 100;
const INCLUDES = ['details', 'lag', 'timeLag'] as const;

/**
 * Worst first, in one request: filters by lag, time lag and verdict, and a sort by lag that
 * answers the top `limit` of the whole estate (routes/worst-first.ts). Appended after every earlier
 * parameter: clients generated with positional parameters keep the order they had.
 */
function WorstFirstParams() {
  return {
    minLag: wholeNumber(
      LAG_RULE,
      Number.MAX_SAFE_INTEGER,
      'Only groups at least this many records behind in all',
      1000,
    ).openapi({ param: { name: 'minLag', in: 'query' } }),
    minTimeLagSeconds: wholeNumber(
      SECONDS_RULE,
      31_536_000,
      "Only groups whose largest time lag is at least this many seconds (its lower bound; reads each partition's time lag)",
      60,
    ).openapi({ param: { name: 'minTimeLagSeconds', in: 'query' } }),
    verdict: listParam(
      VERDICTS,
      (v) => VERDICTS.find((x) => x === v.toUpperCase()),
      'Only groups with one of these verdicts (the rules of GET /groups/{groupId}/health, one reading; maxLag, maxTimeLagSeconds and idleAfterSeconds set its thresholds)',
    ).openapi({
      param: { name: 'verdict', in: 'query', style: 'form', explode: true },
      example: ['LAGGING', 'STOPPED'],
    }),
    sort: z
      .enum(LAG_SORTS, expect(`one of ${LAG_SORTS.join(', ')}`))
      .optional()
      .openapi({
        param: { name: 'sort', in: 'query' },
        description:
          'Order by total lag or by largest time lag: `lag` least first, `-lag` most first (also `timeLag`, `-timeLag`). ' +
          "The answer is the top `limit` of the whole estate, read under the request's deadline and held as a heap of " +
          '`limit`, never the estate; a cursor does not apply (400), since the order of every group is not kept',
        example: '-lag',
      }),
    ...ThresholdParams,
  };
}

export const ListQuery = strictQuery({
  type: listParam(GROUP_TYPES, typeOf, 'Only groups of these types').openapi({
    param: { name: 'type', in: 'query', style: 'form', explode: true },
    example: ['consumer', 'share'],
  }),
  state: listParam(GROUP_STATES, canonicalState, 'Only groups in these states').openapi({
    param: { name: 'state', in: 'query', style: 'form', explode: true },
    example: ['Stable'],
  }),
  prefix: z
    .string()
    .min(1, expect('a non-empty group id prefix'))
    .optional()
    .openapi({
      param: { name: 'prefix', in: 'query' },
      description: 'Only group ids starting with this (case-sensitive)',
      example: 'demo-',
    }),
  protocolType: z
    .string()
    .optional()
    .openapi({
      param: { name: 'protocolType', in: 'query' },
      description:
        "Only groups of this exact protocol type ('consumer', 'connect'; empty for groups made by an offset commit)",
      example: 'consumer',
    }),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, expect(LIMIT_RULE))
    .transform(Number)
    .refine((n) => n >= 1 && n <= 1000, expect(LIMIT_RULE))
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      // The query string is text; the document states what a client passes: an integer.
      type: 'integer',
      format: 'int32',
      minimum: 1,
      maximum: 1000,
      default: DEFAULT_LIMIT,
      description: `Page size: ${LIMIT_RULE} (default ${DEFAULT_LIMIT})`,
      example: DEFAULT_LIMIT,
    }),
  cursor: z
    .string()
    .transform((raw, ctx) => {
      const after = decodePageCursor(raw);
      if (after === undefined) {
        ctx.addIssue({ code: 'custom', message: 'the nextCursor of a previous page, as it was given' });
        return z.NEVER;
      }
      return after;
    })
    .optional()
    .openapi({
      param: { name: 'cursor', in: 'query' },
      example: 'ZzE6ZGVtby1jb25zdW1lcg',
      description:
        "Opaque: a previous page's `nextCursor`. The next page is cut from the listing its first page was taken from " +
        '(a snapshot this server keeps for a while: 60 s after its last page, 5 min at most), so following the ' +
        'cursors walks one listing, each group once, with the failures of that listing on every page. When the ' +
        'snapshot is gone (expired, or the request reached another instance) the page comes from a fresh listing ' +
        'past the last group id of the previous page, which is then kept for the pages after it: groups created or ' +
        'deleted meanwhile neither shift nor repeat the others. Cursors of earlier versions still work.',
    }),
  include: listParam(
    INCLUDES,
    (v) => INCLUDES.find((i) => i.toLowerCase() === v.toLowerCase()),
    "Extra data per group of the page (timeLag: lag with the group's largest time lag, one Fetch and two ListOffsets more per partition leader)",
  ).openapi({
    param: { name: 'include', in: 'query', style: 'form', explode: true },
    example: ['details', 'lag'],
  }),
  isolation: IsolationParam.openapi({
    description: 'With include=lag: read_uncommitted (default) or read_committed',
  }),
  // Last: clients generated with positional parameters keep the order they had before it.
  topic: z
    .string()
    .regex(TOPIC_PATTERN, expect(TOPIC_RULE))
    .optional()
    .openapi({
      param: { name: 'topic', in: 'query' },
      description:
        'Only groups that read this topic (committed offsets on it, a subscription, or its partitions held), as /topics/{topic}/groups; with include=lag, their lag on it',
      example: 'demo-events',
    }),
  ...WorstFirstParams(),
});

/** The filters the brokers are asked with (and that are applied here in every case). */
export function brokerFilterOf(query: {
  type?: string[];
  state?: string[];
  prefix?: string;
  protocolType?: string;
}) {
  return {
    ...(query.type && { types: query.type as GroupType[] }),
    ...(query.state && { states: query.state as GroupState[] }),
    ...(query.prefix !== undefined && { prefix: query.prefix }),
    ...(query.protocolType !== undefined && { protocolType: query.protocolType }),
  };
}

/** What include=lag / timeLag asks of the offsets; undefined without them. */
export function lagWanted(query: {
  include?: string[];
  isolation?: Isolation;
}): ListedOffsetsOptions | undefined {
  const timeLag = query.include?.includes('timeLag') ?? false;
  if (!timeLag && !query.include?.includes('lag')) return undefined;
  return { timeLag, ...(query.isolation && { isolation: query.isolation }) };
}

const STREAM_INCLUDES = ['lag', 'timeLag'] as const;

/** The stream's filters: the page's, without the page size; include takes lag and timeLag. */
export const StreamQuery = strictQuery({
  topic: ListQuery.shape.topic,
  type: ListQuery.shape.type,
  state: ListQuery.shape.state,
  prefix: ListQuery.shape.prefix,
  protocolType: ListQuery.shape.protocolType,
  cursor: ListQuery.shape.cursor,
  include: listParam(
    STREAM_INCLUDES,
    (v) => STREAM_INCLUDES.find((i) => i.toLowerCase() === v.toLowerCase()),
    "Each group's lag totals on its line (timeLag: with its largest time lag, one Fetch and two ListOffsets more per partition leader and batch)",
  ).openapi({ param: { name: 'include', in: 'query', style: 'form', explode: true }, example: ['lag'] }),
  isolation: ListQuery.shape.isolation,
  ...WorstFirstParams(),
  limit: ListQuery.shape.limit.openapi({
    description: `With sort: how many groups the stream answers, the top of the estate (${LIMIT_RULE}, default ${DEFAULT_LIMIT}); refused without sort`,
  }),
});

/** The lag criteria of a query, or undefined when it has none (the listing is by group id). */
export function criteriaOf(query: {
  minLag?: number | undefined;
  minTimeLagSeconds?: number | undefined;
  verdict?: string[] | undefined;
  sort?: LagSort | undefined;
  maxLag?: number | undefined;
  maxTimeLagSeconds?: number | undefined;
  idleAfterSeconds?: number | undefined;
}): LagCriteria | undefined {
  const { minLag, minTimeLagSeconds, verdict, sort } = query;
  if (minLag === undefined && minTimeLagSeconds === undefined && verdict === undefined && sort === undefined)
    return undefined;
  return {
    thresholds: thresholdsOf(query),
    ...(minLag !== undefined && { minLag }),
    ...(minTimeLagSeconds !== undefined && { minTimeLagMs: minTimeLagSeconds * 1000 }),
    ...(verdict !== undefined && { verdicts: new Set(verdict as Verdict[]) }),
    ...(sort !== undefined && { sort }),
  };
}
