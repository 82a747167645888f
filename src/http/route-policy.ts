/**
 * What a route needs before its handler runs, written on the route's own definition:
 *
 *   createRoute({ method: 'get', path: '/groups', middleware: requires({ action: 'read' }), ... })
 *
 * The guard reads it from the route Hono matched for this request, so it holds for whatever
 * spelling of the path reached that route (percent-encoded letters included) and for every mirror
 * of the route under /clusters/{alias}, which registers the same definition. A matched route with
 * no policy is closed to every principal: a new route is refused until it says what it needs.
 */

import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Action } from '../auth/grants.js';
import { negotiate, notAcceptable } from './negotiation.js';

export type RoutePolicy =
  /**
   * Liveness and readiness: served to everyone, with their own rate-limit bucket. Readiness bounds
   * each broker's answer by its own timer, not by the request's deadline.
   */
  | { open: true }
  /**
   * An API route: the grant action it needs, `json` when it takes a JSON body, and `negotiates`
   * when it answers in more than JSON (it weighs the Accept header itself).
   */
  | { open?: false; action: Action; body?: 'json'; negotiates?: true };

const policies = new WeakMap<MiddlewareHandler, RoutePolicy>();
const JSON_ONLY = ['application/json'] as const;

/** The route's policy, as the first middleware of its definition (it does nothing itself). */
export function requires(policy: RoutePolicy): MiddlewareHandler {
  // A route that answers JSON alone says 406 to an Accept that takes no JSON (RFC 9110 §12.5.1),
  // after the guards have let the caller in. Probes answer whatever the Accept: their status code
  // is their answer, and a probe refused for its header would take a ready server out of service.
  const marker: MiddlewareHandler =
    policy.open || policy.negotiates
      ? (_c, next) => next()
      : (c, next) => {
          if (negotiate(c.req.header('accept'), JSON_ONLY) === undefined) notAcceptable(c, JSON_ONLY);
          return next();
        };
  policies.set(marker, policy);
  return marker;
}

/** The policy a route's handler carries, if it is a `requires` marker. */
export function policyOf(handler: unknown): RoutePolicy | undefined {
  return policies.get(handler as MiddlewareHandler);
}

export type MatchedPolicy =
  /** No route of this method and path: 404 or 405 follow. */
  | { kind: 'none' }
  /** A route without a policy: closed. */
  | { kind: 'unlisted'; path: string }
  | { kind: 'route'; path: string; policy: RoutePolicy };

/**
 * The policy of the route that answers this request: the first route registered for its method
 * (middleware registered for every method, `use`, is not a route), as Hono dispatches it.
 */
export function matchedPolicy(c: Context): MatchedPolicy {
  // Asked by more than one guard per request: worked out once (the match does not change).
  const known = matched.get(c);
  if (known) return known;
  const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
  const policy = route && policies.get(route.handler);
  const found: MatchedPolicy = !route
    ? NONE
    : policy
      ? { kind: 'route', path: route.path, policy }
      : { kind: 'unlisted', path: route.path };
  matched.set(c, found);
  return found;
}

const NONE: MatchedPolicy = { kind: 'none' };
const matched = new WeakMap<Context, MatchedPolicy>();
