/**
 * The HTTP application, independent of the runtime: routes, OpenAPI document, docs page, and the
 * mapping of every failure to problem+json. Runtimes pass in the group service and their options.
 */

import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { MetricsNames } from './config.js';
import type { GroupService } from './groups/service.js';
import type { WriteDeps } from './http/audit.js';
import { serviceDescLink } from './http/links.js';
import { installGuards, methodNotAllowed, permissionsOf, type Security } from './http/middleware.js';
import { rateLimitHeaders } from './http/rate-limit-headers.js';
import { type Logger, silentLogger } from './logger.js';
import { docsPage, PUBLIC_SWAGGER_UI_ASSETS } from './openapi/docs.js';
import { problemResponse } from './openapi/problems.js';
import { validationHook } from './openapi/validation.js';
import { clusterRoutes } from './routes/cluster.js';
import { type ApiClusters, clusterMirror, clustersRoutes } from './routes/clusters.js';
import { errorResponse } from './routes/errors.js';
import { groupConfigWriteRoutes } from './routes/group-config-writes.js';
import { groupConfigRoutes } from './routes/group-configs.js';
import { groupHealthRoutes } from './routes/group-health.js';
import { groupRoutes } from './routes/groups.js';
import { memberRoutes } from './routes/members.js';
import { metricsRoutes } from './routes/metrics.js';
import { offsetRoutes } from './routes/offsets.js';
import { livenessRoutes, readinessRoutes } from './routes/probes.js';
import { resetRoutes } from './routes/reset.js';
import { topicGroupRoutes } from './routes/topic-groups.js';
import { writeRoutes } from './routes/writes.js';
import { type TokenSigner, tokenSigner } from './tokens/signed.js';

export interface AppDeps {
  service: GroupService;
  /** Authentication, grants and request limits: required, so no app is built open by omission. */
  security: Security;
  logger?: Logger;
  /** Where the docs page loads Swagger UI from (default: a public CDN copy). */
  docsAssetsUrl?: string;
  /** The public base URL the document lists in `servers` (API_PUBLIC_URL); default: `/`, relative. */
  publicUrl?: string;
  /** Signs the tokens callers hand back (plans, snapshots); default: a key of this process only. */
  tokens?: TokenSigner;
  /** Runtime-specific extra routes (the Node server's docs assets). */
  extend?: (app: Hono) => void;
  /** Every cluster, the default first (`clustersOf(service)`); default: `service` alone, as `default`. */
  clusters?: ApiClusters;
  /** METRICS_NAMES: the names /metrics writes (default native). */
  metricsNames?: MetricsNames;
}

/** The API's version: semver; what may change within 1.x is written in the README. */
export const API_VERSION = '1.1.0';

export function createApp({
  service,
  security,
  logger = silentLogger,
  docsAssetsUrl = PUBLIC_SWAGGER_UI_ASSETS,
  publicUrl,
  tokens = tokenSigner(),
  extend,
  clusters = { defaultAlias: 'default', list: [{ alias: 'default', service }] },
  metricsNames = 'native',
}: AppDeps) {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  // Outermost: every answer, the guards' refusals included, links the document.
  app.use('*', serviceDescLink());
  app.use('*', rateLimitHeaders());
  const routes = installGuards(app, security, logger, {
    aliases: clusters.list.map((k) => k.alias),
    defaultAlias: clusters.defaultAlias,
  });

  livenessRoutes(app);
  // Group routes serve the default cluster at their short paths and every cluster under
  // /clusters/{alias}/...: register a route module through `mirror` (see routes/clusters.ts).
  const mirror = clusterMirror(app, clusters);
  // Each cluster its own readiness; the short /readyz is the default's and names every cluster's.
  mirror((app, service, alias) => readinessRoutes(app, service, alias === undefined ? clusters : undefined));
  mirror((app, service) => groupRoutes(app, service, logger));
  mirror((app, service) => topicGroupRoutes(app, service, logger));
  mirror((app, service) => offsetRoutes(app, service));
  mirror((app, service) => groupConfigRoutes(app, service));
  mirror((app, service) => clusterRoutes(app, service));
  // Writes and per-group health are mirrored like the reads: each cluster's own service behind them.
  const writesOf = (service: GroupService): WriteDeps => ({
    service,
    writes: security.writes ?? 'unset',
    logger,
  });
  mirror((app, service) => writeRoutes(app, writesOf(service)));
  mirror((app, service) => memberRoutes(app, writesOf(service)));
  mirror((app, service) => groupConfigWriteRoutes(app, writesOf(service)));
  mirror((app, service) => resetRoutes(app, writesOf(service), tokens));
  mirror((app, service) => groupHealthRoutes(app, service, tokens));
  // /metrics is the default cluster's groups; each cluster's own under /clusters/{alias}/metrics.
  mirror((app, service, alias) =>
    metricsRoutes(app, service, { names: metricsNames, cluster: alias ?? clusters.defaultAlias }),
  );
  clustersRoutes(app, clusters, (c, alias) => permissionsOf(c).seesCluster(alias));

  app.doc31('/openapi.json', () => ({
    openapi: '3.1.0',
    // Never from the request (its Host is the caller's to choose, and the document is cached for
    // everyone): API_PUBLIC_URL when set, else relative to wherever the document was fetched.
    servers: [
      publicUrl
        ? { url: publicUrl, description: 'The public URL of this API' }
        : { url: '/', description: 'The server that served this document' },
    ],
    info: {
      title: 'kafka-groups-rest',
      version: API_VERSION,
      description:
        "HTTP/REST window onto Apache Kafka's groups: classic, consumer (KIP-848), share (KIP-932) and streams (KIP-1071). " +
        'Every error is an RFC 9457 problem (application/problem+json).',
      license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
    },
    tags: [
      { name: 'groups', description: 'Groups of every type' },
      { name: 'offsets', description: 'Committed offsets and lag, read-only' },
      { name: 'cluster', description: 'The brokers behind the API' },
      {
        name: 'writes',
        description:
          'Reset and delete offsets, delete groups, remove members: opt-in, granted per action, audited',
      },
      { name: 'health', description: 'Liveness and readiness' },
      {
        name: 'clusters',
        description:
          'Several clusters: the list and each one. Every group route, /readyz, /cluster and /metrics are mirrored under /clusters/{alias}, tagged as the route they mirror',
      },
    ],
  }));
  app.get('/docs', (c) => c.html(docsPage('/openapi.json', docsAssetsUrl)));
  extend?.(app);

  app.notFound(
    (c) =>
      methodNotAllowed(c, routes) ??
      problemResponse(
        c,
        'route-not-found',
        `${c.req.method} ${c.req.path} is not a route of this API; see /openapi.json`,
      ),
  );
  app.onError((error, c) => errorResponse(error, c, logger));
  return app;
}

export type App = ReturnType<typeof createApp>;
