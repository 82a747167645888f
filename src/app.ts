/**
 * The HTTP application, independent of the runtime: routes, OpenAPI document, docs page, and the
 * mapping of every failure to problem+json. Runtimes pass in the group service and their options.
 */

import { OpenAPIHono } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';
import { DEFAULT_EVENT_LIMITS, type EventLimits, type MetricsNames } from './config.js';
import { PollRegistry } from './groups/events/poller.js';
import type { Reading } from './groups/events/readings.js';
import type { GroupService } from './groups/service.js';
import type { WriteDeps } from './http/audit.js';
import { dropHeadBody } from './http/head.js';
import { addServiceDescLink } from './http/links.js';
import { installGuards, methodNotAllowed, permissionsOf, type Security } from './http/middleware.js';
import { refuseUndecodable } from './http/percent-encoding.js';
import { addRateLimitHeaders } from './http/rate-limit-headers.js';
import { DOCUMENT_PATHS, OPENAPI_32_PATH, OPENAPI_PATH } from './http/route-table.js';
import { StreamSlots } from './http/stream-slots.js';
import { type Logger, silentLogger } from './logger.js';
import { docsPage, PUBLIC_SWAGGER_UI_ASSETS } from './openapi/docs.js';
import { problemResponse } from './openapi/problem-answers.js';
import { validationHook } from './openapi/validation.js';
import { clusterRoutes } from './routes/cluster.js';
import { type ApiClusters, clusterMirror, clustersRoutes } from './routes/clusters.js';
import { errorResponse } from './routes/errors.js';
import { groupRoutes } from './routes/groups.js';
import {
  CLUSTER_PROTOCOL_ROUTES,
  EVENT_ROUTES,
  GROUP_CONFIG_ROUTES,
  GROUP_CONFIG_WRITE_ROUTES,
  GROUP_DIAGNOSIS_ROUTES,
  GROUP_HEALTH_ROUTES,
  LAZY_MODULES,
  LISTING_ROUTES,
  MCP_ROUTES,
  MEMBER_ROUTES,
  METRICS_ROUTES,
  OFFSET_ROUTES,
  RESET_ROUTES,
  TOPIC_GROUP_ROUTES,
  WRITE_ROUTES,
} from './routes/lazy-modules.js';
import { livenessRoutes, readinessRoutes } from './routes/probes.js';
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
  /**
   * Register every route module at once instead of on first use (routes/lazy.ts): what the
   * document is built from. Requires each lazy module loaded.
   */
  eagerRoutes?: boolean;
  /** The event streams: their bounds (EVENTS_*), and false where the runtime buffers answers (501). */
  events?: {
    limits?: EventLimits;
    streaming?: boolean;
    /** The open streams per caller, kept by a runtime that builds an app per request (Workers). */
    slots?: StreamSlots;
  };
}

/** The API's version: semver; what may change within 1.x is written in the README. */
export const API_VERSION = '1.1.0';

export function createApp(deps: AppDeps) {
  const {
    service,
    security,
    logger = silentLogger,
    docsAssetsUrl = PUBLIC_SWAGGER_UI_ASSETS,
    publicUrl,
    tokens = tokenSigner(),
    extend,
    clusters = { defaultAlias: 'default', list: [{ alias: 'default', service }] },
    metricsNames = 'native',
    eagerRoutes = false,
    events = {},
  } = deps;
  // Hono's default router tries its RegExpRouter on the first request and falls back to its
  // TrieRouter, since a static segment beside a parameter (`/groups/describe`, `/groups/:groupId/…`)
  // is beyond the RegExpRouter: that failed attempt cost 2-7 ms of a cold start's first answer, and
  // of every Worker request (one app each). The TrieRouter it ends with, at once.
  const app = new OpenAPIHono({ defaultHook: validationHook, router: new TrieRouter() });
  // Outermost: what every answer, the guards' refusals included, gets on its way out, innermost
  // first as three layers would give it (HEAD's body dropped, the caller's quota, the document's
  // link), in one layer: each layer is a step more for every request.
  app.use('*', async (c, next) => {
    await next();
    if (c.req.method === 'HEAD') await dropHeadBody(c);
    addRateLimitHeaders(c);
    addServiceDescLink(c);
  });
  const routes = installGuards(app, security, logger, {
    aliases: clusters.list.map((k) => k.alias),
    defaultAlias: clusters.defaultAlias,
  });
  app.use(
    '*',
    refuseUndecodable(() => app.routes.map((r) => r.path)),
  );

  livenessRoutes(app);
  // Group routes serve the default cluster at their short paths and every cluster under
  // /clusters/{alias}/...: register a route module through `mirror` (see routes/clusters.ts).
  const mirror = clusterMirror(app, clusters, eagerRoutes);
  // Each cluster its own readiness; the short /readyz is the default's and names every cluster's.
  mirror((app, service, alias) =>
    readinessRoutes(app, service, alias ?? clusters.defaultAlias, alias === undefined ? clusters : undefined),
  );
  // The listing first, as the document orders them; loaded on its first request.
  const listing = LISTING_ROUTES.module(
    (m, app, service) => m.listingRoutes(app, service, logger),
    eagerRoutes,
  );
  mirror((app, service, alias) => {
    listing(app, service, alias);
    groupRoutes(app, service, logger);
  });
  mirror(OFFSET_ROUTES.module((m, app, service) => m.offsetRoutes(app, service), eagerRoutes));
  mirror(GROUP_CONFIG_ROUTES.module((m, app, service) => m.groupConfigRoutes(app, service), eagerRoutes));
  mirror(
    TOPIC_GROUP_ROUTES.module((m, app, service) => m.topicGroupRoutes(app, service, logger), eagerRoutes),
  );
  mirror((app, service) => clusterRoutes(app, service));
  mirror(
    CLUSTER_PROTOCOL_ROUTES.module((m, app, service) => m.clusterProtocolRoutes(app, service), eagerRoutes),
  );
  // Writes and per-group health are mirrored like the reads: each cluster's own service behind them.
  const writesOf = (service: GroupService): WriteDeps => ({
    service,
    writes: security.writes ?? 'unset',
    logger,
  });
  mirror(WRITE_ROUTES.module((m, app, service) => m.writeRoutes(app, writesOf(service)), eagerRoutes));
  mirror(MEMBER_ROUTES.module((m, app, service) => m.memberRoutes(app, writesOf(service)), eagerRoutes));
  mirror(
    GROUP_CONFIG_WRITE_ROUTES.module(
      (m, app, service) => m.groupConfigWriteRoutes(app, writesOf(service)),
      eagerRoutes,
    ),
  );
  mirror(
    RESET_ROUTES.module((m, app, service) => m.resetRoutes(app, writesOf(service), tokens), eagerRoutes),
  );
  mirror(
    GROUP_HEALTH_ROUTES.module((m, app, service) => m.groupHealthRoutes(app, service, tokens), eagerRoutes),
  );
  mirror(
    GROUP_DIAGNOSIS_ROUTES.module(
      (m, app, service) => m.groupDiagnosisRoutes(app, service, tokens),
      eagerRoutes,
    ),
  );
  // /metrics is the default cluster's groups; each cluster's own under /clusters/{alias}/metrics.
  mirror(
    METRICS_ROUTES.module(
      (m, app, service, alias) =>
        m.metricsRoutes(app, service, { names: metricsNames, cluster: alias ?? clusters.defaultAlias }),
      eagerRoutes,
    ),
  );
  // One cap and one set of shared polls for the whole app: a caller's streams count whatever the cluster.
  const eventLimits = events.limits ?? DEFAULT_EVENT_LIMITS;
  const eventDeps = {
    limits: eventLimits,
    streaming: events.streaming ?? true,
    slots: events.slots ?? new StreamSlots(eventLimits.maxStreamsPerPrincipal),
    polls: new PollRegistry<Reading>(),
    tokens,
    logger,
    ...(security.clientAddress && { clientAddress: security.clientAddress }),
  };
  mirror(EVENT_ROUTES.module((m, app, service) => m.eventRoutes(app, service, eventDeps), eagerRoutes));
  clustersRoutes(app, clusters, (c, alias) => permissionsOf(c).seesCluster(alias));
  // Built once, on its first need, from an app with every route module registered.
  let document: Promise<unknown> | undefined;
  const wholeDocument = () => {
    document ??= (async () => {
      const [{ openApiDocument }] = await Promise.all([
        import('./openapi/document.js'),
        ...LAZY_MODULES.map((m) => m.load()),
      ]);
      // Always an app made now: one made before the modules loaded lacks their routes' answers.
      const whole = createApp({ ...deps, eagerRoutes: true });
      return openApiDocument(whole, documentHead(publicUrl));
    })().catch((error: unknown) => {
      document = undefined;
      throw error;
    });
    return document;
  };
  // Not mirrored: one endpoint, whose tools take a `cluster` argument when there are several.
  const mcpDeps = {
    writes: security.writes ?? 'unset',
    severalClusters: clusters.list.length > 1,
    version: API_VERSION,
    document: wholeDocument,
    api: app,
    logger,
  } as const;
  MCP_ROUTES.module((m, app) => m.mcpRoutes(app, mcpDeps), eagerRoutes)(app, service);

  // Both the 3.1 document and its 3.2 view leave as the middleware finishes them (http/middleware).
  for (const path of DOCUMENT_PATHS) app.get(path, async (c) => c.json(await wholeDocument()));
  // `?openapi=3.2` shows the 3.2 view; anything else the default document.
  app.get('/docs', (c) =>
    c.html(docsPage(c.req.query('openapi') === '3.2' ? OPENAPI_32_PATH : OPENAPI_PATH, docsAssetsUrl)),
  );
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

/** The document's own fields; its paths and components come from the routes. */
function documentHead(publicUrl: string | undefined) {
  return {
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
        name: 'mcp',
        description:
          'The Model Context Protocol endpoint: the read routes (and, where granted, offset resets) as tools',
      },
      {
        name: 'clusters',
        description:
          'Several clusters: the list and each one. Every group route, /readyz, /cluster and /metrics are mirrored under /clusters/{alias}, tagged as the route they mirror',
      },
    ],
  };
}

export type App = ReturnType<typeof createApp>;
