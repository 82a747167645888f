/** AUTH_*: API keys and their grants, JWTs from an issuer's key set, or AUTH=none. */

import { hexToBytes } from '../auth/api-keys.js';
import type { AuthConfig } from '../auth/authenticate.js';
import { type Grant, GrantError, parseGrants } from '../auth/grants.js';
import { ConfigError, type Env, oneOf, text } from './read.js';

const KEY_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const DEFAULT_GRANTS_CLAIM = 'kafka_groups';

function apiKeys(env: Env): { name: string; sha256: Uint8Array }[] {
  const raw = text(env, 'AUTH_API_KEYS');
  if (raw === undefined) return [];
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const names = new Set<string>();
  return entries.map((entry, i) => {
    // Only the name is ever quoted back: a key pasted here by mistake must not reach a log.
    const [name = '', hash = '', ...rest] = entry.split(':');
    if (!KEY_NAME.test(name) || rest.length > 0 || !/^[0-9a-fA-F]{64}$/.test(hash)) {
      throw new ConfigError(
        'AUTH_API_KEYS',
        `entry ${i + 1}: expected name:sha256hex (a name of letters, digits, '.', '_' or '-', then the 64 hex digits of the key's SHA-256)`,
      );
    }
    if (names.has(name)) throw new ConfigError('AUTH_API_KEYS', `the name '${name}' is used twice`);
    names.add(name);
    return { name, sha256: hexToBytes(hash.toLowerCase()) };
  });
}

function keyGrants(env: Env, keyNames: string[]): Record<string, Grant[]> {
  const raw = text(env, 'AUTH_GRANTS');
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      'AUTH_GRANTS',
      'expected a JSON object: {"<key name>": {"groups": [...], "actions": [...]}}',
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigError('AUTH_GRANTS', 'expected a JSON object keyed by API key name');
  }
  const out: Array<[string, Grant[]]> = [];
  for (const [name, grants] of Object.entries(value)) {
    if (!keyNames.includes(name)) {
      throw new ConfigError('AUTH_GRANTS', `'${name}' is not a key name of AUTH_API_KEYS`);
    }
    try {
      out.push([name, parseGrants(grants, name)]);
    } catch (error) {
      if (error instanceof GrantError) throw new ConfigError('AUTH_GRANTS', error.message);
      throw error;
    }
  }
  // Own properties whatever the names (`__proto__`, `constructor`): read with Object.hasOwn.
  return Object.fromEntries(out);
}

function jwksUrl(env: Env): string | undefined {
  const raw = text(env, 'AUTH_JWKS_URL');
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('AUTH_JWKS_URL', `expected an absolute URL, received '${raw}'`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError('AUTH_JWKS_URL', 'expected an https URL (http only on loopback)');
  }
  return url.href;
}

export function auth(env: Env): AuthConfig {
  const mode = oneOf(env, 'AUTH', ['none'] as const);
  const keys = apiKeys(env);
  const jwks = jwksUrl(env);
  if (mode === 'none') {
    const conflicting = ['AUTH_API_KEYS', 'AUTH_JWKS_URL', 'AUTH_GRANTS'].find(
      (n) => text(env, n) !== undefined,
    );
    if (conflicting)
      throw new ConfigError('AUTH', `AUTH=none serves everyone: unset ${conflicting}, or unset AUTH`);
    return { mode: 'none' };
  }
  if (keys.length === 0 && jwks === undefined) {
    throw new ConfigError(
      'AUTH',
      'no authentication chosen: set AUTH_API_KEYS (hashes of API keys) or AUTH_JWKS_URL (JWTs), or AUTH=none to serve every caller without credentials',
    );
  }
  const privateDocs = oneOf(env, 'AUTH_DOCS', ['public', 'private'] as const, 'public') === 'private';
  const grants = keyGrants(
    env,
    keys.map((k) => k.name),
  );
  if (jwks === undefined) return { mode: 'enforced', apiKeys: keys, keyGrants: grants, privateDocs };
  const issuer = text(env, 'AUTH_JWT_ISSUER');
  const audience = text(env, 'AUTH_JWT_AUDIENCE');
  if (issuer === undefined) throw new ConfigError('AUTH_JWT_ISSUER', 'required with AUTH_JWKS_URL');
  if (audience === undefined) throw new ConfigError('AUTH_JWT_AUDIENCE', 'required with AUTH_JWKS_URL');
  return {
    mode: 'enforced',
    apiKeys: keys,
    keyGrants: grants,
    privateDocs,
    jwt: {
      jwksUrl: jwks,
      issuer,
      audience,
      grantsClaim: text(env, 'AUTH_JWT_GRANTS_CLAIM') ?? DEFAULT_GRANTS_CLAIM,
    },
  };
}
