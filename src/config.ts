/**
 * Environment → typed configuration, in one place, for every runtime.
 *
 * Each runtime hands its own environment record (process.env, a Worker's env bindings) to
 * `loadConfig`; a bad value fails with `ConfigError` naming the variable. Values of secret
 * variables never appear in an error.
 */

import { hexToBytes } from './auth/api-keys.js';
import type { AuthConfig } from './auth/authenticate.js';
import { type Grant, GrantError, parseGrants } from './auth/grants.js';

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer' | 'aws-msk-iam';

/** SASL: a user and password, an OAuth client (OIDC client credentials), or Amazon MSK IAM. */
export type SaslConfig =
  | { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string }
  | {
      mechanism: 'oauthbearer';
      tokenUrl: string;
      clientId: string;
      /** Secret. */
      clientSecret: string;
      scope?: string;
      audience?: string;
      clientAuth: 'basic' | 'post';
    }
  | { mechanism: 'aws-msk-iam'; region: string };

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  /** `false`, or TLS options for kafkajs (`true` means system CAs). */
  ssl: false | { ca?: string; cert?: string; key?: string; rejectUnauthorized: boolean; servername?: string };
  sasl?: SaslConfig;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
}

/** One cluster behind the API, under its URL alias (`/clusters/{alias}/...`). */
export interface ClusterConfig {
  alias: string;
  kafka: KafkaConfig;
}

export interface Config {
  port: number;
  /** The default cluster's settings: the one the short routes (`/groups`, ...) serve. */
  kafka: KafkaConfig;
  /** Every cluster, the default first. */
  clusters: ClusterConfig[];
  /** The alias of the default cluster. */
  defaultCluster: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  auth: AuthConfig;
  limits: HttpLimits;
  /** The API's public base URL for the document's `servers`; unset: each request's own origin. */
  publicUrl?: string;
  /** HMAC keys of the tokens handed to callers (first signs, all verify); empty: one per process. */
  tokenKeys: string[];
  /** WRITES: whether the write routes may run at all (see WritesSetting). */
  writes: WritesSetting;
}

/**
 * WRITES. `unset`: with AUTH=none every write is refused, with authentication the grants decide.
 * `enabled`: with AUTH=none anyone may write (the demo); with authentication the grants still
 * decide (it grants nothing). `disabled`: every write is refused whatever the grants, the
 * operator's kill switch.
 */
export type WritesSetting = 'enabled' | 'disabled' | 'unset';

/** What one request may cost, and who may call from a browser. */
export interface HttpLimits {
  maxBodyBytes: number;
  requestTimeoutMs: number;
  /** Token bucket per principal (per client address when open); undefined: no rate limit. */
  rateLimit?: { perMinute: number; burst: number };
  /**
   * Token bucket per client address for the open paths (/healthz, /readyz, the document and the
   * docs page): generous, apart from the callers' buckets; undefined: not limited.
   */
  openRateLimit?: { perMinute: number; burst: number };
  /** Origins allowed by CORS; empty: CORS off (no Access-Control-* header is ever sent). */
  corsOrigins: string[];
}

export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

/** Every variable this product reads, with its meaning; the README mirrors this list. */
export const ENV_VARIABLES = {
  PORT: 'HTTP port of the Node server (default 8080)',
  LOG_LEVEL: 'debug | info | warn | error | silent (default info)',
  KAFKA_BROKERS: 'comma-separated bootstrap brokers host:port (default 127.0.0.1:9092)',
  KAFKA_CLIENT_ID: 'client id sent to the brokers (default kafka-groups-rest)',
  KAFKA_SSL: 'true to connect with TLS (default false; implied by KAFKA_SSL_CA, _CERT, _KEY or _SERVERNAME)',
  KAFKA_SSL_CA: 'PEM of the CA(s) to trust instead of the system store',
  KAFKA_SSL_CERT: 'PEM client certificate for mutual TLS',
  KAFKA_SSL_KEY: 'PEM private key of the client certificate (secret)',
  KAFKA_SSL_REJECT_UNAUTHORIZED: 'false to accept any server certificate (default true)',
  KAFKA_SSL_SERVERNAME: 'TLS server name (SNI) when it differs from the broker host',
  KAFKA_SASL_MECHANISM: 'plain | scram-sha-256 | scram-sha-512 | oauthbearer | aws-msk-iam (unset: no SASL)',
  KAFKA_SASL_USERNAME: 'SASL user name',
  KAFKA_SASL_PASSWORD: 'SASL password (secret)',
  KAFKA_SASL_OAUTH_TOKEN_URL: 'oauthbearer: the OAuth/OIDC token endpoint (https; http only on loopback)',
  KAFKA_SASL_OAUTH_CLIENT_ID: 'oauthbearer: the client id of the client credentials grant',
  KAFKA_SASL_OAUTH_CLIENT_SECRET: 'oauthbearer: the client secret (secret)',
  KAFKA_SASL_OAUTH_SCOPE: 'oauthbearer: the scope to ask for (optional; Entra ID: api://<app>/.default)',
  KAFKA_SASL_OAUTH_AUDIENCE: 'oauthbearer: an audience parameter for issuers that want one (optional)',
  KAFKA_SASL_OAUTH_CLIENT_AUTH:
    'oauthbearer: basic (default: client id and secret in an HTTP Basic header) or post (in the form body)',
  KAFKA_SASL_AWS_REGION: 'aws-msk-iam: the AWS region of the cluster (default AWS_REGION)',
  KAFKA_CLUSTERS:
    'comma-separated aliases of further clusters (lower-case letters, digits, -), each configured by KAFKA_CLUSTER_<ALIAS>_* variables',
  KAFKA_DEFAULT_CLUSTER:
    'the alias the short routes serve (default: "default", the cluster of KAFKA_BROKERS; without KAFKA_BROKERS the first of KAFKA_CLUSTERS)',
  KAFKA_CONNECTION_TIMEOUT_MS: 'TCP/TLS connect timeout in ms (default 3000)',
  KAFKA_REQUEST_TIMEOUT_MS: 'time to wait for one broker answer in ms (default 10000)',
  AUTH: 'none to serve without authentication; required unless AUTH_API_KEYS or AUTH_JWKS_URL is set',
  AUTH_API_KEYS: 'comma-separated name:sha256hex entries, the SHA-256 of each API key (never the keys)',
  AUTH_GRANTS: 'JSON object: API key name → grant or list of grants {groups, types?, actions}',
  AUTH_JWKS_URL: "URL of the JWT issuer's key set (https, or http on loopback)",
  AUTH_JWT_ISSUER: 'required iss of JWTs (required with AUTH_JWKS_URL)',
  AUTH_JWT_AUDIENCE: 'required aud of JWTs (required with AUTH_JWKS_URL)',
  AUTH_JWT_GRANTS_CLAIM: "the JWT claim holding the caller's grants (default kafka_groups)",
  AUTH_DOCS: 'public (default) or private: whether /openapi.json and /docs need credentials',
  MAX_BODY_BYTES: 'largest request body in bytes (default 4194304; 413 above)',
  REQUEST_TIMEOUT_MS: 'deadline of one request, broker calls included, in ms (default 30000; 504 after)',
  RATE_LIMIT_PER_MINUTE:
    'requests per minute per principal, or per client address when open (default 600; 0: off)',
  RATE_LIMIT_BURST: 'requests allowed at once above the steady rate (default 100)',
  RATE_LIMIT_OPEN_PER_MINUTE:
    'requests per minute per client address to the open paths: /healthz, /readyz, /openapi.json, /docs and its assets (default 6000; 0: off)',
  RATE_LIMIT_OPEN_BURST: 'requests to the open paths allowed at once above that rate (default 600)',
  CORS_ORIGINS: 'comma-separated origins allowed to call from a browser, or * (default: CORS off)',
  TOKEN_SIGNING_KEYS:
    'comma-separated secrets (32+ characters each) signing the tokens callers hand back: reset plans, lag snapshots; the first signs, all verify (secret; default: a random key per process, so tokens do not survive a restart or reach another instance)',
  WRITES:
    'enabled | disabled (default unset): with AUTH=none writes are refused unless enabled; with authentication the grants decide, and disabled refuses every write whatever the grants',
  API_PUBLIC_URL:
    "the API's public base URL (http or https, path allowed) the OpenAPI document lists in `servers`, for clients behind a proxy (default: /, relative to wherever the document was read; never taken from a request)",
} as const;

const SASL_MECHANISMS: readonly SaslMechanism[] = [
  'plain',
  'scram-sha-256',
  'scram-sha-512',
  'oauthbearer',
  'aws-msk-iam',
];
const LOG_LEVELS: readonly Config['logLevel'][] = ['debug', 'info', 'warn', 'error', 'silent'];

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `expected an integer from ${min} to ${max}, received '${raw}'`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === '1' || lower === 'yes') return true;
  if (lower === 'false' || lower === '0' || lower === 'no') return false;
  throw new ConfigError(name, `expected true or false, received '${raw}'`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T;
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[]): T | undefined;
function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (!(allowed as readonly string[]).includes(lower)) {
    throw new ConfigError(name, `expected one of ${allowed.join(', ')}, received '${raw}'`);
  }
  return lower as T;
}

export function parseBrokers(raw: string, variable = 'KAFKA_BROKERS'): string[] {
  const brokers = raw
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  if (brokers.length === 0) throw new ConfigError(variable, 'expected at least one host:port');
  for (const broker of brokers) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(broker);
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535) {
      throw new ConfigError(variable, `expected host:port entries separated by commas, received '${broker}'`);
    }
  }
  return brokers;
}

/**
 * The name of a cluster variable: `KAFKA_<suffix>` for the cluster of the single-cluster variables,
 * `KAFKA_CLUSTER_<ALIAS>_<suffix>` for a cluster of KAFKA_CLUSTERS (alias upper-cased, `-` as `_`).
 */
type VariableName = (suffix: string) => string;
const singleCluster: VariableName = (suffix) => `KAFKA_${suffix}`;
export const clusterVariable =
  (alias: string): VariableName =>
  (suffix) =>
    `KAFKA_CLUSTER_${alias.toUpperCase().replace(/-/g, '_')}_${suffix}`;

function ssl(env: Env, v: VariableName = singleCluster): KafkaConfig['ssl'] {
  const ca = text(env, v('SSL_CA'));
  const cert = text(env, v('SSL_CERT'));
  const key = text(env, v('SSL_KEY'));
  const servername = text(env, v('SSL_SERVERNAME'));
  const implied = ca !== undefined || cert !== undefined || key !== undefined || servername !== undefined;
  // Read even when TLS stays off, so a typo is reported rather than ignored.
  const rejectUnauthorized = boolean(env, v('SSL_REJECT_UNAUTHORIZED'), true);
  if (!boolean(env, v('SSL'), implied)) return false;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError(
      cert === undefined ? v('SSL_CERT') : v('SSL_KEY'),
      `${v('SSL_CERT')} and ${v('SSL_KEY')} must be set together`,
    );
  }
  return {
    rejectUnauthorized,
    ...(ca !== undefined && { ca }),
    ...(cert !== undefined && { cert }),
    ...(key !== undefined && { key }),
    ...(servername !== undefined && { servername }),
  };
}

/** An absolute http(s) URL; http only on loopback. Never echoed: a URL may carry credentials. */
function endpointUrl(env: Env, name: string): string | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, 'expected an absolute https URL');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ConfigError(name, 'expected an https URL (http only on loopback)');
  }
  return url.href;
}

function sasl(env: Env, v: VariableName = singleCluster): KafkaConfig['sasl'] {
  const mechanism = oneOf(env, v('SASL_MECHANISM'), SASL_MECHANISMS);
  if (mechanism === undefined) return undefined;
  const required = (name: string) =>
    new ConfigError(name, `required with ${v('SASL_MECHANISM')}=${mechanism}`);
  if (mechanism === 'oauthbearer') {
    const tokenUrl = endpointUrl(env, v('SASL_OAUTH_TOKEN_URL'));
    const clientId = text(env, v('SASL_OAUTH_CLIENT_ID'));
    // Taken as given and never echoed, like a password.
    const clientSecret = env[v('SASL_OAUTH_CLIENT_SECRET')];
    if (tokenUrl === undefined) throw required(v('SASL_OAUTH_TOKEN_URL'));
    if (clientId === undefined) throw required(v('SASL_OAUTH_CLIENT_ID'));
    if (clientSecret === undefined || clientSecret === '') throw required(v('SASL_OAUTH_CLIENT_SECRET'));
    const scope = text(env, v('SASL_OAUTH_SCOPE'));
    const audience = text(env, v('SASL_OAUTH_AUDIENCE'));
    return {
      mechanism,
      tokenUrl,
      clientId,
      clientSecret,
      clientAuth: oneOf(env, v('SASL_OAUTH_CLIENT_AUTH'), ['basic', 'post'] as const, 'basic'),
      ...(scope !== undefined && { scope }),
      ...(audience !== undefined && { audience }),
    };
  }
  if (mechanism === 'aws-msk-iam') {
    const region = text(env, v('SASL_AWS_REGION')) ?? text(env, 'AWS_REGION');
    if (region === undefined) {
      throw new ConfigError(
        v('SASL_AWS_REGION'),
        `required with ${v('SASL_MECHANISM')}=aws-msk-iam when AWS_REGION is unset`,
      );
    }
    if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) {
      throw new ConfigError(
        v('SASL_AWS_REGION'),
        `expected an AWS region such as eu-west-1, received '${region}'`,
      );
    }
    return { mechanism, region };
  }
  const username = text(env, v('SASL_USERNAME'));
  // The password is taken as given (spaces may be part of it) and never echoed.
  const password = env[v('SASL_PASSWORD')];
  if (username === undefined) throw required(v('SASL_USERNAME'));
  if (password === undefined || password === '') throw required(v('SASL_PASSWORD'));
  return { mechanism, username, password };
}

/** One cluster's connection settings; timeouts and client id fall back to the single-cluster ones. */
function kafkaConfig(env: Env, v: VariableName, fallback?: KafkaConfig): KafkaConfig {
  const brokers = text(env, v('BROKERS'));
  if (fallback && brokers === undefined)
    throw new ConfigError(v('BROKERS'), 'required for every cluster of KAFKA_CLUSTERS');
  const sasl_ = sasl(env, v);
  return {
    brokers: parseBrokers(brokers ?? '127.0.0.1:9092', v('BROKERS')),
    clientId: text(env, v('CLIENT_ID')) ?? fallback?.clientId ?? 'kafka-groups-rest',
    ssl: ssl(env, v),
    ...(sasl_ && { sasl: sasl_ }),
    connectionTimeoutMs: integer(
      env,
      v('CONNECTION_TIMEOUT_MS'),
      fallback?.connectionTimeoutMs ?? 3000,
      1,
      600_000,
    ),
    requestTimeoutMs: integer(env, v('REQUEST_TIMEOUT_MS'), fallback?.requestTimeoutMs ?? 10_000, 1, 600_000),
  };
}

export const DEFAULT_CLUSTER_ALIAS = 'default';
/** URL-safe: lower-case letters, digits and inner hyphens, as a path segment needs no encoding. */
const ALIAS = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
/** The single-cluster variables that say something about the cluster of KAFKA_BROKERS. */
const SINGLE_CLUSTER_ONLY = ['SSL', 'SSL_CA', 'SSL_CERT', 'SSL_KEY', 'SSL_SERVERNAME', 'SASL_MECHANISM'];

/**
 * The clusters: the one of the single-cluster variables (alias `default`) when KAFKA_BROKERS is set
 * or KAFKA_CLUSTERS is not, then each alias of KAFKA_CLUSTERS with its KAFKA_CLUSTER_<ALIAS>_*.
 */
function clusters(env: Env): { clusters: ClusterConfig[]; defaultCluster: string } {
  const listed = (text(env, 'KAFKA_CLUSTERS') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const seen = new Set<string>();
  for (const alias of listed) {
    if (!ALIAS.test(alias)) {
      throw new ConfigError(
        'KAFKA_CLUSTERS',
        `expected aliases of lower-case letters, digits and inner '-' (at most 32), received '${alias}'`,
      );
    }
    if (seen.has(alias)) throw new ConfigError('KAFKA_CLUSTERS', `the alias '${alias}' is listed twice`);
    seen.add(alias);
  }
  const single = listed.length === 0 || text(env, 'KAFKA_BROKERS') !== undefined;
  if (single && seen.has(DEFAULT_CLUSTER_ALIAS)) {
    throw new ConfigError(
      'KAFKA_CLUSTERS',
      `'${DEFAULT_CLUSTER_ALIAS}' is the cluster of KAFKA_BROKERS; choose another alias`,
    );
  }
  if (!single) {
    const stray = SINGLE_CLUSTER_ONLY.map(singleCluster).find((n) => text(env, n) !== undefined);
    if (stray) {
      throw new ConfigError(
        stray,
        'set for the cluster of KAFKA_BROKERS, which is not set: set KAFKA_BROKERS, or use KAFKA_CLUSTER_<ALIAS>_* variables',
      );
    }
  }
  const base = kafkaConfig(env, singleCluster);
  const all: ClusterConfig[] = [
    ...(single ? [{ alias: DEFAULT_CLUSTER_ALIAS, kafka: base }] : []),
    ...listed.map((alias) => ({ alias, kafka: kafkaConfig(env, clusterVariable(alias), base) })),
  ];
  const chosen = text(env, 'KAFKA_DEFAULT_CLUSTER') ?? (all[0] as ClusterConfig).alias;
  const index = all.findIndex((c) => c.alias === chosen);
  if (index < 0) {
    throw new ConfigError(
      'KAFKA_DEFAULT_CLUSTER',
      `expected one of ${all.map((c) => c.alias).join(', ')}, received '${chosen}'`,
    );
  }
  // The default first: listings show it first, and config.kafka is it.
  return {
    clusters: [all[index] as ClusterConfig, ...all.filter((_, i) => i !== index)],
    defaultCluster: chosen,
  };
}

/** An absolute http(s) URL without query or fragment, without its trailing slash. */
function publicUrl(env: Env): string | undefined {
  const raw = text(env, 'API_PUBLIC_URL');
  if (raw === undefined) return undefined;
  const expected = `expected an absolute http or https URL without query or fragment, received '${raw}'`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('API_PUBLIC_URL', expected);
  }
  // Not echoed: the value would carry the credentials.
  if (url.username || url.password)
    throw new ConfigError('API_PUBLIC_URL', 'expected a URL without user name or password');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash)
    throw new ConfigError('API_PUBLIC_URL', expected);
  return url.href.replace(/\/+$/, '');
}

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

function auth(env: Env): AuthConfig {
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

function corsOrigins(env: Env): string[] {
  const raw = text(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of origins) {
    if (origin === '*') continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(
        'CORS_ORIGINS',
        `expected origins such as https://app.example.com, or *, received '${origin}'`,
      );
    }
  }
  return origins;
}

function limits(env: Env): HttpLimits {
  const perMinute = integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 10_000_000);
  const burst = integer(env, 'RATE_LIMIT_BURST', 100, 1, 10_000_000);
  const openPerMinute = integer(env, 'RATE_LIMIT_OPEN_PER_MINUTE', 6000, 0, 10_000_000);
  const openBurst = integer(env, 'RATE_LIMIT_OPEN_BURST', 600, 1, 10_000_000);
  return {
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 900_000),
    ...(perMinute > 0 && { rateLimit: { perMinute, burst } }),
    ...(openPerMinute > 0 && { openRateLimit: { perMinute: openPerMinute, burst: openBurst } }),
    corsOrigins: corsOrigins(env),
  };
}

function tokenKeys(env: Env): string[] {
  const raw = text(env, 'TOKEN_SIGNING_KEYS');
  if (raw === undefined) return [];
  const keys = raw.split(',').map((k) => k.trim());
  keys.forEach((key, i) => {
    // Only the position is named: the value is a secret.
    if (key.length < 32) {
      throw new ConfigError('TOKEN_SIGNING_KEYS', `key ${i + 1}: expected at least 32 characters`);
    }
  });
  return keys;
}

export function loadConfig(env: Env): Config {
  const clusters_ = clusters(env);
  const publicUrl_ = publicUrl(env);
  return {
    auth: auth(env),
    limits: limits(env),
    port: integer(env, 'PORT', 8080, 0, 65535),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    kafka: (clusters_.clusters[0] as ClusterConfig).kafka,
    clusters: clusters_.clusters,
    defaultCluster: clusters_.defaultCluster,
    ...(publicUrl_ !== undefined && { publicUrl: publicUrl_ }),
    tokenKeys: tokenKeys(env),
    writes: oneOf(env, 'WRITES', ['enabled', 'disabled'] as const) ?? 'unset',
  };
}
