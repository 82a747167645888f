/**
 * OAUTHBEARER tokens from an OpenID Connect / OAuth 2.0 token endpoint with the client credentials
 * grant (RFC 6749 section 4.4): what Kafka's own Java client does with
 * `sasl.oauthbearer.token.endpoint.url`. Plain `fetch`, so it runs on every runtime.
 *
 * The client secret and the tokens are secrets: an error names the endpoint (origin and path, no
 * query), the HTTP status and the OAuth `error` code and description the endpoint gave, nothing else.
 */

import { BrokerUnavailableError } from '../../errors.js';
import type { ClientCredentials } from '../settings.js';
import { type IssuedToken, jwtExpiry, refreshingToken, type TokenSource } from './token.js';

/** A token's life when the endpoint names none and the token is not a JWT with `exp`. */
const ASSUMED_LIFETIME_MS = 5 * 60_000;
const TOKEN_REQUEST_TIMEOUT_MS = 10_000;

export function clientCredentialsToken(
  credentials: ClientCredentials,
  fetchImpl: typeof fetch = fetch,
): TokenSource {
  return refreshingToken(() => requestToken(credentials, fetchImpl));
}

function endpointName(url: string): string {
  try {
    const { origin, pathname } = new URL(url);
    return `${origin}${pathname}`;
  } catch {
    return 'the token endpoint';
  }
}

/** `application/x-www-form-urlencoded` as RFC 6749 appendix B wants it (spaces as '+'). */
function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

async function requestToken(credentials: ClientCredentials, fetchImpl: typeof fetch): Promise<IssuedToken> {
  const endpoint = endpointName(credentials.tokenUrl);
  const form = new URLSearchParams({ grant_type: 'client_credentials' });
  if (credentials.scope !== undefined) form.set('scope', credentials.scope);
  if (credentials.audience !== undefined) form.set('audience', credentials.audience);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (credentials.clientAuth === 'basic') {
    const pair = `${formEncode(credentials.clientId)}:${formEncode(credentials.clientSecret)}`;
    headers.authorization = `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(pair)))}`;
  } else {
    form.set('client_id', credentials.clientId);
    form.set('client_secret', credentials.clientSecret);
  }
  const requestedAt = Date.now();
  let response: Response;
  try {
    response = await fetchImpl(credentials.tokenUrl, {
      method: 'POST',
      headers,
      body: form.toString(),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const why =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    throw new BrokerUnavailableError(
      undefined,
      `SASL OAUTHBEARER: the token endpoint ${endpoint} could not be reached: ${why}`,
    );
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // A body that is not JSON: the status says enough.
  }
  if (!response.ok || typeof body.access_token !== 'string' || body.access_token === '') {
    const oauthError = typeof body.error === 'string' ? `, error '${body.error.slice(0, 100)}'` : '';
    const description =
      typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : '';
    const what = response.ok
      ? 'answered without an access_token'
      : `refused the client credentials of '${credentials.clientId}'`;
    throw new BrokerUnavailableError(
      undefined,
      `SASL OAUTHBEARER: the token endpoint ${endpoint} ${what} (HTTP ${response.status}${oauthError})${description}`,
    );
  }
  const token = body.access_token;
  const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
  const expiresAt =
    Number.isFinite(expiresIn) && expiresIn > 0
      ? requestedAt + expiresIn * 1000
      : (jwtExpiry(token) ?? requestedAt + ASSUMED_LIFETIME_MS);
  return { token, expiresAt };
}
