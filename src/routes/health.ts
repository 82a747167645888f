import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { BrokerError, BrokerUnavailableError } from '../broker/errors.js';
import type { GroupService } from '../groups/service.js';
import { problemResponses } from '../openapi/problems.js';
import { HealthSchema } from '../openapi/schemas.js';

const live = createRoute({
  method: 'get',
  path: '/healthz',
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness: the process answers HTTP',
  responses: { 200: { description: 'Alive', content: { 'application/json': { schema: HealthSchema } } } },
});

const ready = createRoute({
  method: 'get',
  path: '/readyz',
  operationId: 'getReadiness',
  tags: ['health'],
  summary: 'Readiness: a broker answers ApiVersions',
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: HealthSchema } } },
    ...problemResponses('broker-unavailable', 'internal-error', 'configuration-error'),
  },
});

export function healthRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(live, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(ready, async (c) => {
    try {
      await service.ping();
    } catch (error) {
      // Whatever kept the broker from answering, the service is not ready: one status for probes.
      if (error instanceof BrokerError && !(error instanceof BrokerUnavailableError)) {
        throw new BrokerUnavailableError(error.broker, `not ready: ${error.message}`, { cause: error });
      }
      throw error;
    }
    return c.json({ status: 'ok' as const }, 200);
  });
}
