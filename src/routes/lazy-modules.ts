/**
 * The route modules a start does not load (routes/lazy.ts): what only the listing, writes, health,
 * diagnosis, metrics, offsets, consumers of a topic, configs, the classic-protocol census, event
 * streams and MCP need. Each lists its routes as the module defines them; a unit test
 * (test/unit/lazy-routes.test.ts) fails when they differ.
 */

import type { RoutePolicy } from '../http/route-policy.js';
import { START_DOCS } from './deferred-docs.js';
import { type LazyRoute, lazyModule } from './lazy.js';

// Helpers, not object literals: every Worker request builds the app, and its bundle has little room.
const route =
  (method: LazyRoute['method']) =>
  (path: string, policy: RoutePolicy): LazyRoute => ({ method, path, policy });
const get = route('get');
const post = route('post');
const patch = route('patch');
const del = route('delete');
/** The listings' and streams' policy: they read, and negotiate their representation. */
const READS: RoutePolicy = { action: 'read', negotiates: true };
const OFFSETS: RoutePolicy = { action: 'offsets' };

export const LISTING_ROUTES = lazyModule<typeof import('./group-listing.js')>(
  [get('/groups', READS), get('/groups.ndjson', READS)],
  () => import('./group-listing.js'),
);

export const OFFSET_ROUTES = lazyModule<typeof import('./offsets.js')>(
  [get('/groups/{groupId}/offsets', OFFSETS)],
  () => import('./offsets.js'),
);

export const TOPIC_GROUP_ROUTES = lazyModule<typeof import('./topic-groups.js')>(
  [get('/topics/{topic}/groups', READS), get('/topics/{topic}/groups.ndjson', READS)],
  () => import('./topic-groups.js'),
);

export const GROUP_CONFIG_ROUTES = lazyModule<typeof import('./group-configs.js')>(
  [get('/groups/{groupId}/configs', { action: 'read' })],
  () => import('./group-configs.js'),
);

export const WRITE_ROUTES = lazyModule<typeof import('./writes.js')>(
  [
    del('/groups/{groupId}', { action: 'delete' }),
    del('/groups/{groupId}/offsets', { action: 'delete-offsets' }),
  ],
  () => import('./writes.js'),
);

export const MEMBER_ROUTES = lazyModule<typeof import('./members.js')>(
  [
    del('/groups/{groupId}/members/{instanceId}', { action: 'remove-members' }),
    post('/groups/{groupId}/members/remove', { action: 'remove-members', body: 'json' }),
  ],
  () => import('./members.js'),
);

export const GROUP_CONFIG_WRITE_ROUTES = lazyModule<typeof import('./group-config-writes.js')>(
  [patch('/groups/{groupId}/configs', { action: 'configs', body: 'json' })],
  () => import('./group-config-writes.js'),
);

export const RESET_ROUTES = lazyModule<typeof import('./reset.js')>(
  [post('/groups/{groupId}/offsets/reset', { action: 'reset-offsets', body: 'json' })],
  () => import('./reset.js'),
);

export const GROUP_HEALTH_ROUTES = lazyModule<typeof import('./group-health.js')>(
  [get('/groups/{groupId}/health', OFFSETS)],
  () => import('./group-health.js'),
);

export const GROUP_DIAGNOSIS_ROUTES = lazyModule<typeof import('./group-diagnosis.js')>(
  [get('/groups/{groupId}/diagnosis', OFFSETS)],
  () => import('./group-diagnosis.js'),
);

export const CLUSTER_PROTOCOL_ROUTES = lazyModule<typeof import('./cluster-protocols.js')>(
  [get('/cluster/protocols', READS), get('/cluster/protocols.ndjson', READS)],
  () => import('./cluster-protocols.js'),
);

export const EVENT_ROUTES = lazyModule<typeof import('./events.js')>(
  [get('/groups/{groupId}/events', READS), get('/groups.events', READS)],
  () => import('./events.js'),
);

export const MCP_ROUTES = lazyModule<typeof import('./mcp/route.js')>(
  [post('/mcp', { action: 'read', body: 'json', negotiates: true })],
  () => import('./mcp/route.js'),
);

export const METRICS_ROUTES = lazyModule<typeof import('./metrics.js')>(
  [get('/metrics', { action: 'offsets', negotiates: true })],
  () => import('./metrics.js'),
);

/** Every lazily loaded module, and the start routes' answers, for the document (which registers them all). */
export const LAZY_MODULES: readonly { load(): Promise<unknown> }[] = [
  LISTING_ROUTES,
  OFFSET_ROUTES,
  TOPIC_GROUP_ROUTES,
  GROUP_CONFIG_ROUTES,
  WRITE_ROUTES,
  MEMBER_ROUTES,
  GROUP_CONFIG_WRITE_ROUTES,
  RESET_ROUTES,
  GROUP_HEALTH_ROUTES,
  GROUP_DIAGNOSIS_ROUTES,
  CLUSTER_PROTOCOL_ROUTES,
  EVENT_ROUTES,
  MCP_ROUTES,
  METRICS_ROUTES,
  START_DOCS,
];
