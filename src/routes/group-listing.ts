/**
 * The listing, GET /groups (pages, or NDJSON by Accept) and GET /groups.ndjson: loaded on its
 * first request (routes/lazy-modules.ts), so a start builds neither its query schemas nor its
 * snapshots; the describe a cold start answers first is in groups.ts.
 */

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { cutPage, ListingSnapshots, snapshotKey } from '../groups/held-listings.js';
import type { GroupListing } from '../groups/model.js';
import type { GroupService, ListFilter } from '../groups/service.js';
import { nextLink } from '../http/links.js';
import { deadlineOf, streamDeadlineOf } from '../http/middleware.js';
import { negotiate, notAcceptable } from '../http/negotiation.js';
import { requires } from '../http/route-policy.js';
import { RouteProblem } from '../http/route-problem.js';
import { listedVisible, listingVisibility } from '../http/visibility.js';
import type { Logger } from '../logger.js';
import { startResponses } from './deferred-docs.js';
import { problemOf } from './errors.js';
import { ndjsonWithLag } from './group-lines.js';
import { ndjsonRows } from './listing-lines.js';
import {
  brokerFilterOf,
  criteriaOf,
  DEFAULT_LIMIT,
  ListQuery,
  lagWanted,
  StreamQuery,
} from './listing-query.js';
import { encodeCursor, NDJSON } from './paging.js';
import { refuseCursorWithSort, worstFirstPage, worstFirstStream } from './worst-first.js';

/** What GET /groups answers with, in its order of preference (JSON first: it wins ties). */
const LISTING_TYPES = ['application/json', NDJSON] as const;

const listGroups = () =>
  createRoute({
    method: 'get',
    path: '/groups',
    middleware: requires({ action: 'read', negotiates: true }),
    operationId: 'listGroups',
    tags: ['groups'],
    summary: 'List the groups of every broker, filtered and paged',
    description:
      'Asks every broker for its groups (ListGroups at the highest version it offers; `type` and `state` are sent to brokers that ' +
      'can filter, v5 and v4, and applied here in every case) and merges the answers, sorted by group id in UTF-8 byte order. ' +
      'A broker that fails is listed in `failures`, never silently dropped. `include=details` describes the groups of the page, ' +
      'one RPC per coordinator and type. A page with more after it links the next one (`Link: <…>; rel="next"`) beside ' +
      '`nextCursor`. The whole listing as NDJSON is `GET /groups.ndjson` (streamGroups); a caller whose `Accept` prefers ' +
      '`application/x-ndjson` (RFC 9110 content negotiation: q-values, then the more specific range, then the order given) ' +
      'gets that stream here too, where `limit` and `include=details` are refused. An `Accept` that takes neither is a 406.',
    request: { query: ListQuery },
    responses: startResponses('listGroups'),
  });

const streamGroups = () =>
  createRoute({
    method: 'get',
    path: '/groups.ndjson',
    operationId: 'streamGroups',
    middleware: requires({ action: 'read', negotiates: true }),
    tags: ['groups'],
    summary: 'Every matching group, one JSON object per line, streamed',
    description:
      'The whole listing of `GET /groups` (after `cursor`, if given) as application/x-ndjson: one ListGroups per broker, the ' +
      'filters applied, sorted by group id in UTF-8 byte order, broker failures in-band. Memory holds the listing once; lines ' +
      'are made as the client reads. With include=lag each group line carries its lag totals: the groups are read in ' +
      'batches (one describe, one OffsetFetch per coordinator, one ListOffsets per partition leader each) and each ' +
      "batch's lines are written as it completes. A path of its own (not under /groups/) so that it names no group id.",
    request: { query: StreamQuery },
    responses: startResponses('streamGroups'),
  });

/** The lag criteria's parameters, for the answers that refuse them. */
const CRITERIA_PARAMS = ['minLag', 'minTimeLagSeconds', 'verdict', 'sort'] as const;

/** A 400 naming each parameter given that does not go with the rest of the query. */
function refuse(c: Context, names: readonly string[], message: string, expected: string): never {
  throw new RouteProblem('invalid-input', message, {
    errors: names.map((name) => ({
      in: 'query' as const,
      name,
      expected,
      received: c.req.queries(name)?.join(',') ?? null,
      message,
    })),
  });
}

/** The query's lag criteria, refused where they do not apply: with topic, and a sort with a cursor. */
function criteriaFor(
  c: Context,
  query: Parameters<typeof criteriaOf>[0] & { topic?: string; cursor?: { after: string } },
) {
  const criteria = criteriaOf(query);
  if (!criteria) return undefined;
  if (query.topic !== undefined)
    refuse(
      c,
      CRITERIA_PARAMS.filter((name) => query[name] !== undefined),
      'the lag criteria read every group; with topic, /topics/{topic}/groups sorts by lag',
      'absent with topic',
    );
  refuseCursorWithSort(c, criteria, query);
  return criteria;
}

/** `{ [name]: value }`, or nothing when the value is undefined (exactOptionalPropertyTypes). */
const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };

/** GET /groups and GET /groups.ndjson: the first registered of the group routes (the document keeps that order). */
export function listingRoutes(app: OpenAPIHono, service: GroupService, logger: Logger): void {
  /**
   * The listing as NDJSON after the query's cursor, each group with its lag when the query asks.
   * Without lag its lines are written from the brokers' answers (listing-lines.ts).
   */
  const listingStream = async (
    c: Context,
    filter: ListFilter,
    query: Parameters<typeof lagWanted>[0] & { cursor?: { after: string } },
  ): Promise<Response> => {
    const offsets = lagWanted(query);
    if (!offsets) {
      const { listed, failures } = await service.listRows(filter, deadlineOf(c));
      return ndjsonRows(listed, failures, query.cursor?.after);
    }
    const { groups, failures } = await service.listGroups(filter, deadlineOf(c));
    const problem = (e: unknown) => problemOf(e, logger, c.req.path);
    return ndjsonWithLag(
      service,
      groups,
      failures,
      query.cursor?.after,
      offsets,
      problem,
      {},
      streamDeadlineOf(c),
    );
  };

  // Per process (per isolate in a Worker): the listings that the next pages are cut from.
  const snapshots = new ListingSnapshots();
  app.openapi(listGroups(), async (c) => {
    const query = c.req.valid('query');
    const brokerFilter = brokerFilterOf(query);
    // Before any page is cut, so that pages and cursors are the same for every caller with these grants.
    const visible = (g: GroupListing) => listedVisible(c, 'read', g.groupId, g.type);
    const representation = negotiate(c.req.header('accept'), LISTING_TYPES);
    if (representation === undefined) notAcceptable(c, LISTING_TYPES);
    // The answer depends on Accept: caches keep one per representation.
    c.header('vary', 'accept');
    const criteria = criteriaFor(c, query);
    if (criteria) {
      if (query.include?.includes('details'))
        refuse(
          c,
          ['include'],
          'include=details does not go with the lag criteria',
          'lag or timeLag, or absent',
        );
      const listed = await service.listGroups(
        { ...brokerFilter, ...optional('visible', listingVisibility(c, 'read')) },
        deadlineOf(c),
      );
      const problem = (e: unknown) => problemOf(e, logger, c.req.path);
      if (representation === NDJSON) {
        if (query.limit !== undefined && !criteria.sort)
          refuse(c, ['limit'], 'limit applies to the ndjson stream only with sort', 'absent without sort');
        return worstFirstStream(service, listed, criteria, query, problem, streamDeadlineOf(c), {
          vary: 'accept',
        }) as never;
      }
      return worstFirstPage(
        c,
        service,
        listed,
        criteria,
        { ...query, limit: query.limit ?? DEFAULT_LIMIT },
        problem,
        deadlineOf(c).deadline,
      ) as never;
    }
    if (query.topic !== undefined) {
      const refused = [
        ...(query.include?.includes('details') ? ['include' as const] : []),
        ...(representation === NDJSON && query.limit !== undefined ? ['limit' as const] : []),
      ];
      if (refused.length > 0) {
        throw new RouteProblem(
          'invalid-input',
          'topic takes include=lag or timeLag, and limit only on pages',
          {
            errors: refused.map((name) => ({
              in: 'query' as const,
              name,
              expected: name === 'include' ? 'lag or timeLag with topic' : `absent with Accept: ${NDJSON}`,
              received: c.req.queries(name)?.join(',') ?? null,
              message: `${name} does not go with topic here`,
            })),
          },
        );
      }
      // The topic's readers are the consumers-of-a-topic route's work, loaded with its first request.
      const { topicFilteredListing } = await import('./topic-groups.js');
      const { sort: _sort, ...topicQuery } = query;
      return topicFilteredListing(
        c,
        service,
        logger,
        query.topic,
        topicQuery,
        representation === NDJSON,
      ) as never;
    }
    if (representation === NDJSON) {
      const pageOnly = (['limit', 'include'] as const).filter((name) =>
        name === 'include' ? query.include?.includes('details') : query[name] !== undefined,
      );
      if (pageOnly.length > 0) {
        throw new RouteProblem(
          'invalid-input',
          'limit and include=details apply to pages, not to the ndjson stream',
          {
            errors: pageOnly.map((name) => ({
              in: 'query' as const,
              name,
              expected: `absent with Accept: ${NDJSON}`,
              received: c.req.queries(name)?.join(',') ?? null,
              message: `${name} applies to pages (application/json); the ndjson stream has every group`,
            })),
          },
          { vary: 'accept' },
        );
      }
      const streamed = await listingStream(
        c,
        { ...brokerFilter, ...optional('visible', listingVisibility(c, 'read')) },
        query,
      );
      streamed.headers.set('vary', 'accept');
      return streamed as never;
    }
    const limit = query.limit ?? DEFAULT_LIMIT;
    const key = snapshotKey(brokerFilter);
    const after = query.cursor?.after;
    let snapshot = query.cursor?.snapshot;
    let cut = snapshot === undefined ? undefined : snapshots.page(snapshot, key, after, limit, visible);
    if (!cut) {
      // A first page, or a snapshot this process does not hold: a fresh listing, kept for the
      // next pages if there are any. This page is selected from it as it came (one pass, see
      // cutPage); when it is sorted, if ever, is the snapshot's choice (ListingSnapshots.page).
      const listed = await service.listUnsorted(brokerFilter, deadlineOf(c));
      cut = cutPage(listed.groups, listed.failures, after, limit, visible);
      snapshot = cut.more ? snapshots.take(key, listed.groups, listed.failures) : undefined;
    }
    const { groups: page, failures, more } = cut;
    const nextCursor = more ? encodeCursor((page.at(-1) as { groupId: string }).groupId, snapshot) : null;
    if (nextCursor !== null) c.header('link', nextLink(c, nextCursor), { append: true });
    const wantDetails = query.include?.includes('details') ?? false;
    const wantTimeLag = query.include?.includes('timeLag') ?? false;
    const wantLag = (query.include?.includes('lag') ?? false) || wantTimeLag;
    if (!wantDetails && !wantLag) return c.json({ groups: page, failures, nextCursor }, 200);

    const listed = await service.describeListed(page, {
      ...deadlineOf(c),
      ...(wantLag && {
        offsets: { ...(query.isolation && { isolation: query.isolation }), timeLag: wantTimeLag },
      }),
    });
    const entries = page.map((listing) => {
      const described = wantDetails ? listed.groups.get(listing.groupId) : undefined;
      const lag = listed.offsets?.get(listing.groupId);
      return {
        ...listing,
        ...(described &&
          (described.ok
            ? { details: described.value }
            : { detailsError: problemOf(described.error, logger, c.req.path) })),
        ...(lag &&
          (lag.ok ? { lag: lag.value.totals } : { lagError: problemOf(lag.error, logger, c.req.path) })),
      };
    });
    return c.json({ groups: entries, failures, nextCursor }, 200);
  });

  app.openapi(streamGroups(), async (c) => {
    const query = c.req.valid('query');
    const criteria = criteriaFor(c, query);
    if (query.limit !== undefined && !criteria?.sort)
      refuse(c, ['limit'], 'limit applies to the ndjson stream only with sort', 'absent without sort');
    if (criteria) {
      const listed = await service.listGroups(
        { ...brokerFilterOf(query), ...optional('visible', listingVisibility(c, 'read')) },
        deadlineOf(c),
      );
      const problem = (e: unknown) => problemOf(e, logger, c.req.path);
      return worstFirstStream(service, listed, criteria, query, problem, streamDeadlineOf(c)) as never;
    }
    if (query.topic !== undefined) {
      const { topicFilteredListing } = await import('./topic-groups.js');
      const { sort: _sort, limit: _limit, ...topicQuery } = query;
      return topicFilteredListing(c, service, logger, query.topic, topicQuery, true) as never;
    }
    const visible = listingVisibility(c, 'read');
    return (await listingStream(
      c,
      { ...brokerFilterOf(query), ...optional('visible', visible) },
      query,
    )) as never;
  });
}
