/**
 * KAFKA_*: the clusters and each one's transport settings (broker/transport/settings.ts): brokers,
 * TLS, SASL, timeouts, for the cluster of KAFKA_BROKERS and each alias of KAFKA_CLUSTERS.
 */

import type { ClusterSettings, SaslMechanism } from '../broker/transport/settings.js';
import { boolean, ConfigError, type Env, integer, oneOf, text } from './read.js';

/** One cluster behind the API, under its URL alias (`/clusters/{alias}/...`). */
export interface ClusterConfig {
  alias: string;
  kafka: ClusterSettings;
}

const SASL_MECHANISMS: readonly SaslMechanism[] = [
  'plain',
  'scram-sha-256',
  'scram-sha-512',
  'oauthbearer',
  'aws-msk-iam',
];
function parseBrokers(raw: string, variable = 'KAFKA_BROKERS'): string[] {
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

function ssl(env: Env, v: VariableName = singleCluster): ClusterSettings['ssl'] {
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

function sasl(env: Env, v: VariableName = singleCluster): ClusterSettings['sasl'] {
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
function kafkaConfig(env: Env, v: VariableName, fallback?: ClusterSettings): ClusterSettings {
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
    ...clusterId(env, v),
  };
}

/** KAFKA_CLUSTER_ID, or KAFKA_CLUSTER_<ALIAS>_ID: the id a cluster's brokers must have. */
function clusterId(env: Env, v: VariableName): { clusterId?: string } {
  const name = v === singleCluster ? 'KAFKA_CLUSTER_ID' : v('ID');
  const id = text(env, name);
  if (id === undefined) return {};
  // Kafka's ids are 22 characters of URL-safe base64; some tools choose their own, as long.
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) {
    throw new ConfigError(
      name,
      `expected a Kafka cluster id (letters, digits, '-' and '_', as kafka-storage prints it), received '${id.slice(0, 100)}'`,
    );
  }
  return { clusterId: id };
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
export function clusters(env: Env): { clusters: ClusterConfig[]; defaultCluster: string } {
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
