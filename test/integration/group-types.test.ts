/**
 * Groups of all four types, made by Kafka's own clients, described through the API: every field
 * against what the fixture did, the type-mismatch matrix, filters, include=details and the batch
 * describe, with the RPCs counted on the real connection.
 */

import { describe, expect, it, vi } from 'vitest';
import { BrokerConnection } from '../../src/broker/transport/connection.js';
import type { GroupType } from '../../src/groups/model.js';
import type { Problem } from '../../src/openapi/problems.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { testApp } from '../support/app.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('gt');
const topic = `${run}-in`;
const ids: Record<GroupType, string> & { empty: string; missing: string } = {
  classic: `${run}-classic`,
  consumer: `${run}-consumer`,
  share: `${run}-share`,
  streams: `${run}-streams`,
  empty: `${run}-empty`,
  missing: `${run}-missing`,
};
const TYPES: GroupType[] = ['classic', 'consumer', 'share', 'streams'];
/** The describe RPC of each type. */
const DESCRIBE_API: Record<GroupType, string> = {
  classic: 'DescribeGroups',
  consumer: 'ConsumerGroupDescribe',
  share: 'ShareGroupDescribe',
  streams: 'StreamsGroupDescribe',
};
/** The ids of the fixture's groups of these kinds that the broker has, sorted. */
const present = (...kinds: Array<GroupType | 'empty'>) =>
  kinds
    .filter((k) => k === 'empty' || hasGroupType(k))
    .map((k) => ids[k])
    .sort();

// biome-ignore lint/suspicious/noExplicitAny: the group union is narrowed per test below
type Json = any;

const t = appWithGroups({
  topics: [{ name: topic, partitions: 3, records: 20 }],
  groups: () => [
    { type: 'classic', groupId: ids.classic, topics: [topic], members: 2, clientId: `${run}-cl` },
    {
      type: 'consumer',
      groupId: ids.consumer,
      topics: [topic],
      members: 2,
      clientId: `${run}-co`,
      instanceIdPrefix: `${run}-ci`,
    },
    ...(hasGroupType('share')
      ? [{ type: 'share' as const, groupId: ids.share, topics: [topic], members: 2, clientId: `${run}-sh` }]
      : []),
    ...(hasGroupType('streams')
      ? [{ type: 'streams' as const, groupId: ids.streams, topics: [topic], clientId: `${run}-st` }]
      : []),
    { type: 'empty', groupId: ids.empty, topics: [topic], commit: 5 },
  ],
});

const path = (id: string, query = '') => `/groups/${encodeURIComponent(id)}${query}`;
const heldPartitions = (members: { partitions: { partitions: number[] }[] }[]) =>
  members.flatMap((m) => m.partitions.flatMap((a) => a.partitions)).sort();

describe('GET /groups/{groupId} for every type', () => {
  it('describes a consumer group (KIP-848): epochs, assignor, static members, topic ids, assignments', async () => {
    const { status, body } = await t.get<Json>(path(ids.consumer), '/groups/{groupId}');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'consumer',
      groupId: ids.consumer,
      state: 'Stable',
      protocolType: 'consumer',
      assignor: 'uniform',
    });
    expect(body.groupEpoch).toBeGreaterThanOrEqual(1);
    expect(body.assignmentEpoch).toBe(body.groupEpoch);
    expect(body.members).toHaveLength(2);
    expect(body.members.map((m: Json) => m.instanceId).sort()).toEqual([`${run}-ci-0`, `${run}-ci-1`]);
    for (const m of body.members) {
      expect(m.clientId).toMatch(new RegExp(`^${run}-co-[01]$`));
      expect(m).toMatchObject({
        clientHost: '/127.0.0.1',
        rack: null,
        subscribedTopicNames: [topic],
        subscribedTopicRegex: null,
        // MemberType came with ConsumerGroupDescribe v1 (Kafka 4.0); older brokers leave it null.
        usesClassicProtocol: kafkaAtLeast(4, 0) ? false : null,
      });
      expect(m.memberEpoch).toBe(body.groupEpoch);
      expect(m.partitions).toEqual(m.targetPartitions);
      for (const a of m.partitions)
        expect(a).toMatchObject({ topic, topicId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    }
    expect(heldPartitions(body.members)).toEqual([0, 1, 2]);
  });

  it.skipIf(!hasGroupType('share'))(
    'describes a share group (KIP-932): members and their assignments',
    async () => {
      const { status, body } = await t.get<Json>(path(ids.share), '/groups/{groupId}');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        type: 'share',
        groupId: ids.share,
        state: 'Stable',
        protocolType: 'share',
        assignor: 'simple',
      });
      expect(body.members).toHaveLength(2);
      for (const m of body.members) {
        expect(m.clientId).toMatch(new RegExp(`^${run}-sh-[01]$`));
        expect(m.subscribedTopicNames).toEqual([topic]);
        expect(m.memberEpoch).toBeGreaterThanOrEqual(1);
        expect(m.instanceId).toBeNull();
        expect(m.rack).toBeNull();
        for (const a of m.partitions)
          expect(a).toMatchObject({ topic, topicId: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
      }
      // The simple assignor spreads every partition over the members.
      expect([...new Set(heldPartitions(body.members))]).toEqual([0, 1, 2]);
    },
  );

  it.skipIf(!hasGroupType('streams'))(
    'describes a streams group (KIP-1071): topology with repartition and changelog topics, tasks',
    async () => {
      const { status, body } = await t.get<Json>(path(ids.streams), '/groups/{groupId}');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        type: 'streams',
        groupId: ids.streams,
        state: 'Stable',
        protocolType: 'streams',
      });
      const subtopologies = body.topology.subtopologies;
      const source = subtopologies.find((s: Json) => s.sourceTopics.includes(topic));
      expect(source.repartitionSinkTopics).toEqual([`${ids.streams}-by-value-repartition`]);
      const counting = subtopologies.find((s: Json) => s.stateChangelogTopics.length > 0);
      expect(counting.stateChangelogTopics.map((x: Json) => x.name)).toEqual([
        `${ids.streams}-counts-changelog`,
      ]);
      expect(counting.repartitionSourceTopics).toEqual([
        expect.objectContaining({ name: `${ids.streams}-by-value-repartition`, partitions: 3 }),
      ]);
      expect(body.members).toHaveLength(1);
      const [member] = body.members;
      expect(member.clientId.startsWith(`${run}-st-0`)).toBe(true);
      expect(member.processId).toMatch(/^[0-9a-f-]{36}$/);
      expect(member.usesClassicProtocol).toBe(false);
      expect(member.instanceId).toBeNull();
      expect(member.rack).toBeNull();
      // One member holds every task of both subtopologies.
      const active = member.tasks.activeTasks.map((task: Json) => [task.subtopologyId, task.partitions]);
      expect(active.sort()).toEqual(subtopologies.map((s: Json) => [s.subtopologyId, [0, 1, 2]]).sort());
      // ... and so every partition of the topics they read: the source topic and the repartition topic.
      expect(member.partitions).toEqual(
        [
          { topic, topicId: null, partitions: [0, 1, 2] },
          { topic: `${ids.streams}-by-value-repartition`, topicId: null, partitions: [0, 1, 2] },
        ].sort((a, b) => (a.topic < b.topic ? -1 : 1)),
      );
    },
  );

  it('describes a classic group and an Empty one made by an offset commit', async () => {
    const classic = await t.get<Json>(path(ids.classic), '/groups/{groupId}');
    expect(classic.body).toMatchObject({
      type: 'classic',
      state: 'Stable',
      protocolType: 'consumer',
      assignor: 'range',
    });
    expect(classic.body.members).toHaveLength(2);
    const empty = await t.get<Json>(path(ids.empty), '/groups/{groupId}');
    expect(empty.body).toMatchObject({ type: 'classic', state: 'Empty', members: [] });
  });
});

describe('type assertions: every actual type × every requested type', () => {
  for (const actual of TYPES) {
    for (const requested of TYPES) {
      const expectation = actual === requested ? '200' : '409 naming both types';
      // Without groups of `actual` there is nothing to ask; one of another type is still asked as any type.
      it.skipIf(!hasGroupType(actual))(
        `a ${actual} group asked as ${requested} → ${expectation}`,
        async () => {
          const { status, body } = await t.get<Json>(
            path(ids[actual], `?type=${requested}`),
            '/groups/{groupId}',
          );
          if (actual === requested) {
            expect(status).toBe(200);
            expect(body).toMatchObject({ type: actual, groupId: ids[actual] });
            return;
          }
          expect(status).toBe(409);
          expect(body).toMatchObject({
            type: '/problems/group-type-mismatch',
            status: 409,
            groupId: ids[actual],
            expectedType: requested,
            actualType: actual,
          });
          // Kafka's own word on the mismatch, where it gave one.
          if (body.kafkaError) expect(body.kafkaError.code).toBe(69);
        },
      );
    }
  }

  for (const requested of [...TYPES, undefined]) {
    // A type the cluster does not serve: its describe RPC is not asked, so "missing" cannot be told
    // from "not served", and the answer says the latter.
    const served = requested === undefined || hasGroupType(requested);
    it(`a missing group asked as ${requested ?? 'any type'} → ${served ? '404' : '501 type not served'}`, async () => {
      const { status, body } = await t.get<Problem>(
        path(ids.missing, requested ? `?type=${requested}` : ''),
        '/groups/{groupId}',
      );
      if (!served) {
        expect(status).toBe(501);
        expect(body).toMatchObject({
          type: '/problems/group-type-unavailable',
          groupId: ids.missing,
          expectedType: requested,
        });
        return;
      }
      expect(status).toBe(404);
      expect(body).toMatchObject({ type: '/problems/group-not-found', groupId: ids.missing });
    });
  }

  it('rejects an unknown type, listing the allowed ones', async () => {
    const { status, body } = await t.get<Problem>(path(ids.classic, '?type=Consumers'), '/groups/{groupId}');
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ in: 'query', name: 'type', received: 'Consumers' });
    expect(body.errors?.[0]?.expected).toContain('classic');
  });

  it('costs one describe RPC when the type is known, and four in one round when it is not', async () => {
    // Four where the broker has every type: one RPC per type it serves (3.x: no share, no streams).
    const asked: GroupType = hasGroupType('share') ? 'share' : 'consumer';
    const fresh = await testApp();
    const send = vi.spyOn(BrokerConnection.prototype, 'send');
    try {
      const calls = () => send.mock.calls.map(([api]) => api.name).filter((n) => n !== 'ApiVersions');
      await fresh.app.request(path(ids[asked]));
      expect(calls().sort()).toEqual(
        ['FindCoordinator', ...TYPES.filter(hasGroupType).map((type) => DESCRIBE_API[type])].sort(),
      );
      send.mockClear();
      await fresh.app.request(path(ids[asked]));
      expect(calls()).toEqual([DESCRIBE_API[asked]]);
    } finally {
      send.mockRestore();
      await fresh.close();
    }
  });
});

describe('GET /groups filters', () => {
  const mine = async (query: string) => {
    const { status, body } = await t.get<Json>(
      `/groups?prefix=${encodeURIComponent(run)}&${query}`,
      '/groups',
    );
    expect(status).toBe(200);
    return body.groups.map((g: Json) => g.groupId).sort();
  };

  it('filters by type, repeated or comma-separated, in any case', async () => {
    expect(await mine('type=share')).toEqual(present('share'));
    expect(await mine('type=CONSUMER,Streams')).toEqual(present('consumer', 'streams'));
    expect(await mine('type=classic&type=share')).toEqual(present('classic', 'empty', 'share'));
  });

  it('filters by state, in any case', async () => {
    expect(await mine('state=empty')).toEqual([ids.empty]);
    expect(await mine('state=Stable')).toEqual(present('classic', 'consumer', 'share', 'streams'));
    expect(await mine('state=stable&type=classic')).toEqual([ids.classic]);
    // NotReady is never sent to the broker (it compares it as not_ready); asked here, it matches none of these.
    expect(await mine('state=NotReady')).toEqual([]);
  });

  it('filters by protocol type, the empty one included', async () => {
    expect(await mine('protocolType=consumer')).toEqual([ids.classic, ids.consumer].sort());
    expect(await mine('protocolType=')).toEqual([ids.empty]);
  });

  it('rejects unknown filter values, naming the parameter and the allowed values', async () => {
    for (const [query, name] of [
      ['type=bogus', 'type'],
      ['state=Sleeping', 'state'],
      ['limit=abc', 'limit'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['cursor=not-a-cursor', 'cursor'],
      ['include=everything', 'include'],
    ] as const) {
      const { status, body } = await t.get<Problem>(`/groups?${query}`, '/groups');
      expect(status, query).toBe(400);
      // A cursor is a token: described, never echoed.
      const value = query.split('=')[1] as string;
      const received = name === 'cursor' ? `a token of ${value.length} characters (not repeated)` : value;
      expect(body.errors?.[0], query).toMatchObject({ in: 'query', name, received });
    }
    const { body } = await t.get<Problem>('/groups?limit=abc', '/groups');
    expect(body.errors?.[0]).toMatchObject({ expected: 'an integer from 1 to 1000', received: 'abc' });
  });

  it('include=details describes the page, one FindCoordinator and one describe RPC per type', async () => {
    const send = vi.spyOn(BrokerConnection.prototype, 'send');
    const fresh = await testApp();
    try {
      const { status, body } = await fresh.get<Json>(
        `/groups?prefix=${encodeURIComponent(run)}&include=details`,
        '/groups',
      );
      expect(status).toBe(200);
      for (const entry of body.groups) {
        expect(entry.details, entry.groupId).toMatchObject({ groupId: entry.groupId, type: entry.type });
        expect(entry.detailsError).toBeUndefined();
      }
      const names = send.mock.calls.map(([api]) => api.name);
      expect(names.filter((n) => n === 'FindCoordinator')).toHaveLength(1);
      // A type the broker does not serve has no groups on the page and no RPC.
      for (const type of TYPES) {
        const api = DESCRIBE_API[type];
        expect(
          names.filter((n) => n === api),
          api,
        ).toHaveLength(hasGroupType(type) ? 1 : 0);
      }
    } finally {
      send.mockRestore();
      await fresh.close();
    }
  });
});

describe('POST /groups/describe', () => {
  const post = async (body: unknown) => {
    const res = await t.app.request('/groups/describe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await t.checker.check('post', '/groups/describe', res)) as Json };
  };

  it('answers each id once, in order, with its group or its problem', async () => {
    // The streams group where the broker has one, else the Empty classic group.
    const [first, firstType] = hasGroupType('streams') ? [ids.streams, 'streams'] : [ids.empty, 'classic'];
    const { status, body } = await post({
      groupIds: [first, ids.missing, ids.consumer, first, ids.classic],
    });
    expect(status).toBe(200);
    expect(body.results.map((r: Json) => r.groupId)).toEqual([first, ids.missing, ids.consumer, ids.classic]);
    expect(body.results[0].group.type).toBe(firstType);
    expect(body.results[1].problem).toMatchObject({ type: '/problems/group-not-found', status: 404 });
    expect(body.results[2].group.type).toBe('consumer');
    expect(body.results[3].group.type).toBe('classic');
  });

  it('asserts a type per group', async () => {
    const { body } = await post({ groupIds: [ids.share, ids.consumer], type: 'share' });
    if (hasGroupType('share')) expect(body.results[0].group.type).toBe('share');
    else
      expect(body.results[0].problem).toMatchObject({
        type: '/problems/group-type-unavailable',
        status: 501,
        expectedType: 'share',
      });
    // Even where share groups are not served, a group of another type is a mismatch.
    expect(body.results[1].problem).toMatchObject({
      status: 409,
      expectedType: 'share',
      actualType: 'consumer',
    });
  });

  it('rejects bad bodies, naming the field', async () => {
    const empty = await post({ groupIds: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors[0]).toMatchObject({ in: 'body', name: 'groupIds' });
    const tooMany = await post({ groupIds: Array.from({ length: 101 }, (_, i) => `g${i}`) });
    expect(tooMany.status).toBe(400);
    const wrongType = await post({ groupIds: [ids.classic, 7] });
    expect(wrongType.body.errors[0]).toMatchObject({ in: 'body', name: 'groupIds[1]', received: '7' });
    const unknownField = await post({ groupIds: [ids.classic], typ: 'share' });
    expect(unknownField.body.errors[0]).toMatchObject({ in: 'body', name: 'typ', received: 'share' });
    const res = await t.app.request('/groups/describe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"groupIds": [',
    });
    expect(res.status).toBe(400);
    expect(await t.checker.check('post', '/groups/describe', res)).toMatchObject({
      type: '/problems/invalid-input',
    });
  });
});
