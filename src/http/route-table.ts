/**
 * The routes the application serves, read from Hono's own list once every route is registered:
 * which methods a path takes (405 with Allow, 415 only where a route takes a body) and which
 * grant action each route needs.
 */

import type { Action } from '../auth/grants.js';

interface RouteEntry {
  method: string;
  path: string;
}

interface CompiledRoute {
  template: string;
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * The grant action each API route needs. A route missing here answers 403 to every principal
 * when authentication is on: a new route is closed until it is given its action.
 */
const ACTIONS: Record<string, Action> = {
  'GET /groups': 'read',
  'GET /groups/:groupId': 'read',
  'POST /groups/describe': 'read',
  'GET /groups/:groupId/offsets': 'offsets',
  'GET /groups/:groupId/configs': 'read',
  'GET /cluster': 'read',
  // Writes: the route checks the grant itself, with the group's id and type (auth/write-guard.ts).
  'DELETE /groups/:groupId': 'delete',
  'DELETE /groups/:groupId/offsets': 'delete-offsets',
  'POST /groups/:groupId/offsets/reset': 'reset-offsets',
  'DELETE /groups/:groupId/members/:instanceId': 'remove-members',
  'POST /groups/:groupId/members/remove': 'remove-members',
  'PATCH /groups/:groupId/configs': 'configs',
  'GET /groups/:groupId/health': 'offsets',
  'GET /metrics': 'offsets',
  'GET /clusters': 'read',
  'GET /clusters/:alias': 'read',
};

/**
 * A route mirrored under one cluster (`/clusters/eu-west/groups/:groupId`) needs the action of the
 * route it mirrors (`/groups/:groupId`): routes added later are covered by their one entry above.
 */
const MIRRORED = /^\/clusters\/[^/:]+(?=\/)/;
function actionOf(method: string, template: string): Action | undefined {
  return ACTIONS[`${method} ${template}`] ?? ACTIONS[`${method} ${template.replace(MIRRORED, '')}`];
}

/** Paths served to everyone, whatever the authentication: liveness and readiness probes. */
export const OPEN_PATHS = new Set(['/healthz', '/readyz']);
/** The document and the docs page: open unless AUTH_DOCS=private. */
export const isDocsPath = (path: string) =>
  path === '/openapi.json' || path === '/docs' || path.startsWith('/docs/');

function compile(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

export class RouteTable {
  private compiled: CompiledRoute[] | undefined;

  constructor(private readonly routes: () => readonly RouteEntry[]) {}

  private table(): CompiledRoute[] {
    if (this.compiled) return this.compiled;
    const byPath = new Map<string, CompiledRoute>();
    for (const { method, path } of this.routes()) {
      if (method === 'ALL' || path.includes('*')) continue;
      const entry = byPath.get(path) ?? { template: path, pattern: compile(path), methods: new Set() };
      entry.methods.add(method.toUpperCase());
      if (method.toUpperCase() === 'GET') entry.methods.add('HEAD');
      byPath.set(path, entry);
    }
    this.compiled = [...byPath.values()];
    return this.compiled;
  }

  /** Matching routes of a raw (still percent-encoded) path: their templates and methods. */
  private matching(path: string): CompiledRoute[] {
    return this.table().filter((r) => r.pattern.test(path));
  }

  /** The methods a path accepts; empty when no route has this path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.matching(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }

  /**
   * The action the request needs, `undefined` when no route serves it (404/405 follow), or
   * `'unlisted'` for a served route without an action (closed).
   */
  action(method: string, path: string): Action | 'unlisted' | undefined {
    const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    // Literal segments win over parameters, as in the router: /groups/describe before /groups/:groupId.
    const routes = this.matching(path)
      .filter((r) => r.methods.has(m))
      .sort((a, b) => a.template.split(':').length - b.template.split(':').length);
    const route = routes[0];
    if (!route) return undefined;
    return actionOf(m, route.template) ?? 'unlisted';
  }

  /** Whether a route serves this method and path (a request that reaches a handler). */
  serves(method: string, path: string): boolean {
    return this.action(method, path) !== undefined;
  }
}
