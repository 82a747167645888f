/**
 * The security of one app from its configuration: the authenticator (with its JWKS cache) and the
 * rate limiter. Built once per process (Node, a Lambda instance) or per isolate (Workers) and kept,
 * so that keys are not refetched and buckets not reset for every request.
 */

import type { Context } from 'hono';
import { createAuthenticator } from '../auth/authenticate.js';
import type { Config } from '../config.js';
import type { Security } from './middleware.js';
import { type RateLimiter, TokenBucketLimiter } from './rate-limit.js';

export interface SecurityOptions {
  clientAddress?: (c: Context) => string | undefined;
  /** Replaces the in-memory token bucket (the Workers binding). */
  rateLimiter?: RateLimiter;
  /**
   * The platform routes only its own names here (Lambda, Workers), and the request's URL has the
   * name it routed: without ALLOWED_HOSTS every such name is served, AUTH=none too. The loopback
   * default is the Node server's, whose Host header is the caller's to choose.
   */
  platformRouted?: boolean;
}

export function securityFrom(
  config: Pick<Config, 'auth' | 'limits'> & Partial<Pick<Config, 'writes'>>,
  options: SecurityOptions = {},
): Security {
  const { rateLimit, openRateLimit } = config.limits;
  const rateLimiter =
    rateLimit === undefined
      ? undefined
      : (options.rateLimiter ?? new TokenBucketLimiter(rateLimit.perMinute, rateLimit.burst));
  const { hosts } = config.limits;
  const limits =
    options.platformRouted && hosts && !hosts.any && hosts.variable === 'AUTH=none'
      ? { ...config.limits, hosts: { any: true } as const }
      : config.limits;
  return {
    authenticator: createAuthenticator(config.auth),
    limits,
    ...(rateLimiter && { rateLimiter }),
    // In memory on every runtime: the open paths are cheap, a bucket per instance is enough.
    ...(openRateLimit && {
      openRateLimiter: new TokenBucketLimiter(openRateLimit.perMinute, openRateLimit.burst),
    }),
    ...(options.clientAddress && { clientAddress: options.clientAddress }),
    ...(config.writes && { writes: config.writes }),
  };
}
