/**
 * GET /groups/{groupId}/configs against the real broker: a group config set by Kafka's Java Admin
 * client (incrementalAlterConfigs) shows as DYNAMIC_GROUP_CONFIG, and the whole list agrees with
 * the Java Admin client's describeConfigs, value, source, sensitive and read-only alike.
 */

import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminGroupConfigs, javaAdminSetGroupConfig } from '../broker-harness/group-admin.js';
import { type TestApp, testApp } from '../support/app.js';
import { kafkaAtLeast, kafkaVersion } from '../support/kafka-version.js';

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
    // For docs/kafka-versions.md: the configs this version lists for a group.
    mkdirSync('.cache', { recursive: true });
    writeFileSync(
      `.cache/group-configs-${kafkaVersion()}.json`,
      `${JSON.stringify({ version: kafkaVersion(), configs: body.configs.map((c) => c.name).sort() }, null, 2)}\n`,
    );
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

describe.skipIf(!kafkaAtLeast(4, 0))('PATCH /groups/{groupId}/configs', () => {
  const group = `${run}-patched`;
  const topic = `${run}-t`;
  const name = 'consumer.session.timeout.ms';
  let writer: TestApp;
  let fixtures: RunningFixtures | undefined;

  beforeAll(async () => {
    writer = await testApp({ WRITES: 'enabled' });
    // An Empty classic group (an admin commit): configs belong to a group id, whatever its type.
    fixtures = await startFixtures({
      bootstrap: writer.bootstrap,
      groups: [
        { type: 'empty', groupId: group, topics: [{ name: topic, partitions: 1, records: 2 }], commit: 1 },
      ],
    });
  });
  afterAll(async () => {
    await fixtures?.stop();
    await writer?.close();
  });

  const patch = async (app: TestApp, query: string, body: unknown) => {
    const res = await app.app.request(`${path(group)}?type=classic${query}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const status = res.status;
    // biome-ignore lint/suspicious/noExplicitAny: checked against the document
    const answer = (await app.checker.check('patch', '/groups/{groupId}/configs', res)) as any;
    return { status, body: answer };
  };
  const javaValue = async () => (await javaAdminGroupConfigs(writer.bootstrap, group)).get(name);

  it('a dry run asks Kafka and changes nothing', async () => {
    const { status, body } = await patch(writer, '&dryRun=true', { set: { [name]: '55000' } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ groupId: group, dryRun: true, applied: false, set: { [name]: '55000' } });
    expect((await javaValue())?.source).not.toBe('DYNAMIC_GROUP_CONFIG');
  });

  it('sets a value, which Kafka’s Admin client reads back, then deletes it', async () => {
    const set = await patch(writer, '', { set: { [name]: '55000' } });
    expect(set.status).toBe(200);
    expect(set.body.applied).toBe(true);
    expect(set.body.configs.find((c: { name: string }) => c.name === name)).toMatchObject({
      value: '55000',
      source: 'DYNAMIC_GROUP_CONFIG',
    });
    expect(await javaValue()).toMatchObject({ value: '55000', source: 'DYNAMIC_GROUP_CONFIG' });

    const del = await patch(writer, '', { delete: [name] });
    expect(del.status).toBe(200);
    expect((await javaValue())?.source).toBe('DEFAULT_CONFIG');
  });

  it('a value Kafka refuses: 400 naming the config with Kafka’s message; nothing applied', async () => {
    const { status, body } = await patch(writer, '', {
      set: { [name]: '1', 'consumer.heartbeat.interval.ms': '6000' },
    });
    expect(status).toBe(400);
    expect(body.type).toBe('/problems/invalid-input');
    expect(body.kafkaError).toMatchObject({ name: 'INVALID_CONFIG' });
    expect(body.errors.map((e: { name: string }) => e.name)).toContain(`set.${name}`);
    expect(body.errors[0].message).toContain(body.kafkaError.message);
    // The check ran first: the valid half was not applied either.
    const java = await javaAdminGroupConfigs(writer.bootstrap, group);
    expect(java.get(name)?.source).not.toBe('DYNAMIC_GROUP_CONFIG');
    expect(java.get('consumer.heartbeat.interval.ms')?.source).not.toBe('DYNAMIC_GROUP_CONFIG');

    const unknown = await patch(writer, '', { set: { 'no.such.group.config': '1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].name).toBe('set.no.such.group.config');
  });

  it('a change with a __proto__ key: 400 naming it, and the rest of the change is not applied', async () => {
    // JSON.parse makes `__proto__` an own key, as a client's JSON does.
    const body = JSON.parse(`{"set":{"__proto__":"1","${name}":"55000"}}`);
    const { status, body: problem } = await patch(writer, '', body);
    expect(status).toBe(400);
    expect(problem.errors[0]).toMatchObject({ in: 'body', name: 'set.__proto__', received: '__proto__' });
    expect((await javaValue())?.source).not.toBe('DYNAMIC_GROUP_CONFIG');
  });

  it('a group that does not exist yet: 404, unless allowMissing=true; then Kafka keeps the configs for it', async () => {
    const future = `${run}-future`;
    const change = async (query: string) => {
      const res = await writer.app.request(`${path(future)}?type=consumer${query}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ set: { [name]: '52000' } }),
      });
      const status = res.status;
      // biome-ignore lint/suspicious/noExplicitAny: checked against the document
      const answer = (await writer.checker.check('patch', '/groups/{groupId}/configs', res)) as any;
      return { status, body: answer };
    };
    const refused = await change('');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ type: '/problems/group-not-found', sent: false });
    expect((await javaAdminGroupConfigs(writer.bootstrap, future)).get(name)?.source).not.toBe(
      'DYNAMIC_GROUP_CONFIG',
    );

    const dry = await change('&allowMissing=true&dryRun=true');
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ groupExists: false, applied: false, sent: false });
    const set = await change('&allowMissing=true');
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ groupId: future, groupExists: false, applied: true, sent: true });
    expect((await javaAdminGroupConfigs(writer.bootstrap, future)).get(name)).toMatchObject({
      value: '52000',
      source: 'DYNAMIC_GROUP_CONFIG',
    });
  });

  it('refuses an empty change (400) and, without WRITES, every change (403)', async () => {
    expect((await patch(writer, '', {})).status).toBe(400);
    const off = await patch(t, '', { set: { [name]: '55000' } });
    expect(off.status).toBe(403);
    expect(off.body.type).toBe('/problems/writes-disabled');
  });
});
