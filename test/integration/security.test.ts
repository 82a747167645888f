/**
 * The HTTP API through the test broker's SASL_PLAINTEXT and SSL listeners, configured by
 * `loadConfig` from the environment variables a user sets (KAFKA_SASL_*, KAFKA_SSL*). The group is
 * made on the PLAINTEXT listener of the same broker. Every answer is checked against the published
 * OpenAPI document; every log line the product writes and every response body is kept, and no
 * password, right or wrong, may appear in any of them.
 *
 * The listeners exist only on a broker the test run started: with KAFKA_BROKERS these tests skip.
 */

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { parseAddress } from '../../src/broker/transport/address.js';
import type { ClusterInfo } from '../../src/broker/transport/cluster.js';
import { type Env, loadConfig } from '../../src/config.js';
import type { ClassicGroup, GroupList, GroupOffsets } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import type { Problem } from '../../src/openapi/problems.js';
import { createService, type Service } from '../../src/wiring.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { OpenApiChecker } from '../support/openapi.js';

const sasl = inject('kafkaSasl');
const tls = inject('kafkaTls');

const run = uniqueName('sec');
const topic = `${run}-events`;
const groupId = `${run}-classic`;
const groupPath = `/groups/${encodeURIComponent(groupId)}`;
/** Wrong passwords tried, for the leak check. */
const wrongPasswords: string[] = [];

/** Every line the product logged (debug and up) and every response body, for the leak check. */
const logLines: string[] = [];
const bodies: string[] = [];
const logger = createLogger('debug', (line) => logLines.push(line));

type App = ReturnType<typeof createApp>;
const services: Service[] = [];
let checker: OpenApiChecker;
let fixtures: RunningFixtures | undefined;

/** The app as a runtime wires it, from these environment variables, logging into `logLines`. */
function appFrom(env: Env): App {
  const config = loadConfig({ AUTH: 'none', ...env });
  const service = createService(config, { logger });
  services.push(service);
  return createApp({ service: service.groups, security: securityFrom(config), logger });
}

function templateOf(path: string): string {
  if (path.endsWith('/offsets')) return '/groups/{groupId}/offsets';
  if (path.startsWith('/groups/')) return '/groups/{groupId}';
  return path.replace(/\?.*/, '');
}

async function get<T = Problem>(
  app: App,
  path: string,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await app.request(path);
  bodies.push(await res.clone().text());
  const body = (await checker.check('get', templateOf(path), res)) as T;
  return { status: res.status, body, headers: res.headers };
}

/** /readyz, /cluster, /groups, /groups/{groupId} and its offsets answer 200 through `bootstrap`'s listener. */
async function expectServed(app: App, bootstrap: string): Promise<void> {
  const { port } = parseAddress(bootstrap);

  const ready = await get<{ status: string }>(app, '/readyz');
  expect(ready.status).toBe(200);
  expect(ready.body).toMatchObject({
    status: 'ok',
    brokers: expect.arrayContaining([expect.objectContaining({ answered: true })]),
  });

  // Metadata answers with the address advertised for the listener asked: discovery stays on it.
  const cluster = await get<ClusterInfo>(app, '/cluster');
  expect(cluster.status).toBe(200);
  expect(cluster.body.brokers).toEqual([{ nodeId: 1, host: '127.0.0.1', port, rack: null }]);

  const list = await get<GroupList>(app, `/groups?prefix=${encodeURIComponent(run)}`);
  expect(list.status).toBe(200);
  expect(list.body.failures).toEqual([]);
  expect(list.body.groups).toEqual([{ groupId, type: 'classic', protocolType: 'consumer', state: 'Stable' }]);

  const group = await get<ClassicGroup>(app, groupPath);
  expect(group.status).toBe(200);
  expect(group.body).toMatchObject({ type: 'classic', groupId, state: 'Stable', protocolType: 'consumer' });
  expect(group.body.coordinator).toEqual({ nodeId: 1, host: '127.0.0.1', port });
  expect(group.body.members).toHaveLength(1);
  expect(group.body.members[0]?.clientId).toBe(`${run}-cl-0`);

  const offsets = await get<GroupOffsets>(app, `${groupPath}/offsets`);
  expect(offsets.status).toBe(200);
  expect(offsets.body.topics).toHaveLength(1);
  expect(offsets.body.topics[0]?.partitions.map((p) => [p.offset, p.endOffset, p.lag])).toEqual([
    [3, 5, 2],
    [3, 5, 2],
  ]);
}

beforeAll(async () => {
  checker = await OpenApiChecker.load(async (path) => appFrom({}).request(path));
  if (!sasl && !tls) return;
  fixtures = await startFixtures({
    bootstrap: inject('kafkaBrokers'),
    groups: [
      {
        type: 'classic',
        groupId,
        topics: [{ name: topic, partitions: 2, records: 5 }],
        clientId: `${run}-cl`,
        commit: 3,
      },
    ],
  });
});

afterAll(async () => {
  await fixtures?.stop();
  await Promise.all(services.map((s) => s.close()));
});

describe.skipIf(!sasl)('SASL_PLAINTEXT listener', () => {
  const creds = sasl ?? { bootstrap: '', username: '', password: '' };
  const env = (mechanism: string, password: string): Env => ({
    KAFKA_BROKERS: creds.bootstrap,
    KAFKA_SASL_MECHANISM: mechanism,
    KAFKA_SASL_USERNAME: creds.username,
    KAFKA_SASL_PASSWORD: password,
  });

  describe.each(['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'])('KAFKA_SASL_MECHANISM=%s', (mechanism) => {
    it('serves readiness, the cluster, the group list, a group and its offsets', async () => {
      await expectServed(appFrom(env(mechanism, creds.password)), creds.bootstrap);
    });

    it('a wrong password: 503 broker-unavailable naming the SASL failure, readiness included', async () => {
      const wrong = `wrong${randomBytes(16).toString('hex')}`;
      wrongPasswords.push(wrong);
      const app = appFrom(env(mechanism, wrong));
      for (const path of ['/readyz', '/cluster', '/groups', groupPath, `${groupPath}/offsets`]) {
        const { status, body, headers } = await get(app, path);
        expect(status, path).toBe(503);
        expect(body.type).toBe('/problems/broker-unavailable');
        expect(body.detail).toContain(`SASL authentication with ${creds.bootstrap} failed`);
        expect(body.detail).toContain(
          `SASL ${mechanism.replace('SCRAM-SHA-', 'SCRAM SHA')} authentication failed`,
        );
        expect(headers.get('retry-after')).toBe('1');
        expect(JSON.stringify(body)).not.toContain(wrong);
        expect(JSON.stringify(body)).not.toContain(creds.password);
      }
    });
  });

  it('no log line and no response body holds a password, right or wrong', () => {
    // Not vacuous: the successful calls answered, and kafkajs logged each failed authentication.
    expect(bodies.length).toBeGreaterThanOrEqual(2 * 3 * 5);
    expect(logLines.filter((l) => l.includes('authentication failed'))).not.toEqual([]);
    expect(wrongPasswords).toHaveLength(3);
    for (const secret of [creds.password, ...wrongPasswords]) {
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
    }
  });
});

describe.skipIf(!tls)('SSL listener', () => {
  const listener = tls ?? { bootstrap: '', caPem: '' };

  it('KAFKA_SSL_CA=<the CA>: served, TLS implied by the CA', async () => {
    await expectServed(
      appFrom({ KAFKA_BROKERS: listener.bootstrap, KAFKA_SSL_CA: listener.caPem }),
      listener.bootstrap,
    );
  });

  it('the certificate names localhost too (host name checked, SNI sent)', async () => {
    const { port } = parseAddress(listener.bootstrap);
    const app = appFrom({
      KAFKA_BROKERS: `localhost:${port}`,
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA: listener.caPem,
    });
    expect((await get(app, '/readyz')).status).toBe(200);
    // Discovered brokers are the advertised 127.0.0.1, which the certificate names as well.
    expect((await get(app, groupPath)).status).toBe(200);
  });

  it('KAFKA_SSL=true without a CA (system store): 503 naming the certificate error', async () => {
    const app = appFrom({ KAFKA_BROKERS: listener.bootstrap, KAFKA_SSL: 'true' });
    for (const path of ['/readyz', '/cluster', '/groups', groupPath]) {
      const { status, body } = await get(app, path);
      expect(status, path).toBe(503);
      expect(body.type).toBe('/problems/broker-unavailable');
      expect(body.detail).toContain(`cannot connect to ${listener.bootstrap}`);
      expect(body.detail).toMatch(/self-signed certificate|unable to (verify|get local issuer)/);
    }
  });

  it('KAFKA_SSL_REJECT_UNAUTHORIZED=false: served without the CA', async () => {
    await expectServed(
      appFrom({
        KAFKA_BROKERS: listener.bootstrap,
        KAFKA_SSL: 'true',
        KAFKA_SSL_REJECT_UNAUTHORIZED: 'false',
      }),
      listener.bootstrap,
    );
  });
});
