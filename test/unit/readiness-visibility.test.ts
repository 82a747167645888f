/**
 * /readyz is open, and with authentication on it tells the brokers and the clusters by alias only
 * to a caller with the `read` action there: the status codes stay the same for every caller, a
 * not-ready answer names no broker to the others. The services are stand-ins that answer a ping.
 */

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { standInService } from '../support/stand-in-app.js';

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = {
  ops: 'ops-key-0123456789abcdef',
  eu: 'eu-key-0123456789abcdef',
  none: 'none-key-0123456789abcd',
};

const readiness = (ready: boolean, host: string) => async () => ({
  ready,
  checkedAt: '2026-11-30T20:00:00.000Z',
  brokers: [
    ready
      ? { nodeId: 1, broker: `${host}:9092`, answered: true, latencyMs: 1 }
      : { nodeId: 1, broker: `${host}:9092`, answered: false, error: `${host}:9092 refused the connection` },
  ],
});

function appWith(env: Record<string, string>, defaultReady = true) {
  const main = standInService({ ping: readiness(defaultReady, '10.0.0.11') });
  const eu = standInService({ ping: readiness(false, '10.1.0.11') });
  return createApp({
    service: main,
    security: securityFrom(loadConfig({ KAFKA_BROKERS: '127.0.0.1:9', RATE_LIMIT_PER_MINUTE: '0', ...env })),
    clusters: {
      defaultAlias: 'default',
      list: [
        { alias: 'default', service: main },
        { alias: 'eu-west', service: eu },
      ],
    },
  });
}

const ENFORCED = {
  AUTH_API_KEYS: Object.entries(KEYS)
    .map(([name, key]) => `${name}:${hashOf(key)}`)
    .join(','),
  AUTH_GRANTS: JSON.stringify({
    ops: { groups: '*', actions: ['read'] },
    eu: { groups: '*', actions: ['read'], clusters: ['eu-west'] },
    none: { groups: '*', actions: ['offsets'] },
  }),
};

async function readyz(app: ReturnType<typeof appWith>, path: string, key?: string) {
  const res = await app.request(path, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: res.status, text: await res.text() };
}

describe('/readyz with authentication on', () => {
  it('tells an unknown caller the status and the counts, no address, node id or alias', async () => {
    const app = appWith(ENFORCED);
    for (const key of [undefined, 'not-a-key', KEYS.none]) {
      const { status, text } = await readyz(app, '/readyz', key);
      expect(status).toBe(200);
      expect(JSON.parse(text)).toEqual({
        status: 'ok',
        checkedAt: '2026-11-30T20:00:00.000Z',
        brokersAsked: 1,
        brokersAnswered: 1,
        brokers: [],
      });
    }
  });

  it('tells a caller each cluster it has the read action in, and no other', async () => {
    const app = appWith(ENFORCED);
    const ops = JSON.parse((await readyz(app, '/readyz', KEYS.ops)).text);
    expect(ops.brokers).toEqual([{ nodeId: 1, broker: '10.0.0.11:9092', answered: true, latencyMs: 1 }]);
    expect(ops.clusters).toEqual({
      default: { ready: true },
      'eu-west': { ready: false, reason: '10.1.0.11:9092 refused the connection' },
    });
    // Granted eu-west only: the default's brokers are not its to see; eu-west's readiness is.
    const eu = JSON.parse((await readyz(app, '/readyz', KEYS.eu)).text);
    expect(eu.brokers).toEqual([]);
    expect(eu.clusters).toEqual({
      'eu-west': { ready: false, reason: '10.1.0.11:9092 refused the connection' },
    });
  });

  it('answers a cluster not ready with the same 503 to everyone, naming its brokers only to a reader', async () => {
    const app = appWith(ENFORCED);
    const anonymous = await readyz(app, '/clusters/eu-west/readyz');
    expect(anonymous.status).toBe(503);
    expect(JSON.parse(anonymous.text)).toMatchObject({ type: '/problems/broker-unavailable' });
    expect(anonymous.text).not.toContain('10.1.0.11');
    expect(JSON.parse(anonymous.text).broker).toBeUndefined();
    const reader = await readyz(app, '/clusters/eu-west/readyz', KEYS.eu);
    expect(reader.status).toBe(503);
    expect(reader.text).toContain('10.1.0.11:9092 refused the connection');
  });

  it('answers the default not ready with 503 to an unknown caller, without an address', async () => {
    const { status, text } = await readyz(appWith(ENFORCED, false), '/readyz');
    expect(status).toBe(503);
    expect(text).not.toContain('10.0.0.11');
  });
});

describe('/readyz with AUTH=none', () => {
  it('keeps every detail for everyone', async () => {
    const { status, text } = await readyz(appWith({ AUTH: 'none' }), '/readyz');
    expect(status).toBe(200);
    const body = JSON.parse(text);
    expect(body.brokers).toHaveLength(1);
    expect(Object.keys(body.clusters)).toEqual(['default', 'eu-west']);
  });
});
