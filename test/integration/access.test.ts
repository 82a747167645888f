/**
 * Access control against the real broker: API keys and JWTs (verified against a JWKS this test
 * serves on loopback, with keys generated here), grants by group-id glob, type and action, and
 * the rule that a group outside the grants answers exactly like a missing one. The groups are made
 * by Kafka's own clients; every answer is checked against the published OpenAPI document.
 */

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { type Env, loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { createService, type Service } from '../../src/wiring.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { hasGroupType } from '../support/kafka-version.js';
import { OpenApiChecker } from '../support/openapi.js';

/**
 * Both teams' groups on one page whatever else the broker holds: the suite's other files make
 * thousands of groups, many sorting before these.
 */
const TEAM_LIST = '/groups?prefix=team-&limit=1000';
const bootstrap = inject('kafkaBrokers');
const run = uniqueName('acc');
const topic = `${run}-events`;
const teamAClassic = `team-a-${run}-classic`;
const teamAEmpty = `team-a-${run}-empty`;
const teamBEmpty = `team-b-${run}-empty`;
const teamAConsumer = `team-a-${run}-consumer`;
const withConsumer = hasGroupType('consumer');
const missing = `team-a-${run}-missing`;
const missingB = `team-b-${run}-missing`;

const newKey = () => randomBytes(24).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = { ops: newKey(), teamA: newKey(), teamAClassic: newKey(), readOnly: newKey(), none: newKey() };
const ISSUER = 'https://id.test.local/';
const AUDIENCE = 'kafka-groups-rest';

type App = ReturnType<typeof createApp>;
let fixtures: RunningFixtures | undefined;
let checker: OpenApiChecker;
let app: App;
const services: Service[] = [];
let jwks: Server;
let jwksUrl: string;
let jwksFetches = 0;
type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let signingKey: PrivateKey;
let strangerKey: PrivateKey;

function appFrom(env: Env): App {
  const config = loadConfig({ KAFKA_BROKERS: bootstrap, ...env });
  const service = createService(config);
  services.push(service);
  return createApp({ service: service.groups, security: securityFrom(config) });
}

function templateOf(method: string, path: string): string {
  const bare = path.replace(/\?.*/, '');
  if (method === 'post') return bare;
  if (bare.endsWith('/offsets')) return '/groups/{groupId}/offsets';
  if (bare.startsWith('/groups/')) return '/groups/{groupId}';
  return bare;
}

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: bodies of several shapes, checked against the document
  body: any;
}

async function call(target: App, path: string, token?: string, body?: unknown): Promise<Answer> {
  const method = body === undefined ? 'get' : 'post';
  const res = await target.request(path, {
    method: method.toUpperCase(),
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const parsed = await checker.check(method, templateOf(method, path), res);
  return { status: res.status, headers: res.headers, body: parsed };
}

const groupPath = (id: string) => `/groups/${encodeURIComponent(id)}`;
const ids = (answer: Answer): string[] => answer.body.groups.map((g: { groupId: string }) => g.groupId);
/** This run's groups in a listing; the consumer group is left out where the broker has none. */
const ours = (list: string[]) => list.filter((id) => id.includes(run) && id !== teamAConsumer).sort();
/** A problem with the group id taken out, to compare a hidden group's answer with a missing one's. */
const withoutId = (problem: Record<string, unknown>, id: string) =>
  JSON.parse(JSON.stringify(problem).replaceAll(id, '<id>').replaceAll(encodeURIComponent(id), '<id>'));

async function jwt(
  claims: Record<string, unknown>,
  options: {
    key?: PrivateKey;
    kid?: string;
    issuer?: string;
    audience?: string;
    expiresIn?: string | number;
  } = {},
): Promise<string> {
  let builder = new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', kid: options.kid ?? 'test-1' })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setSubject(String(claims.sub ?? 'alice'))
    .setIssuedAt();
  builder = builder.setExpirationTime(options.expiresIn ?? '5m');
  return builder.sign(options.key ?? signingKey);
}

beforeAll(async () => {
  const signing = await generateKeyPair('ES256');
  signingKey = signing.privateKey;
  strangerKey = (await generateKeyPair('ES256')).privateKey;
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid: 'test-1', alg: 'ES256', use: 'sig' };
  jwks = createServer((_req, res) => {
    jwksFetches++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;

  fixtures = await startFixtures({
    bootstrap,
    topics: [{ name: topic, partitions: 2, records: 10 }],
    groups: [
      { type: 'classic', groupId: teamAClassic, topics: [topic], commit: 3 },
      { type: 'empty', groupId: teamAEmpty, topics: [topic], commit: 2 },
      { type: 'empty', groupId: teamBEmpty, topics: [topic], commit: 1 },
      ...(withConsumer ? [{ type: 'consumer' as const, groupId: teamAConsumer, topics: [topic] }] : []),
    ],
  });
  app = appFrom({
    AUTH_API_KEYS: Object.entries(KEYS)
      .map(([name, key]) => `${name}:${hashOf(key)}`)
      .join(','),
    AUTH_GRANTS: JSON.stringify({
      ops: { groups: '*', actions: ['read', 'offsets'] },
      teamA: { groups: ['team-a-*'], actions: ['read', 'offsets'] },
      teamAClassic: { groups: ['team-a-*'], types: ['classic'], actions: ['read', 'offsets'] },
      readOnly: { groups: ['team-a-*'], actions: ['read'] },
    }),
    AUTH_JWKS_URL: jwksUrl,
    AUTH_JWT_ISSUER: ISSUER,
    AUTH_JWT_AUDIENCE: AUDIENCE,
    RATE_LIMIT_PER_MINUTE: '0',
  });
  checker = await OpenApiChecker.load(async (path) => app.request(path));
}, 240_000);

afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
  await fixtures?.stop();
  await new Promise((resolve) => jwks?.close(resolve));
});

describe('without credentials', () => {
  it.each(['/groups', groupPath(teamAClassic), `${groupPath(teamAClassic)}/offsets`, '/cluster'])(
    'GET %s answers 401 with a Bearer challenge',
    async (path) => {
      const answer = await call(app, path);
      expect(answer.status).toBe(401);
      expect(answer.body.type).toBe('/problems/unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="kafka-groups-rest"');
    },
  );

  it('POST /groups/describe answers 401 and nothing about the groups', async () => {
    const answer = await call(app, '/groups/describe', undefined, { groupIds: [teamAClassic] });
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.body)).not.toContain(teamAClassic);
  });

  it('keeps the probes and the document open', async () => {
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/readyz')).status).toBe(200);
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect(checker.document).toHaveProperty('components.securitySchemes.bearerAuth.scheme', 'bearer');
  });

  it('/readyz tells an unknown caller the status and counts only, no broker address or node id', async () => {
    const [host] = bootstrap.split(',');
    // No credentials, a wrong key, and a known key without the read action: the same short answer.
    for (const token of [undefined, newKey(), KEYS.none]) {
      const answer = await call(app, '/readyz', token);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body).sort()).toEqual([
        'brokers',
        'brokersAnswered',
        'brokersAsked',
        'checkedAt',
        'status',
      ]);
      expect(answer.body.brokers).toEqual([]);
      expect(answer.body.brokersAnswered).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(answer.body)).not.toContain(String(host));
    }
    // A caller GET /cluster names the brokers to sees them here too, and which clusters are ready.
    const granted = await call(app, '/readyz', KEYS.readOnly);
    expect(granted.status).toBe(200);
    expect(granted.body.brokers.map((b: { broker: string }) => b.broker)).toContain(host);
    expect(granted.body.clusters).toEqual({ default: { ready: true } });
    expect(granted.body.brokersAsked).toBe(granted.body.brokers.length);
  });

  it('refuses a wrong key with invalid_token, never echoing it', async () => {
    const wrong = newKey();
    const answer = await call(app, TEAM_LIST, wrong);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(JSON.stringify(answer.body) + answer.headers.get('www-authenticate')).not.toContain(wrong);
  });
});

describe('API keys and grants', () => {
  it('a key granted every group sees both teams', async () => {
    const list = await call(app, TEAM_LIST, KEYS.ops);
    expect(list.status).toBe(200);
    expect(ours(ids(list))).toEqual([teamAClassic, teamAEmpty, teamBEmpty].sort());
    expect((await call(app, groupPath(teamBEmpty), KEYS.ops)).status).toBe(200);
  });

  it('a key scoped to team-a-* lists only team-a groups', async () => {
    const list = await call(app, '/groups?include=details,lag', KEYS.teamA);
    expect(list.status).toBe(200);
    expect(ours(ids(list))).toEqual([teamAClassic, teamAEmpty].sort());
    for (const id of ids(list)) expect(id.startsWith('team-a-'), id).toBe(true);
    // A prefix filter for the other team finds nothing rather than the other team's groups.
    const other = await call(app, `/groups?prefix=team-b-${run}`, KEYS.teamA);
    expect(ids(other)).toEqual([]);
  });

  it('the NDJSON listing keeps to the grants as the pages do, in both of its ways in', async () => {
    const streamed = async (path: string, key: string, accept = 'application/x-ndjson') => {
      const res = await app.request(path, { headers: { authorization: `Bearer ${key}`, accept } });
      expect(res.status).toBe(200);
      const lines = (await res.text())
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      const end = lines.pop();
      expect(end).toEqual({ end: { groups: lines.length, failures: 0 } });
      return ours(lines.map((line: { groupId: string }) => line.groupId));
    };
    for (const path of ['/groups?prefix=team-', '/groups.ndjson?prefix=team-']) {
      expect(await streamed(path, KEYS.ops)).toEqual([teamAClassic, teamAEmpty, teamBEmpty].sort());
      expect(await streamed(path, KEYS.teamA)).toEqual([teamAClassic, teamAEmpty].sort());
      expect(await streamed(path, KEYS.teamAClassic)).toEqual([teamAClassic, teamAEmpty].sort());
    }
  });

  it('a key scoped to team-a-* describes team-a groups, and team-b ones answer exactly like missing groups', async () => {
    const own = await call(app, groupPath(teamAClassic), KEYS.teamA);
    expect(own.status).toBe(200);
    expect(own.body.groupId).toBe(teamAClassic);

    const hidden = await call(app, groupPath(teamBEmpty), KEYS.teamA);
    const absent = await call(app, groupPath(missingB), KEYS.teamA);
    const absentInScope = await call(app, groupPath(missing), KEYS.teamA);
    expect(hidden.status).toBe(404);
    expect(absent.status).toBe(404);
    expect(withoutId(hidden.body, teamBEmpty)).toEqual(withoutId(absent.body, missingB));
    expect(withoutId(hidden.body, teamBEmpty)).toEqual(withoutId(absentInScope.body, missing));
    expect(hidden.body.type).toBe('/problems/group-not-found');
  });

  it('a key scoped to team-a-* reads team-a offsets only', async () => {
    const own = await call(app, `${groupPath(teamAEmpty)}/offsets`, KEYS.teamA);
    expect(own.status).toBe(200);
    expect(own.body.topics[0].partitions.map((p: { offset: number }) => p.offset)).toEqual([2, 2]);
    const hidden = await call(app, `${groupPath(teamBEmpty)}/offsets`, KEYS.teamA);
    const absent = await call(app, `${groupPath(missingB)}/offsets`, KEYS.teamA);
    expect(hidden.status).toBe(404);
    expect(withoutId(hidden.body, teamBEmpty)).toEqual(withoutId(absent.body, missingB));
    // The wide key reads the same group: the 404 came from the grant, not from Kafka.
    expect((await call(app, `${groupPath(teamBEmpty)}/offsets`, KEYS.ops)).status).toBe(200);
  });

  it('a batch describe answers groups outside the grant as missing, in the order asked', async () => {
    const answer = await call(app, '/groups/describe', KEYS.teamA, {
      groupIds: [teamBEmpty, teamAClassic, missingB, teamAEmpty],
    });
    expect(answer.status).toBe(200);
    const results = answer.body.results as {
      groupId: string;
      group?: unknown;
      problem?: Record<string, unknown>;
    }[];
    expect(results.map((r) => r.groupId)).toEqual([teamBEmpty, teamAClassic, missingB, teamAEmpty]);
    expect(results[1]?.group).toMatchObject({ groupId: teamAClassic, type: 'classic' });
    expect(results[3]?.group).toMatchObject({ groupId: teamAEmpty });
    expect(results[0]?.group).toBeUndefined();
    expect(withoutId(results[0]?.problem ?? {}, teamBEmpty)).toEqual(
      withoutId(results[2]?.problem ?? {}, missingB),
    );
    expect(results[0]?.problem?.type).toBe('/problems/group-not-found');
  });

  it.runIf(withConsumer)('a grant limited to classic groups hides groups of other types', async () => {
    const wide = await call(app, TEAM_LIST, KEYS.teamA);
    expect(ids(wide)).toContain(teamAConsumer);
    expect((await call(app, groupPath(teamAConsumer), KEYS.teamA)).status).toBe(200);

    // The empty group is a classic group too (made by an offset commit): both classic ones stay.
    const list = await call(app, TEAM_LIST, KEYS.teamAClassic);
    expect(ids(list)).not.toContain(teamAConsumer);
    expect(ours(ids(list))).toEqual([teamAClassic, teamAEmpty].sort());

    const hidden = await call(app, groupPath(teamAConsumer), KEYS.teamAClassic);
    const absent = await call(app, groupPath(missing), KEYS.teamAClassic);
    expect(hidden.status).toBe(404);
    expect(withoutId(hidden.body, teamAConsumer)).toEqual(withoutId(absent.body, missing));
    // Asserting a granted type on it does not reveal its real type either.
    const asserted = await call(app, `${groupPath(teamAConsumer)}?type=classic`, KEYS.teamAClassic);
    expect(asserted.status).toBe(404);
    expect(asserted.body.actualType).toBeUndefined();
    expect((await call(app, `${groupPath(teamAConsumer)}/offsets`, KEYS.teamAClassic)).status).toBe(404);
    // A visible type that is not the one asserted is still the usual 409.
    const mismatch = await call(app, `${groupPath(teamAClassic)}?type=share`, KEYS.teamAClassic);
    expect([409, 501]).toContain(mismatch.status);
  });

  it('a key without the offsets action gets 403 on offsets and still reads groups', async () => {
    const offsets = await call(app, `${groupPath(teamAEmpty)}/offsets`, KEYS.readOnly);
    expect(offsets.status).toBe(403);
    expect(offsets.body.type).toBe('/problems/forbidden');
    expect((await call(app, groupPath(teamAEmpty), KEYS.readOnly)).status).toBe(200);
  });

  it('a key without any grant gets 403 everywhere', async () => {
    for (const path of ['/groups', groupPath(teamAEmpty), `${groupPath(teamAEmpty)}/offsets`, '/cluster']) {
      expect((await call(app, path, KEYS.none)).status, path).toBe(403);
    }
  });
});

describe('JWTs', () => {
  const teamAClaim = { kafka_groups: [{ groups: ['team-a-*'], actions: ['read', 'offsets'] }] };

  it('a valid token with a team-a grant sees team-a groups only', async () => {
    const token = await jwt({ sub: 'alice', ...teamAClaim });
    const list = await call(app, TEAM_LIST, token);
    expect(list.status).toBe(200);
    expect(ours(ids(list))).toEqual([teamAClassic, teamAEmpty].sort());
    expect((await call(app, groupPath(teamAClassic), token)).status).toBe(200);
    expect((await call(app, groupPath(teamBEmpty), token)).status).toBe(404);
    expect((await call(app, `${groupPath(teamAEmpty)}/offsets`, token)).status).toBe(200);
  });

  it('fetches the key set once, not per request', async () => {
    const before = jwksFetches;
    const token = await jwt({ sub: 'bob', ...teamAClaim });
    for (let i = 0; i < 5; i++) expect((await call(app, '/cluster', token)).status).toBe(200);
    expect(jwksFetches - before).toBe(0);
    expect(jwksFetches).toBe(1);
  });

  it.each([
    [
      'expired',
      () => jwt({ sub: 'alice', ...teamAClaim }, { expiresIn: Math.floor(Date.now() / 1000) - 120 }),
      'expired',
    ],
    [
      'of another issuer',
      () => jwt({ sub: 'alice', ...teamAClaim }, { issuer: 'https://evil.test.local/' }),
      "'iss'",
    ],
    [
      'for another audience',
      () => jwt({ sub: 'alice', ...teamAClaim }, { audience: 'someone-else' }),
      "'aud'",
    ],
    [
      'signed by a key not in the set',
      () => jwt({ sub: 'alice', ...teamAClaim }, { key: strangerKey }),
      'signature',
    ],
    [
      'signed with HS256',
      () =>
        new SignJWT({ sub: 'alice', ...teamAClaim })
          .setProtectedHeader({ alg: 'HS256', kid: 'test-1' })
          .setIssuer(ISSUER)
          .setAudience(AUDIENCE)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode('a-shared-secret-anyone-could-guess')),
      'algorithm',
    ],
  ])('refuses a token %s with 401', async (_label, make, reason) => {
    const token = await make();
    const answer = await call(app, TEAM_LIST, token);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(answer.body.detail).toContain(reason);
    expect(JSON.stringify(answer.body)).not.toContain(token);
  });

  it('a valid token without a grants claim is known but granted nothing: 403', async () => {
    const answer = await call(app, TEAM_LIST, await jwt({ sub: 'carol' }));
    expect(answer.status).toBe(403);
  });

  it('answers 503 auth-unavailable, not 401, while the key set cannot be read; API keys still work', async () => {
    // An issuer answering with an error page, then one that is not listening at all.
    const broken = createServer((_req, res) => {
      res.statusCode = 502;
      res.end('bad gateway');
    });
    await new Promise<void>((resolve) => broken.listen(0, '127.0.0.1', resolve));
    const brokenUrl = `http://127.0.0.1:${(broken.address() as AddressInfo).port}/jwks.json`;
    try {
      for (const url of [brokenUrl, 'http://127.0.0.1:1/jwks.json']) {
        const outage = appFrom({
          AUTH_API_KEYS: `ops:${hashOf(KEYS.ops)}`,
          AUTH_GRANTS: JSON.stringify({ ops: { groups: '*', actions: ['read'] } }),
          AUTH_JWKS_URL: url,
          AUTH_JWT_ISSUER: ISSUER,
          AUTH_JWT_AUDIENCE: AUDIENCE,
          RATE_LIMIT_PER_MINUTE: '0',
        });
        const token = await jwt({ sub: 'alice', ...teamAClaim });
        const answer = await call(outage, TEAM_LIST, token);
        expect(answer.status, url).toBe(503);
        expect(answer.body.type).toBe('/problems/auth-unavailable');
        expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(answer.headers.get('www-authenticate')).toBeNull();
        expect(JSON.stringify(answer.body)).not.toContain(token);
        // API keys need no issuer: they keep working through its outage.
        expect((await call(outage, TEAM_LIST, KEYS.ops)).status).toBe(200);
      }
    } finally {
      await new Promise((resolve) => broken.close(resolve));
    }
  });

  it("one principal's grants never widen another's", async () => {
    // Same subject name as an API key, other grants: each keeps its own.
    const token = await jwt({ sub: 'ops', ...teamAClaim });
    expect(ours(ids(await call(app, TEAM_LIST, token)))).toEqual([teamAClassic, teamAEmpty].sort());
    expect(ours(ids(await call(app, TEAM_LIST, KEYS.ops)))).toEqual(
      [teamAClassic, teamAEmpty, teamBEmpty].sort(),
    );
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a principal spends its burst, without touching another principal', async () => {
    const limited = appFrom({
      AUTH_API_KEYS: `ops:${hashOf(KEYS.ops)},teamA:${hashOf(KEYS.teamA)}`,
      AUTH_GRANTS: JSON.stringify({
        ops: { groups: '*', actions: 'read' },
        teamA: { groups: 'team-a-*', actions: 'read' },
      }),
      RATE_LIMIT_PER_MINUTE: '6',
      RATE_LIMIT_BURST: '3',
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(limited, '/cluster', KEYS.ops)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call(limited, '/cluster', KEYS.ops);
    expect(refused.body.type).toBe('/problems/rate-limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await call(limited, '/cluster', KEYS.teamA)).status).toBe(200);
    // Wrong credentials spend the address's tokens, so guessing keys is throttled too.
    const guesses: number[] = [];
    for (let i = 0; i < 4; i++) guesses.push((await call(limited, '/cluster', newKey())).status);
    expect(guesses).toEqual([401, 401, 401, 429]);
  });
});

describe('docs', () => {
  it('AUTH_DOCS=private puts the document behind credentials', async () => {
    const closed = appFrom({ AUTH_API_KEYS: `ops:${hashOf(KEYS.ops)}`, AUTH_DOCS: 'private' });
    expect((await closed.request('/openapi.json')).status).toBe(401);
    expect((await closed.request('/docs')).status).toBe(401);
    const res = await closed.request('/openapi.json', { headers: { authorization: `Bearer ${KEYS.ops}` } });
    expect(res.status).toBe(200);
    expect((await closed.request('/healthz')).status).toBe(200);
  });
});
