/**
 * Route modules loaded on their first request. A start registers, for each route of such a module,
 * its method, path and policy (written below, checked against the module by
 * test/unit/lazy-routes.test.ts): the guards, the 405s and the route table see it as any route.
 * The first request to one of them loads the module and registers it on a stand-in app that keeps
 * each route's handler chain (its validators, with the app's validation hook, and its handler);
 * that chain then runs on the request's own context. So a start parses neither the module nor its
 * schemas, and a request is validated and answered exactly as if the module had been registered.
 *
 * The document is built from every module registered at once (`eager`), on its first request.
 */

import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { GroupService } from '../groups/service.js';
import { type RoutePolicy, requires } from '../http/route-policy.js';
import { validationHook } from '../openapi/validation.js';
import type { RouteModule } from './clusters.js';

export interface LazyRoute {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** As in the module's definition, `{param}` style. */
  path: string;
  policy: RoutePolicy;
}

type Chain = (MiddlewareHandler | Handler)[];

/** Hono's own path for a document path. */
export const honoPath = (path: string) => path.replaceAll(/\/{(.+?)}/g, '/:$1');

const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The handler chains `register` adds, by method and Hono path. */
function capture(register: (app: OpenAPIHono) => void): Map<string, Chain> {
  const app = new OpenAPIHono({ defaultHook: validationHook });
  const chains = new Map<string, Chain>();
  app.on = ((method: string | string[], path: string | string[], ...handlers: Chain) => {
    for (const m of [method].flat()) for (const p of [path].flat()) chains.set(keyOf(m, p), handlers);
    return app;
  }) as typeof app.on;
  register(app);
  return chains;
}

/** Runs a chain on `c` as Hono's compose does: a returned Response is the answer unless one is set. */
async function run(chain: Chain, c: Context): Promise<Response> {
  const dispatch = async (i: number): Promise<void> => {
    const handler = chain[i];
    if (!handler) return;
    const res = await handler(c, () => dispatch(i + 1));
    if (res instanceof Response && !c.finalized) c.res = res;
  };
  await dispatch(0);
  return c.res;
}

export type Register<M> = (module: M, app: OpenAPIHono, service: GroupService, alias?: string) => void;

export interface LazyModule<M> {
  readonly routes: readonly LazyRoute[];
  /** Loads the module (once it succeeds). */
  load(): Promise<M>;
  /**
   * The route module for `clusterMirror`: stand-ins loading the module on first use, or with
   * `eager` (the module loaded first), the module's own registration.
   */
  module(register: Register<M>, eager: boolean): RouteModule;
}

export function lazyModule<M>(routes: readonly LazyRoute[], importer: () => Promise<M>): LazyModule<M> {
  let loading: Promise<M> | undefined;
  let loaded: M | undefined;
  const load = () => {
    loading ??= importer().then(
      (m) => {
        loaded = m;
        return m;
      },
      (error: unknown) => {
        loading = undefined; // the next request tries again
        throw error;
      },
    );
    return loading;
  };
  return {
    routes,
    load,
    module: (register, eager) => (app, service, alias) => {
      if (eager) {
        if (!loaded) throw new Error('lazyModule: eager before load()');
        register(loaded, app, service, alias);
        return;
      }
      let chains: Map<string, Chain> | undefined;
      for (const route of routes) {
        const path = honoPath(route.path);
        const key = keyOf(route.method, path);
        app.on(route.method.toUpperCase(), path, requires(route.policy), async (c) => {
          // Requests arriving together share the load; the first to go on captures the chains.
          const m = await load();
          chains ??= capture((sub) => register(m, sub, service, alias));
          const chain = chains.get(key);
          if (!chain) throw new Error(`the lazily loaded module has no route ${key}`);
          return run(chain, c);
        });
      }
    },
  };
}
