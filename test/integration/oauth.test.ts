/**
 * SASL OAUTHBEARER against the test broker's OAUTH listener, which validates JWTs with Kafka's own
 * OAuthBearerValidatorCallbackHandler against a JWKS served by the test run (keys made at start,
 * see test/broker-harness/oauth-issuer.ts). This file runs the token endpoint: an OAuth 2.0 client
 * credentials grant (HTTP Basic client authentication) that signs tokens with the issuer's key.
 * The product is configured as a user does it (KAFKA_SASL_MECHANISM=oauthbearer, KAFKA_SASL_OAUTH_*).
 *
 * Amazon MSK IAM goes through the same listener: AWS's signer makes its token from fake
 * credentials in the environment; the broker refuses it (it validates JWTs, not AWS signatures),
 * which shows the token travelled the OAUTHBEARER exchange, and its format is checked.
 *
 * Every log line and answer is kept: no client secret, token or AWS secret may appear in them.
 */

import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { type AwsMskIamSigner, awsMskIamSigner } from '../../src/broker/transport/sasl/aws-msk-iam.js';
import { type Env, loadConfig } from '../../src/config.js';
import type { ClassicGroup } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import type { Problem } from '../../src/openapi/problems.js';
import { createService, type Service } from '../../src/wiring.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { OpenApiChecker } from '../support/openapi.js';

const oauth = inject('kafkaOauth');

const run = uniqueName('oauth');
const groupId = `${run}-classic`;
const groupPath = `/groups/${encodeURIComponent(groupId)}`;
const CLIENT_SECRET = `secret-${randomBytes(16).toString('hex')}`;
const WRONG_SECRET = `wrong-${randomBytes(16).toString('hex')}`;
/** The broker limits a session to its token's life (the listener allows no clock skew). */
const SHORT_LIFETIME_S = 7;
/** Token lifetimes per client id (seconds); `forger` gets tokens signed by a key the broker does not know. */
const LIFETIME: Record<string, number> = { 'kgr-app': 300, forger: 300, 'kgr-short': SHORT_LIFETIME_S };

const logLines: string[] = [];
const bodies: string[] = [];
const issuedTokens: { clientId: string; token: string; exp: number }[] = [];
const logger = createLogger('debug', (line) => logLines.push(line));
const services: Service[] = [];
let checker: OpenApiChecker;
let fixtures: RunningFixtures | undefined;
let tokenServer: Server | undefined;
let tokenUrl = '';

type App = ReturnType<typeof createApp>;

function appFrom(env: Env, signer?: AwsMskIamSigner): App {
  const config = loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', ...env });
  const service = createService(config, { logger, ...(signer && { awsMskIamSigner: signer }) });
  services.push(service);
  return createApp({ service: service.groups, security: securityFrom(config), logger });
}

async function get<T = Problem>(app: App, path: string): Promise<{ status: number; body: T }> {
  const res = await app.request(path);
  bodies.push(await res.clone().text());
  const template = path.startsWith('/groups/') ? '/groups/{groupId}' : path;
  return { status: res.status, body: (await checker.check('get', template, res)) as T };
}

/** The client credentials grant, as an OAuth server answers it (RFC 6749 4.4, errors per 5.2). */
async function startTokenEndpoint(issuer: NonNullable<typeof oauth>): Promise<void> {
  const key = await importJWK(issuer.privateJwk as JWK, 'RS256');
  const forgerKey = (await generateKeyPair('RS256')).privateKey;
  tokenServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', async () => {
      const form = new URLSearchParams(body);
      const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const [id = '', secret = ''] = Buffer.from(basic ?? '', 'base64')
        .toString()
        .split(':')
        .map(decodeURIComponent);
      const lifetime = LIFETIME[id];
      if (req.url !== '/token' || form.get('grant_type') !== 'client_credentials') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"unsupported_grant_type"}');
        return;
      }
      if (lifetime === undefined || secret !== CLIENT_SECRET) {
        res
          .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic' })
          .end(
            JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }),
          );
        return;
      }
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ scope: form.get('scope') ?? '' })
        .setProtectedHeader({
          alg: 'RS256',
          kid: id === 'forger' ? 'unknown-key' : (issuer.privateJwk.kid as string),
        })
        .setIssuer(issuer.issuer)
        .setAudience(issuer.audience)
        .setSubject(id)
        .setIssuedAt(now)
        .setExpirationTime(now + lifetime)
        .sign(id === 'forger' ? forgerKey : key);
      issuedTokens.push({ clientId: id, token, exp: (now + lifetime) * 1000 });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: lifetime }));
    });
  });
  await new Promise<void>((resolve) => tokenServer?.listen(0, '127.0.0.1', resolve));
  tokenUrl = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
}

const listener = oauth ?? { bootstrap: '', issuer: '', audience: '', privateJwk: {} };
const clientEnv = (clientId: string, secret = CLIENT_SECRET): Env => ({
  KAFKA_BROKERS: listener.bootstrap,
  KAFKA_SASL_MECHANISM: 'oauthbearer',
  KAFKA_SASL_OAUTH_TOKEN_URL: tokenUrl,
  KAFKA_SASL_OAUTH_CLIENT_ID: clientId,
  KAFKA_SASL_OAUTH_CLIENT_SECRET: secret,
  KAFKA_SASL_OAUTH_SCOPE: 'kafka',
});

beforeAll(async () => {
  checker = await OpenApiChecker.load(async (path) => appFrom({}).request(path));
  if (!oauth) return;
  await startTokenEndpoint(oauth);
  fixtures = await startFixtures({
    bootstrap: inject('kafkaBrokers'),
    groups: [
      {
        type: 'classic',
        groupId,
        topics: [{ name: `${run}-events`, partitions: 1, records: 2 }],
        clientId: `${run}-cl`,
        commit: 1,
      },
    ],
  });
}, 180_000);

afterAll(async () => {
  await fixtures?.stop();
  await Promise.all(services.map((s) => s.close()));
  tokenServer?.closeAllConnections();
  await new Promise<void>((resolve) => (tokenServer ? tokenServer.close(() => resolve()) : resolve()));
});

describe.skipIf(!oauth)('OAUTH listener (SASL OAUTHBEARER, JWTs checked against the JWKS)', () => {
  it('client credentials from the token endpoint: the cluster and a group are served, one token for all', async () => {
    const before = issuedTokens.length;
    const app = appFrom(clientEnv('kgr-app'));
    const cluster = await get<{ brokers: unknown[] }>(app, '/cluster');
    expect(cluster.status, JSON.stringify(cluster.body)).toBe(200);
    const group = await get<ClassicGroup>(app, groupPath);
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    expect(group.body).toMatchObject({ type: 'classic', groupId, state: 'Stable' });
    expect((await get(app, '/readyz')).status).toBe(200);
    // Cached: every connection (bootstrap, coordinator) authenticated with the same token.
    expect(issuedTokens.slice(before).map((t) => t.clientId)).toEqual(['kgr-app']);
  });

  it(`${SHORT_LIFETIME_S} s tokens, requests for three lifetimes (steady and concurrent): every answer served, connections renewed with new tokens`, async () => {
    const before = issuedTokens.length;
    const app = appFrom(clientEnv('kgr-short'));
    const failures: string[] = [];
    let answers = 0;
    const check = async (path: string) => {
      const { status, body } = await get<ClassicGroup & { brokers?: unknown[] }>(app, path);
      answers += 1;
      const right =
        status === 200 &&
        (path === groupPath
          ? body.type === 'classic' && body.groupId === groupId && body.state === 'Stable'
          : path !== '/cluster' || (body.brokers?.length ?? 0) > 0);
      if (!right) failures.push(`${path} ${status} ${JSON.stringify(body).slice(0, 300)}`);
    };
    const end = Date.now() + 3 * SHORT_LIFETIME_S * 1000;
    let round = 0;
    while (Date.now() < end) {
      round += 1;
      // Every fourth round several at once, pipelined on the same connections.
      if (round % 4 === 0) await Promise.all([groupPath, '/cluster', groupPath, '/readyz'].map(check));
      else await check(groupPath);
      // Clock wait: paces the requests over three token lifetimes.
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(failures).toEqual([]);
    expect(answers).toBeGreaterThan(40);
    // Each session lived no longer than its token: later connections authenticated with new ones.
    const fetched = issuedTokens.slice(before).filter((t) => t.clientId === 'kgr-short');
    expect(fetched.length).toBeGreaterThanOrEqual(3);
    // Connections were renewed, and retired ones closed once answered: few stay open.
    const stats = services.at(-1)?.cluster.connectionStats();
    expect(stats?.opened).toBeGreaterThanOrEqual(3);
    expect(stats?.open).toBeLessThanOrEqual(2);
  }, 90_000);

  it('a wrong client secret: 503 naming the token endpoint refusal, no secret in it', async () => {
    const app = appFrom(clientEnv('kgr-app', WRONG_SECRET));
    for (const path of ['/cluster', groupPath, '/readyz']) {
      const { status, body } = await get(app, path);
      expect(status, path).toBe(503);
      expect(body.type).toBe('/problems/broker-unavailable');
      expect(body.detail).toContain(
        `the token endpoint ${tokenUrl} refused the client credentials of 'kgr-app'`,
      );
      expect(body.detail).toContain("HTTP 401, error 'invalid_client'");
    }
  });

  it('a token signed by a key the JWKS does not hold: 503 naming the SASL OAUTHBEARER refusal', async () => {
    const app = appFrom(clientEnv('forger'));
    const { status, body } = await get(app, '/cluster');
    expect(status).toBe(503);
    expect(body.type).toBe('/problems/broker-unavailable');
    expect(body.detail).toContain(
      'SASL OAUTHBEARER authentication failed: the broker refused the token (invalid_token)',
    );
  });
});

describe.skipIf(!oauth)('Amazon MSK IAM (AWS signer, fake credentials) through the OAUTH listener', () => {
  const AWS_SECRET = `fakeSecret${randomBytes(12).toString('hex')}`;
  const AWS_KEY_ID = 'AKIAKGRTESTFAKE00001';

  it('the signer token travels the OAUTHBEARER exchange (refused: not a JWT) and is a presigned kafka-cluster:Connect URL', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: AWS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: AWS_SECRET,
      AWS_SESSION_TOKEN: '',
      AWS_REGION: 'eu-west-1',
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;
    const signed: string[] = [];
    const capturing: AwsMskIamSigner = async (region) => {
      const result = await awsMskIamSigner(region);
      signed.push(result.token);
      return result;
    };
    try {
      const app = appFrom(
        {
          KAFKA_BROKERS: listener.bootstrap,
          KAFKA_SASL_MECHANISM: 'aws-msk-iam',
          KAFKA_SASL_AWS_REGION: 'eu-west-1',
        },
        capturing,
      );
      const { status, body } = await get(app, '/cluster');
      expect(status).toBe(503);
      expect(body.type).toBe('/problems/broker-unavailable');
      expect(body.detail).toContain(
        'SASL OAUTHBEARER authentication failed: the broker refused the token (invalid_token)',
      );
    } finally {
      process.env = saved;
    }
    expect(signed.length).toBeGreaterThanOrEqual(1);
    const token = signed[0] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/); // base64url, no padding
    const url = new URL(Buffer.from(token, 'base64url').toString());
    expect(url.origin).toBe('https://kafka.eu-west-1.amazonaws.com');
    const q = url.searchParams;
    expect(q.get('Action')).toBe('kafka-cluster:Connect');
    expect(q.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(q.get('X-Amz-Credential')).toMatch(
      new RegExp(`^${AWS_KEY_ID}/\\d{8}/eu-west-1/kafka-cluster/aws4_request$`),
    );
    expect(q.get('X-Amz-Date')).toMatch(/^\d{8}T\d{6}Z$/);
    expect(Number(q.get('X-Amz-Expires'))).toBeGreaterThan(0);
    expect(q.get('X-Amz-SignedHeaders')).toBe('host');
    expect(q.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(q.get('User-Agent')).toMatch(/aws-msk-iam-sasl-signer-js/);
    expect(token).not.toContain(AWS_SECRET);
    expect(url.href).not.toContain(AWS_SECRET);
    wrongSecrets.push(AWS_SECRET);
  });
});

const wrongSecrets: string[] = [];

describe.skipIf(!oauth)('secrets', () => {
  it('no log line and no answer holds a client secret, a token or an AWS secret', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(8);
    expect(issuedTokens.length).toBeGreaterThanOrEqual(2);
    const secrets = [CLIENT_SECRET, WRONG_SECRET, ...wrongSecrets, ...issuedTokens.map((t) => t.token)];
    for (const secret of secrets) {
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
    }
  });
});
