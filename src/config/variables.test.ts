import { describe, expect, it } from 'vitest';
import { ConfigError, type Env, loadConfig } from '../config.js';
import { ENV_VARIABLES } from './variables.js';

/** The names `loadConfig` reads from `env`, whatever it makes of them. */
function readBy(env: Env): Set<string> {
  const read = new Set<string>();
  const recording = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return Reflect.get(target, name);
    },
  });
  loadConfig(recording);
  return read;
}

const HASH = 'a'.repeat(64);
/** Environments that take every branch of the reader between them. */
const ENVIRONMENTS: Env[] = [
  { AUTH: 'none' },
  { AUTH_API_KEYS: `ops:${HASH}`, AUTH_GRANTS: '{"ops":{"groups":"*","actions":["read"]}}' },
  {
    AUTH_JWKS_URL: 'https://issuer.example.com/jwks',
    AUTH_JWT_ISSUER: 'https://issuer.example.com',
    AUTH_JWT_AUDIENCE: 'kafka-groups-rest',
  },
  {
    AUTH: 'none',
    KAFKA_SSL: 'true',
    KAFKA_SASL_MECHANISM: 'plain',
    KAFKA_SASL_USERNAME: 'u',
    KAFKA_SASL_PASSWORD: 'p',
  },
  {
    AUTH: 'none',
    KAFKA_SASL_MECHANISM: 'oauthbearer',
    KAFKA_SASL_OAUTH_TOKEN_URL: 'https://issuer.example.com/token',
    KAFKA_SASL_OAUTH_CLIENT_ID: 'c',
    KAFKA_SASL_OAUTH_CLIENT_SECRET: 's',
  },
  { AUTH: 'none', KAFKA_SASL_MECHANISM: 'aws-msk-iam', KAFKA_SASL_AWS_REGION: 'eu-west-1' },
  {
    AUTH: 'none',
    KAFKA_BROKERS: 'a:9092',
    KAFKA_CLUSTERS: 'eu-west',
    KAFKA_CLUSTER_EU_WEST_BROKERS: 'b:9092',
  },
];
/** Read by the reader, documented as another variable's default rather than as a variable. */
const READ_AS_DEFAULT = new Set(['AWS_REGION']);

describe('ENV_VARIABLES', () => {
  const read = new Set(ENVIRONMENTS.flatMap((env) => [...readBy(env)]));

  it('names exactly the variables the reader reads', () => {
    // KAFKA_CLUSTER_ID is the default cluster's own (an alias's is KAFKA_CLUSTER_<ALIAS>_ID).
    const own = [...read].filter(
      (n) => (n === 'KAFKA_CLUSTER_ID' || !n.startsWith('KAFKA_CLUSTER_')) && !READ_AS_DEFAULT.has(n),
    );
    expect(own.sort()).toEqual(Object.keys(ENV_VARIABLES).sort());
  });

  it("documents each cluster's variables as the single-cluster ones it mirrors", () => {
    const mirrored = [...read]
      .filter((n) => n.startsWith('KAFKA_CLUSTER_EU_WEST_'))
      .map((n) => `KAFKA_${n.slice('KAFKA_CLUSTER_EU_WEST_'.length)}`)
      .map((n) => (n === 'KAFKA_ID' ? 'KAFKA_CLUSTER_ID' : n));
    expect(mirrored.length).toBeGreaterThan(5);
    for (const name of mirrored) expect(Object.keys(ENV_VARIABLES)).toContain(name);
  });
});

const MARK = 'sekr1t-value-0123456789-abcdefghijklmnop';
/** For each secret variable, an environment the reader refuses while that variable holds MARK. */
const LEAK_CASES: Record<string, Env> = {
  KAFKA_SSL_KEY: { AUTH: 'none', KAFKA_SSL_KEY: MARK },
  KAFKA_SASL_PASSWORD: { AUTH: 'none', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_PASSWORD: MARK },
  KAFKA_SASL_OAUTH_CLIENT_SECRET: {
    AUTH: 'none',
    KAFKA_SASL_MECHANISM: 'oauthbearer',
    KAFKA_SASL_OAUTH_CLIENT_SECRET: MARK,
  },
  TOKEN_SIGNING_KEYS: { AUTH: 'none', TOKEN_SIGNING_KEYS: `${MARK},short` },
};

describe('secret variables', () => {
  const secrets = Object.entries(ENV_VARIABLES)
    .filter(([, doc]) => 'secret' in doc && doc.secret)
    .map(([name]) => name);

  it('each have a case here that makes the reader fail around them', () => {
    expect(Object.keys(LEAK_CASES).sort()).toEqual(secrets.sort());
  });

  it.each(Object.entries(LEAK_CASES))('%s: the error does not quote its value', (_, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(MARK);
    }
  });
});
