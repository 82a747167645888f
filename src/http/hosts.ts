/**
 * The hosts this server answers for (ALLOWED_HOSTS), and the origins /mcp takes. A page whose name
 * an attacker points at 127.0.0.1 (DNS rebinding) is same-origin to the browser, so CORS protects
 * nothing: only the name the request was sent to tells it apart. With AUTH=none nothing else stands
 * between a page and the groups, so without a list only loopback names are served.
 */

import type { Context, MiddlewareHandler } from 'hono';
import { type HostRule, servesHost } from '../config/hosts.js';
import { problemResponse } from '../openapi/problem-answers.js';

/** The request's URL as the runtime built it, or undefined when it has none that parses. */
function requestUrl(c: Context): URL | undefined {
  try {
    return new URL(c.req.url);
  } catch {
    return undefined;
  }
}

const shown = (text: string) => (text.length > 100 ? `${text.slice(0, 100)}…` : text);

/**
 * Refuses (421) a request for a host the rule does not serve. The host checked is the one the
 * runtime built the request's URL from: the Host header on Node, the name the platform routed on
 * Lambda (the event's domainName) and Workers (the route's zone).
 */
export function hostGuard(rule: HostRule): MiddlewareHandler {
  return async (c, next) => {
    if (rule.any) return next();
    const url = requestUrl(c);
    if (url && servesHost(rule, url)) return next();
    const host = url?.host ?? '';
    const served =
      rule.variable === 'AUTH=none'
        ? 'with AUTH=none and no ALLOWED_HOSTS only localhost, 127.0.0.1 and [::1] are served; set ALLOWED_HOSTS to the names callers use'
        : 'ALLOWED_HOSTS lists the hosts it serves';
    return problemResponse(
      c,
      'host-not-allowed',
      `this server does not answer for the host '${shown(host)}': ${served}`,
      { host: shown(host) },
    );
  };
}

/**
 * The MCP transport's rule (servers MUST validate Origin): a request to /mcp that sends an Origin
 * must come from a host the rule serves (when it serves any host: the request's own), or from an
 * origin CORS_ORIGINS names; otherwise 403. A browser sends Origin; most other clients send none.
 */
export function originGuard(rule: HostRule, corsOrigins: readonly string[]): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || corsOrigins.includes('*') || corsOrigins.includes(origin)) return next();
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {}
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
      const own = requestUrl(c);
      if (rule.any ? own !== undefined && own.host === url.host : servesHost(rule, url)) return next();
    }
    return problemResponse(
      c,
      'origin-not-allowed',
      `requests to /mcp from the origin '${shown(origin)}' are refused: it is none of the hosts this server answers for (ALLOWED_HOSTS) nor of CORS_ORIGINS`,
      { origin: shown(origin) },
    );
  };
}
