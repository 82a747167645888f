/**
 * The caller's quota on every answer where a rate limit applies, as the IETF HTTPAPI working
 * group's draft names it (draft-ietf-httpapi-ratelimit-headers-06): `RateLimit-Limit` (the burst
 * a caller may send), `RateLimit-Remaining` (what is left of it) and `RateLimit-Reset` (seconds
 * until it is whole again). A 429 carries them beside its Retry-After. Answers the limiter does not
 * count (the probes) and limiters that count elsewhere (the Worker's binding) carry none.
 */

import type { Context } from 'hono';
import { RATE_LIMIT_HEADERS } from '../openapi/headers.js';
import { editHeaders } from './links.js';
import type { RateQuota } from './rate-limit.js';

declare module 'hono' {
  interface ContextVariableMap {
    rateQuota: RateQuota;
  }
}

/**
 * The caller's quota on the answer, where the guard took from a limiter: run on every answer's way
 * out (app.ts), the guard's own refusals included.
 */
export function addRateLimitHeaders(c: Context): void {
  const quota = c.get('rateQuota');
  if (!quota) return;
  const values = [quota.limit, quota.remaining, quota.resetSeconds];
  editHeaders(c, (headers) => {
    RATE_LIMIT_HEADERS.forEach((name, i) => {
      headers.set(name, String(values[i]));
    });
  });
}
