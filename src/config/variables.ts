/**
 * Every environment variable the configuration reader accepts, as data: its section, default and
 * meaning (markdown). docs/configuration.md is generated from this table (`npm run docs`), and the
 * unit tests check that it names exactly the variables `loadConfig` reads and has parse cases for
 * each. The reader itself is src/config.ts.
 */

export type VariableSection =
  | 'Server'
  | 'Kafka connection'
  | 'TLS'
  | 'SASL'
  | 'Several clusters'
  | 'Authentication'
  | 'Request limits'
  | 'Tokens and writes'
  | 'Event streams';

export interface VariableDoc {
  readonly section: VariableSection;
  /** What applies when the variable is unset or blank; absent: nothing (the feature is off). */
  readonly default?: string;
  /** Markdown. */
  readonly meaning: string;
  /** Its value is never printed, in an error or a log line. */
  readonly secret?: true;
}

export const ENV_VARIABLES = {
  PORT: { section: 'Server', default: '`8080`', meaning: 'HTTP port of the Node server (0 to 65535)' },
  MANAGEMENT_PORT: {
    section: 'Server',
    default: '`PORT` serves them',
    meaning:
      "a second Node server listener serving only `/healthz`, `/readyz` and `/metrics` (and each cluster's `/clusters/{alias}/readyz` and `/metrics`), which `PORT` then no longer serves (see [operations.md](operations.md))",
  },
  METRICS_NAMES: {
    section: 'Server',
    default: '`native`',
    meaning:
      '`native`, `kafka-lag-exporter` or `kafka-exporter`: the metric and label names `/metrics` writes ([mapping](operations.md#compatible-metric-names-metrics_names))',
  },
  LOG_LEVEL: {
    section: 'Server',
    default: '`info`',
    meaning: '`debug`, `info`, `warn`, `error` or `silent`; logs are JSON lines',
  },
  API_PUBLIC_URL: {
    section: 'Server',
    default: '`/`, relative to wherever the document was read; never taken from a request',
    meaning:
      "the API's public base URL (http or https, path allowed, no query or fragment) the OpenAPI document lists in `servers`, for clients behind a proxy",
  },
  KAFKA_BROKERS: {
    section: 'Kafka connection',
    default: '`127.0.0.1:9092`',
    meaning: 'comma-separated bootstrap brokers `host:port`',
  },
  KAFKA_CLUSTER_ID: {
    section: 'Kafka connection',
    default: 'the first id a broker of the cluster names, kept for the process',
    meaning:
      "the cluster's id (`kafka-storage info`, or `GET /cluster`): every new broker connection proves it reached this cluster (ApiVersions v5 on Kafka 4.4+, Metadata before) and a broker of another one behind a configured address gets a 502 `cluster-mismatch` naming both ids, never its data. `KAFKA_CLUSTER_<ALIAS>_ID` for each cluster of `KAFKA_CLUSTERS`",
  },
  KAFKA_CLIENT_ID: {
    section: 'Kafka connection',
    default: '`kafka-groups-rest`',
    meaning: 'client id sent to the brokers',
  },
  KAFKA_CONNECTION_TIMEOUT_MS: {
    section: 'Kafka connection',
    default: '`3000`',
    meaning: 'TCP/TLS connect timeout in ms (1 to 600000)',
  },
  KAFKA_REQUEST_TIMEOUT_MS: {
    section: 'Kafka connection',
    default: '`10000`',
    meaning:
      'how long to wait for one broker answer, in ms (1 to 600000); under a request, never past what is left of `REQUEST_TIMEOUT_MS`',
  },
  KAFKA_SSL: {
    section: 'TLS',
    default: '`false`; `true` when any of `KAFKA_SSL_CA`, `_CERT`, `_KEY` or `_SERVERNAME` is set',
    meaning: '`true` to connect with TLS',
  },
  KAFKA_SSL_CA: { section: 'TLS', meaning: 'PEM of the CA(s) to trust instead of the system store' },
  KAFKA_SSL_CERT: {
    section: 'TLS',
    meaning: 'PEM client certificate for mutual TLS (set together with `KAFKA_SSL_KEY`)',
  },
  KAFKA_SSL_KEY: {
    section: 'TLS',
    meaning: 'PEM private key of the client certificate',
    secret: true,
  },
  KAFKA_SSL_REJECT_UNAUTHORIZED: {
    section: 'TLS',
    default: '`true`',
    meaning: '`false` to accept any server certificate',
  },
  KAFKA_SSL_SERVERNAME: {
    section: 'TLS',
    meaning: 'TLS server name (SNI) when it differs from the broker host',
  },
  KAFKA_SASL_MECHANISM: {
    section: 'SASL',
    default: 'no SASL',
    meaning: '`plain`, `scram-sha-256`, `scram-sha-512`, `oauthbearer` or `aws-msk-iam`',
  },
  KAFKA_SASL_USERNAME: {
    section: 'SASL',
    meaning: 'SASL user name (`plain`, `scram-*`: required)',
  },
  KAFKA_SASL_PASSWORD: {
    section: 'SASL',
    meaning: 'SASL password (`plain`, `scram-*`: required), taken as given',
    secret: true,
  },
  KAFKA_SASL_OAUTH_TOKEN_URL: {
    section: 'SASL',
    meaning:
      '`oauthbearer`: the OIDC/OAuth token endpoint (https; http only on loopback) of the client credentials grant; tokens are kept and replaced when a fifth of their life (at most a minute) is left',
  },
  KAFKA_SASL_OAUTH_CLIENT_ID: {
    section: 'SASL',
    meaning: '`oauthbearer`: the client id of the client credentials grant',
  },
  KAFKA_SASL_OAUTH_CLIENT_SECRET: {
    section: 'SASL',
    meaning: '`oauthbearer`: the client secret',
    secret: true,
  },
  KAFKA_SASL_OAUTH_SCOPE: {
    section: 'SASL',
    meaning: '`oauthbearer`: the scope to ask for (optional; Entra ID: `api://<app>/.default`)',
  },
  KAFKA_SASL_OAUTH_AUDIENCE: {
    section: 'SASL',
    meaning: '`oauthbearer`: an audience parameter for issuers that want one (optional)',
  },
  KAFKA_SASL_OAUTH_CLIENT_AUTH: {
    section: 'SASL',
    default: '`basic`',
    meaning:
      "`oauthbearer`: `basic` (client id and secret in an HTTP Basic header, as Kafka's Java client) or `post` (in the form body)",
  },
  KAFKA_SASL_AWS_REGION: {
    section: 'SASL',
    default: '`AWS_REGION`',
    meaning:
      "`aws-msk-iam`: the cluster's AWS region; credentials come from the runtime's standard AWS sources",
  },
  KAFKA_CLUSTERS: {
    section: 'Several clusters',
    meaning:
      'comma-separated aliases of further clusters (lower-case letters, digits, inner `-`; at most 32 characters), each configured by `KAFKA_CLUSTER_<ALIAS>_*` variables (see [Several clusters](clusters.md#several-clusters))',
  },
  KAFKA_DEFAULT_CLUSTER: {
    section: 'Several clusters',
    default:
      '`default`, the cluster of `KAFKA_BROKERS`; without `KAFKA_BROKERS`, the first of `KAFKA_CLUSTERS`',
    meaning: 'the alias the short routes (`/groups`, ...) serve',
  },
  AUTH: {
    section: 'Authentication',
    meaning:
      '`none` to serve without authentication; required unless `AUTH_API_KEYS` or `AUTH_JWKS_URL` is set',
  },
  AUTH_API_KEYS: {
    section: 'Authentication',
    meaning: "`name:sha256hex,...`: the SHA-256 of each API key under the principal's name (never the keys)",
  },
  AUTH_GRANTS: {
    section: 'Authentication',
    meaning: 'JSON object: API key name → grant or list of grants `{groups, types?, actions, clusters?}`',
  },
  AUTH_JWKS_URL: {
    section: 'Authentication',
    meaning: "URL of the JWT issuer's key set (https; http only on loopback)",
  },
  AUTH_JWT_ISSUER: {
    section: 'Authentication',
    meaning: 'required `iss` of JWTs (required with `AUTH_JWKS_URL`)',
  },
  AUTH_JWT_AUDIENCE: {
    section: 'Authentication',
    meaning: 'required `aud` of JWTs (required with `AUTH_JWKS_URL`)',
  },
  AUTH_JWT_GRANTS_CLAIM: {
    section: 'Authentication',
    default: '`kafka_groups`',
    meaning: "the JWT claim holding the caller's grants",
  },
  AUTH_DOCS: {
    section: 'Authentication',
    default: '`public`',
    meaning:
      '`public` or `private`: whether `/openapi.json`, `/openapi-3.2.json` and `/docs` need credentials',
  },
  MAX_BODY_BYTES: {
    section: 'Request limits',
    default: '`4194304` (fits 100 ids of 32,767 bytes)',
    meaning: 'largest request body in bytes (1024 to 67108864; 413 above)',
  },
  REQUEST_TIMEOUT_MS: {
    section: 'Request limits',
    default: '`30000`',
    meaning:
      'deadline of one request, in ms (100 to 900000): every broker call under it gets a budget below what is left and is abandoned past it; the answer says what could not be read (504 only when nothing useful could)',
  },
  STREAM_TIMEOUT_MS: {
    section: 'Request limits',
    default: '`120000`',
    meaning:
      'deadline of a streamed answer (`/groups.ndjson` with `include=lag` or `timeLag`, `/topics/{topic}/groups.ndjson`, `/metrics`), in ms from its arrival (1000 to 3600000; never shorter than `REQUEST_TIMEOUT_MS`): its lines are written while the groups are read, batch by batch, each under what is left; a broker that does not answer is named in the groups it holds and not asked again in that answer, and the groups not read when the deadline passes are each named with a `request-timeout` problem, so the stream ends on time with every group in it. On Lambda keep it below the function timeout (see [Streams under a deadline](operations.md#streams-under-a-deadline))',
  },
  RATE_LIMIT_PER_MINUTE: {
    section: 'Request limits',
    default: '`600`',
    meaning:
      'requests per minute in the token bucket of each principal, or of each client address when open; `0`: no rate limit',
  },
  RATE_LIMIT_BURST: {
    section: 'Request limits',
    default: '`100`',
    meaning: 'requests allowed at once above the steady rate (at least 1)',
  },
  RATE_LIMIT_OPEN_PER_MINUTE: {
    section: 'Request limits',
    default: '`6000`',
    meaning:
      "requests per minute per client address to the open paths (`/healthz`, `/readyz`, `/openapi.json`, `/openapi-3.2.json`, `/docs` and its assets), a bucket apart from the callers' (`0`: off)",
  },
  RATE_LIMIT_OPEN_BURST: {
    section: 'Request limits',
    default: '`600`',
    meaning: 'requests to the open paths allowed at once above that rate',
  },

  ALLOWED_HOSTS: {
    section: 'Request limits',
    default: 'with `AUTH=none`: `localhost`, `127.0.0.1` and `[::1]` only; with authentication: any host',
    meaning:
      'comma-separated hosts the server answers for (`api.example.com`, `*.example.com` for its subdomains, each with an optional `:port`; `*` for any): a request for another host gets a 421 `host-not-allowed`, which keeps a web page on a name rebound to this address (DNS rebinding) out. Node checks the `Host` header; Lambda and Workers the name their platform routed. `/mcp` also refuses (403) a request whose `Origin` is none of these hosts nor of `CORS_ORIGINS`',
  },
  CORS_ORIGINS: {
    section: 'Request limits',
    default: 'CORS off',
    meaning: 'comma-separated origins allowed to call from a browser (`https://app.example.com`), or `*`',
  },
  TOKEN_SIGNING_KEYS: {
    section: 'Tokens and writes',
    default:
      'a random key per process, so a token survives neither a restart nor a hop to another instance (set it on Lambda and Workers)',
    meaning:
      'comma-separated keys (32+ characters each) signing the tokens callers hand back (reset plans, lag snapshots); the first signs, all verify, so keys rotate without refusing tokens already out',
    secret: true,
  },
  WRITES: {
    section: 'Tokens and writes',
    default: 'unset',
    meaning:
      '`enabled` or `disabled`. With `AUTH=none` every write is refused unless `enabled`; with authentication the grants decide, and `disabled` refuses every write whatever the grants (a kill switch). See [Writes](writes.md)',
  },
  EVENTS_POLL_INTERVAL_MS: {
    section: 'Event streams',
    default: '`5000`',
    meaning:
      'how often an event stream asks Kafka, in ms, when the caller gives no `intervalMs` (100 to 3600000; at least `EVENTS_MIN_POLL_INTERVAL_MS`). Identical watches share one poll (see [Events](events.md))',
  },
  EVENTS_MIN_POLL_INTERVAL_MS: {
    section: 'Event streams',
    default: '`1000`',
    meaning:
      'the floor: the shortest `intervalMs` a caller may ask for, in ms (100 to 3600000); shorter is a 400 naming `intervalMs`',
  },
  EVENTS_LAG_INTERVAL_MS: {
    section: 'Event streams',
    default: '`30000`',
    meaning:
      "how often a stream sends each group's `lag` event, in ms (0 to 86400000; `0`: no lag events); never more often than the poll",
  },
  EVENTS_HEARTBEAT_MS: {
    section: 'Event streams',
    default: '`15000`',
    meaning:
      'a comment line (`: heartbeat`) after this long without a write, in ms (100 to 300000), so proxies keep an idle stream open',
  },
  EVENTS_MAX_LIFETIME_MS: {
    section: 'Event streams',
    default: '`900000` (15 min)',
    meaning:
      'the server ends a stream this long after it opened, in ms (1000 to 86400000), with an `end` event and `retry:`; the client reconnects with `Last-Event-ID` and misses nothing. On Lambda keep it below the function timeout',
  },
  EVENTS_MAX_STREAMS_PER_PRINCIPAL: {
    section: 'Event streams',
    default: '`10`',
    meaning:
      'open event streams per principal (per client address when `AUTH=none`) in one process (1 to 100000); one more is a 429 `too-many-streams`',
  },
  EVENTS_MAX_GROUPS: {
    section: 'Event streams',
    default: '`100`',
    meaning:
      'groups one `GET /groups.events` stream watches at most, the first by id (1 to 10000); an `overflow` event says how many matched',
  },
} as const satisfies Record<string, VariableDoc>;

export type EnvVariable = keyof typeof ENV_VARIABLES;
