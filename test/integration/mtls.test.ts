/**
 * Mutual TLS against the test broker's MTLS listener (`ssl.client.auth=required`), configured the
 * way a user does it: KAFKA_SSL_CA, KAFKA_SSL_CERT and KAFKA_SSL_KEY through `loadConfig`. The
 * group is made on the PLAINTEXT listener of the same broker. Every log line and answer is kept: no
 * private key, not even a piece of one, may appear in any of them.
 *
 * The listener exists only on a broker the test run started: with KAFKA_BROKERS these tests skip.
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { parseAddress } from '../../src/broker/transport/address.js';
import { type Env, loadConfig } from '../../src/config.js';
import type { ClassicGroup } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { createLogger } from '../../src/logger.js';
import type { Problem } from '../../src/openapi/problems.js';
import { createService, type Service } from '../../src/wiring.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { OpenApiChecker } from '../support/openapi.js';

const mtls = inject('kafkaMtls');

const run = uniqueName('mtls');
const groupId = `${run}-classic`;
const groupPath = `/groups/${encodeURIComponent(groupId)}`;

const logLines: string[] = [];
const bodies: string[] = [];
const logger = createLogger('debug', (line) => logLines.push(line));
const services: Service[] = [];
let checker: OpenApiChecker;
let fixtures: RunningFixtures | undefined;

type App = ReturnType<typeof createApp>;

function appFrom(env: Env): App {
  const config = loadConfig({ AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0', ...env });
  const service = createService(config, { logger });
  services.push(service);
  return createApp({ service: service.groups, security: securityFrom(config), logger });
}

function templateOf(path: string): string {
  if (path.startsWith('/groups/')) return '/groups/{groupId}';
  return path.replace(/\?.*/, '');
}

async function get<T = Problem>(app: App, path: string): Promise<{ status: number; body: T }> {
  const res = await app.request(path);
  bodies.push(await res.clone().text());
  const body = (await checker.check('get', templateOf(path), res)) as T;
  return { status: res.status, body };
}

/** The base64 lines of a PEM: any one of them in a log or an answer would be key material. */
function pemLines(pem: string): string[] {
  return pem.split('\n').filter((l) => l !== '' && !l.startsWith('-----'));
}

beforeAll(async () => {
  checker = await OpenApiChecker.load(async (path) => appFrom({}).request(path));
  if (!mtls) return;
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
});

describe.skipIf(!mtls)('MTLS listener (ssl.client.auth=required)', () => {
  const listener = mtls ?? {
    bootstrap: '',
    caPem: '',
    client: { certPem: '', keyPem: '' },
    rogue: { certPem: '', keyPem: '' },
  };
  const base = { KAFKA_BROKERS: listener.bootstrap, KAFKA_SSL_CA: listener.caPem };

  it('the client certificate from KAFKA_SSL_CERT/KAFKA_SSL_KEY is accepted: readiness, cluster, group', async () => {
    const app = appFrom({
      ...base,
      KAFKA_SSL_CERT: listener.client.certPem,
      KAFKA_SSL_KEY: listener.client.keyPem,
    });
    const cluster = await get<{ brokers: { port: number }[] }>(app, '/cluster');
    expect(cluster.status, JSON.stringify(cluster.body)).toBe(200);
    // Discovery stays on the listener asked: the broker advertises each listener as itself.
    expect(cluster.body.brokers.map((b) => b.port)).toEqual([parseAddress(listener.bootstrap).port]);
    const group = await get<ClassicGroup>(app, groupPath);
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ type: 'classic', groupId, state: 'Stable' });
    // Readiness after the connection is up: its 2 s bound is for a Metadata round trip, not a handshake.
    expect((await get(app, '/readyz')).status).toBe(200);
  });

  it('no client certificate: 503 broker-unavailable naming the TLS refusal', async () => {
    const app = appFrom(base);
    for (const path of ['/readyz', '/cluster', groupPath]) {
      const { status, body } = await get(app, path);
      expect(status, path).toBe(503);
      expect(body.type).toBe('/problems/broker-unavailable');
      expect(body.detail).toContain(listener.bootstrap);
      expect(body.detail).toMatch(/TLS|certificate/i);
    }
  });

  it('a certificate the broker does not trust (self-signed): 503 broker-unavailable naming the TLS refusal', async () => {
    const app = appFrom({
      ...base,
      KAFKA_SSL_CERT: listener.rogue.certPem,
      KAFKA_SSL_KEY: listener.rogue.keyPem,
    });
    for (const path of ['/readyz', '/cluster', groupPath]) {
      const { status, body } = await get(app, path);
      expect(status, path).toBe(503);
      expect(body.type).toBe('/problems/broker-unavailable');
      expect(body.detail).toContain(listener.bootstrap);
      expect(body.detail).toMatch(/TLS|certificate/i);
    }
  });

  it("a key that is not the certificate's own: 503 naming the mismatch, no key quoted", async () => {
    const app = appFrom({
      ...base,
      KAFKA_SSL_CERT: listener.client.certPem,
      KAFKA_SSL_KEY: listener.rogue.keyPem,
    });
    const { status, body } = await get(app, '/cluster');
    expect(status).toBe(503);
    expect(body.type).toBe('/problems/broker-unavailable');
    expect(body.detail).toContain(`cannot connect to ${listener.bootstrap}`);
    expect(body.detail).toContain('key values mismatch');
  });

  it('no log line and no answer holds key material', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(10);
    const secrets = [...pemLines(listener.client.keyPem), ...pemLines(listener.rogue.keyPem)];
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(logLines.filter((l) => l.includes(secret))).toEqual([]);
      expect(bodies.filter((b) => b.includes(secret))).toEqual([]);
    }
  });
});
