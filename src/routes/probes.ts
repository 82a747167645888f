import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { BrokerError, BrokerUnavailableError } from '../broker/errors.js';
import type { GroupService } from '../groups/service.js';
import { permissionsOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import type { ApiClusters } from './clusters.js';
import { startResponses } from './deferred-docs.js';

type Readiness = Awaited<ReturnType<GroupService['ping']>>;

const notReady = (readiness: Readiness) =>
  readiness.brokers.map((b) => b.error ?? `${b.broker} did not answer`).join('; ');

/**
 * Whether the caller may see a cluster's brokers and reasons: those GET /cluster names to it (the
 * `read` action in that cluster), and anyone under AUTH=none. Others learn what a probe needs.
 */
const seesDetails = (c: Context, alias: string) => permissionsOf(c).forCluster(alias).hasAction('read');

/** Liveness: process-wide, at /healthz only. */
export function livenessRoutes(app: OpenAPIHono): void {
  // Defined at registration: its answers are those start-docs.ts has loaded by then (none at start).
  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      middleware: requires({ open: true }),
      operationId: 'getHealth',
      tags: ['health'],
      summary: 'Liveness: the process answers HTTP',
      responses: startResponses('getHealth'),
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  );
}

/**
 * Readiness of one cluster's service; with `clusters` (the short /readyz), also which of every
 * cluster is ready, while the status stays the given service's: the default cluster's.
 */
export function readinessRoutes(
  app: OpenAPIHono,
  service: GroupService,
  alias: string,
  clusters?: ApiClusters,
): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      middleware: requires({ open: true }),
      operationId: 'getReadiness',
      tags: ['health'],
      summary: 'Readiness: a broker answers a Metadata request now',
      description:
        'Asks every bootstrap and discovered broker for Metadata at once (each bounded by the smaller of 2 s and the request timeout) and says which answered. One check serves every probe for a second. ' +
        'At /readyz the answer is about the default cluster, whatever the others, and `clusters` says which of every configured cluster is ready; ' +
        'under /clusters/{alias} it is about that cluster alone. ' +
        'Open to every caller, with the same status codes for all; with authentication on, the brokers (addresses, node ids, errors) and the clusters by alias ' +
        'are told only to a caller whose credentials hold and grant the `read` action there (as GET /cluster names the brokers to it): ' +
        'anyone else gets the status, when it was checked and how many brokers answered (`brokers` empty), and a 503 that names no broker.',
      responses: startResponses('getReadiness'),
    }),
    async (c) => {
      const details = seesDetails(c, alias);
      const visible = clusters?.list.filter((k) => seesDetails(c, k.alias));
      const [readiness, others] = await Promise.all([
        service.ping().catch((error: unknown) => {
          // Whatever kept the broker from answering, the service is not ready: one status for probes.
          if (error instanceof BrokerError && !details) throw notReadyFor(undefined);
          if (error instanceof BrokerError && !(error instanceof BrokerUnavailableError)) {
            throw new BrokerUnavailableError(error.broker, `not ready: ${error.message}`, { cause: error });
          }
          throw error;
        }),
        visible && visible.length > 0 ? clusterReadiness(visible) : undefined,
      ]);
      if (!readiness.ready) {
        throw details
          ? new BrokerUnavailableError(undefined, `not ready: no broker answered: ${notReady(readiness)}`)
          : notReadyFor(readiness);
      }
      const counts = {
        brokersAsked: readiness.brokers.length,
        brokersAnswered: readiness.brokers.filter((b) => b.answered).length,
      };
      return c.json(
        {
          status: 'ok' as const,
          checkedAt: readiness.checkedAt,
          ...counts,
          // Always there (a required field of 1.x), empty to a caller not told the brokers.
          brokers: details ? readiness.brokers : [],
          ...(others && { clusters: others }),
        },
        200,
      );
    },
  );
}

/** Not ready, said without a broker's address or error: the status code is the probe's answer. */
function notReadyFor(readiness: Readiness | undefined): BrokerUnavailableError {
  const asked = readiness ? ` (${readiness.brokers.length} asked)` : '';
  return new BrokerUnavailableError(
    undefined,
    `not ready: no broker answered${asked}; the reasons are told to a caller with the read action`,
  );
}

/** Every cluster asked at once; one that cannot be asked is not ready, with the reason. */
async function clusterReadiness(
  clusters: ApiClusters['list'],
): Promise<Record<string, { ready: boolean; reason?: string }>> {
  const answers = await Promise.all(
    clusters.map(async ({ alias, service }) => {
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
