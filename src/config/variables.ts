/** Every variable this product reads, with its meaning; docs and README list it from here. */

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
  CORS_ORIGINS: 'comma-separated origins allowed to call from a browser, or * (default: CORS off)',
  TOKEN_SIGNING_KEYS:
    'comma-separated secrets (32+ characters each) signing the tokens callers hand back: reset plans, lag snapshots; the first signs, all verify (secret; default: a random key per process, so tokens do not survive a restart or reach another instance)',
  WRITES:
    'enabled | disabled (default unset): with AUTH=none writes are refused unless enabled; with authentication the grants decide, and disabled refuses every write whatever the grants',
  API_PUBLIC_URL:
    "the API's public base URL (http or https, path allowed) the OpenAPI document lists in `servers`, for clients behind a proxy (default: the origin each request came to)",
} as const;
