/**
 * Signed, opaque tokens handed to callers and taken back later (a reset plan to execute, a lag
 * snapshot to compare with), so the product keeps no state of its own between requests.
 *
 * A token is `base64url(JSON {p: purpose, t: issued ms, d: data}).base64url(HMAC-SHA256)`. The
 * purpose is inside the signed part, so a token made for one use is refused by another. HMAC runs on
 * WebCrypto, which every runtime has (Node, Lambda, Workers). Keys come from TOKEN_SIGNING_KEYS: the
 * first signs, all verify, so a key can be rotated without refusing the tokens already handed out.
 * Without a configured key each process draws its own: tokens then survive neither a restart nor a
 * hop to another instance (Lambda, Workers), and are refused there as from another deployment.
 */

export type TokenRefusal =
  /** Not a token of this shape at all. */
  | 'malformed'
  /** Bigger than the caller was allowed to send back. */
  | 'too-large'
  /** Altered, made for another purpose, or signed by another deployment's key. */
  | 'bad-signature'
  /** Older than the purpose accepts. */
  | 'expired';

export type Verified<T> =
  | { ok: true; data: T; issuedAt: number }
  | { ok: false; reason: TokenRefusal; message: string };

export interface TokenSigner {
  sign(purpose: string, data: unknown): Promise<string>;
  verify<T = unknown>(
    purpose: string,
    token: string,
    limits: { maxAgeMs: number; maxChars: number },
  ): Promise<Verified<T>>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** WebCrypto's key type, named through the global so no DOM or Node typing is assumed. */
type CryptoKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

async function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/**
 * A signer over `secrets` (first signs, all verify); none: a random key for this process only.
 * `now` is injectable for expiry tests.
 */
export function tokenSigner(secrets: readonly string[] = [], now: () => number = Date.now): TokenSigner {
  // Made on the first token, not with the signer: WebCrypto loads on first use, and a start that
  // answers no token-bearing route (a cold Lambda's first describe) should not pay for it.
  let made: Promise<CryptoKey[]> | undefined;
  const keys = () =>
    (made ??= Promise.all(
      secrets.length > 0
        ? secrets.map((s) => hmacKey(encoder.encode(s)))
        : [hmacKey(crypto.getRandomValues(new Uint8Array(32)))],
    ));
  return {
    async sign(purpose, data) {
      const [key] = await keys();
      const body = base64url(encoder.encode(JSON.stringify({ p: purpose, t: now(), d: data })));
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key as CryptoKey, encoder.encode(body)));
      return `${body}.${base64url(mac)}`;
    },
    async verify<T>(purpose: string, token: string, limits: { maxAgeMs: number; maxChars: number }) {
      const refuse = (reason: TokenRefusal, message: string): Verified<T> => ({ ok: false, reason, message });
      if (token.length > limits.maxChars) {
        return refuse('too-large', `the token has ${token.length} characters; at most ${limits.maxChars}`);
      }
      const [body, macText, ...rest] = token.split('.');
      const mac = macText === undefined ? undefined : fromBase64url(macText);
      if (body === undefined || mac === undefined || rest.length > 0 || mac.length !== 32) {
        return refuse('malformed', 'not a token issued by this API');
      }
      let valid = false;
      for (const key of await keys()) {
        if (await crypto.subtle.verify('HMAC', key, mac, encoder.encode(body))) valid = true;
      }
      if (!valid) {
        return refuse('bad-signature', 'the token was altered or issued by another deployment');
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(decoder.decode(fromBase64url(body)));
      } catch {
        return refuse('malformed', 'not a token issued by this API');
      }
      const { p, t, d } = (parsed ?? {}) as { p?: unknown; t?: unknown; d?: unknown };
      // The purpose is checked after the signature: a signed token of another purpose is genuine,
      // but not for this use.
      if (p !== purpose || typeof t !== 'number') {
        return refuse('bad-signature', `the token was not issued for ${purpose}`);
      }
      const age = now() - t;
      if (age > limits.maxAgeMs) {
        return refuse(
          'expired',
          `the token is ${Math.round(age / 1000)} s old; at most ${Math.round(limits.maxAgeMs / 1000)} s`,
        );
      }
      return { ok: true, data: d as T, issuedAt: t };
    },
  };
}
