/**
 * Rate limiting: a token bucket per key (a principal, or a client address when the API is open).
 * Each bucket holds up to `burst` tokens and refills at `perMinute`; a request takes one. In the
 * Node server and a Lambda instance the buckets live in memory; on Workers, where every isolate
 * would keep its own, the platform's rate-limit binding counts across them when one is configured.
 */

/**
 * What a limiter knows of the caller's quota after a request: the burst it allows (`limit`) and
 * the seconds an empty burst takes to refill (`windowSeconds`): the policy, `limit` requests per
 * `windowSeconds`; then what is left of the burst and the seconds until it is whole again. A
 * limiter that counts elsewhere may know only some of it (`limit` undefined).
 */
export interface RateQuota {
  limit?: number;
  windowSeconds: number;
  remaining: number;
  resetSeconds: number;
}

export type RateDecision = ({ allowed: true } | { allowed: false; retryAfterSeconds: number }) & {
  quota?: RateQuota;
};

export interface RateLimiter {
  take(key: string): Promise<RateDecision>;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept at most; full ones are dropped first, since forgetting them changes nothing. */
const MAX_BUCKETS = 50_000;

export class TokenBucketLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  async take(key: string): Promise<RateDecision> {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    // Re-inserted so that the map's order is least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > MAX_BUCKETS) this.evict(now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, quota: this.quota(bucket) };
    }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)),
      quota: this.quota(bucket),
    };
  }

  private quota(bucket: Bucket): RateQuota {
    return {
      limit: this.burst,
      windowSeconds: Math.ceil(this.burst / this.perMs / 1000),
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.burst - bucket.tokens) / this.perMs / 1000),
    };
  }

  private evict(now: number): void {
    for (const [key, bucket] of this.buckets) {
      if (this.buckets.size <= MAX_BUCKETS * 0.9) return;
      const full = bucket.tokens + (now - bucket.at) * this.perMs >= this.burst;
      if (full) this.buckets.delete(key);
    }
    // Still too many keys busy at once: forget the least recently seen.
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= MAX_BUCKETS * 0.9) return;
      this.buckets.delete(key);
    }
  }
}

/** Cloudflare's rate-limit binding (`[[ratelimits]]` in wrangler.toml). */
export interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

export function isRateLimitBinding(value: unknown): value is RateLimitBinding {
  return (
    value !== null && typeof value === 'object' && typeof (value as RateLimitBinding).limit === 'function'
  );
}

/**
 * The binding's own period (10 or 60 s) is the honest upper bound of the wait. It answers only
 * yes or no, and its limit is in wrangler.toml, out of the Worker's sight: a refusal says what is
 * known (nothing left, whole again within the period), an allowed request says nothing.
 */
export function bindingLimiter(binding: RateLimitBinding, periodSeconds = 60): RateLimiter {
  return {
    async take(key) {
      const { success } = await binding.limit({ key });
      if (success) return { allowed: true };
      return {
        allowed: false,
        retryAfterSeconds: periodSeconds,
        quota: { windowSeconds: periodSeconds, remaining: 0, resetSeconds: periodSeconds },
      };
    },
  };
}
