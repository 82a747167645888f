import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { GROUP_TYPES } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { linkedJson } from '../http/links.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { describeVisible, readVisible } from '../http/visibility.js';
import type { Logger } from '../logger.js';
import { BatchDescribeRequestSchema, MAX_BATCH_GROUPS } from '../openapi/batch-request.js';
import { MAX_GROUP_ID_BYTES } from '../openapi/shapes/scalars.js';
import { strictQuery } from '../openapi/validation.js';
import { startResponses } from './deferred-docs.js';
import { problemOf } from './errors.js';
import { DESCRIBE_INCLUDES, listParam } from './list-param.js';
import { GroupIdParam, TypeAssertionParam } from './params.js';

/** Built once: every registration (the short route, each cluster's, the document's) shares it. */
const DESCRIBE_REQUEST = {
  params: z.object({ groupId: GroupIdParam }),
  query: strictQuery({
    type: TypeAssertionParam,
    include: listParam(
      DESCRIBE_INCLUDES,
      (v) => DESCRIBE_INCLUDES.find((i) => i === v.toLowerCase()),
      'Extra data (topology: the topology description of a streams group, one StreamsGroupDescribe more)',
    ).openapi({
      param: { name: 'include', in: 'query', style: 'form', explode: true },
      example: ['topology'],
    }),
  }),
};

const describeGroup = (plain: MiddlewareHandler) =>
  createRoute({
    method: 'get',
    path: '/groups/{groupId}',
    // The policy first: the guards read it from the route's first handler.
    middleware: [requires({ action: 'read' }), plain],
    operationId: 'getGroup',
    tags: ['groups'],
    summary: 'Describe a group of any type',
    description:
      "Finds the group's coordinator and describes the group with its type's own RPC (DescribeGroups, ConsumerGroupDescribe, " +
      'ShareGroupDescribe, StreamsGroupDescribe). `type` asserts the type: a group of another type is a 409 naming both types. ' +
      '`include=topology` adds a streams group’s topology description (StreamsGroupDescribe v1, Kafka 4.4+; a broker without ' +
      'it answers 502 unsupported-broker-api); groups of other types ignore it.',
    request: DESCRIBE_REQUEST,
    responses: startResponses('getGroup'),
  });

const batchDescribe = () =>
  createRoute({
    method: 'post',
    path: '/groups/describe',
    middleware: requires({ action: 'read', body: 'json' }),
    operationId: 'describeGroups',
    tags: ['groups'],
    summary: `Describe up to ${MAX_BATCH_GROUPS} groups at once`,
    description:
      'Each group gets its own outcome, `found` with the group or `failed` with a problem, in the order asked (duplicates answered once). One FindCoordinator ' +
      'for all of them (v4+), then one describe RPC per coordinator and group type.',
    request: {
      body: { required: true, content: { 'application/json': { schema: BatchDescribeRequestSchema } } },
    },
    responses: startResponses('describeGroups'),
  });

type DescribeQuery = z.output<typeof DESCRIBE_REQUEST.query>;

/** The queries a plain describe may carry, as sent, and what the validator makes of each. */
const PLAIN_QUERIES = new Map<string, DescribeQuery>([
  ['', {}],
  ...GROUP_TYPES.map((type) => [`?type=${type}`, { type }] as const),
]);

/**
 * The describe of a request whose input is valid on its face: no query, or exactly `?type=` and a
 * type as Kafka spells it, and an id of 1 to MAX_GROUP_ID_BYTES / 3 UTF-16 units (at most 3 UTF-8
 * bytes each, so within the limit). What the validators would hand the handler is then known: the
 * id as routed and that query, so the answer is made here without them. Any other request goes on
 * through them and gets their answers.
 */
function plainDescribe(
  describe: (c: Context, groupId: string, query: DescribeQuery) => Promise<Response>,
): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const at = url.indexOf('?');
    const query = PLAIN_QUERIES.get(at < 0 ? '' : url.slice(at));
    // A `?` after a `#` is the fragment's, which the validators never see: they decide.
    if (query && !url.includes('#')) {
      const groupId = c.req.param('groupId');
      if (groupId && groupId.length * 3 <= MAX_GROUP_ID_BYTES) return describe(c, groupId, query);
    }
    await next();
  };
}

export function groupRoutes(app: OpenAPIHono, service: GroupService, logger: Logger): void {
  const describeOne = async (c: Context, groupId: string, { type, include }: DescribeQuery) => {
    const group = await readVisible(c, 'read', groupId, () =>
      service.describeGroup(groupId, { ...deadlineOf(c), ...(type && { expected: type }) }),
    );
    if (group.type === 'streams' && include?.includes('topology') && service.streamsTopologyDescription) {
      const topology = await service.streamsTopologyDescription(groupId, deadlineOf(c));
      return c.json(
        { ...group, topologyDescriptionStatus: topology.status, topologyDescription: topology.description },
        200,
      );
    }
    return linkedJson(group);
  };

  app.openapi(describeGroup(plainDescribe(describeOne)), async (c) => {
    const { groupId } = c.req.valid('param');
    return (await describeOne(c, groupId, c.req.valid('query'))) as never;
  });

  app.openapi(batchDescribe(), async (c) => {
    const { groupIds, type } = c.req.valid('json');
    const results = await describeVisible(c, 'read', groupIds, (ids) =>
      service.describeGroups(ids, { ...deadlineOf(c), ...(type && { expected: type }) }),
    );
    return c.json(
      {
        results: [...results].map(([groupId, r]) =>
          r.ok
            ? { status: 'found' as const, groupId, group: r.value }
            : { status: 'failed' as const, groupId, problem: problemOf(r.error, logger, c.req.path) },
        ),
      },
      200,
    );
  });
}
