/**
 * JWT bearer tokens verified with jose against the issuer's JWKS. jose fetches the key set once,
 * keeps it, and fetches again only for a `kid` it does not know (at most once per cooldown), so
 * requests do not each cost a round trip to the issuer. Only asymmetric algorithms: a JWKS holds
 * public keys, and accepting HS* would let anyone who reads the key set sign tokens. Loaded by
 * jwt.ts on the first token.
 */

import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';

export interface JwtConfig {
  jwksUrl: string;
  issuer: string;
  audience: string;
  /** The claim holding the principal's grants (a grant object or a list of them). */
  grantsClaim: string;
}

/**
 * `unavailable`: the token could not be checked because the issuer's key set could not be read
 * (timeout, refused connection, an error page); the caller is not at fault, so this is no 401.
 */
export type JwtOutcome =
  | { ok: true; payload: JWTPayload }
  | { ok: false; reason: string; unavailable: boolean };

export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/** Tolerated difference between this server's clock and the issuer's, for exp and nbf. */
export const CLOCK_SKEW_SECONDS = 30;
const JWKS_TIMEOUT_MS = 5000;
/** A token with an unknown kid refetches the key set at most this often. */
const JWKS_COOLDOWN_MS = 30_000;
/** Keys are refetched after this even when every kid is known, to see revocations. */
const JWKS_MAX_AGE_MS = 10 * 60_000;

export function joseVerifier(config: JwtConfig): (token: string) => Promise<JwtOutcome> {
  const keys = createRemoteJWKSet(new URL(config.jwksUrl), {
    timeoutDuration: JWKS_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
  });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ASYMMETRIC_ALGORITHMS,
        clockTolerance: CLOCK_SKEW_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      // RFC 7519 makes `sub` a StringOrURI: a number or an object would name the principal
      // `jwt:7` or `jwt:[object Object]`, one principal for every such token.
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return {
          ok: false,
          reason: `the token's 'sub' claim is not accepted: expected a non-empty string, received ${describe(payload.sub)}`,
          unavailable: false,
        };
      return { ok: true, payload };
    } catch (error) {
      return { ok: false, reason: reasonOf(error), unavailable: keySetUnreadable(error) };
    }
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === '') return 'an empty string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Whether the failure lies with the issuer's key set rather than with the token. */
function keySetUnreadable(error: unknown): boolean {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return true;
  // jose reports an answer other than 200 as a bare JOSEError; a refused connection is no
  // JOSEError at all (fetch's own TypeError).
  if (error instanceof errors.JOSEError)
    return error.code === 'ERR_JOSE_GENERIC' && /200 OK/.test(error.message);
  return true;
}

/** A short reason for the 401, naming the failed check and never the token. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'the token is not valid yet';
    return `the token's '${error.claim}' claim is not accepted`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "the token's algorithm is not accepted";
  if (error instanceof errors.JWKSNoMatchingKey)
    return "the token's signing key is not in the issuer's key set";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return "the issuer's key set could not be read";
  }
  if (error instanceof errors.JOSEError && !keySetUnreadable(error)) return 'the token cannot be verified';
  return "the issuer's key set could not be read";
}
