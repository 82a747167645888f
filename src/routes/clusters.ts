/**
 * Several clusters behind one API: `GET /clusters`, `GET /clusters/{alias}`, and every cluster
 * route mirrored under `/clusters/{alias}/...`, while the short routes serve the default cluster.
 *
 * Mirroring, for any route module written as `fooRoutes(app, service, ...)`:
 *
 *   const mirror = clusterMirror(app, clusters);
 *   mirror((app, service) => fooRoutes(app, service, ...));
 *
 * The module is registered once on the app with the default cluster's service (the short routes,
 * in the document as they are), and once per cluster on a sub-app mounted at `/clusters/<alias>`
 * with that cluster's own service (each cluster its own connections: one that is down costs the
 * others nothing). Those mounts stay out of the document; instead each route the module added is
 * described once more under `/clusters/{alias}`, from its own definition: the `alias` parameter
 * added, the operationId suffixed `InCluster`, and the unknown-cluster 404 among its answers. The
 * guard (http/middleware.ts) answers unknown or ungranted aliases and narrows grants per cluster;
 * the route table gives a mirrored route the grant action of the route it mirrors.
 */

import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { type Context, Hono } from 'hono';
import { GROUP_TYPES, type GroupType } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { validationHook } from '../openapi/validation.js';
import { NO_QUERY } from './cluster.js';
import { START_DOCS, startResponses } from './deferred-docs.js';

/** What the API shows of a cluster without asking it: nothing secret. */
export interface ClusterSettings {
  brokers: string[];
  tls: boolean;
  /** The SASL mechanism, null without SASL. */
  sasl: string | null;
}

export interface ApiCluster {
  alias: string;
  service: GroupService;
  settings?: ClusterSettings;
}

export interface ApiClusters {
  defaultAlias: string;
  /** The default first. */
  list: readonly ApiCluster[];
}

/** `alias` is the cluster of a mirror under /clusters/<alias>, undefined for the short routes. */
export type RouteModule = (app: OpenAPIHono, service: GroupService, alias?: string) => void;

const ALIAS_RULE = 'a cluster alias: lower-case letters, digits and inner hyphens';
export const AliasParam = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/, ALIAS_RULE)
  .openapi({
    param: { name: 'alias', in: 'path' },
    description: 'The alias of a cluster, as GET /clusters lists them',
    example: 'eu-west',
  });

export const CLUSTER_PREFIX = '/clusters/{alias}';

/**
 * Registers a route module for the short routes and under every cluster; see the file comment.
 * Only the document's app (`documented`, made once the document's models are loaded) describes the
 * mirrors: an app serving requests never reads them.
 */
export function clusterMirror(
  app: OpenAPIHono,
  clusters: ApiClusters,
  documented: boolean,
): (register: RouteModule) => void {
  const [first] = clusters.list;
  if (!first) throw new Error('clusterMirror: no cluster');
  return (register) => {
    const before = app.openAPIRegistry.definitions.length;
    register(app, first.service);
    const added = app.openAPIRegistry.definitions.slice(before);
    for (const cluster of clusters.list) {
      const sub = new OpenAPIHono({ defaultHook: validationHook });
      register(sub, cluster.service, cluster.alias);
      // Hono's own route(): the sub-app's definitions are described once, below, not per alias.
      Hono.prototype.route.call(app, `/clusters/${cluster.alias}`, sub);
    }
    // What the document says of the mirrors needs its models (start-docs.ts), loaded before the
    // document's app is made.
    const docs = documented && START_DOCS.loaded();
    if (!docs) return;
    for (const definition of added) {
      if (definition.type !== 'route') continue;
      const { route } = definition;
      const params = route.request?.params;
      const shape = params && 'shape' in params ? (params as z.ZodObject).shape : {};
      app.openAPIRegistry.registerPath({
        ...route,
        path: `${CLUSTER_PREFIX}${route.path}`,
        ...(route.operationId && { operationId: `${route.operationId}InCluster` }),
        ...(route.summary && { summary: `${route.summary} (one cluster)` }),
        // One tag per operation: generators make one API class per tag, and an operation in two
        // classes exports its request types twice.
        ...(route.tags && { tags: route.tags }),
        request: { ...route.request, params: z.object({ alias: AliasParam, ...shape }) },
        responses: docs.withClusterNotFound(
          route.responses as Parameters<typeof docs.withClusterNotFound>[0],
        ) as typeof route.responses,
      });
    }
  };
}

const CLUSTER_REQUEST = { params: z.object({ alias: AliasParam }), ...NO_QUERY };

/** `GET /clusters`: documented with the start's other routes (start-docs.ts), built with the document. */
const listClusters = () =>
  createRoute({
    method: 'get',
    path: '/clusters',
    // Asks no broker: nothing to bound.
    middleware: requires({ action: 'read' }),
    operationId: 'listClusters',
    tags: ['clusters'],
    summary: 'The clusters this API serves (those the caller may use)',
    description:
      'From the configuration alone: no cluster is asked, so one that is down is listed like the others.',
    request: NO_QUERY,
    responses: startResponses('listClusters'),
  });

const getCluster = () =>
  createRoute({
    method: 'get',
    path: CLUSTER_PREFIX,
    middleware: requires({ action: 'read' }),
    operationId: 'getClusterByAlias',
    tags: ['clusters'],
    summary: 'One cluster: id, controller, brokers, the group types it serves, Kafka version hints',
    request: CLUSTER_REQUEST,
    responses: startResponses('getClusterByAlias'),
  });

const RPCS = {
  ListGroups: 16,
  DescribeGroups: 15,
  ConsumerGroupDescribe: 69,
  ShareGroupDescribe: 77,
  StreamsGroupDescribe: 89,
  OffsetFetch: 9,
} as const;

/** Which releases offer these RPC versions (see the README's version table). */
function versionHint(versions: ReadonlyMap<number, { min: number; max: number }>): string {
  const max = (key: number) => versions.get(key)?.max ?? -1;
  if (max(RPCS.StreamsGroupDescribe) >= 1) return '4.4 or newer';
  if (max(RPCS.StreamsGroupDescribe) >= 0) return '4.1 to 4.3';
  if (max(RPCS.ShareGroupDescribe) >= 0 || max(RPCS.DescribeGroups) >= 6) return '4.0';
  if (max(RPCS.ConsumerGroupDescribe) >= 0) return '3.7 to 3.9';
  return '3.6 or older';
}

function summaryOf(cluster: ApiCluster, defaultAlias: string) {
  return {
    alias: cluster.alias,
    default: cluster.alias === defaultAlias,
    bootstrap: cluster.settings?.brokers ?? [],
    tls: cluster.settings?.tls ?? false,
    sasl: cluster.settings?.sasl ?? null,
  };
}

export function clustersRoutes(
  app: OpenAPIHono,
  clusters: ApiClusters,
  visible: (c: Context, alias: string) => boolean,
): void {
  app.openapi(listClusters(), (c) =>
    c.json(
      {
        clusters: clusters.list
          .filter((k) => visible(c, k.alias))
          .map((k) => summaryOf(k, clusters.defaultAlias)),
      },
      200,
    ),
  );
  app.openapi(getCluster(), async (c) => {
    const { alias } = c.req.valid('param');
    // Unknown and ungranted aliases never get here (the guard answers them).
    const cluster = clusters.list.find((k) => k.alias === alias) as ApiCluster;
    const options = deadlineOf(c);
    const [info, versions] = await Promise.all([
      cluster.service.describeCluster(options),
      cluster.service.apiVersions?.(options) ??
        Promise.resolve(new Map<number, { min: number; max: number }>()),
    ]);
    const groupTypes: GroupType[] = GROUP_TYPES.filter((type) => {
      const key = {
        classic: RPCS.DescribeGroups,
        consumer: RPCS.ConsumerGroupDescribe,
        share: RPCS.ShareGroupDescribe,
        streams: RPCS.StreamsGroupDescribe,
      }[type];
      return versions.has(key);
    });
    return c.json(
      {
        ...summaryOf(cluster, clusters.defaultAlias),
        ...info,
        groupTypes,
        kafkaVersionHint: versionHint(versions),
        apiVersions: Object.fromEntries(
          Object.entries(RPCS).map(([name, key]) => [name, versions.get(key) ?? null]),
        ),
      },
      200,
    );
  });
}
