import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GroupService } from '../groups/service.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { strictQuery } from '../openapi/validation.js';
import { startResponses } from './deferred-docs.js';

/** The request of a route that takes no parameters: any query parameter is refused by name. */
export const NO_QUERY = { query: strictQuery({}) };

const describeCluster = () =>
  createRoute({
    method: 'get',
    path: '/cluster',
    middleware: requires({ action: 'read' }),
    operationId: 'getCluster',
    tags: ['cluster'],
    summary: 'Brokers, controller and cluster id',
    request: NO_QUERY,
    responses: startResponses('getCluster'),
  });

export function clusterRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(describeCluster(), async (c) => c.json(await service.describeCluster(deadlineOf(c)), 200));
}
