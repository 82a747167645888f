/**
 * GET /cluster/protocols against the real broker: a classic consumer group (Kafka's Java consumer,
 * group.protocol=classic), a classic group of protocol type `connect` (raw JoinGroup), an empty
 * classic group (an Admin offset commit), a consumer-protocol group, and on Kafka 4.x a mixed group
 * (a classic and a consumer-protocol KafkaConsumer in one group). JSON and NDJSON agree; a caller
 * granted some groups sees only those; the feature levels are the cluster's.
 *
 * Kafka 3.9.2: ConsumerGroupDescribe v0 has no member type, so a mixed group cannot be told and is
 * counted as a consumer group; the mixed group is made on 4.x only.
 */

import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ProtocolGroup } from '../../src/groups/protocols.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminFeatures } from '../broker-harness/group-admin.js';
import { type RunningRig, startRateRig } from '../broker-harness/rate-rig.js';
import { joinRawClassicMember, type RawMember } from '../broker-harness/raw-classic-member.js';
import { type BrokerApps, brokerApps } from '../support/broker-apps.js';
import { kafkaAtLeast } from '../support/kafka-version.js';
import { OpenApiChecker } from '../support/openapi.js';

const bootstrap = inject('kafkaBrokers');
const run = uniqueName('pr');
const ids = {
  classic: `${run}-classic`,
  connect: `${run}-connect`,
  empty: `${run}-empty`,
  consumer: `${run}-consumer`,
  mixed: `${run}-mixed`,
};
const topic = `${run}-t`;
const MIXED = kafkaAtLeast(4, 0);
const KEY = 'protocols-reader-key-0123456789';
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

const apps = brokerApps();
let fixtures: RunningFixtures | undefined;
let rig: RunningRig | undefined;
let connect: RawMember | undefined;
let app: ReturnType<BrokerApps['app']>;
let narrow: ReturnType<BrokerApps['app']>;
let checker: OpenApiChecker;

interface Protocols {
  features: { groupVersion: number | null; shareVersion: number | null; streamsVersion: number | null };
  consumerProtocol: boolean | null;
  totals: Record<string, number>;
  groups: ProtocolGroup[];
}

const mine = (groups: ProtocolGroup[]) => groups.filter((g) => g.groupId.startsWith(run));

beforeAll(async () => {
  fixtures = await startFixtures({
    bootstrap,
    groups: [
      {
        type: 'classic',
        groupId: ids.classic,
        topics: [{ name: topic, partitions: 2, records: 3 }],
        commit: 1,
      },
      { type: 'empty', groupId: ids.empty, topics: [topic], commit: 1 },
      { type: 'consumer', groupId: ids.consumer, topics: [topic], commit: 1 },
    ],
  });
  connect = await joinRawClassicMember({
    bootstrap,
    groupId: ids.connect,
    protocolType: 'connect',
    clientId: 'connect-worker-1',
  });
  if (MIXED) {
    rig = await startRateRig({
      bootstrap,
      topic: `${run}-mixed`,
      partitions: 2,
      backlog: 5,
      produce: 1,
      consumers: [
        { groupId: ids.mixed, perSecond: 20, protocol: 'consumer' },
        { groupId: ids.mixed, perSecond: 20, protocol: 'classic' },
      ],
    });
  }
  app = apps.app({ AUTH: 'none' });
  narrow = apps.app({
    AUTH_API_KEYS: `reader:${hashOf(KEY)}`,
    AUTH_GRANTS: JSON.stringify({
      reader: { groups: [`${ids.classic}`, `${ids.connect}`], actions: ['read'] },
    }),
  });
  checker = await OpenApiChecker.load(async (path) => app.request(path));
}, 240_000);

afterAll(async () => {
  await connect?.leave();
  await rig?.stop();
  await fixtures?.stop();
  await apps.close();
});

describe('GET /cluster/protocols (real broker)', () => {
  it('sorts each group by what it can do, with the feature levels of the cluster', async () => {
    const res = await app.request('/cluster/protocols');
    expect(res.status).toBe(200);
    const body = (await checker.check('get', '/cluster/protocols', res)) as Protocols;
    const byId = new Map(mine(body.groups).map((g) => [g.groupId, g]));
    expect(byId.get(ids.classic)).toMatchObject({
      category: 'can-migrate',
      type: 'classic',
      protocolType: 'consumer',
    });
    expect(byId.get(ids.connect)).toMatchObject({
      category: 'cannot-migrate',
      type: 'classic',
      protocolType: 'connect',
    });
    expect(byId.get(ids.empty)).toMatchObject({ category: 'empty-classic', type: 'classic', state: 'Empty' });
    // Every member on the consumer protocol: nothing to do, counted only.
    expect(byId.has(ids.consumer)).toBe(false);
    expect(body.totals.consumer).toBeGreaterThanOrEqual(MIXED ? 1 : 0);
    if (MIXED) {
      const mixed = byId.get(ids.mixed);
      expect(mixed).toMatchObject({ category: 'mixed', type: 'consumer' });
      expect(mixed?.classicMembers).toEqual([
        expect.objectContaining({
          clientId: `${ids.mixed}-client`,
          clientHost: expect.stringContaining('127.0.0.1'),
        }),
      ]);
    }
    const features = await javaAdminFeatures(bootstrap);
    const level = (name: string) => features.finalized.get(name)?.[1] ?? 0;
    expect(body.features).toEqual({
      groupVersion: level('group.version'),
      shareVersion: level('share.version'),
      streamsVersion: level('streams.version'),
    });
    expect(body.consumerProtocol).toBe(level('group.version') >= 1);
  });

  it('streams the same as NDJSON, by its own path and by Accept', async () => {
    const json = (await (await app.request('/cluster/protocols')).json()) as Protocols;
    for (const res of [
      await app.request('/cluster/protocols.ndjson'),
      await app.request('/cluster/protocols', { headers: { accept: 'application/x-ndjson' } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/x-ndjson');
      const lines = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines[0]).toEqual({ features: json.features, consumerProtocol: json.consumerProtocol });
      expect(lines.at(-1)).toEqual({ end: expect.objectContaining({ canMigrate: expect.any(Number) }) });
      const groups = lines.filter((l) => 'category' in l) as unknown as ProtocolGroup[];
      expect(
        mine(groups)
          .map((g) => g.groupId)
          .sort(),
      ).toEqual(
        mine(json.groups)
          .map((g) => g.groupId)
          .sort(),
      );
    }
    const refused = await app.request('/cluster/protocols', { headers: { accept: 'image/png' } });
    expect(refused.status).toBe(406);
  });

  it('shows a caller only the groups it is granted, in the list and in the totals', async () => {
    const res = await narrow.request('/cluster/protocols', { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Protocols;
    expect(body.groups.map((g) => g.groupId).sort()).toEqual([ids.classic, ids.connect].sort());
    expect(body.totals).toEqual({
      canMigrate: 1,
      cannotMigrate: 1,
      mixed: 0,
      emptyClassic: 0,
      unknown: 0,
      consumer: 0,
    });
  });

  it('is mirrored under /clusters/{alias}', async () => {
    const res = await app.request('/clusters/default/cluster/protocols');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Protocols;
    expect(mine(body.groups).some((g) => g.groupId === ids.connect)).toBe(true);
  });
});
