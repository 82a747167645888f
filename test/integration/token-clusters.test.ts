/**
 * Tokens are bound to the cluster they were made on. Two aliases here name the same broker
 * (`default` and `other`): a reset plan made on one is refused through the other, and a lag
 * snapshot from one is refused as `since` on the other, each with a 400 saying why; on their own
 * cluster both work. The group is made by Kafka's Java Admin client (an offset commit).
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import { tokenSigner } from '../../src/tokens/signed.js';
import { clustersOf, createService, type Service } from '../../src/wiring.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';

const run = uniqueName('tokcl');
const groupId = `${run}-empty`;
const topic = `${run}-events`;
let fixtures: RunningFixtures;
let service: Service;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const bootstrap = inject('kafkaBrokers');
  fixtures = await startFixtures({
    bootstrap,
    topics: [{ name: topic, partitions: 1, records: 4 }],
    groups: [{ type: 'empty', groupId, topics: [topic], commit: 2 }],
  });
  const config = loadConfig({
    KAFKA_BROKERS: bootstrap,
    KAFKA_CLUSTERS: 'other',
    KAFKA_CLUSTER_OTHER_BROKERS: bootstrap,
    AUTH: 'none',
    WRITES: 'enabled',
    RATE_LIMIT_PER_MINUTE: '0',
  });
  service = createService(config);
  app = createApp({
    service: service.groups,
    clusters: clustersOf(service),
    security: securityFrom(config),
    tokens: tokenSigner(['token-clusters-test-key-0123456789abcdef']),
  });
});

afterAll(async () => {
  await service?.close();
  await fixtures?.stop();
});

const reset = (prefix: string, body: object, execute = false) =>
  app.request(`${prefix}/groups/${groupId}/offsets/reset${execute ? '?execute=true' : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'classic', ...body }),
  });

describe('tokens bound to their cluster', () => {
  it('a reset plan made on default is refused through /clusters/other, naming why', async () => {
    const planned = await reset('', { scenario: 'to-earliest', allTopics: true });
    expect(planned.status, await planned.clone().text()).toBe(200);
    const { planToken } = (await planned.json()) as { planToken: string };
    const refused = await reset(
      '/clusters/other',
      { scenario: 'to-earliest', allTopics: true, planToken },
      true,
    );
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { detail: string; errors: Array<{ name: string }> };
    expect(problem.detail).toContain("made on the cluster 'default', not on 'other'");
    expect(problem.errors[0]?.name).toBe('planToken');
    expect(JSON.stringify(problem)).not.toContain(planToken.slice(0, 30));
    // On its own cluster it applies.
    const applied = await reset('', { scenario: 'to-earliest', allTopics: true, planToken }, true);
    expect(applied.status).toBe(200);
  });

  it('a lag snapshot from /clusters/other is refused as since= on default, naming why', async () => {
    const first = await app.request(`/clusters/other/groups/${groupId}/health`);
    expect(first.status).toBe(200);
    const { snapshot } = (await first.json()) as { snapshot: string };
    expect(typeof snapshot).toBe('string');
    const refused = await app.request(`/groups/${groupId}/health?since=${snapshot}`);
    expect(refused.status).toBe(400);
    const text = await refused.text();
    expect(text).toContain("made on the cluster 'other', not on 'default'");
    expect(text).not.toContain(snapshot.slice(0, 30));
    const same = await app.request(`/clusters/other/groups/${groupId}/health?since=${snapshot}`);
    expect(same.status).toBe(200);
  });
});
