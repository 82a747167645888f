import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { CallOptions, Deadline } from '../broker/deadline.js';
import { compareIds } from '../groups/listing.js';
import type { BrokerFailure, GroupListing } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { TopK } from '../groups/worst-first/top-k.js';
import { nextLink } from '../http/links.js';
import { deadlineOf, streamDeadlineOf } from '../http/middleware.js';
import { negotiate, notAcceptable } from '../http/negotiation.js';
import { requires } from '../http/route-policy.js';
import { RouteProblem } from '../http/route-problem.js';
import { listedVisible } from '../http/visibility.js';
import type { Logger } from '../logger.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { BrokerFailureSchema } from '../openapi/schemas.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { problemOf } from './errors.js';
import {
  brokerFilterOf,
  DEFAULT_LIMIT,
  ListQuery,
  listParam,
  TOPIC_PATTERN,
  TOPIC_RULE,
} from './listing-query.js';
import { ndjsonBatches } from './ndjson-stream.js';
import { encodeCursor, NDJSON } from './paging.js';
import {
  TOPIC_GROUP_EXAMPLE,
  type TopicGroup,
  TopicGroupSchema,
  type TopicReading,
  topicReaders,
  type UnreadableGroup,
  UnreadableGroupSchema,
} from './topic-readers.js';

export const TopicParam = z
  .string()
  .regex(TOPIC_PATTERN, expect(TOPIC_RULE))
  .openapi({ param: { name: 'topic', in: 'path' }, description: 'The topic', example: 'demo-events' });

const INCLUDES = ['partitions', 'timeLag'] as const;
const SORTS = ['groupId', 'lag'] as const;

const TopicGroupsQuery = strictQuery({
  type: ListQuery.shape.type,
  state: ListQuery.shape.state,
  prefix: ListQuery.shape.prefix,
  protocolType: ListQuery.shape.protocolType,
  limit: ListQuery.shape.limit,
  cursor: ListQuery.shape.cursor,
  isolation: ListQuery.shape.isolation,
  include: listParam(
    INCLUDES,
    (v) => INCLUDES.find((i) => i.toLowerCase() === v.toLowerCase()),
    "Extra data per group (partitions: its lag per partition of the topic; timeLag: the topic's time lag, one Fetch and two ListOffsets more per partition leader and batch)",
  ).openapi({
    param: { name: 'include', in: 'query', style: 'form', explode: true },
    example: ['partitions'],
  }),
  sort: z
    .enum(SORTS, expect(`one of ${SORTS.join(', ')}`))
    .optional()
    .openapi({
      param: { name: 'sort', in: 'query' },
      description:
        'groupId (default): by group id in UTF-8 byte order, paged by cursor; lag: most lag on the topic first, the first `limit` groups, no next page (a cursor with it answers 400)',
      example: 'lag',
    }),
});

const TopicGroupPageSchema = z
  .object({
    topic: z.string(),
    groups: z.array(TopicGroupSchema),
    unreadable: z.array(UnreadableGroupSchema),
    failures: z.array(BrokerFailureSchema).openapi({
      description: 'Brokers whose ListGroups failed: the groups they coordinate are missing',
    }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last' }),
  })
  .openapi('TopicGroupPage', {
    example: {
      topic: 'demo-events',
      groups: [TOPIC_GROUP_EXAMPLE],
      unreadable: [],
      failures: [],
      nextCursor: null,
    },
  });

const TopicGroupLineSchema = z
  .union([
    TopicGroupSchema,
    z.object({ failure: BrokerFailureSchema }),
    z.object({ unreadable: UnreadableGroupSchema }),
    z.object({
      end: z.object({
        groups: z.number().int().openapi({ format: 'int32' }),
        unreadable: z.number().int().openapi({ format: 'int32' }),
        failures: z.number().int().openapi({ format: 'int32' }),
      }),
    }),
  ])
  .openapi('TopicGroupLine', {
    description:
      'One line of the stream: `{"failure": …}` lines first, then the readers of the topic (and `{"unreadable": …}` lines) ' +
      'in group id order as each batch is read, then `{"end": …}`',
    example: TOPIC_GROUP_EXAMPLE,
  });

const DESCRIPTION =
  'Every visible group of every type that has committed offsets on the topic, subscribes to it, or holds its partitions, ' +
  "with its state, type, member count and lag on the topic. The groups are listed (filters as /groups), then read 1,000 at a time: one describe of those not listed Empty (and of streams groups), one OffsetFetch (v8+: many groups a request) per coordinator, one ListOffsets per leader of the topic's partitions. " +
  'A group that cannot be read is in `unreadable`. A topic that does not exist is a 404; a topic nobody reads, an empty list.';

const listTopicGroups = createRoute({
  method: 'get',
  path: '/topics/{topic}/groups',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'listTopicGroups',
  tags: ['groups'],
  summary: 'The groups that read a topic, with their lag on it',
  description: `${DESCRIPTION} \`Accept: application/x-ndjson\` streams them (as /topics/{topic}/groups.ndjson).`,
  request: { params: z.object({ topic: TopicParam }), query: TopicGroupsQuery },
  responses: {
    200: {
      description: 'The readers of the topic',
      content: { 'application/json': { schema: TopicGroupPageSchema } },
    },
    ...problemResponses('invalid-input', 'topic-not-found', 'not-acceptable', ...BROKER_PROBLEMS),
  },
});

const streamTopicGroups = createRoute({
  method: 'get',
  path: '/topics/{topic}/groups.ndjson',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'streamTopicGroups',
  tags: ['groups'],
  summary: 'The groups that read a topic, one JSON object per line, written as they are read',
  description: DESCRIPTION,
  request: {
    params: z.object({ topic: TopicParam }),
    query: strictQuery({
      type: TopicGroupsQuery.shape.type,
      state: TopicGroupsQuery.shape.state,
      prefix: TopicGroupsQuery.shape.prefix,
      protocolType: TopicGroupsQuery.shape.protocolType,
      cursor: TopicGroupsQuery.shape.cursor,
      isolation: TopicGroupsQuery.shape.isolation,
      include: TopicGroupsQuery.shape.include,
    }),
  },
  responses: {
    200: { description: 'The readers of the topic', content: { [NDJSON]: { schema: TopicGroupLineSchema } } },
    ...problemResponses('invalid-input', 'topic-not-found', ...BROKER_PROBLEMS),
  },
});

type TopicQuery = Omit<z.infer<typeof TopicGroupsQuery>, 'include'> & { include?: string[] };

/** The listing to read, the topic checked first: a topic that does not exist is a 404. */
async function listingFor(
  service: GroupService,
  topic: string,
  query: TopicQuery,
  visible: (g: GroupListing) => boolean,
  options: CallOptions,
): Promise<{ groups: GroupListing[]; failures: BrokerFailure[] }> {
  if (service.topicExists && !(await service.topicExists(topic, options)))
    throw new RouteProblem('topic-not-found', `topic '${topic}' does not exist`);
  const after = query.cursor?.after;
  const listed = await service.listGroups({ ...brokerFilterOf(query), visible }, options);
  const groups =
    after === undefined ? listed.groups : listed.groups.filter((g) => compareIds(g.groupId, after) > 0);
  return { groups, failures: listed.failures };
}

/** Every reader of the topic at once (a page is cut from them): only the readers are held. */
export async function collectReaders(
  readings: AsyncIterable<TopicReading[]>,
  enough = Number.POSITIVE_INFINITY,
  /** With sort=lag: the `top` readers with most lag on the topic, held as a heap, never all of them. */
  top?: number,
): Promise<{ readers: TopicGroup[]; unreadable: UnreadableGroup[] }> {
  const readers: TopicGroup[] = [];
  const unreadable: UnreadableGroup[] = [];
  // Ties keep the listing's order (by group id): the first offered stays ahead.
  const heap = top === undefined ? undefined : new TopK<TopicGroup>(top, (a, b) => a.lag.lag > b.lag.lag);
  for await (const batch of readings) {
    for (const r of batch) {
      if (!('reader' in r)) unreadable.push(r.unreadable);
      else if (heap) heap.offer(r.reader);
      else readers.push(r.reader);
    }
    // In id order, a page needs no batch after the one that holds its last reader and one more.
    if (readers.length >= enough) break;
  }
  return { readers: heap ? heap.sorted() : readers, unreadable };
}

export function topicGroupRoutes(app: OpenAPIHono, service: GroupService, logger: Logger): void {
  const read = async (
    c: Parameters<Parameters<typeof app.openapi>[1]>[0],
    topic: string,
    query: TopicQuery,
    streamed: boolean,
  ) => {
    const visible = (g: GroupListing) => listedVisible(c, 'read', g.groupId, g.type);
    const listing = await listingFor(service, topic, query, visible, deadlineOf(c));
    // A page is read while the route runs (the request's deadline); a stream after it, under its own.
    const deadline = streamed ? streamDeadlineOf(c) : c.get('deadline');
    const readings = topicReaders(service, listing.groups, topic, {
      offsets: {
        timeLag: query.include?.includes('timeLag') ?? false,
        ...(query.isolation && { isolation: query.isolation }),
      },
      partitions: query.include?.includes('partitions') ?? false,
      problem: (e) => problemOf(e, logger, c.req.path),
      ...(deadline && { deadline }),
    });
    return { failures: listing.failures, readings, deadline };
  };

  const stream = (
    failures: readonly BrokerFailure[],
    readings: AsyncIterable<TopicReading[]>,
    deadline: Deadline | undefined,
  ) => {
    let groups = 0;
    let unreadable = 0;
    async function* lines(): AsyncGenerator<string> {
      for await (const batch of readings) {
        let text = '';
        for (const r of batch) {
          if ('reader' in r) groups++;
          else unreadable++;
          text += `${JSON.stringify('reader' in r ? r.reader : r)}\n`;
        }
        yield text;
      }
    }
    return ndjsonBatches({
      head: failures.map((failure) => `${JSON.stringify({ failure })}\n`),
      batches: lines(),
      end: () => ({ end: { groups, unreadable, failures: failures.length } }),
      ...(deadline && { deadline }),
    });
  };

  app.openapi(listTopicGroups, async (c) => {
    const { topic } = c.req.valid('param');
    const query = c.req.valid('query');
    const representation = negotiate(c.req.header('accept'), ['application/json', NDJSON] as const);
    if (representation === undefined) notAcceptable(c, ['application/json', NDJSON]);
    c.header('vary', 'accept');
    if (representation === NDJSON && (query.limit !== undefined || query.sort !== undefined)) {
      throw new RouteProblem('invalid-input', 'limit and sort apply to pages, not to the ndjson stream', {
        errors: (['limit', 'sort'] as const)
          .filter((name) => query[name] !== undefined)
          .map((name) => ({
            in: 'query' as const,
            name,
            expected: `absent with Accept: ${NDJSON}`,
            received: c.req.query(name) ?? null,
            message: `${name} applies to pages (application/json); the ndjson stream has every group`,
          })),
      });
    }
    if (query.sort === 'lag' && query.cursor !== undefined) {
      // A cursor walks the groupId order; the lag order is one page, and a cursor would rank only
      // the groups after it.
      const message =
        'cursor pages sort=groupId; sort=lag answers one page (the first `limit` groups by lag) and no cursor';
      throw new RouteProblem('invalid-input', message, {
        errors: [
          {
            in: 'query' as const,
            name: 'cursor',
            expected: 'absent with sort=lag',
            received: c.req.query('cursor') ?? null,
            message,
          },
        ],
      });
    }
    const { failures, readings, deadline } = await read(c, topic, query, representation === NDJSON);
    if (representation === NDJSON) {
      const res = stream(failures, readings, deadline);
      res.headers.set('vary', 'accept');
      return res as never;
    }
    const limit = query.limit ?? DEFAULT_LIMIT;
    const { readers, unreadable } = await collectReaders(
      readings,
      query.sort === 'lag' ? undefined : limit + 1,
      query.sort === 'lag' ? limit : undefined,
    );
    if (query.sort === 'lag')
      return c.json({ topic, groups: readers, unreadable, failures, nextCursor: null }, 200);
    // The listing comes sorted by id; the readers keep its order.
    const page = readers.slice(0, limit);
    const nextCursor = readers.length > limit ? encodeCursor((page.at(-1) as TopicGroup).groupId) : null;
    if (nextCursor !== null) c.header('link', nextLink(c, nextCursor), { append: true });
    return c.json({ topic, groups: page, unreadable, failures, nextCursor }, 200);
  });

  app.openapi(streamTopicGroups, async (c) => {
    const { topic } = c.req.valid('param');
    const { failures, readings, deadline } = await read(c, topic, c.req.valid('query'), true);
    return stream(failures, readings, deadline) as never;
  });
}

/**
 * /groups?topic=: the listing narrowed to the topic's readers, as listing entries; with include=lag
 * (or timeLag) their lag on the topic. A group that could not be read is listed with `lagError`.
 */
export async function topicFilteredListing(
  c: Context,
  service: GroupService,
  logger: Logger,
  topic: string,
  query: TopicQuery & { limit?: number },
  ndjson: boolean,
): Promise<Response> {
  const wantLag = query.include?.some((i) => i === 'lag' || i === 'timeLag') ?? false;
  const visible = (g: GroupListing) => listedVisible(c, 'read', g.groupId, g.type);
  const problem = (e: unknown) => problemOf(e, logger, c.req.path);
  const listing = await listingFor(service, topic, query, visible, deadlineOf(c));
  const deadline = ndjson ? streamDeadlineOf(c) : c.get('deadline');
  const readings = topicReaders(service, listing.groups, topic, {
    offsets: {
      timeLag: query.include?.includes('timeLag') ?? false,
      ...(query.isolation && { isolation: query.isolation }),
    },
    partitions: false,
    problem,
    ...(deadline && { deadline }),
  });
  const entry = (r: TopicReading) => {
    if ('unreadable' in r) {
      const { groupId, type, problem: lagError } = r.unreadable;
      return { groupId, type, protocolType: '', state: null, lagError };
    }
    const { groupId, type, protocolType, state, lag } = r.reader;
    return { groupId, type, protocolType, state, ...(wantLag && { lag }) };
  };
  if (ndjson) {
    let groups = 0;
    let lagErrors = 0;
    async function* lines(): AsyncGenerator<string> {
      for await (const batch of readings) {
        let text = '';
        for (const r of batch) {
          groups++;
          if ('unreadable' in r) lagErrors++;
          text += `${JSON.stringify(entry(r))}\n`;
        }
        yield text;
      }
    }
    return ndjsonBatches(
      {
        head: listing.failures.map((failure) => `${JSON.stringify({ failure })}\n`),
        batches: lines(),
        end: () => ({ end: { groups, failures: listing.failures.length, ...(wantLag && { lagErrors }) } }),
        ...(deadline && { deadline }),
      },
      { vary: 'accept' },
    );
  }
  const limit = query.limit ?? DEFAULT_LIMIT;
  const all: ReturnType<typeof entry>[] = [];
  for await (const batch of readings) {
    all.push(...batch.map(entry));
    if (all.length > limit) break;
  }
  const page = all.slice(0, limit);
  const nextCursor = all.length > limit ? encodeCursor((page.at(-1) as { groupId: string }).groupId) : null;
  if (nextCursor !== null) c.header('link', nextLink(c, nextCursor), { append: true });
  return c.json({ groups: page, failures: listing.failures, nextCursor }, 200);
}
