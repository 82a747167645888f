/**
 * The routes the application serves, read from Hono's own list once every route is registered:
 * which methods a path takes (405 with Allow). What each route needs (its grant action, its body)
 * is on its own definition (route-policy.ts).
 */

interface RouteEntry {
  method: string;
  path: string;
}

interface CompiledRoute {
  template: string;
  pattern: RegExp;
  methods: Set<string>;
}

/** The OpenAPI document (3.1) and its 3.2 view (itemSchema for the streams). */
export const OPENAPI_PATH = '/openapi.json';
export const OPENAPI_32_PATH = '/openapi-3.2.json';
export const DOCUMENT_PATHS: readonly string[] = [OPENAPI_PATH, OPENAPI_32_PATH];

/** The documents and the docs page: open unless AUTH_DOCS=private. */
export const isDocsPath = (path: string) =>
  DOCUMENT_PATHS.includes(path) || path === '/docs' || path.startsWith('/docs/');

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

  /** Matching routes of a path, decoded as the router decodes it: their templates and methods. */
  private matching(path: string): CompiledRoute[] {
    return this.table().filter((r) => r.pattern.test(path));
  }

  /** The methods a path accepts; empty when no route has this path. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.matching(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  }
}
