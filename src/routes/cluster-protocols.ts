/**
 * GET /cluster/protocols: which groups must leave the classic protocol, and whether the cluster
 * serves the consumer protocol. JSON, or NDJSON (its own path, and by Accept) for large estates:
 * lines go out as consumer groups are described, a chunk at a time.
 */

import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { GroupListing } from '../groups/model.js';
import {
  emptyTotals,
  type ProtocolFeatures,
  type ProtocolGroup,
  protocolFeatures,
  protocolGroups,
} from '../groups/protocols.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf, streamDeadlineOf } from '../http/middleware.js';
import { negotiate, notAcceptable } from '../http/negotiation.js';
import { requires } from '../http/route-policy.js';
import { listedVisible } from '../http/visibility.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { ClusterProtocolsSchema, ProtocolLineSchema } from '../openapi/protocol-schemas.js';
import { strictQuery } from '../openapi/validation.js';
import { NDJSON } from './paging.js';

const DESCRIPTION =
  'Classic groups that can move to the consumer protocol (protocol type consumer, members present), those that cannot ' +
  '(another protocol type, such as Connect’s connect), consumer groups whose members still speak classic (mixed, each ' +
  'such member named by client id and host), empty classic groups, and the group.version, share.version and ' +
  'streams.version feature levels. One ListGroups per broker, one ApiVersions, and ConsumerGroupDescribe for the ' +
  'consumer groups (200 at a time, per coordinator); classic groups are judged by their listing. Only groups the caller ' +
  'may read are counted or listed.';

const PROTOCOL_TYPES = ['application/json', NDJSON] as const;

const clusterProtocols = createRoute({
  method: 'get',
  path: '/cluster/protocols',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'getClusterProtocols',
  tags: ['cluster'],
  summary: 'Which groups still use the classic protocol, and which can leave it',
  description: `${DESCRIPTION} An \`Accept\` preferring application/x-ndjson gets the stream of /cluster/protocols.ndjson.`,
  request: { query: strictQuery({}) },
  responses: {
    200: {
      description: 'The groups on the classic protocol',
      content: { 'application/json': { schema: ClusterProtocolsSchema } },
    },
    ...problemResponses('invalid-input', 'not-acceptable', ...BROKER_PROBLEMS),
  },
});

const streamClusterProtocols = createRoute({
  method: 'get',
  path: '/cluster/protocols.ndjson',
  middleware: requires({ action: 'read', negotiates: true }),
  operationId: 'streamClusterProtocols',
  tags: ['cluster'],
  summary: 'Which groups still use the classic protocol, one JSON object per line',
  description: DESCRIPTION,
  request: { query: strictQuery({}) },
  responses: {
    200: { description: 'One line per group', content: { [NDJSON]: { schema: ProtocolLineSchema } } },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
});

async function gather(c: Context, service: GroupService, streamed: boolean) {
  const options = deadlineOf(c);
  const [cluster, listing] = await Promise.all([
    service.describeCluster(options),
    service.listGroups(
      { visible: (g: GroupListing) => listedVisible(c, 'read', g.groupId, g.type) },
      options,
    ),
  ]);
  // A stream's describes are made as the client reads, after the route has answered: under the
  // stream's deadline, not the request's.
  const deadline = streamed ? streamDeadlineOf(c) : options.deadline;
  const features: ProtocolFeatures = protocolFeatures(cluster.features?.finalized ?? null);
  const consumerProtocol = features.groupVersion === null ? null : features.groupVersion >= 1;
  const totals = emptyTotals();
  const groups = protocolGroups(
    listing.groups,
    (ids, hints) => service.describeGroups(ids, { hints, deadline }),
    totals,
  );
  return { features, consumerProtocol, failures: listing.failures, totals, groups, deadline };
}

function stream(parts: Awaited<ReturnType<typeof gather>>): Response {
  const encoder = new TextEncoder();
  const line = (value: unknown) => encoder.encode(`${JSON.stringify(value)}\n`);
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(line({ features: parts.features, consumerProtocol: parts.consumerProtocol }));
          for (const failure of parts.failures) controller.enqueue(line({ failure }));
          return;
        }
        const next = await parts.groups.next();
        if (next.done) {
          controller.enqueue(line({ end: parts.totals }));
          controller.close();
        } else {
          controller.enqueue(line(next.value));
        }
      },
      async cancel() {
        // The client left: the describe in flight is abandoned, and no chunk after it is read.
        parts.deadline?.abort();
        await parts.groups.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(body, { status: 200, headers: { 'content-type': NDJSON } });
}

export function clusterProtocolRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(clusterProtocols, async (c) => {
    const representation = negotiate(c.req.header('accept'), PROTOCOL_TYPES);
    if (representation === undefined) notAcceptable(c, PROTOCOL_TYPES);
    c.header('vary', 'accept');
    const parts = await gather(c, service, representation === NDJSON);
    if (representation === NDJSON) {
      const streamed = stream(parts);
      streamed.headers.set('vary', 'accept');
      return streamed as never;
    }
    const groups: ProtocolGroup[] = [];
    for await (const g of parts.groups) groups.push(g);
    const { features, consumerProtocol, totals, failures } = parts;
    return c.json({ features, consumerProtocol, totals, groups, failures }, 200);
  });

  app.openapi(streamClusterProtocols, async (c) => stream(await gather(c, service, true)) as never);
}
