/**
 * Environment → typed configuration, in one place, for every runtime.
 *
 * Each runtime hands its own environment record (process.env, a Worker's env bindings) to
 * `loadConfig`; a bad value fails with `ConfigError` naming the variable. Values of secret
 * variables never appear in an error.
 */

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface KafkaConfig {
  brokers: string[];
  clientId: string;
  /** `false`, or TLS options for kafkajs (`true` means system CAs). */
  ssl: false | { ca?: string; cert?: string; key?: string; rejectUnauthorized: boolean; servername?: string };
  sasl?: { mechanism: SaslMechanism; username: string; password: string };
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface Config {
  port: number;
  kafka: KafkaConfig;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** The API's public base URL for the document's `servers`; unset: each request's own origin. */
  publicUrl?: string;
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
  KAFKA_SASL_MECHANISM: 'plain | scram-sha-256 | scram-sha-512 (unset: no SASL)',
  KAFKA_SASL_USERNAME: 'SASL user name',
  KAFKA_SASL_PASSWORD: 'SASL password (secret)',
  KAFKA_CONNECTION_TIMEOUT_MS: 'TCP/TLS connect timeout in ms (default 3000)',
  KAFKA_REQUEST_TIMEOUT_MS: 'time to wait for one broker answer in ms (default 10000)',
  API_PUBLIC_URL:
    "the API's public base URL (http or https, path allowed) the OpenAPI document lists in `servers`, for clients behind a proxy (default: the origin each request came to)",
} as const;

const SASL_MECHANISMS: readonly SaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512'];
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

function ssl(env: Env): KafkaConfig['ssl'] {
  const ca = text(env, 'KAFKA_SSL_CA');
  const cert = text(env, 'KAFKA_SSL_CERT');
  const key = text(env, 'KAFKA_SSL_KEY');
  const servername = text(env, 'KAFKA_SSL_SERVERNAME');
  const implied = ca !== undefined || cert !== undefined || key !== undefined || servername !== undefined;
  // Read even when TLS stays off, so a typo is reported rather than ignored.
  const rejectUnauthorized = boolean(env, 'KAFKA_SSL_REJECT_UNAUTHORIZED', true);
  if (!boolean(env, 'KAFKA_SSL', implied)) return false;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigError(
      cert === undefined ? 'KAFKA_SSL_CERT' : 'KAFKA_SSL_KEY',
      'KAFKA_SSL_CERT and KAFKA_SSL_KEY must be set together',
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

function sasl(env: Env): KafkaConfig['sasl'] {
  const mechanism = oneOf(env, 'KAFKA_SASL_MECHANISM', SASL_MECHANISMS);
  if (mechanism === undefined) return undefined;
  const username = text(env, 'KAFKA_SASL_USERNAME');
  // The password is taken as given (spaces may be part of it) and never echoed.
  const password = env.KAFKA_SASL_PASSWORD;
  if (username === undefined)
    throw new ConfigError('KAFKA_SASL_USERNAME', `required with KAFKA_SASL_MECHANISM=${mechanism}`);
  if (password === undefined || password === '') {
    throw new ConfigError('KAFKA_SASL_PASSWORD', `required with KAFKA_SASL_MECHANISM=${mechanism}`);
  }
  return { mechanism, username, password };
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

export function loadConfig(env: Env): Config {
  const sasl_ = sasl(env);
  const publicUrl_ = publicUrl(env);
  return {
    port: integer(env, 'PORT', 8080, 0, 65535),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    kafka: {
      brokers: parseBrokers(text(env, 'KAFKA_BROKERS') ?? '127.0.0.1:9092'),
      clientId: text(env, 'KAFKA_CLIENT_ID') ?? 'kafka-groups-rest',
      ssl: ssl(env),
      ...(sasl_ && { sasl: sasl_ }),
      connectionTimeoutMs: integer(env, 'KAFKA_CONNECTION_TIMEOUT_MS', 3000, 1, 600_000),
      requestTimeoutMs: integer(env, 'KAFKA_REQUEST_TIMEOUT_MS', 10_000, 1, 600_000),
    },
    ...(publicUrl_ !== undefined && { publicUrl: publicUrl_ }),
  };
}
