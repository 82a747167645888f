/**
 * JWT bearer tokens verified against the issuer's JWKS (jwt-verify.ts). jose loads on the first
 * token, not at start: a deployment with API keys, or none, never parses it.
 */

import type { JwtConfig, JwtOutcome } from './jwt-verify.js';

export type { JwtConfig, JwtOutcome } from './jwt-verify.js';

export function createJwtVerifier(config: JwtConfig): (token: string) => Promise<JwtOutcome> {
  let verifier: Promise<(token: string) => Promise<JwtOutcome>> | undefined;
  return async (token) => {
    verifier ??= import('./jwt-verify.js').then((m) => m.joseVerifier(config));
    return (await verifier)(token);
  };
}
