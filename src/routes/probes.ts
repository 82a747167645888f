import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { BrokerError, BrokerUnavailableError } from '../broker/errors.js';
import type { GroupService } from '../groups/service.js';
import { requires } from '../http/route-policy.js';
import { HealthSchema, ReadinessSchema } from '../openapi/probe-schemas.js';
import { problemResponses } from '../openapi/problems.js';
import type { ApiClusters } from './clusters.js';

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
    'Asks every bootstrap and discovered broker for Metadata at once (each bounded by the smaller of 2 s and the request timeout) and says which answered. One check serves every probe for a second. ' +
    'At /readyz the answer is about the default cluster, whatever the others, and `clusters` says which of every configured cluster is ready; ' +
    'under /clusters/{alias} it is about that cluster alone.',
  responses: {
    200: {
      description: 'Ready: at least one broker answered',
      content: { 'application/json': { schema: ReadinessSchema } },
    },
    ...problemResponses('broker-unavailable', 'internal-error', 'configuration-error'),
  },
});

type Readiness = Awaited<ReturnType<GroupService['ping']>>;

const notReady = (readiness: Readiness) =>
  readiness.brokers.map((b) => b.error ?? `${b.broker} did not answer`).join('; ');

/** Liveness: process-wide, at /healthz only. */
export function livenessRoutes(app: OpenAPIHono): void {
  app.openapi(live, (c) => c.json({ status: 'ok' as const }, 200));
}

/**
 * Readiness of one cluster's service; with `clusters` (the short /readyz), also which of every
 * cluster is ready, while the status stays the given service's: the default cluster's.
 */
export function readinessRoutes(app: OpenAPIHono, service: GroupService, clusters?: ApiClusters): void {
  app.openapi(ready, async (c) => {
    const [readiness, others] = await Promise.all([
      service.ping().catch((error: unknown) => {
        // Whatever kept the broker from answering, the service is not ready: one status for probes.
        if (error instanceof BrokerError && !(error instanceof BrokerUnavailableError)) {
          throw new BrokerUnavailableError(error.broker, `not ready: ${error.message}`, { cause: error });
        }
        throw error;
      }),
      clusters ? clusterReadiness(clusters) : undefined,
    ]);
    if (!readiness.ready) {
      throw new BrokerUnavailableError(undefined, `not ready: no broker answered: ${notReady(readiness)}`);
    }
    return c.json(
      {
        status: 'ok' as const,
        checkedAt: readiness.checkedAt,
        brokers: readiness.brokers,
        ...(others && { clusters: others }),
      },
      200,
    );
  });
}

/** Every cluster asked at once; one that cannot be asked is not ready, with the reason. */
async function clusterReadiness(
  clusters: ApiClusters,
): Promise<Record<string, { ready: boolean; reason?: string }>> {
  const answers = await Promise.all(
    clusters.list.map(async ({ alias, service }) => {
      try {
        const readiness = await service.ping();
        return [
          alias,
          readiness.ready ? { ready: true } : { ready: false, reason: notReady(readiness) },
        ] as const;
      } catch (error) {
        return [
          alias,
          { ready: false, reason: error instanceof Error ? error.message : String(error) },
        ] as const;
      }
    }),
  );
  return Object.fromEntries(answers);
}
