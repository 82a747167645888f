/**
 * Who is calling: an API key's name or a JWT's subject, with the grants of that principal alone;
 * or, when the operator chose AUTH=none, the anonymous caller with every read permission.
 */

import { type ApiKeyEntry, matchApiKey } from './api-keys.js';
import { type Grant, GrantError, OPEN_PERMISSIONS, Permissions, parseGrants } from './grants.js';
import { createJwtVerifier, type JwtConfig } from './jwt.js';

export type AuthConfig =
  | { mode: 'none' }
  | {
      mode: 'enforced';
      apiKeys: ApiKeyEntry[];
      /** Grants per API key name (AUTH_GRANTS). */
      keyGrants: Record<string, Grant[]>;
      jwt?: JwtConfig;
      /** Whether /openapi.json and /docs need credentials too. */
      privateDocs: boolean;
    };

export interface Principal {
  /** `key:<name>`, `jwt:<sub>` or `anonymous`: the rate limiter's key, and what logs show. */
  id: string;
  permissions: Permissions;
}

export type AuthOutcome =
  | { ok: true; principal: Principal }
  /** `invalidToken`: credentials came but were refused (RFC 6750 error="invalid_token"). */
  | { ok: false; reason: string; invalidToken: boolean }
  /** The credentials could not be checked (the JWT issuer's key set is unreachable): not the caller's fault. */
  | { ok: false; reason: string; unavailable: true };

export interface Authenticator {
  readonly enforced: boolean;
  readonly privateDocs: boolean;
  authenticate(authorization: string | undefined): Promise<AuthOutcome>;
}

const ANONYMOUS: Principal = { id: 'anonymous', permissions: OPEN_PERMISSIONS };
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export function createAuthenticator(config: AuthConfig): Authenticator {
  if (config.mode === 'none') {
    return {
      enforced: false,
      privateDocs: false,
      authenticate: async () => ({ ok: true, principal: ANONYMOUS }),
    };
  }
  const verifyJwt = config.jwt ? createJwtVerifier(config.jwt) : undefined;
  const grantsClaim = config.jwt?.grantsClaim;
  const keyPermissions = new Map(
    config.apiKeys.map((k) => [
      k.name,
      new Permissions(Object.hasOwn(config.keyGrants, k.name) ? (config.keyGrants[k.name] ?? []) : []),
    ]),
  );

  return {
    enforced: true,
    privateDocs: config.privateDocs,
    async authenticate(authorization) {
      if (authorization === undefined || authorization.trim() === '') {
        return {
          ok: false,
          reason: 'credentials are required: Authorization: Bearer <key or token>',
          invalidToken: false,
        };
      }
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      if (!match) {
        return { ok: false, reason: 'expected Authorization: Bearer <key or token>', invalidToken: false };
      }
      const token = match[1] as string;
      const keyName = await matchApiKey(config.apiKeys, token);
      if (keyName !== undefined) {
        return {
          ok: true,
          principal: { id: `key:${keyName}`, permissions: keyPermissions.get(keyName) as Permissions },
        };
      }
      if (!verifyJwt || !JWT_SHAPE.test(token)) {
        return { ok: false, reason: 'the key or token is not recognised', invalidToken: true };
      }
      const verified = await verifyJwt(token);
      if (!verified.ok) {
        return verified.unavailable
          ? { ok: false, reason: verified.reason, unavailable: true }
          : { ok: false, reason: verified.reason, invalidToken: true };
      }
      // A claim that is not a valid grant list gives no permission rather than a guess at one.
      let grants: Grant[] = [];
      // Own claims only: a claim named `constructor` is not Object's constructor.
      const claim =
        grantsClaim !== undefined && Object.hasOwn(verified.payload, grantsClaim)
          ? verified.payload[grantsClaim]
          : undefined;
      if (claim !== undefined) {
        try {
          grants = parseGrants(claim, grantsClaim as string);
        } catch (error) {
          if (!(error instanceof GrantError)) throw error;
        }
      }
      return {
        ok: true,
        principal: { id: `jwt:${verified.payload.sub}`, permissions: new Permissions(grants) },
      };
    },
  };
}
