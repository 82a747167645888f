/**
 * The limiters' quota, as the rate-limit fields carry it: a token bucket knows its policy (the
 * burst, refilled over its window) and what is left; the Worker's binding answers only yes or no,
 * so a refusal says nothing is left and when it is whole again at the latest, and a pass says nothing.
 */

import { describe, expect, it } from 'vitest';
import { bindingLimiter, TokenBucketLimiter } from './rate-limit.js';

describe('rate limiters', () => {
  it('a token bucket gives its burst, the seconds it takes to refill, and what is left', async () => {
    let now = 0;
    const bucket = new TokenBucketLimiter(60, 10, () => now);
    expect(await bucket.take('k')).toEqual({
      allowed: true,
      quota: { limit: 10, windowSeconds: 10, remaining: 9, resetSeconds: 1 },
    });
    for (let i = 0; i < 9; i++) await bucket.take('k');
    const refused = await bucket.take('k');
    expect(refused).toMatchObject({
      allowed: false,
      retryAfterSeconds: 1,
      quota: { remaining: 0, resetSeconds: 10 },
    });
    now = 5_000;
    expect((await bucket.take('k')).quota).toEqual({
      limit: 10,
      windowSeconds: 10,
      remaining: 4,
      resetSeconds: 6,
    });
  });

  it("the Worker's binding: a refusal carries what is known, a pass nothing", async () => {
    let success = true;
    const limiter = bindingLimiter({ limit: async () => ({ success }) }, 10);
    expect(await limiter.take('k')).toEqual({ allowed: true });
    success = false;
    expect(await limiter.take('k')).toEqual({
      allowed: false,
      retryAfterSeconds: 10,
      quota: { windowSeconds: 10, remaining: 0, resetSeconds: 10 },
    });
  });
});
