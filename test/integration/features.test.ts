/**
 * Feature levels on GET /cluster and GET /clusters/{alias}: what the broker finalized, read from
 * ApiVersions v3+, checked against Kafka's own Java Admin client (describeFeatures) and against
 * the published document.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { javaAdminFeatures } from '../broker-harness/group-admin.js';
import { type TestApp, testApp } from '../support/app.js';
import { kafkaAtLeast } from '../support/kafka-version.js';

interface Features {
  finalizedEpoch: number | null;
  finalized: { name: string; level: number; minLevel: number }[];
  supported: { name: string; minVersion: number; maxVersion: number }[];
}

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

describe('feature levels', () => {
  it('GET /cluster lists the finalized levels Kafka’s Admin client reads', async () => {
    const { status, body } = await t.get<{ features: Features | null }>('/cluster', '/cluster');
    const java = await javaAdminFeatures(t.bootstrap);
    expect(status).toBe(200);
    expect(body.features).not.toBeNull();
    const features = body.features as Features;
    // The Admin client drops features finalized at level 0; so does the broker's answer.
    const ours = new Map(features.finalized.map((f) => [f.name, [f.minLevel, f.level]]));
    expect(ours).toEqual(java.finalized);
    // The epoch is the metadata offset the broker has applied: it only grows, and Java asked later.
    expect(features.finalizedEpoch).toBeGreaterThan(0);
    expect(features.finalizedEpoch).toBeLessThanOrEqual(java.epoch);
    expect(features.finalized.map((f) => f.name)).toContain('metadata.version');
    const supported = new Set(features.supported.map((f) => f.name));
    expect(supported).toContain('metadata.version');
    // 3.9.2 offers only metadata.version and kraft.version; group.version (KIP-848) comes with 4.0.
    if (kafkaAtLeast(4, 0)) expect(ours.get('group.version')?.[1]).toBeGreaterThanOrEqual(1);
    else expect(supported).not.toContain('group.version');
    if (kafkaAtLeast(4, 2)) {
      for (const name of ['share.version', 'streams.version'])
        expect(ours.get(name)?.[1], name).toBeGreaterThanOrEqual(1);
    }
  });

  it('GET /clusters/{alias} carries the same levels', async () => {
    const [single, alias] = await Promise.all([
      t.get<{ features: Features }>('/cluster', '/cluster'),
      t.get<{ features: Features }>('/clusters/default', '/clusters/{alias}'),
    ]);
    expect(alias.status).toBe(200);
    expect(alias.body.features.finalized).toEqual(single.body.features.finalized);
  });
});
