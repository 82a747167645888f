/**
 * The caller's quota on every answer where a rate limit applies, as the IETF HTTPAPI working
 * group's draft names it (draft-ietf-httpapi-ratelimit-headers-11): `RateLimit-Policy`
 * (`"default";q=<burst>;w=<seconds an empty burst takes to refill>`) and `RateLimit`
 * (`"default";r=<left of the burst>;t=<seconds until it is whole again>`), both structured fields.
 * Beside them, for API 1.2 only, draft-06's `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (deprecated; gone in 1.3). A 429 carries them beside its Retry-After. Answers
 * the limiter does not count (the probes) carry none; a limiter that counts elsewhere (the Worker's
 * binding) gives what it knows: on a refusal, `RateLimit` alone.
 */

import type { Context } from 'hono';
import { RATE_LIMIT_HEADERS, RATE_LIMIT_POLICY } from '../openapi/headers.js';
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
  const { limit } = quota;
  editHeaders(c, (headers) => {
    headers.set('RateLimit', `"${RATE_LIMIT_POLICY}";r=${quota.remaining};t=${quota.resetSeconds}`);
    if (limit === undefined) return;
    headers.set('RateLimit-Policy', `"${RATE_LIMIT_POLICY}";q=${limit};w=${quota.windowSeconds}`);
    const draft06 = [limit, quota.remaining, quota.resetSeconds];
    RATE_LIMIT_HEADERS.forEach((name, i) => {
      headers.set(name, String(draft06[i]));
    });
  });
}
