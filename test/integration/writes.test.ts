/**
 * The writes against the real broker: groups made by Kafka's own Java clients, deleted, emptied of
 * offsets and of static members through the API, and every result read back with Kafka's Java
 * Admin client. Refusals (no write grant, writes off, wrong type, missing group, live group)
 * change nothing, which the Java Admin client confirms too. Every answer is checked against the
 * published OpenAPI document.
 */

import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { type Env, loadConfig } from '../../src/config.js';
import type { GroupType } from '../../src/groups/model.js';
import { securityFrom } from '../../src/http/security.js';
import { createService, type Service } from '../../src/wiring.js';
import {
  type GroupSpec,
  type RunningFixtures,
  startFixtures,
  uniqueName,
} from '../broker-harness/fixtures.js';
import {
  javaAdminListGroups,
  javaAdminListTopics,
  javaAdminMemberInstances,
  javaAdminOffsets,
} from '../broker-harness/java-admin.js';
import { type TestApp, testApp } from '../support/app.js';
import { hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('wr');
const t1 = `${run}-t1`;
const t2 = `${run}-t2`;
const gone: Record<GroupType, string> = {
  classic: `${run}-gone-classic`,
  consumer: `${run}-gone-consumer`,
  share: `${run}-gone-share`,
  streams: `${run}-gone-streams`,
};
const TYPES = (['classic', 'consumer', 'share', 'streams'] as const).filter(hasGroupType);
const live = `${run}-live`;
const missing = `${run}-missing`;
const streamsInternal = [`${gone.streams}-by-value-repartition`, `${gone.streams}-counts-changelog`];

const newKey = () => randomBytes(24).toString('base64url');
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
const KEYS = { reader: newKey(), elsewhere: newKey() };

// biome-ignore lint/suspicious/noExplicitAny: bodies of several shapes, checked against the document
type Answer = { status: number; body: any };
type App = ReturnType<typeof createApp>;

let t: TestApp;
let liveFixture: RunningFixtures | undefined;
const services: Service[] = [];

function appFrom(env: Env): App {
  const config = loadConfig({ KAFKA_BROKERS: t.bootstrap, RATE_LIMIT_PER_MINUTE: '0', ...env });
  const service = createService(config);
  services.push(service);
  return createApp({ service: service.groups, security: securityFrom(config) });
}

async function send(
  target: App,
  method: 'DELETE' | 'POST',
  path: string,
  template: string,
  options: { token?: string; body?: unknown } = {},
): Promise<Answer> {
  const res = await target.request(path, {
    method,
    headers: {
      ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const status = res.status;
  return { status, body: await t.checker.check(method.toLowerCase(), template, res) };
}

const enc = encodeURIComponent;
const deleteGroup = (target: App, id: string, type: string, extra = '', token?: string) =>
  send(
    target,
    'DELETE',
    `/groups/${enc(id)}?type=${type}${extra}`,
    '/groups/{groupId}',
    token ? { token } : {},
  );
const deleteOffsets = (target: App, id: string, type: string, query: string, token?: string) =>
  send(
    target,
    'DELETE',
    `/groups/${enc(id)}/offsets?type=${type}&${query}`,
    '/groups/{groupId}/offsets',
    token ? { token } : {},
  );
const removeMember = (target: App, id: string, type: string, instanceId: string, token?: string) =>
  send(
    target,
    'DELETE',
    `/groups/${enc(id)}/members/${enc(instanceId)}?type=${type}`,
    '/groups/{groupId}/members/{instanceId}',
    token ? { token } : {},
  );
const removeMembers = (target: App, id: string, type: string, instanceIds: string[], token?: string) =>
  send(target, 'POST', `/groups/${enc(id)}/members/remove?type=${type}`, '/groups/{groupId}/members/remove', {
    body: { instanceIds },
    ...(token && { token }),
  });

/** Every write route, aimed at `id` of `type`, as one caller. */
const everyWrite = (target: App, id: string, type: string, token?: string) => [
  deleteGroup(target, id, type, '', token),
  deleteOffsets(target, id, type, `topic=${t1}`, token),
  removeMember(target, id, type, 'someone', token),
  removeMembers(target, id, type, ['someone'], token),
];

const committedKeys = async (groupId: string) =>
  [...(await javaAdminOffsets({ bootstrap: t.bootstrap, groupId })).committed.keys()].sort();

let writer: App;

beforeAll(async () => {
  t = await testApp({ WRITES: 'enabled' });
  writer = t.app;
  // Groups of every type the broker has, made by Kafka's clients and left Empty (dynamic members
  // leave when closed); `live` first gets offsets on t2 as an Empty group, then runs on t1 below.
  const emptied: GroupSpec[] = [
    { type: 'empty', groupId: live, topics: [{ name: t2, partitions: 2, records: 20 }], commit: 7 },
    { type: 'classic', groupId: gone.classic, topics: [{ name: t1, partitions: 2, records: 20 }], commit: 5 },
    { type: 'consumer', groupId: gone.consumer, topics: [t1], commit: 5 },
    ...(hasGroupType('share') ? [{ type: 'share' as const, groupId: gone.share, topics: [t1] }] : []),
    ...(hasGroupType('streams') ? [{ type: 'streams' as const, groupId: gone.streams, topics: [t1] }] : []),
  ];
  const first = await startFixtures({ bootstrap: t.bootstrap, groups: emptied });
  await first.stop();
  liveFixture = await startFixtures({
    bootstrap: t.bootstrap,
    groups: [{ type: 'classic', groupId: live, topics: [t1], commit: 5, clientId: `${run}-live` }],
  });
}, 300_000);

afterAll(async () => {
  await liveFixture?.stop();
  await Promise.all(services.map((s) => s.close()));
  await t?.close();
});

describe('refused writes change nothing', () => {
  it('AUTH=none without WRITES=enabled refuses every write route with writes-disabled', async () => {
    const closed = appFrom({ AUTH: 'none' });
    for (const answer of await Promise.all(everyWrite(closed, gone.classic, 'classic'))) {
      expect(answer.status).toBe(403);
      expect(answer.body.type).toBe('/problems/writes-disabled');
    }
  });

  it('a principal with only read grants gets 403 naming the action on every write route; 404 where it cannot see', async () => {
    const keyed = appFrom({
      AUTH_API_KEYS: `reader:${hashOf(KEYS.reader)},elsewhere:${hashOf(KEYS.elsewhere)}`,
      AUTH_GRANTS: JSON.stringify({
        reader: { groups: '*', actions: ['read', 'offsets'] },
        elsewhere: {
          groups: 'other-*',
          actions: ['read', 'offsets', 'delete', 'delete-offsets', 'remove-members'],
        },
      }),
    });
    const before = await committedKeys(gone.classic);
    const answers = await Promise.all(everyWrite(keyed, gone.classic, 'classic', KEYS.reader));
    expect(answers.map((a) => [a.status, a.body.type, a.body.action])).toEqual([
      [403, '/problems/forbidden', 'delete'],
      [403, '/problems/forbidden', 'delete-offsets'],
      [403, '/problems/forbidden', 'remove-members'],
      [403, '/problems/forbidden', 'remove-members'],
    ]);
    for (const answer of await Promise.all(everyWrite(keyed, gone.classic, 'classic', KEYS.elsewhere))) {
      expect(answer.status).toBe(404);
      expect(answer.body.type).toBe('/problems/group-not-found');
    }
    // Read back by Kafka's own client: the group and its offsets are all there.
    expect(await committedKeys(gone.classic)).toEqual(before);
    expect(before).toEqual([`${t1}:0`, `${t1}:1`]);
    expect((await javaAdminListGroups(t.bootstrap)).has(gone.classic)).toBe(true);
  });

  it('answers 404 for a missing group and creates none; 409 for another type', async () => {
    const answer = await deleteGroup(writer, missing, 'classic');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ type: '/problems/group-not-found', groupId: missing });
    const offsets = await deleteOffsets(writer, missing, 'consumer', `topic=${t1}`);
    expect(offsets.status).toBe(404);
    const mismatch = await deleteGroup(writer, gone.consumer, 'classic');
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({
      type: '/problems/group-type-mismatch',
      expectedType: 'classic',
      actualType: 'consumer',
    });
    const groups = await javaAdminListGroups(t.bootstrap);
    expect(groups.has(missing)).toBe(false);
    expect(groups.has(gone.consumer)).toBe(true);
  });

  it('refuses to delete a live group: 409 naming its members; the group stays', async () => {
    const answer = await deleteGroup(writer, live, 'classic');
    expect(answer.status).toBe(409);
    expect(answer.body.type).toBe('/problems/group-not-empty');
    expect(answer.body.members).toEqual([
      expect.objectContaining({ clientId: `${run}-live-0`, instanceId: null }),
    ]);
    const dry = await deleteGroup(writer, live, 'classic', '&dryRun=true');
    expect(dry.status).toBe(409);
    expect((await javaAdminListGroups(t.bootstrap)).has(live)).toBe(true);
  });

  it.skipIf(!hasGroupType('share') || !hasGroupType('streams'))(
    'answers 409 member-removal-unsupported for share and streams groups',
    async () => {
      for (const type of ['share', 'streams'] as const) {
        const one = await removeMember(writer, gone[type], type, 'someone');
        expect(one.status).toBe(409);
        expect(one.body).toMatchObject({ type: '/problems/member-removal-unsupported', actualType: type });
        expect((await removeMembers(writer, gone[type], type, ['someone'])).status).toBe(409);
      }
    },
  );
});

describe('deleting committed offsets', () => {
  it('deletes those of a topic the running group no longer subscribes to; 409 listing the partitions of one it does', async () => {
    const before = await committedKeys(live);
    expect(before).toEqual([`${t1}:0`, `${t1}:1`, `${t2}:0`, `${t2}:1`]);

    const deleted = await deleteOffsets(writer, live, 'classic', `topic=${t2}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({
      groupId: live,
      type: 'classic',
      topic: t2,
      deleted: [
        { topic: t2, partition: 0, offset: 7 },
        { topic: t2, partition: 1, offset: 7 },
      ],
      sent: true,
    });

    const subscribed = await deleteOffsets(writer, live, 'classic', `topic=${t1}&partition=0`);
    expect(subscribed.status).toBe(409);
    expect(subscribed.body).toMatchObject({
      type: '/problems/group-subscribed-to-topic',
      partitions: [{ topic: t1, partition: 0 }],
      kafkaError: { name: 'GROUP_SUBSCRIBED_TO_TOPIC' },
      // Kafka had the request and refused it.
      sent: true,
    });
    // Kafka's own client: t2's offsets are gone, t1's still there.
    expect(await committedKeys(live)).toEqual([`${t1}:0`, `${t1}:1`]);
  });

  it('deletes one partition of an Empty group, a dry run deleting nothing', async () => {
    const dry = await deleteOffsets(writer, gone.consumer, 'consumer', `topic=${t1}&partition=1&dryRun=true`);
    expect(dry.status).toBe(200);
    expect(dry.body.deleted).toEqual([{ topic: t1, partition: 1, offset: 5 }]);
    expect(dry.body.sent).toBe(false);
    expect(await committedKeys(gone.consumer)).toEqual([`${t1}:0`, `${t1}:1`]);
    const done = await deleteOffsets(writer, gone.consumer, 'consumer', `topic=${t1}&partition=1`);
    expect(done.body.deleted).toEqual([{ topic: t1, partition: 1, offset: 5 }]);
    expect(done.body.sent).toBe(true);
    expect(await committedKeys(gone.consumer)).toEqual([`${t1}:0`]);
  });

  it.skipIf(!hasGroupType('share'))(
    "deletes a share group's start offsets of a whole topic (DeleteShareGroupOffsets)",
    async () => {
      const shareKeys = async () =>
        [
          ...(
            await javaAdminOffsets({ bootstrap: t.bootstrap, groupId: gone.share, share: true })
          ).share.keys(),
        ].sort();
      expect(await shareKeys()).toEqual([`${t1}:0`, `${t1}:1`]);
      const answer = await deleteOffsets(writer, gone.share, 'share', `topic=${t1}`);
      expect(answer.status).toBe(200);
      expect(answer.body.deleted.map((d: { partition: number }) => d.partition)).toEqual([0, 1]);
      expect(await shareKeys()).toEqual([]);
    },
  );

  it('refuses partitions for a share group (whole topics only)', async () => {
    const answer = await deleteOffsets(writer, gone.share, 'share', `topic=${t1}&partition=0`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ in: 'query', name: 'partition', received: '0' });
  });
});

describe('deleting groups', () => {
  it('a dry run answers what would go and changes nothing', async () => {
    for (const type of TYPES) {
      const answer = await deleteGroup(writer, gone[type], type, '&dryRun=true');
      expect(answer.status, type).toBe(200);
      expect(answer.body, type).toMatchObject({
        groupId: gone[type],
        type,
        state: 'Empty',
        dryRun: true,
        deleted: false,
      });
    }
    const classic = await deleteGroup(writer, gone.classic, 'classic', '&dryRun=true');
    expect(classic.body.offsets).toEqual([
      { topic: t1, partition: 0, offset: 5 },
      { topic: t1, partition: 1, offset: 5 },
    ]);
    const groups = await javaAdminListGroups(t.bootstrap);
    for (const type of TYPES) expect(groups.has(gone[type]), type).toBe(true);
  });

  it('deletes an Empty group of every type the broker has; a streams group keeps its internal topics', async () => {
    const topicsBefore = hasGroupType('streams') ? await javaAdminListTopics(t.bootstrap) : new Set<string>();
    for (const name of hasGroupType('streams') ? streamsInternal : [])
      expect(topicsBefore.has(name), name).toBe(true);
    for (const type of TYPES) {
      const answer = await deleteGroup(writer, gone[type], type);
      expect(answer.status, type).toBe(200);
      expect(answer.body, type).toMatchObject({ groupId: gone[type], type, dryRun: false, deleted: true });
    }
    const groups = await javaAdminListGroups(t.bootstrap);
    for (const type of TYPES) expect(groups.has(gone[type]), type).toBe(false);
    if (hasGroupType('streams')) {
      const topicsAfter = await javaAdminListTopics(t.bootstrap);
      for (const name of streamsInternal) expect(topicsAfter.has(name), name).toBe(true);
    }
    // Gone for the API too.
    const again = await deleteGroup(writer, gone.classic, 'classic');
    expect(again.status).toBe(404);
  });
});

/** LeaveGroup removes a consumer group's members from Kafka 4.0 on; a classic group's always. */
const removable = (type: 'classic' | 'consumer') => type === 'classic' || kafkaAtLeast(4, 0);

describe('removing static members', () => {
  it('removes static members whose process is gone: the group rebalances without them', async () => {
    const specs = [
      { type: 'classic' as const, groupId: `${run}-static-classic`, prefix: `${run}-ci` },
      { type: 'consumer' as const, groupId: `${run}-static-consumer`, prefix: `${run}-ki` },
    ];
    const fixture = await startFixtures({
      bootstrap: t.bootstrap,
      groups: specs.map((s) => ({
        type: s.type,
        groupId: s.groupId,
        topics: [t1],
        members: 3,
        instanceIdPrefix: s.prefix,
      })),
    });
    type Described = { state: string; groupEpoch: number; members: { instanceId: string | null }[] };
    const describe = async (groupId: string) =>
      (await t.get<Described>(`/groups/${enc(groupId)}`, '/groups/{groupId}')).body;
    const before = new Map<string, Described>();
    for (const s of specs) before.set(s.groupId, await describe(s.groupId));
    // A process that vanishes (the fixture closes its clients with LEAVE_GROUP, so it is killed):
    // its static members stay in their group until their session times out (45 s), which is what
    // an operator removes by hand. The checks below run well within that time; the member left
    // alone proves it: were the session over, it would be gone too.
    process.kill(fixture.pid, 'SIGKILL');
    await fixture.stop().catch(() => {});
    for (const s of specs) {
      const instances = (await describe(s.groupId)).members.map((m) => m.instanceId).sort();
      expect(instances, s.type).toEqual([`${s.prefix}-0`, `${s.prefix}-1`, `${s.prefix}-2`]);

      if (!removable(s.type)) {
        // Kafka 3.9 cannot remove a consumer group's member by LeaveGroup: a 409 that says so,
        // not a 404 for a member the group lists.
        const refused = await removeMember(writer, s.groupId, s.type, `${s.prefix}-0`);
        expect(refused.status, s.type).toBe(409);
        expect(refused.body.type, s.type).toBe('/problems/member-removal-unsupported');
        continue;
      }
      const one = await removeMember(writer, s.groupId, s.type, `${s.prefix}-0`);
      expect(one.status, s.type).toBe(200);
      expect(one.body, s.type).toMatchObject({
        groupId: s.groupId,
        type: s.type,
        instanceId: `${s.prefix}-0`,
      });

      const batch = await removeMembers(writer, s.groupId, s.type, [`${s.prefix}-1`, `${s.prefix}-9`]);
      expect(batch.status, s.type).toBe(200);
      expect(
        batch.body.results.map((r: { status: string; instanceId: string; problem?: { type: string } }) => [
          r.status,
          r.instanceId,
          r.problem?.type,
        ]),
        s.type,
      ).toEqual([
        ['removed', `${s.prefix}-1`, undefined],
        ['failed', `${s.prefix}-9`, '/problems/member-not-found'],
      ]);
      const unknown = await removeMember(writer, s.groupId, s.type, `${s.prefix}-9`);
      expect(unknown.status, s.type).toBe(404);
      expect(unknown.body.type).toBe('/problems/member-not-found');
    }
    // Kafka's own client: only the member left alone is still there.
    const seen = await Promise.all(specs.map((s) => javaAdminMemberInstances(t.bootstrap, s.groupId)));
    expect(seen).toEqual(
      specs.map((s) =>
        removable(s.type) ? [`${s.prefix}-2`] : [`${s.prefix}-0`, `${s.prefix}-1`, `${s.prefix}-2`],
      ),
    );
    for (const s of specs.filter((x) => removable(x.type))) {
      const after = await describe(s.groupId);
      expect(
        after.members.map((m) => m.instanceId),
        s.type,
      ).toEqual([`${s.prefix}-2`]);
      // The group moved on: a rebalance under way (classic) or a new group epoch (consumer).
      const was = before.get(s.groupId);
      expect(after.state !== was?.state || after.groupEpoch > (was?.groupEpoch ?? 0), s.type).toBe(true);
    }
  });
});
