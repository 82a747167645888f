import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { GroupService } from '../groups/service.js';
import { requires } from '../http/route-policy.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { ClusterSchema } from '../openapi/schemas.js';
import { strictQuery } from '../openapi/validation.js';

const describeCluster = createRoute({
  method: 'get',
  path: '/cluster',
  middleware: requires({ action: 'read' }),
  operationId: 'getCluster',
  tags: ['cluster'],
  summary: 'Brokers, controller and cluster id',
  request: { query: strictQuery({}) },
  responses: {
    200: { description: 'The cluster', content: { 'application/json': { schema: ClusterSchema } } },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
});

export function clusterRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(describeCluster, async (c) => c.json(await service.describeCluster(), 200));
}
