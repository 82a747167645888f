/**
 * Coalesced describes against the real broker: many callers describing different groups at once
 * cost one DescribeGroups per coordinator, counted at the connection, and each caller still gets
 * its own group (or its own 404). The same load on a service without coalescing sends one RPC per
 * caller, which is what this test would see if the feature were gone.
 */

import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import { KafkaCluster } from '../../src/broker/transport/cluster.js';
import { BrokerConnection } from '../../src/broker/transport/connection.js';
import { loadConfig } from '../../src/config.js';
import type { Group } from '../../src/groups/model.js';
import { KafkaGroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';
import { silentLogger } from '../../src/logger.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { appWithGroups } from '../support/app-with-groups.js';

const run = uniqueName('co');
const COUNT = 48;
const groupIds = Array.from({ length: COUNT }, (_, i) => `${run}-${String(i).padStart(2, '0')}`);
const missing = `${run}-missing`;

const t = appWithGroups({
  topics: [{ name: `${run}-t`, partitions: 1, records: 1 }],
  groups: groupIds.map((groupId) => ({ type: 'empty' as const, groupId, topics: [`${run}-t`], commit: 1 })),
  readyTimeoutMs: 300_000,
  timeoutMs: 330_000,
});

/** Counts the RPCs sent through every broker connection while `work` runs, by API name. */
async function countRpcs(work: () => Promise<void>): Promise<Map<string, number>> {
  // A spy calls the real send: the RPCs still reach the broker.
  const spy = vi.spyOn(BrokerConnection.prototype, 'send');
  try {
    await work();
    const counts = new Map<string, number>();
    for (const [api] of spy.mock.calls) counts.set(api.name, (counts.get(api.name) ?? 0) + 1);
    return counts;
  } finally {
    spy.mockRestore();
  }
}

function appWith(coalesce: boolean) {
  const config = loadConfig({ KAFKA_BROKERS: t.bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
  const cluster = new KafkaCluster(config.kafka, { logger: silentLogger });
  const service = new KafkaGroupService(cluster, coalesce ? {} : { coalesce: false });
  return { app: createApp({ service, security: securityFrom(config) }), service };
}

/** Every group and the missing one described at once, each by its own HTTP request. */
async function describeAllAtOnce(app: ReturnType<typeof createApp>): Promise<void> {
  const ids = [...groupIds, missing];
  const answers = await Promise.all(
    ids.map((id) => app.request(`/groups/${encodeURIComponent(id)}?type=classic`)),
  );
  for (const [i, res] of answers.entries()) {
    const id = ids[i] as string;
    if (id === missing) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toContain(missing);
    } else {
      expect(res.status, id).toBe(200);
      expect(((await res.json()) as Group).groupId).toBe(id);
    }
  }
}

describe('coalesced describes', () => {
  it('sends concurrent describes of different groups on one coordinator as one DescribeGroups', async () => {
    const { app, service } = appWith(true);
    const plain = appWith(false);
    try {
      // Coordinators known first, so the counts are the describes alone.
      for (const s of [service, plain.service]) await s.describeGroups([...groupIds, missing], NO_DEADLINE);

      const coalesced = await countRpcs(() => describeAllAtOnce(app));
      const separate = await countRpcs(() => describeAllAtOnce(plain.app));

      // The single broker coordinates every group: 49 callers; the first finds nothing in flight
      // and goes alone, the others in one batch (a second one at most, if some arrive while both
      // slots are out), plus the missing group's round 2.
      expect(coalesced.get('DescribeGroups') ?? 0).toBeGreaterThanOrEqual(2);
      expect(coalesced.get('DescribeGroups') ?? 0).toBeLessThanOrEqual(4);
      expect(coalesced.get('FindCoordinator') ?? 0).toBe(0);
      // Without coalescing: one DescribeGroups per caller.
      expect(separate.get('DescribeGroups')).toBe(COUNT + 1);
    } finally {
      await service.close();
      await plain.service.close();
    }
  });
});
