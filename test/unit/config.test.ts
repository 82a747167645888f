/**
 * loadConfig: the defaults, every variable, every way a value can be bad, and that secret values
 * (SASL password, TLS key) never reach an error.
 */

import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, ENV_VARIABLES, type Env, loadConfig } from '../../src/config.js';

type Variable = keyof typeof ENV_VARIABLES;

const DEFAULTS: Config = {
  port: 8080,
  tokenKeys: [],
  logLevel: 'info',
  auth: { mode: 'none' },
  limits: {
    maxBodyBytes: 4 * 1024 * 1024,
    requestTimeoutMs: 30_000,
    streamTimeoutMs: 120_000,
    rateLimit: { perMinute: 600, burst: 100 },
    openRateLimit: { perMinute: 6000, burst: 600 },
    corsOrigins: [],
    hosts: {
      any: false,
      variable: 'AUTH=none',
      patterns: [
        { name: 'localhost', subdomains: false },
        { name: '127.0.0.1', subdomains: false },
        { name: '[::1]', subdomains: false },
      ],
    },
  },
  kafka: {
    brokers: ['127.0.0.1:9092'],
    clientId: 'kafka-groups-rest',
    ssl: false,
    connectionTimeoutMs: 3000,
    requestTimeoutMs: 10_000,
  },
  writes: 'unset',
  metricsNames: 'native',
  clusters: [],
  defaultCluster: 'default',
  events: {
    pollIntervalMs: 5000,
    minPollIntervalMs: 1000,
    lagIntervalMs: 30_000,
    heartbeatMs: 15_000,
    maxLifetimeMs: 900_000,
    maxStreamsPerPrincipal: 10,
    maxGroups: 100,
  },
};
DEFAULTS.clusters = [{ alias: 'default', kafka: DEFAULTS.kafka }];

/** The user-and-password SASL settings (the others have neither). */
const userPass = (c: Config) => (c.kafka.sasl && 'password' in c.kafka.sasl ? c.kafka.sasl : undefined);
const OAUTH = {
  KAFKA_SASL_MECHANISM: 'oauthbearer',
  KAFKA_SASL_OAUTH_TOKEN_URL: 'https://login.example.com/oauth2/token',
  KAFKA_SASL_OAUTH_CLIENT_ID: 'kafka-groups-rest',
  KAFKA_SASL_OAUTH_CLIENT_SECRET: 'client-secret',
};
const oauth = (c: Config) => (c.kafka.sasl?.mechanism === 'oauthbearer' ? c.kafka.sasl : undefined);
const TWO = { KAFKA_CLUSTERS: 'eu-west', KAFKA_CLUSTER_EU_WEST_BROKERS: 'eu:9092' };

const AUTH_CHOICES = ['AUTH', 'AUTH_API_KEYS', 'AUTH_JWKS_URL'];

/** loadConfig with AUTH=none added when the case does not make its own authentication choice. */
function load(env: Env): Config {
  return loadConfig(AUTH_CHOICES.some((name) => name in env) ? env : { AUTH: 'none', ...env });
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = `ops:${hashOf('ops-key')},team-a:${hashOf('team-a-key')}`;
const JWT = {
  AUTH_JWKS_URL: 'https://id.example.com/.well-known/jwks.json',
  AUTH_JWT_ISSUER: 'https://id.example.com/',
  AUTH_JWT_AUDIENCE: 'kafka-groups-rest',
};
const enforced = (c: Config) => (c.auth.mode === 'enforced' ? c.auth : undefined);

const SASL = { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: 'pw' };
const TLS_PAIR = { KAFKA_SSL_CERT: 'CERT-PEM', KAFKA_SSL_KEY: 'KEY-PEM' };

const tls = (c: Config) => (c.kafka.ssl === false ? undefined : c.kafka.ssl);

/** The ConfigError `load` throws (fails the test when it throws nothing or something else). */
function configError(env: Env): ConfigError {
  try {
    load(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('defaults with AUTH=none alone', () => {
    expect(loadConfig({ AUTH: 'none' })).toEqual(DEFAULTS);
  });

  it('refuses an environment that makes no authentication choice, naming the choices', () => {
    const error = configError({ KAFKA_BROKERS: 'a:1', AUTH: undefined });
    expect(error.variable).toBe('AUTH');
    for (const choice of ['AUTH_API_KEYS', 'AUTH_JWKS_URL', 'AUTH=none'])
      expect(error.message).toContain(choice);
  });

  it('treats empty and blank values as unset', () => {
    const blank = Object.fromEntries(
      Object.keys(ENV_VARIABLES).map((name) => [name, name.endsWith('PASSWORD') ? '' : '  ']),
    );
    expect(load({ ...blank, AUTH: 'none' })).toEqual(DEFAULTS);
  });

  it('reads every variable at once', () => {
    const config = load({
      PORT: '9000',
      LOG_LEVEL: 'debug',
      KAFKA_BROKERS: 'a:9092,b:9093',
      KAFKA_CLIENT_ID: 'my-client',
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA: 'CA-PEM',
      KAFKA_SSL_CERT: 'CERT-PEM',
      KAFKA_SSL_KEY: 'KEY-PEM',
      KAFKA_SSL_REJECT_UNAUTHORIZED: 'false',
      KAFKA_SSL_SERVERNAME: 'kafka.example.com',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'alice',
      KAFKA_SASL_PASSWORD: 'pw',
      KAFKA_CONNECTION_TIMEOUT_MS: '1500',
      KAFKA_REQUEST_TIMEOUT_MS: '20000',
    });
    expect({ ...config, clusters: undefined }).toEqual({
      ...DEFAULTS,
      clusters: undefined,
      port: 9000,
      logLevel: 'debug',
      kafka: {
        brokers: ['a:9092', 'b:9093'],
        clientId: 'my-client',
        ssl: {
          ca: 'CA-PEM',
          cert: 'CERT-PEM',
          key: 'KEY-PEM',
          rejectUnauthorized: false,
          servername: 'kafka.example.com',
        },
        sasl: { mechanism: 'scram-sha-512', username: 'alice', password: 'pw' },
        connectionTimeoutMs: 1500,
        requestTimeoutMs: 20_000,
      },
    });
    expect(config.clusters).toEqual([{ alias: 'default', kafka: config.kafka }]);
  });

  /** Per variable: environments and the part of the config each must produce. */
  const parsed: Record<Variable, [string, Env, (c: Config) => unknown, unknown][]> = {
    MANAGEMENT_PORT: [
      ['unset', {}, (c) => c.managementPort, undefined],
      ['9090', { MANAGEMENT_PORT: '9090' }, (c) => c.managementPort, 9090],
      ['0 (any free port) beside PORT=0', { MANAGEMENT_PORT: '0', PORT: '0' }, (c) => c.managementPort, 0],
    ],
    METRICS_NAMES: [
      ['native by default', {}, (c) => c.metricsNames, 'native'],
      ...(['native', 'kafka-lag-exporter', 'kafka-exporter'] as const).map(
        (names): [string, Env, (c: Config) => unknown, unknown] => [
          names,
          { METRICS_NAMES: names },
          (c) => c.metricsNames,
          names,
        ],
      ),
      ['any case', { METRICS_NAMES: 'Kafka-Lag-Exporter' }, (c) => c.metricsNames, 'kafka-lag-exporter'],
    ],
    PORT: [
      ['0 (any free port)', { PORT: '0' }, (c) => c.port, 0],
      ['65535', { PORT: '65535' }, (c) => c.port, 65535],
      ['with spaces around', { PORT: ' 3000 ' }, (c) => c.port, 3000],
    ],
    LOG_LEVEL: [
      ...(['debug', 'info', 'warn', 'error', 'silent'] as const).map(
        (level): [string, Env, (c: Config) => unknown, unknown] => [
          level,
          { LOG_LEVEL: level },
          (c) => c.logLevel,
          level,
        ],
      ),
      ['in upper case', { LOG_LEVEL: 'WARN' }, (c) => c.logLevel, 'warn'],
    ],
    KAFKA_BROKERS: [
      ['one broker', { KAFKA_BROKERS: 'kafka:9092' }, (c) => c.kafka.brokers, ['kafka:9092']],
      [
        'spaces and an empty entry',
        { KAFKA_BROKERS: ' a:1 , b:2,, ' },
        (c) => c.kafka.brokers,
        ['a:1', 'b:2'],
      ],
      [
        'IPv6 and IPv4 literals',
        { KAFKA_BROKERS: '[::1]:9092,10.0.0.1:9093' },
        (c) => c.kafka.brokers,
        ['[::1]:9092', '10.0.0.1:9093'],
      ],
    ],
    KAFKA_CLIENT_ID: [
      ['any text', { KAFKA_CLIENT_ID: 'reporting 1' }, (c) => c.kafka.clientId, 'reporting 1'],
    ],
    KAFKA_CLUSTER_ID: [
      ['unset: none (the first seen)', {}, (c) => c.kafka.clusterId, undefined],
      [
        "an id, and each alias's own",
        {
          KAFKA_BROKERS: 'a:9092',
          KAFKA_CLUSTER_ID: 'MkU3OEVBNTcwNTJENDM2Qg',
          KAFKA_CLUSTERS: 'eu',
          KAFKA_CLUSTER_EU_BROKERS: 'eu:9092',
          KAFKA_CLUSTER_EU_ID: 'q1Sh-9_nRNyCQ5DrnjzAoA',
        },
        (c) => c.clusters.map((k) => k.kafka.clusterId),
        ['MkU3OEVBNTcwNTJENDM2Qg', 'q1Sh-9_nRNyCQ5DrnjzAoA'],
      ],
    ],
    KAFKA_SSL: [
      ...['true', 'TRUE', '1', 'yes'].map((v): [string, Env, (c: Config) => unknown, unknown] => [
        v,
        { KAFKA_SSL: v },
        (c) => c.kafka.ssl,
        { rejectUnauthorized: true },
      ]),
      ...['false', 'False', '0', 'no'].map((v): [string, Env, (c: Config) => unknown, unknown] => [
        v,
        { KAFKA_SSL: v },
        (c) => c.kafka.ssl,
        false,
      ]),
      ['false wins over KAFKA_SSL_CA', { KAFKA_SSL: 'false', KAFKA_SSL_CA: 'CA' }, (c) => c.kafka.ssl, false],
    ],
    KAFKA_SSL_CA: [
      ['implies TLS', { KAFKA_SSL_CA: 'CA' }, (c) => c.kafka.ssl, { ca: 'CA', rejectUnauthorized: true }],
    ],
    KAFKA_SSL_CERT: [
      [
        'with the key, implies TLS',
        TLS_PAIR,
        (c) => c.kafka.ssl,
        { cert: 'CERT-PEM', key: 'KEY-PEM', rejectUnauthorized: true },
      ],
    ],
    KAFKA_SSL_KEY: [
      [
        'kept as given inside (PEM lines)',
        { KAFKA_SSL_CERT: 'C', KAFKA_SSL_KEY: '-----BEGIN KEY-----\nabc\n-----END KEY-----' },
        (c) => tls(c)?.key,
        '-----BEGIN KEY-----\nabc\n-----END KEY-----',
      ],
    ],
    KAFKA_SSL_REJECT_UNAUTHORIZED: [
      [
        'false',
        { KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' },
        (c) => c.kafka.ssl,
        { rejectUnauthorized: false },
      ],
      [
        'true',
        { KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'true' },
        (c) => c.kafka.ssl,
        { rejectUnauthorized: true },
      ],
    ],
    KAFKA_SSL_SERVERNAME: [
      [
        'implies TLS',
        { KAFKA_SSL_SERVERNAME: 'kafka.example.com' },
        (c) => c.kafka.ssl,
        { servername: 'kafka.example.com', rejectUnauthorized: true },
      ],
    ],
    KAFKA_SASL_MECHANISM: [
      ...(['plain', 'scram-sha-256', 'scram-sha-512'] as const).map(
        (m): [string, Env, (c: Config) => unknown, unknown] => [
          m,
          { ...SASL, KAFKA_SASL_MECHANISM: m },
          (c) => c.kafka.sasl?.mechanism,
          m,
        ],
      ),
      [
        'in upper case',
        { ...SASL, KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256' },
        (c) => c.kafka.sasl?.mechanism,
        'scram-sha-256',
      ],
      [
        'unset: no SASL, credentials ignored',
        { KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: 'pw' },
        (c) => c.kafka.sasl,
        undefined,
      ],
    ],
    KAFKA_SASL_USERNAME: [
      ['trimmed', { ...SASL, KAFKA_SASL_USERNAME: ' alice ' }, (c) => userPass(c)?.username, 'alice'],
    ],
    KAFKA_SASL_PASSWORD: [
      [
        'taken as given, spaces included',
        { ...SASL, KAFKA_SASL_PASSWORD: ' p w ' },
        (c) => userPass(c)?.password,
        ' p w ',
      ],
    ],
    KAFKA_SASL_OAUTH_TOKEN_URL: [
      ['an https URL', OAUTH, (c) => oauth(c)?.tokenUrl, 'https://login.example.com/oauth2/token'],
      [
        'http on loopback',
        { ...OAUTH, KAFKA_SASL_OAUTH_TOKEN_URL: 'http://127.0.0.1:8081/token' },
        (c) => oauth(c)?.tokenUrl,
        'http://127.0.0.1:8081/token',
      ],
    ],
    KAFKA_SASL_OAUTH_CLIENT_ID: [
      ['trimmed', { ...OAUTH, KAFKA_SASL_OAUTH_CLIENT_ID: ' app ' }, (c) => oauth(c)?.clientId, 'app'],
    ],
    KAFKA_SASL_OAUTH_CLIENT_SECRET: [
      [
        'taken as given',
        { ...OAUTH, KAFKA_SASL_OAUTH_CLIENT_SECRET: ' s e ' },
        (c) => oauth(c)?.clientSecret,
        ' s e ',
      ],
    ],
    KAFKA_SASL_OAUTH_SCOPE: [
      ['unset: none', OAUTH, (c) => oauth(c)?.scope, undefined],
      [
        'set',
        { ...OAUTH, KAFKA_SASL_OAUTH_SCOPE: 'api://kafka/.default' },
        (c) => oauth(c)?.scope,
        'api://kafka/.default',
      ],
    ],
    KAFKA_SASL_OAUTH_AUDIENCE: [
      ['set', { ...OAUTH, KAFKA_SASL_OAUTH_AUDIENCE: 'kafka' }, (c) => oauth(c)?.audience, 'kafka'],
    ],
    KAFKA_SASL_OAUTH_CLIENT_AUTH: [
      ['default basic', OAUTH, (c) => oauth(c)?.clientAuth, 'basic'],
      ['post', { ...OAUTH, KAFKA_SASL_OAUTH_CLIENT_AUTH: 'post' }, (c) => oauth(c)?.clientAuth, 'post'],
    ],
    KAFKA_SASL_AWS_REGION: [
      [
        'set',
        { KAFKA_SASL_MECHANISM: 'aws-msk-iam', KAFKA_SASL_AWS_REGION: 'eu-west-1' },
        (c) => c.kafka.sasl,
        { mechanism: 'aws-msk-iam', region: 'eu-west-1' },
      ],
      [
        'unset: AWS_REGION',
        { KAFKA_SASL_MECHANISM: 'aws-msk-iam', AWS_REGION: 'us-east-2' },
        (c) => c.kafka.sasl,
        { mechanism: 'aws-msk-iam', region: 'us-east-2' },
      ],
    ],
    KAFKA_CLUSTERS: [
      [
        'unset: the one cluster of KAFKA_BROKERS, as default',
        {},
        (c) => c.clusters.map((k) => k.alias),
        ['default'],
      ],
      [
        'with KAFKA_BROKERS: default first, then each alias with its own variables',
        {
          KAFKA_BROKERS: 'a:1',
          KAFKA_CLUSTERS: 'eu-west, us1',
          KAFKA_CLUSTER_EU_WEST_BROKERS: 'eu:9092',
          KAFKA_CLUSTER_EU_WEST_SASL_MECHANISM: 'plain',
          KAFKA_CLUSTER_EU_WEST_SASL_USERNAME: 'u',
          KAFKA_CLUSTER_EU_WEST_SASL_PASSWORD: 'p',
          KAFKA_CLUSTER_US1_BROKERS: 'us:9093',
          KAFKA_CLUSTER_US1_SSL: 'true',
        },
        (c) =>
          c.clusters.map((k) => [
            k.alias,
            k.kafka.brokers,
            k.kafka.sasl?.mechanism ?? null,
            k.kafka.ssl !== false,
          ]),
        [
          ['default', ['a:1'], null, false],
          ['eu-west', ['eu:9092'], 'plain', false],
          ['us1', ['us:9093'], null, true],
        ],
      ],
      [
        'without KAFKA_BROKERS: the first alias is the default',
        TWO,
        (c) => [c.defaultCluster, c.kafka.brokers],
        ['eu-west', ['eu:9092']],
      ],
    ],
    KAFKA_DEFAULT_CLUSTER: [
      [
        'names the cluster the short routes serve, listed first',
        { ...TWO, KAFKA_BROKERS: 'a:1', KAFKA_DEFAULT_CLUSTER: 'eu-west' },
        (c) => [c.defaultCluster, c.clusters.map((k) => k.alias), c.kafka.brokers],
        ['eu-west', ['eu-west', 'default'], ['eu:9092']],
      ],
    ],
    KAFKA_CONNECTION_TIMEOUT_MS: [
      ['1 (the minimum)', { KAFKA_CONNECTION_TIMEOUT_MS: '1' }, (c) => c.kafka.connectionTimeoutMs, 1],
      [
        '600000 (the maximum)',
        { KAFKA_CONNECTION_TIMEOUT_MS: '600000' },
        (c) => c.kafka.connectionTimeoutMs,
        600_000,
      ],
    ],
    KAFKA_REQUEST_TIMEOUT_MS: [
      ['1 (the minimum)', { KAFKA_REQUEST_TIMEOUT_MS: '1' }, (c) => c.kafka.requestTimeoutMs, 1],
      [
        '600000 (the maximum)',
        { KAFKA_REQUEST_TIMEOUT_MS: '600000' },
        (c) => c.kafka.requestTimeoutMs,
        600_000,
      ],
    ],
    AUTH: [
      ['none', { AUTH: 'none' }, (c) => c.auth, { mode: 'none' }],
      ['NONE, any case', { AUTH: 'NONE' }, (c) => c.auth.mode, 'none'],
    ],
    AUTH_API_KEYS: [
      [
        'two keys, hashes as bytes',
        { AUTH_API_KEYS: KEYS },
        (c) => enforced(c)?.apiKeys.map((k) => [k.name, Buffer.from(k.sha256).toString('hex')]),
        [
          ['ops', hashOf('ops-key')],
          ['team-a', hashOf('team-a-key')],
        ],
      ],
      [
        'upper-case hex, spaces and empty entries',
        { AUTH_API_KEYS: ` ops:${hashOf('x').toUpperCase()} ,, ` },
        (c) => enforced(c)?.apiKeys.map((k) => Buffer.from(k.sha256).toString('hex')),
        [hashOf('x')],
      ],
    ],
    AUTH_GRANTS: [
      [
        'key names that are Object.prototype names stay own entries',
        {
          AUTH_API_KEYS: `__proto__:${hashOf('p')},constructor:${hashOf('c')}`,
          AUTH_GRANTS: '{"__proto__": {"groups": "*", "actions": ["read"]}}',
        },
        (c) => {
          const grants = enforced(c)?.keyGrants ?? {};
          return [
            Object.getPrototypeOf(grants) === Object.prototype,
            Object.hasOwn(grants, '__proto__') && Object.getOwnPropertyDescriptor(grants, '__proto__')?.value,
            Object.hasOwn(grants, 'constructor'),
          ];
        },
        [true, [{ groups: ['*'], actions: ['read'] }], false],
      ],
      [
        'one grant, a list of grants, types',
        {
          AUTH_API_KEYS: KEYS,
          AUTH_GRANTS: JSON.stringify({
            ops: { groups: '*', actions: ['read', 'offsets'] },
            'team-a': [{ groups: ['team-a-*', 'shared'], types: ['consumer'], actions: ['read'] }],
          }),
        },
        (c) => enforced(c)?.keyGrants,
        {
          ops: [{ groups: ['*'], actions: ['read', 'offsets'] }],
          'team-a': [{ groups: ['team-a-*', 'shared'], types: ['consumer'], actions: ['read'] }],
        },
      ],
      ['unset: no key has a grant', { AUTH_API_KEYS: KEYS }, (c) => enforced(c)?.keyGrants, {}],
    ],
    AUTH_JWKS_URL: [
      [
        'https, with issuer and audience, default grants claim',
        JWT,
        (c) => enforced(c)?.jwt,
        {
          jwksUrl: JWT.AUTH_JWKS_URL,
          issuer: JWT.AUTH_JWT_ISSUER,
          audience: JWT.AUTH_JWT_AUDIENCE,
          grantsClaim: 'kafka_groups',
        },
      ],
      [
        'http on loopback',
        { ...JWT, AUTH_JWKS_URL: 'http://127.0.0.1:4000/jwks' },
        (c) => enforced(c)?.jwt?.jwksUrl,
        'http://127.0.0.1:4000/jwks',
      ],
    ],
    AUTH_JWT_ISSUER: [['kept as given', JWT, (c) => enforced(c)?.jwt?.issuer, 'https://id.example.com/']],
    AUTH_JWT_AUDIENCE: [['kept as given', JWT, (c) => enforced(c)?.jwt?.audience, 'kafka-groups-rest']],
    AUTH_JWT_GRANTS_CLAIM: [
      [
        'any claim name',
        { ...JWT, AUTH_JWT_GRANTS_CLAIM: 'perms' },
        (c) => enforced(c)?.jwt?.grantsClaim,
        'perms',
      ],
    ],
    AUTH_DOCS: [
      ['public by default', { AUTH_API_KEYS: KEYS }, (c) => enforced(c)?.privateDocs, false],
      ['private', { AUTH_API_KEYS: KEYS, AUTH_DOCS: 'private' }, (c) => enforced(c)?.privateDocs, true],
    ],
    MAX_BODY_BYTES: [['1024 (the minimum)', { MAX_BODY_BYTES: '1024' }, (c) => c.limits.maxBodyBytes, 1024]],
    REQUEST_TIMEOUT_MS: [
      ['100 (the minimum)', { REQUEST_TIMEOUT_MS: '100' }, (c) => c.limits.requestTimeoutMs, 100],
    ],
    STREAM_TIMEOUT_MS: [
      ['120000 by default', {}, (c) => c.limits.streamTimeoutMs, 120_000],
      ['1000 (the minimum)', { STREAM_TIMEOUT_MS: '1000' }, (c) => c.limits.streamTimeoutMs, 1_000],
    ],
    RATE_LIMIT_PER_MINUTE: [
      ['0 turns it off', { RATE_LIMIT_PER_MINUTE: '0' }, (c) => c.limits.rateLimit, undefined],
      [
        'with a burst',
        { RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '5' },
        (c) => c.limits.rateLimit,
        { perMinute: 60, burst: 5 },
      ],
    ],
    RATE_LIMIT_BURST: [['1', { RATE_LIMIT_BURST: '1' }, (c) => c.limits.rateLimit?.burst, 1]],
    RATE_LIMIT_OPEN_PER_MINUTE: [
      ['0 turns it off', { RATE_LIMIT_OPEN_PER_MINUTE: '0' }, (c) => c.limits.openRateLimit, undefined],
      [
        'its own rate, whatever RATE_LIMIT_PER_MINUTE says',
        { RATE_LIMIT_OPEN_PER_MINUTE: '120', RATE_LIMIT_OPEN_BURST: '10', RATE_LIMIT_PER_MINUTE: '0' },
        (c) => [c.limits.openRateLimit, c.limits.rateLimit],
        [{ perMinute: 120, burst: 10 }, undefined],
      ],
    ],
    RATE_LIMIT_OPEN_BURST: [['1', { RATE_LIMIT_OPEN_BURST: '1' }, (c) => c.limits.openRateLimit?.burst, 1]],
    ALLOWED_HOSTS: [
      ['unset, with authentication: any host', { AUTH_API_KEYS: KEYS }, (c) => c.limits.hosts, { any: true }],
      [
        'names, addresses and subdomains, with and without ports, normalised as a URL has them',
        { ALLOWED_HOSTS: ' API.example.com, *.internal.example:8443 ,10.0.0.7:80,[0:0::1], bücher.example' },
        (c) => c.limits.hosts,
        {
          any: false,
          variable: 'ALLOWED_HOSTS',
          patterns: [
            { name: 'api.example.com', subdomains: false },
            { name: 'internal.example', subdomains: true, port: 8443 },
            { name: '10.0.0.7', subdomains: false, port: 80 },
            { name: '[::1]', subdomains: false },
            { name: 'xn--bcher-kva.example', subdomains: false },
          ],
        },
      ],
      [
        '* serves any host, with AUTH=none too',
        { ALLOWED_HOSTS: 'localhost,*' },
        (c) => c.limits.hosts,
        { any: true },
      ],
    ],
    CORS_ORIGINS: [
      [
        'origins',
        { CORS_ORIGINS: 'https://a.example.com, http://localhost:3000' },
        (c) => c.limits.corsOrigins,
        ['https://a.example.com', 'http://localhost:3000'],
      ],
      ['*', { CORS_ORIGINS: '*' }, (c) => c.limits.corsOrigins, ['*']],
    ],
    TOKEN_SIGNING_KEYS: [
      ['unset: none (a key per process)', {}, (c) => c.tokenKeys, []],
      [
        'two keys, the first signing',
        { TOKEN_SIGNING_KEYS: ` ${'n'.repeat(32)} ,${'o'.repeat(40)}` },
        (c) => c.tokenKeys,
        ['n'.repeat(32), 'o'.repeat(40)],
      ],
    ],
    API_PUBLIC_URL: [
      ['unset: none (the request origin serves)', {}, (c) => c.publicUrl, undefined],
      [
        'an https origin',
        { API_PUBLIC_URL: 'https://groups.example.net' },
        (c) => c.publicUrl,
        'https://groups.example.net',
      ],
      [
        'a path behind a proxy, trailing slash dropped',
        { API_PUBLIC_URL: ' http://gateway:8443/kafka/ ' },
        (c) => c.publicUrl,
        'http://gateway:8443/kafka',
      ],
    ],
    EVENTS_POLL_INTERVAL_MS: [
      ['at the floor', { EVENTS_POLL_INTERVAL_MS: '1000' }, (c) => c.events.pollIntervalMs, 1000],
      [
        'below the default floor once the floor is lowered',
        { EVENTS_POLL_INTERVAL_MS: '200', EVENTS_MIN_POLL_INTERVAL_MS: '100' },
        (c) => [c.events.pollIntervalMs, c.events.minPollIntervalMs],
        [200, 100],
      ],
    ],
    EVENTS_MIN_POLL_INTERVAL_MS: [
      ['100 (the minimum)', { EVENTS_MIN_POLL_INTERVAL_MS: '100' }, (c) => c.events.minPollIntervalMs, 100],
    ],
    EVENTS_LAG_INTERVAL_MS: [
      ['0: no lag events', { EVENTS_LAG_INTERVAL_MS: '0' }, (c) => c.events.lagIntervalMs, 0],
    ],
    EVENTS_HEARTBEAT_MS: [['100', { EVENTS_HEARTBEAT_MS: '100' }, (c) => c.events.heartbeatMs, 100]],
    EVENTS_MAX_LIFETIME_MS: [
      ['one hour', { EVENTS_MAX_LIFETIME_MS: '3600000' }, (c) => c.events.maxLifetimeMs, 3_600_000],
    ],
    EVENTS_MAX_STREAMS_PER_PRINCIPAL: [
      ['1', { EVENTS_MAX_STREAMS_PER_PRINCIPAL: '1' }, (c) => c.events.maxStreamsPerPrincipal, 1],
    ],
    EVENTS_MAX_GROUPS: [['500', { EVENTS_MAX_GROUPS: '500' }, (c) => c.events.maxGroups, 500]],
    WRITES: [
      ['unset', {}, (c) => c.writes, 'unset'],
      ['enabled, any case', { WRITES: ' Enabled ' }, (c) => c.writes, 'enabled'],
      ['disabled (the kill switch)', { WRITES: 'disabled' }, (c) => c.writes, 'disabled'],
    ],
  };

  it('has parse cases for every variable it documents', () => {
    expect(Object.keys(parsed).sort()).toEqual(Object.keys(ENV_VARIABLES).sort());
  });

  const parseCases = Object.entries(parsed).flatMap(([variable, cases]) =>
    cases.map(([label, env, pick, expected]) => ({ name: `${variable}: ${label}`, env, pick, expected })),
  );
  it.each(parseCases)('parses $name', ({ env, pick, expected }) => {
    expect(pick(load(env))).toEqual(expected);
  });

  /** Bad environments, each with the variable its ConfigError must name. */
  const bad: [Variable, Env][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '-1' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '80.5' }],
    ['PORT', { PORT: '1e3' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['KAFKA_CLUSTER_ID', { KAFKA_CLUSTER_ID: 'not an id' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: ',' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'kafka' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'kafka:' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'kafka:0' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'kafka:65536' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'kafka:9092,other' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: 'ka fka:9092' }],
    ['KAFKA_BROKERS', { KAFKA_BROKERS: '::1:9092' }],
    ['KAFKA_SSL', { KAFKA_SSL: 'maybe' }],
    ['KAFKA_SSL_REJECT_UNAUTHORIZED', { KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'sometimes' }],
    // A missing partner is spelt `undefined`, so that the secrets test below can add the others.
    ['KAFKA_SSL_KEY', { KAFKA_SSL_CERT: 'CERT-PEM', KAFKA_SSL_KEY: undefined }],
    ['KAFKA_SSL_CERT', { KAFKA_SSL_KEY: 'KEY-PEM', KAFKA_SSL_CERT: undefined }],
    ['KAFKA_SASL_MECHANISM', { KAFKA_SASL_MECHANISM: 'gssapi' }],
    ['KAFKA_SASL_USERNAME', { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: undefined }],
    ['KAFKA_SASL_USERNAME', { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: '   ' }],
    [
      'KAFKA_SASL_PASSWORD',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: undefined },
    ],
    [
      'KAFKA_SASL_PASSWORD',
      { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: '' },
    ],
    ['KAFKA_CONNECTION_TIMEOUT_MS', { KAFKA_CONNECTION_TIMEOUT_MS: '0' }],
    ['KAFKA_CONNECTION_TIMEOUT_MS', { KAFKA_CONNECTION_TIMEOUT_MS: '600001' }],
    ['KAFKA_CONNECTION_TIMEOUT_MS', { KAFKA_CONNECTION_TIMEOUT_MS: '3s' }],
    ['KAFKA_REQUEST_TIMEOUT_MS', { KAFKA_REQUEST_TIMEOUT_MS: '0' }],
    ['KAFKA_REQUEST_TIMEOUT_MS', { KAFKA_REQUEST_TIMEOUT_MS: '-5' }],
    ['KAFKA_REQUEST_TIMEOUT_MS', { KAFKA_REQUEST_TIMEOUT_MS: 'ten' }],
    ['AUTH', { AUTH: undefined }],
    ['AUTH', { AUTH: 'off' }],
    ['AUTH', { AUTH: 'none', AUTH_API_KEYS: KEYS }],
    ['AUTH', { AUTH: 'none', AUTH_JWKS_URL: JWT.AUTH_JWKS_URL }],
    ['AUTH_API_KEYS', { AUTH_API_KEYS: 'ops' }],
    ['AUTH_API_KEYS', { AUTH_API_KEYS: `ops:${hashOf('x').slice(1)}` }],
    ['AUTH_API_KEYS', { AUTH_API_KEYS: `o p:${hashOf('x')}` }],
    ['AUTH_API_KEYS', { AUTH_API_KEYS: `ops:${hashOf('x')},ops:${hashOf('y')}` }],
    ['AUTH_GRANTS', { AUTH_API_KEYS: KEYS, AUTH_GRANTS: 'ops=read' }],
    ['AUTH_GRANTS', { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '[]' }],
    ['AUTH_GRANTS', { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '{"nobody":{"groups":"*","actions":"read"}}' }],
    ['AUTH_GRANTS', { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '{"ops":{"groups":"*","actions":"write"}}' }],
    [
      'AUTH_GRANTS',
      { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '{"ops":{"groups":"*","actions":"read","types":"mirror"}}' },
    ],
    ['AUTH_GRANTS', { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '{"ops":{"groups":[],"actions":"read"}}' }],
    [
      'AUTH_GRANTS',
      { AUTH_API_KEYS: KEYS, AUTH_GRANTS: '{"ops":{"groups":"*","actions":"read","topics":"x"}}' },
    ],
    ['AUTH_JWKS_URL', { ...JWT, AUTH_JWKS_URL: 'http://id.example.com/jwks' }],
    ['AUTH_JWKS_URL', { ...JWT, AUTH_JWKS_URL: 'jwks.json' }],
    ['AUTH_JWT_ISSUER', { ...JWT, AUTH_JWT_ISSUER: undefined }],
    ['AUTH_JWT_AUDIENCE', { ...JWT, AUTH_JWT_AUDIENCE: undefined }],
    ['AUTH_DOCS', { AUTH_API_KEYS: KEYS, AUTH_DOCS: 'hidden' }],
    ['MAX_BODY_BYTES', { MAX_BODY_BYTES: '10' }],
    ['REQUEST_TIMEOUT_MS', { REQUEST_TIMEOUT_MS: 'soon' }],
    ['STREAM_TIMEOUT_MS', { STREAM_TIMEOUT_MS: '999' }],
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: '-1' }],
    ['RATE_LIMIT_BURST', { RATE_LIMIT_BURST: '0' }],
    ['RATE_LIMIT_OPEN_PER_MINUTE', { RATE_LIMIT_OPEN_PER_MINUTE: 'lots' }],
    ['RATE_LIMIT_OPEN_BURST', { RATE_LIMIT_OPEN_BURST: '0' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'https://api.example.com' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'api.example.com/groups' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'api.example.com:99999' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'user@api.example.com' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: ' , ' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'https://a.example.com/app' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'a.example.com' }],
    ['TOKEN_SIGNING_KEYS', { TOKEN_SIGNING_KEYS: 'short-secret' }],
    ['TOKEN_SIGNING_KEYS', { TOKEN_SIGNING_KEYS: `${'k'.repeat(32)},` }],
    ['API_PUBLIC_URL', { API_PUBLIC_URL: 'groups.example.net' }],
    ['API_PUBLIC_URL', { API_PUBLIC_URL: 'ftp://groups.example.net' }],
    ['API_PUBLIC_URL', { API_PUBLIC_URL: 'https://groups.example.net/?a=1' }],
    ['API_PUBLIC_URL', { API_PUBLIC_URL: 'https://user:pw@groups.example.net' }],
    ['EVENTS_POLL_INTERVAL_MS', { EVENTS_POLL_INTERVAL_MS: '50' }],
    ['EVENTS_POLL_INTERVAL_MS', { EVENTS_POLL_INTERVAL_MS: '500' }],
    ['EVENTS_MIN_POLL_INTERVAL_MS', { EVENTS_MIN_POLL_INTERVAL_MS: '99' }],
    ['EVENTS_LAG_INTERVAL_MS', { EVENTS_LAG_INTERVAL_MS: 'often' }],
    ['EVENTS_HEARTBEAT_MS', { EVENTS_HEARTBEAT_MS: '0' }],
    ['EVENTS_MAX_LIFETIME_MS', { EVENTS_MAX_LIFETIME_MS: '999' }],
    ['EVENTS_MAX_STREAMS_PER_PRINCIPAL', { EVENTS_MAX_STREAMS_PER_PRINCIPAL: '0' }],
    ['EVENTS_MAX_GROUPS', { EVENTS_MAX_GROUPS: '10001' }],
    ['WRITES', { WRITES: 'true' }],
    ['WRITES', { WRITES: 'on' }],
  ];

  it.each(bad)('rejects a bad %s (%o) with a ConfigError naming it', (variable, env) => {
    const error = configError(env);
    expect(error.name).toBe('ConfigError');
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `), error.message).toBe(true);
  });

  it('echoes the rejected value of a non-secret variable, so the operator sees what was wrong', () => {
    expect(configError({ PORT: 'abc' }).message).toContain("'abc'");
    expect(configError({ KAFKA_BROKERS: 'a:1,oops' }).message).toContain("'oops'");
    expect(configError({ API_PUBLIC_URL: 'https://user:s3cret@gateway' }).message).not.toContain('s3cret');
  });

  // KNOWN GAP (src/config.ts ssl()): KAFKA_SSL_REJECT_UNAUTHORIZED is parsed only when TLS is on, so
  // a bad value is accepted silently otherwise; the README also lists it among the KAFKA_SSL_*
  // variables that imply TLS, which the code does not do. Remove `.fails` once decided and fixed.
  it('rejects a bad KAFKA_SSL_REJECT_UNAUTHORIZED even when nothing else turns TLS on', () => {
    expect(configError({ KAFKA_SSL_REJECT_UNAUTHORIZED: 'sometimes' }).variable).toBe(
      'KAFKA_SSL_REJECT_UNAUTHORIZED',
    );
  });

  describe('secrets', () => {
    const PASSWORD = 'SASL-PASSWORD-sekr1t-7f3a';
    const KEY = '-----BEGIN PRIVATE KEY-----\nTLS-KEY-sekr1t-91bd\n-----END PRIVATE KEY-----';
    const secrets: Env = {
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'alice',
      KAFKA_SASL_PASSWORD: PASSWORD,
      KAFKA_SSL_CERT: 'CERT-PEM',
      KAFKA_SSL_KEY: KEY,
    };

    /** Every way to fail, with the secrets set wherever the case allows them. */
    const failing: [string, Env][] = [
      ...bad.map(([variable, env]): [string, Env] => [
        `bad ${variable} ${JSON.stringify(env)}`,
        { ...secrets, ...env },
      ]),
      ['password without a user name', { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: PASSWORD }],
      ['password with a bad mechanism', { ...secrets, KAFKA_SASL_MECHANISM: 'oauthbearer' }],
      ['key without a certificate', { KAFKA_SSL_KEY: KEY }],
      ['key with TLS switched on wrongly', { KAFKA_SSL: 'ja', KAFKA_SSL_KEY: KEY, KAFKA_SSL_CERT: 'C' }],
      ['key with a bad reject-unauthorized', { ...secrets, KAFKA_SSL_REJECT_UNAUTHORIZED: 'nope' }],
      ['secrets and bad brokers', { ...secrets, KAFKA_BROKERS: 'not a broker' }],
      ['a token key too short', { ...secrets, TOKEN_SIGNING_KEYS: `${'x'.repeat(40)},TOKEN-sekr1t` }],
    ];

    it.each(failing)('keeps the SASL password and the TLS key out of the ConfigError: %s', (_label, env) => {
      const error = configError(env);
      const renderings = [
        error.message,
        String(error),
        error.stack ?? '',
        JSON.stringify(error),
        inspect(error),
      ];
      for (const text of renderings) {
        expect(text).not.toContain(PASSWORD);
        expect(text).not.toContain('sekr1t');
      }
    });

    it('still hands the secrets to the connection when the configuration is good', () => {
      const config = load(secrets);
      expect(userPass(config)?.password).toBe(PASSWORD);
      expect(tls(config)?.key).toBe(KEY);
    });
  });
});

describe('several clusters and the OAUTHBEARER mechanisms', () => {
  it.each([
    [{ KAFKA_CLUSTERS: 'EU' }, 'KAFKA_CLUSTERS'],
    [{ KAFKA_CLUSTERS: 'eu,eu', KAFKA_CLUSTER_EU_BROKERS: 'a:1' }, 'KAFKA_CLUSTERS'],
    [{ KAFKA_CLUSTERS: 'eu' }, 'KAFKA_CLUSTER_EU_BROKERS'],
    [
      { KAFKA_BROKERS: 'a:1', KAFKA_CLUSTERS: 'default', KAFKA_CLUSTER_DEFAULT_BROKERS: 'b:1' },
      'KAFKA_CLUSTERS',
    ],
    [{ ...TWO, KAFKA_SASL_MECHANISM: 'plain' }, 'KAFKA_SASL_MECHANISM'],
    [{ ...TWO, KAFKA_DEFAULT_CLUSTER: 'nope' }, 'KAFKA_DEFAULT_CLUSTER'],
    [
      { ...TWO, KAFKA_CLUSTER_EU_WEST_SASL_MECHANISM: 'scram-sha-256' },
      'KAFKA_CLUSTER_EU_WEST_SASL_USERNAME',
    ],
    [{ ...OAUTH, KAFKA_SASL_OAUTH_TOKEN_URL: 'http://idp.example.com/token' }, 'KAFKA_SASL_OAUTH_TOKEN_URL'],
    [{ ...OAUTH, KAFKA_SASL_OAUTH_CLIENT_SECRET: '' }, 'KAFKA_SASL_OAUTH_CLIENT_SECRET'],
    [{ KAFKA_SASL_MECHANISM: 'aws-msk-iam' }, 'KAFKA_SASL_AWS_REGION'],
  ] as [Env, string][])('refuses %j naming %s', (env, variable) => {
    expect(configError({ AUTH: 'none', ...env }).variable).toBe(variable);
  });

  it('a named cluster inherits timeouts and client id, never credentials', () => {
    const config = load({
      KAFKA_BROKERS: 'a:1',
      KAFKA_SASL_MECHANISM: 'plain',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
      KAFKA_REQUEST_TIMEOUT_MS: '1234',
      KAFKA_CLIENT_ID: 'me',
      ...TWO,
    });
    const eu = config.clusters.find((c) => c.alias === 'eu-west')?.kafka;
    expect(eu).toMatchObject({ requestTimeoutMs: 1234, clientId: 'me', ssl: false });
    expect(eu?.sasl).toBeUndefined();
  });

  it('never quotes the client secret', () => {
    const error = configError({ AUTH: 'none', ...OAUTH, KAFKA_SASL_OAUTH_CLIENT_AUTH: 'digest' });
    expect(error.variable).toBe('KAFKA_SASL_OAUTH_CLIENT_AUTH');
    expect(error.message).not.toContain('client-secret');
  });
});

describe('MANAGEMENT_PORT and METRICS_NAMES', () => {
  it.each([
    [
      { MANAGEMENT_PORT: '8080' },
      'MANAGEMENT_PORT',
      "expected a port other than PORT (8080), received '8080'",
    ],
    [{ MANAGEMENT_PORT: '9000', PORT: '9000' }, 'MANAGEMENT_PORT', 'other than PORT (9000)'],
    [{ MANAGEMENT_PORT: '70000' }, 'MANAGEMENT_PORT', "from 0 to 65535, received '70000'"],
    [
      { METRICS_NAMES: 'burrow' },
      'METRICS_NAMES',
      "native, kafka-lag-exporter, kafka-exporter, received 'burrow'",
    ],
  ] as [Env, string, string][])('refuses %j naming %s', (env, variable, message) => {
    const error = configError({ AUTH: 'none', ...env });
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(message);
  });
});
