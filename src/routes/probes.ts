import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { BrokerError, BrokerUnavailableError } from '../broker/errors.js';
import type { GroupService } from '../groups/service.js';
import { requires } from '../http/route-policy.js';
import { problemResponses } from '../openapi/problems.js';
import { HealthSchema, ReadinessSchema } from '../openapi/schemas.js';

const live = createRoute({
  method: 'get',
  path: '/healthz',
  middleware: requires({ open: true }),
  operationId: 'getHealth',
  tags: ['health'],
  summary: 'Liveness: the process answers HTTP',
  responses: { 200: { description: 'Alive', content: { 'application/json': { schema: HealthSchema } } } },
});

const ready = createRoute({
  method: 'get',
  path: '/readyz',
  middleware: requires({ open: true }),
  operationId: 'getReadiness',
  tags: ['health'],
  summary: 'Readiness: a broker answers a Metadata request now',
  description:
    'Asks every bootstrap and discovered broker for Metadata at once (each bounded by the smaller of 2 s and the request timeout) and says which answered. One check serves every probe for a second.',
  responses: {
    200: {
      description: 'Ready: at least one broker answered',
      content: { 'application/json': { schema: ReadinessSchema } },
    },
    ...problemResponses('broker-unavailable', 'internal-error', 'configuration-error'),
  },
});

export function healthRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(live, (c) => c.json({ status: 'ok' as const }, 200));
  app.openapi(ready, async (c) => {
    let readiness: Awaited<ReturnType<GroupService['ping']>>;
    try {
      readiness = await service.ping();
    } catch (error) {
      // Whatever kept the broker from answering, the service is not ready: one status for probes.
      if (error instanceof BrokerError && !(error instanceof BrokerUnavailableError)) {
        throw new BrokerUnavailableError(error.broker, `not ready: ${error.message}`, { cause: error });
      }
      throw error;
    }
    if (!readiness.ready) {
      const why = readiness.brokers.map((b) => b.error ?? `${b.broker} did not answer`).join('; ');
      throw new BrokerUnavailableError(undefined, `not ready: no broker answered: ${why}`);
    }
    return c.json({ status: 'ok' as const, checkedAt: readiness.checkedAt, brokers: readiness.brokers }, 200);
  });
}
