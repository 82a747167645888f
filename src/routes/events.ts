/**
 * Server-sent events: GET /groups/{groupId}/events (one group) and GET /groups.events (the groups
 * the /groups filters match), mirrored under /clusters/{alias}. The listing stream has a path of its
 * own, beside /groups.ndjson: `/groups/events` is the group named `events`, as every
 * `/groups/{groupId}` is. Grants as for the equivalent reads (an ungranted group is missing or
 * unlisted; lag and verdicts need `offsets`), and a type mismatch answers 409 before any byte of
 * the stream. What the streams poll is shared (groups/events/poller.ts); each stream's loop is
 * http/event-stream.ts.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { EventLimits } from '../config/events.js';
import type { PollRegistry } from '../groups/events/poller.js';
import {
  eachUnderOwnDeadline,
  type Read,
  type Reading,
  readGroup,
  readListing,
} from '../groups/events/readings.js';
import { fnv1a, readSeen, type SeenEntry } from '../groups/events/view.js';
import type { GroupListing } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { runStream } from '../http/event-stream.js';
import { deadlineOf, permissionsOf, tokenClusterOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { RouteProblem } from '../http/route-problem.js';
import { type StreamSlots, streamCaller } from '../http/stream-slots.js';
import { readVisible } from '../http/visibility.js';
import type { Logger } from '../logger.js';
import { GroupStreamEventSchema } from '../openapi/event-schemas.js';
import { BROKER_PROBLEMS, GROUP_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { bindCluster, clusterMismatch } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { problemOf } from './errors.js';
import { brokerFilterOf, ListQuery } from './listing-query.js';
import { GroupIdParam, TypeAssertionParam } from './params.js';

/** The purpose event snapshots are signed for. */
export const EVENTS_PURPOSE = 'group-events';
/** How old a `Last-Event-ID` may be; older ones start the stream afresh. */
const SEEN_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long a `Last-Event-ID` may be: EVENTS_MAX_GROUPS entries and their ids, generously. */
const SEEN_MAX_CHARS = 1_000_000;
export const EVENT_STREAM = 'text/event-stream';

export interface EventsDeps {
  limits: EventLimits;
  /** False where the runtime buffers answers (Lambda's buffered handler): 501. */
  streaming: boolean;
  slots: StreamSlots;
  polls: PollRegistry<Reading>;
  tokens: TokenSigner;
  logger: Logger;
  clientAddress?: (c: Context) => string | undefined;
}

/** REQUEST_TIMEOUT_MS's default, for an app built without the deadline guard. */
const DEFAULT_POLL_DEADLINE_MS = 30_000;

const INTERVAL_RULE = 'a whole number of milliseconds';
const IntervalParam = z
  .string()
  .regex(/^\d{1,9}$/, expect(INTERVAL_RULE))
  .transform(Number)
  .optional()
  .openapi({
    param: { name: 'intervalMs', in: 'query' },
    type: 'integer',
    format: 'int32',
    description:
      'How often to poll, in ms: at least EVENTS_MIN_POLL_INTERVAL_MS (the floor, 1000 by default); default EVENTS_POLL_INTERVAL_MS',
    example: 5000,
  });

const LastEventIdHeader = z.object({
  'last-event-id': z.string().optional().openapi({
    description:
      'The `id:` of the last event received (EventSource sends it when it reconnects): the stream resumes with the changes since that snapshot. One that is altered, expired, of another stream or another cluster is ignored (the stream starts from the full state)',
  }),
});

const STREAM_ANSWERS = {
  ...problemResponses('too-many-streams', 'event-streams-unsupported'),
};

const STREAM_DESCRIPTION =
  'Events (`text/event-stream`): `group` when a group appears or its type, state, epoch, members, assignment or health ' +
  'verdict changes; `removed` when it is gone; `lag` every EVENTS_LAG_INTERVAL_MS (callers granted `offsets`); `poll-failed` ' +
  'with the problem when a poll fails; comment heartbeats when idle; `end` (with `retry:`) at EVENTS_MAX_LIFETIME_MS, after ' +
  'which the client reconnects. Each `id:` is a signed snapshot of what the caller has seen: a reconnect with ' +
  '`Last-Event-ID` gets the changes since, not a replay. Identical watches share one poll. At most ' +
  'EVENTS_MAX_STREAMS_PER_PRINCIPAL open streams per caller (429 beyond). See docs/events.md.';

const groupEvents = createRoute({
  method: 'get',
  path: '/groups/{groupId}/events',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'streamGroupEvents',
  tags: ['groups'],
  summary: "A group's changes and lag as server-sent events",
  description: `${STREAM_DESCRIPTION} The group must exist (404 otherwise) and be of \`type\` when given (409 otherwise), both answered before the stream starts.`,
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({ type: TypeAssertionParam, intervalMs: IntervalParam }),
    headers: LastEventIdHeader,
  },
  responses: {
    200: {
      description: 'The stream of events',
      content: { [EVENT_STREAM]: { schema: GroupStreamEventSchema } },
    },
    ...problemResponses(
      ...GROUP_PROBLEMS,
      'too-many-streams',
      'event-streams-unsupported',
      ...BROKER_PROBLEMS,
    ),
  },
});

const listingEvents = createRoute({
  method: 'get',
  path: '/groups.events',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'streamGroupsEvents',
  tags: ['groups'],
  summary: 'Changes and lag of the groups the /groups filters match, as server-sent events',
  description: `${STREAM_DESCRIPTION} Watches the first EVENTS_MAX_GROUPS matching groups by id (\`overflow\` says how many matched). A path of its own, like /groups.ndjson: \`/groups/events\` is the group named \`events\`.`,
  request: {
    query: strictQuery({
      type: ListQuery.shape.type,
      state: ListQuery.shape.state,
      prefix: ListQuery.shape.prefix,
      protocolType: ListQuery.shape.protocolType,
      intervalMs: IntervalParam,
    }),
    headers: LastEventIdHeader,
  },
  responses: {
    200: {
      description: 'The stream of events',
      content: { [EVENT_STREAM]: { schema: GroupStreamEventSchema } },
    },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
    ...STREAM_ANSWERS,
  },
});

/** The poll interval asked for, or the default; below the floor is a 400 naming `intervalMs`. */
function intervalOf(asked: number | undefined, limits: EventLimits): number {
  if (asked === undefined) return limits.pollIntervalMs;
  if (asked < limits.minPollIntervalMs || asked > 3_600_000) {
    const expected = `a whole number of milliseconds from ${limits.minPollIntervalMs} (EVENTS_MIN_POLL_INTERVAL_MS) to 3600000`;
    throw new RouteProblem('invalid-input', `intervalMs: expected ${expected}, received '${asked}'`, {
      errors: [
        {
          in: 'query',
          name: 'intervalMs',
          expected,
          received: String(asked),
          message: `expected ${expected}`,
        },
      ],
    });
  }
  return asked;
}

interface Watch {
  /** What the stream watches, hashed into its tokens: a token of another watch starts afresh. */
  what: unknown[];
  /** The poll's key: the same question from the same view of the grants. */
  pollKey: string;
  read: Read;
  intervalMs: number;
}

async function openStream(
  c: Context,
  deps: EventsDeps,
  service: GroupService,
  watch: Watch,
): Promise<Response> {
  const caller = streamCaller(c, deps.clientAddress);
  const release = deps.slots.take(caller);
  if (!release) {
    const retryAfter = Math.max(1, Math.ceil(deps.limits.pollIntervalMs / 1000));
    throw new RouteProblem(
      'too-many-streams',
      `${caller.startsWith('address:') ? 'this address' : caller} has ${deps.slots.perCaller} open event streams, the most one caller may have; close one or retry after ${retryAfter} s`,
      { limit: deps.slots.perCaller },
      { 'retry-after': String(retryAfter) },
    );
  }
  try {
    const cluster = await tokenClusterOf(c, service);
    const w = fnv1a(JSON.stringify([cluster.alias, ...watch.what]));
    const seen = new Map<string, SeenEntry>();
    const last = c.req.header('last-event-id');
    if (last) {
      const verified = await deps.tokens.verify(EVENTS_PURPOSE, last, {
        maxAgeMs: SEEN_MAX_AGE_MS,
        maxChars: SEEN_MAX_CHARS,
      });
      const data =
        verified.ok && !clusterMismatch(verified.data, cluster) ? readSeen(verified.data) : undefined;
      if (data && data.w === w) for (const entry of data.s) seen.set(entry[0], entry);
    }
    const permissions = permissionsOf(c);
    // Each poll has the time a request has, not what is left of this one's.
    const pollDeadlineMs = c.get('deadline')?.totalMs ?? DEFAULT_POLL_DEADLINE_MS;
    return streamSSE(c, (stream) =>
      runStream(stream, {
        subscribe: (listener) =>
          deps.polls.subscribe(
            watch.pollKey,
            eachUnderOwnDeadline(watch.read, pollDeadlineMs),
            watch.intervalMs,
            listener,
          ),
        intervalMs: watch.intervalMs,
        seen,
        permissions,
        limits: deps.limits,
        sign: (entries) => deps.tokens.sign(EVENTS_PURPOSE, bindCluster({ w, s: entries }, cluster)),
        problemOf: (error) => problemOf(error, deps.logger, c.req.path),
        release,
      }),
    );
  } catch (error) {
    release();
    throw error;
  }
}

function refuseBuffered(deps: EventsDeps): void {
  if (deps.streaming) return;
  throw new RouteProblem(
    'event-streams-unsupported',
    "this Lambda invocation buffers its answer, so it cannot stream events; call the function's streamHandler through a function URL with InvokeMode RESPONSE_STREAM",
  );
}

export function eventRoutes(app: OpenAPIHono, service: GroupService, deps: EventsDeps): void {
  app.openapi(groupEvents, async (c) => {
    refuseBuffered(deps);
    const { groupId } = c.req.valid('param');
    const { type, intervalMs } = c.req.valid('query');
    const interval = intervalOf(intervalMs, deps.limits);
    // The 404 and 409 before the first byte: once streaming, the status is sent.
    await readVisible(c, 'read', groupId, () =>
      service.describeGroup(groupId, { ...deadlineOf(c), ...(type && { expected: type }) }),
    );
    const alias = c.get('clusterAlias');
    return (await openStream(c, deps, service, {
      what: ['group', groupId, type ?? null],
      pollKey: JSON.stringify([alias, 'group', groupId, type ?? null, interval]),
      read: readGroup(service, groupId, type),
      intervalMs: interval,
    })) as never;
  });

  app.openapi(listingEvents, async (c) => {
    refuseBuffered(deps);
    const { intervalMs, ...query } = c.req.valid('query');
    const interval = intervalOf(intervalMs, deps.limits);
    const filter = brokerFilterOf(query);
    const permissions = permissionsOf(c);
    const alias = c.get('clusterAlias');
    return (await openStream(c, deps, service, {
      what: ['listing', filter],
      // Callers with the same grants see the same listing: they share its poll.
      pollKey: JSON.stringify([alias, 'listing', filter, interval, permissions.grants]),
      read: readListing(
        service,
        { ...filter, visible: (g: GroupListing) => permissions.allows('read', g.groupId, g.type) },
        deps.limits.maxGroups,
      ),
      intervalMs: interval,
    })) as never;
  });
}
