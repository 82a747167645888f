/**
 * Environment → typed configuration, in one place, for every runtime.
 *
 * Each runtime hands its own environment record (process.env, a Worker's env bindings) to
 * `loadConfig`; a bad value fails with `ConfigError` naming the variable. Values of secret
 * variables never appear in an error.
 */

import type { AuthConfig } from './auth/authenticate.js';
import type { ClusterSettings } from './broker/transport/settings.js';
import { auth } from './config/auth.js';
import { type EventLimits, events } from './config/events.js';
import { type HostRule, hostPattern, LOOPBACK_HOSTS } from './config/hosts.js';
import { type ClusterConfig, clusters } from './config/kafka.js';
import { ConfigError, type Env, integer, oneOf, text } from './config/read.js';

export { DEFAULT_EVENT_LIMITS, type EventLimits } from './config/events.js';
export { clusterVariable, DEFAULT_CLUSTER_ALIAS } from './config/kafka.js';
export { ConfigError, type Env } from './config/read.js';
export { ENV_VARIABLES } from './config/variables.js';

/** The transport's settings of one cluster (broker/transport/settings.ts), as KAFKA_* set them. */
export type KafkaConfig = ClusterSettings;

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
  /** MANAGEMENT_PORT: the Node server's listener of /healthz, /readyz and /metrics; unset: the public one serves them. */
  managementPort?: number;
  /** METRICS_NAMES: the names and labels /metrics writes (see MetricsNames). */
  metricsNames: MetricsNames;
  /** EVENTS_*: the bounds of the event streams. */
  events: EventLimits;
}

/** METRICS_NAMES: this product's own metric names, or those of another exporter for its dashboards and rules. */
export const METRICS_NAMES = ['native', 'kafka-lag-exporter', 'kafka-exporter'] as const;
export type MetricsNames = (typeof METRICS_NAMES)[number];

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
  /**
   * The deadline of a streamed answer (NDJSON with lag, the readers of a topic, /metrics) from the
   * request's arrival; never shorter than `requestTimeoutMs`. Undefined: `requestTimeoutMs`.
   */
  streamTimeoutMs?: number;
  /** Token bucket per principal (per client address when open); undefined: no rate limit. */
  rateLimit?: { perMinute: number; burst: number };
  /**
   * Token bucket per client address for the open paths (/healthz, /readyz, the document and the
   * docs page): generous, apart from the callers' buckets; undefined: not limited.
   */
  openRateLimit?: { perMinute: number; burst: number };
  /** Origins allowed by CORS; empty: CORS off (no Access-Control-* header is ever sent). */
  corsOrigins: string[];
  /** The hosts served (ALLOWED_HOSTS; with AUTH=none and no list, loopback only); undefined: any. */
  hosts?: HostRule;
}

const LOG_LEVELS: readonly Config['logLevel'][] = ['debug', 'info', 'warn', 'error', 'silent'];

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

/**
 * ALLOWED_HOSTS, or what serving without it means: with AUTH=none nothing but the Host tells a
 * page on a rebound name from a local caller, so only loopback names are served; with
 * authentication a request needs credentials whatever its Host, and any host is served.
 */
function hosts(env: Env, open: boolean): HostRule {
  const raw = text(env, 'ALLOWED_HOSTS');
  if (raw === undefined)
    return open ? { any: false, patterns: LOOPBACK_HOSTS, variable: 'AUTH=none' } : { any: true };
  const entries = raw
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  if (entries.includes('*')) return { any: true };
  if (entries.length === 0)
    throw new ConfigError('ALLOWED_HOSTS', 'expected host names such as api.example.com, received none');
  const patterns = entries.map((entry) => {
    const pattern = hostPattern(entry);
    if (pattern === undefined) {
      throw new ConfigError(
        'ALLOWED_HOSTS',
        `expected host names, addresses or *.domain, each with an optional :port, received '${entry.slice(0, 200)}'`,
      );
    }
    return pattern;
  });
  return { any: false, patterns, variable: 'ALLOWED_HOSTS' };
}

function limits(env: Env, open: boolean): HttpLimits {
  const perMinute = integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 10_000_000);
  const burst = integer(env, 'RATE_LIMIT_BURST', 100, 1, 10_000_000);
  const openPerMinute = integer(env, 'RATE_LIMIT_OPEN_PER_MINUTE', 6000, 0, 10_000_000);
  const openBurst = integer(env, 'RATE_LIMIT_OPEN_BURST', 600, 1, 10_000_000);
  return {
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 4 * 1024 * 1024, 1024, 64 * 1024 * 1024),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 900_000),
    streamTimeoutMs: integer(env, 'STREAM_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    ...(perMinute > 0 && { rateLimit: { perMinute, burst } }),
    ...(openPerMinute > 0 && { openRateLimit: { perMinute: openPerMinute, burst: openBurst } }),
    corsOrigins: corsOrigins(env),
    hosts: hosts(env, open),
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
  const auth_ = auth(env);
  return {
    auth: auth_,
    limits: limits(env, auth_.mode === 'none'),
    port: integer(env, 'PORT', 8080, 0, 65535),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    kafka: (clusters_.clusters[0] as ClusterConfig).kafka,
    clusters: clusters_.clusters,
    defaultCluster: clusters_.defaultCluster,
    ...(publicUrl_ !== undefined && { publicUrl: publicUrl_ }),
    tokenKeys: tokenKeys(env),
    writes: oneOf(env, 'WRITES', ['enabled', 'disabled'] as const) ?? 'unset',
    ...managementPort(env),
    metricsNames: oneOf(env, 'METRICS_NAMES', METRICS_NAMES, 'native'),
    events: events(env),
  };
}

function managementPort(env: Env): { managementPort?: number } {
  if (text(env, 'MANAGEMENT_PORT') === undefined) return {};
  const port = integer(env, 'MANAGEMENT_PORT', 0, 0, 65535);
  const main = integer(env, 'PORT', 8080, 0, 65535);
  if (port !== 0 && port === main) {
    throw new ConfigError('MANAGEMENT_PORT', `expected a port other than PORT (${main}), received '${port}'`);
  }
  return { managementPort: port };
}
