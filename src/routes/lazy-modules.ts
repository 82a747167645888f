/**
 * The route modules a start does not load (routes/lazy.ts): what only the listing, writes, health,
 * diagnosis, metrics, offsets, consumers of a topic, configs, the classic-protocol census, event
 * streams and MCP need. Each lists its routes as the module defines them; a unit test
 * (test/unit/lazy-routes.test.ts) fails when they differ.
 */

import { START_DOCS } from './deferred-docs.js';
import { lazyModule } from './lazy.js';

export const LISTING_ROUTES = lazyModule<typeof import('./group-listing.js')>(
  [
    { method: 'get', path: '/groups', policy: { action: 'read', negotiates: true } },
    { method: 'get', path: '/groups.ndjson', policy: { action: 'read', negotiates: true } },
  ],
  () => import('./group-listing.js'),
);

export const OFFSET_ROUTES = lazyModule<typeof import('./offsets.js')>(
  [{ method: 'get', path: '/groups/{groupId}/offsets', policy: { action: 'offsets' } }],
  () => import('./offsets.js'),
);

export const TOPIC_GROUP_ROUTES = lazyModule<typeof import('./topic-groups.js')>(
  [
    { method: 'get', path: '/topics/{topic}/groups', policy: { action: 'read', negotiates: true } },
    { method: 'get', path: '/topics/{topic}/groups.ndjson', policy: { action: 'read', negotiates: true } },
  ],
  () => import('./topic-groups.js'),
);

export const GROUP_CONFIG_ROUTES = lazyModule<typeof import('./group-configs.js')>(
  [{ method: 'get', path: '/groups/{groupId}/configs', policy: { action: 'read' } }],
  () => import('./group-configs.js'),
);

export const WRITE_ROUTES = lazyModule<typeof import('./writes.js')>(
  [
    { method: 'delete', path: '/groups/{groupId}', policy: { action: 'delete' } },
    { method: 'delete', path: '/groups/{groupId}/offsets', policy: { action: 'delete-offsets' } },
  ],
  () => import('./writes.js'),
);

export const MEMBER_ROUTES = lazyModule<typeof import('./members.js')>(
  [
    {
      method: 'delete',
      path: '/groups/{groupId}/members/{instanceId}',
      policy: { action: 'remove-members' },
    },
    {
      method: 'post',
      path: '/groups/{groupId}/members/remove',
      policy: { action: 'remove-members', body: 'json' },
    },
  ],
  () => import('./members.js'),
);

export const GROUP_CONFIG_WRITE_ROUTES = lazyModule<typeof import('./group-config-writes.js')>(
  [{ method: 'patch', path: '/groups/{groupId}/configs', policy: { action: 'configs', body: 'json' } }],
  () => import('./group-config-writes.js'),
);

export const RESET_ROUTES = lazyModule<typeof import('./reset.js')>(
  [
    {
      method: 'post',
      path: '/groups/{groupId}/offsets/reset',
      policy: { action: 'reset-offsets', body: 'json' },
    },
  ],
  () => import('./reset.js'),
);

export const GROUP_HEALTH_ROUTES = lazyModule<typeof import('./group-health.js')>(
  [{ method: 'get', path: '/groups/{groupId}/health', policy: { action: 'offsets' } }],
  () => import('./group-health.js'),
);

export const GROUP_DIAGNOSIS_ROUTES = lazyModule<typeof import('./group-diagnosis.js')>(
  [{ method: 'get', path: '/groups/{groupId}/diagnosis', policy: { action: 'offsets' } }],
  () => import('./group-diagnosis.js'),
);

export const CLUSTER_PROTOCOL_ROUTES = lazyModule<typeof import('./cluster-protocols.js')>(
  [
    { method: 'get', path: '/cluster/protocols', policy: { action: 'read', negotiates: true } },
    { method: 'get', path: '/cluster/protocols.ndjson', policy: { action: 'read', negotiates: true } },
  ],
  () => import('./cluster-protocols.js'),
);

export const EVENT_ROUTES = lazyModule<typeof import('./events.js')>(
  [
    { method: 'get', path: '/groups/{groupId}/events', policy: { action: 'read', negotiates: true } },
    { method: 'get', path: '/groups.events', policy: { action: 'read', negotiates: true } },
  ],
  () => import('./events.js'),
);

export const MCP_ROUTES = lazyModule<typeof import('./mcp/route.js')>(
  [{ method: 'post', path: '/mcp', policy: { action: 'read', body: 'json', negotiates: true } }],
  () => import('./mcp/route.js'),
);

export const METRICS_ROUTES = lazyModule<typeof import('./metrics.js')>(
  [{ method: 'get', path: '/metrics', policy: { action: 'offsets', negotiates: true } }],
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
