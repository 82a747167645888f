/**
 * Tokens for SASL OAUTHBEARER, kept and refreshed before they expire. Every connection of a cluster
 * authenticates (and re-authenticates, when the broker limits sessions) with the same source, so a
 * token endpoint is asked once per token lifetime, not once per connection.
 */

export interface IssuedToken {
  /** The bearer token itself (secret: never logged, never in an error). */
  token: string;
  /** Epoch milliseconds after which the broker refuses it. */
  expiresAt: number;
}

/** Hands out a token valid for a while yet; rejects with a BrokerUnavailableError naming why there is none. */
export type TokenSource = () => Promise<string>;

/** How long before expiry a token is replaced: a fifth of its life, at most a minute. */
export function refreshMargin(lifetimeMs: number): number {
  return Math.min(60_000, Math.max(0, lifetimeMs) / 5);
}

/**
 * A token source over `issue`: the current token until its refresh point, then a new one; callers
 * at once share one request. When a refresh fails while the current token is still valid, the
 * current one serves (the next call tries again); with no valid token the failure is the answer.
 */
export function refreshingToken(
  issue: () => Promise<IssuedToken>,
  now: () => number = Date.now,
): TokenSource {
  let current: { token: string; expiresAt: number; refreshAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const refresh = () => {
    pending ??= (async () => {
      try {
        const issuedAt = now();
        const next = await issue();
        const lifetime = next.expiresAt - issuedAt;
        current = { ...next, refreshAt: next.expiresAt - refreshMargin(lifetime) };
        return next.token;
      } catch (error) {
        if (current && now() < current.expiresAt - 1_000) return current.token;
        throw error;
      } finally {
        pending = undefined;
      }
    })();
    return pending;
  };
  return async () => {
    if (current && now() < current.refreshAt) return current.token;
    return refresh();
  };
}

/** The `exp` of a JWT in epoch ms, or undefined when the token is not a JWT with one. */
export function jwtExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const json = JSON.parse(new TextDecoder().decode(base64UrlDecode(payload))) as { exp?: unknown };
    return typeof json.exp === 'number' ? json.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

function base64UrlDecode(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
}
