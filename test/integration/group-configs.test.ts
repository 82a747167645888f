/**
 * GET /groups/{groupId}/configs against the real broker: a group config set by Kafka's Java Admin
 * client (incrementalAlterConfigs) shows as DYNAMIC_GROUP_CONFIG, and the whole list agrees with
 * the Java Admin client's describeConfigs, value, source, sensitive and read-only alike.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName } from '../kafka/fixtures.js';
import { javaAdminGroupConfigs, javaAdminSetGroupConfig } from '../kafka/group-admin.js';
import { type TestApp, testApp } from '../support/app.js';
import { kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('gcfg');
const configured = `${run}-configured`;
const untouched = `${run}-untouched`;

interface Configs {
  groupId: string;
  configs: { name: string; value: string | null; source: string; sensitive: boolean; readOnly: boolean }[];
}

let t: TestApp;

beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t?.close());

const path = (id: string) => `/groups/${encodeURIComponent(id)}/configs`;
const asMap = (body: Configs) =>
  new Map(
    body.configs.map((c) => [
      c.name,
      { value: c.value, source: c.source, sensitive: c.sensitive, readOnly: c.readOnly },
    ]),
  );

describe.skipIf(!kafkaAtLeast(4, 0))('GET /groups/{groupId}/configs', () => {
  it('lists what Kafka’s Admin client lists, with a value set on the group as DYNAMIC_GROUP_CONFIG', async () => {
    await javaAdminSetGroupConfig(t.bootstrap, configured, 'consumer.session.timeout.ms', '50000');
    const { status, body } = await t.get<Configs>(path(configured), '/groups/{groupId}/configs');
    expect(status).toBe(200);
    expect(body.groupId).toBe(configured);
    const ours = asMap(body);
    expect(ours.get('consumer.session.timeout.ms')).toEqual({
      value: '50000',
      source: 'DYNAMIC_GROUP_CONFIG',
      sensitive: false,
      readOnly: false,
    });
    expect(ours).toEqual(await javaAdminGroupConfigs(t.bootstrap, configured));
    if (kafkaAtLeast(4, 2)) {
      // Share and streams group configs come with the group types.
      expect(ours.has('share.auto.offset.reset')).toBe(true);
      expect(ours.has('streams.num.standby.replicas')).toBe(true);
    }
  });

  it('answers for a group that does not exist: the defaults, no value of its own', async () => {
    const { status, body } = await t.get<Configs>(path(untouched), '/groups/{groupId}/configs');
    expect(status).toBe(200);
    expect(body.configs.length).toBeGreaterThan(0);
    expect(body.configs.filter((c) => c.source === 'DYNAMIC_GROUP_CONFIG')).toEqual([]);
    expect(asMap(body)).toEqual(await javaAdminGroupConfigs(t.bootstrap, untouched));
  });

  it('is mirrored under /clusters/{alias}', async () => {
    const { status, body } = await t.get<Configs>(
      `/clusters/default${path(configured)}`,
      '/clusters/{alias}/groups/{groupId}/configs',
    );
    expect(status).toBe(200);
    expect(asMap(body).get('consumer.session.timeout.ms')?.value).toBe('50000');
  });
});

describe.skipIf(kafkaAtLeast(4, 0))('GET /groups/{groupId}/configs before group configs', () => {
  it('3.9: 502 unsupported-broker-api naming group configs', async () => {
    const { status, body } = await t.get<{ type: string; detail: string }>(
      path(untouched),
      '/groups/{groupId}/configs',
    );
    expect(status).toBe(502);
    expect(body.type).toBe('/problems/unsupported-broker-api');
    expect(body.detail).toContain('resource type GROUP');
  });
});
