/**
 * /groups and /groups/{groupId} against the real test broker, with groups made by Kafka's own Java
 * clients. Every answer is checked against the published OpenAPI document.
 */

import { describe, expect, it } from 'vitest';
import type { ClassicGroup, GroupList } from '../../src/groups/model.js';
import type { Problem } from '../../src/openapi/problems.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('grp');
const topic = `${run}-events`;
const ids = {
  classic: `${run}-classic`,
  static: `${run}-static`,
  empty: `${run}-empty`,
  consumer: `${run}-consumer`,
  share: `${run}-share`,
  streams: `${run}-streams`,
  // Everything a path segment makes hard: spaces, slashes, '%', '+', '?', '#', unicode.
  odd: `${run} a/b%2F c+d?e#f ü 漢字 🎉`,
};

const t = appWithGroups({
  topics: [{ name: topic, partitions: 3, records: 10 }],
  groups: () => [
    {
      type: 'classic',
      groupId: ids.classic,
      topics: [topic],
      members: 2,
      clientId: `${run}-cl`,
      commit: 4,
    },
    {
      type: 'classic',
      groupId: ids.static,
      topics: [topic],
      instanceIdPrefix: `${run}-inst`,
      clientId: `${run}-st`,
    },
    { type: 'empty', groupId: ids.empty, topics: [topic], commit: 2 },
    { type: 'empty', groupId: ids.odd, topics: [topic], commit: 1 },
    { type: 'consumer', groupId: ids.consumer, topics: [topic] },
    ...(hasGroupType('share') ? [{ type: 'share' as const, groupId: ids.share, topics: [topic] }] : []),
    ...(hasGroupType('streams') ? [{ type: 'streams' as const, groupId: ids.streams, topics: [topic] }] : []),
  ],
});

const path = (id: string) => `/groups/${encodeURIComponent(id)}`;

describe('GET /groups', () => {
  it('lists the groups of every type with the type and state the broker reports', async () => {
    const { status, body } = await t.get<GroupList>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=1000`,
      '/groups',
    );
    expect(status).toBe(200);
    expect(body.failures).toEqual([]);
    const mine = Object.fromEntries(
      body.groups.filter((g) => g.groupId.startsWith(run)).map((g) => [g.groupId, g]),
    );
    expect(mine[ids.classic]).toEqual({
      groupId: ids.classic,
      type: 'classic',
      protocolType: 'consumer',
      state: 'Stable',
    });
    expect(mine[ids.static]).toEqual({
      groupId: ids.static,
      type: 'classic',
      protocolType: 'consumer',
      state: 'Stable',
    });
    // An offset commit makes a classic group with no members and no protocol type.
    expect(mine[ids.empty]).toEqual({
      groupId: ids.empty,
      type: 'classic',
      protocolType: '',
      state: 'Empty',
    });
    expect(mine[ids.odd]).toMatchObject({ groupId: ids.odd, type: 'classic', state: 'Empty' });
    expect(mine[ids.consumer]).toEqual({
      groupId: ids.consumer,
      type: 'consumer',
      protocolType: 'consumer',
      state: 'Stable',
    });
    if (hasGroupType('share')) {
      expect(mine[ids.share]).toEqual({
        groupId: ids.share,
        type: 'share',
        protocolType: 'share',
        state: 'Stable',
      });
    }
    if (hasGroupType('streams')) {
      expect(mine[ids.streams]).toMatchObject({
        groupId: ids.streams,
        type: 'streams',
        protocolType: 'streams',
      });
    }
    // Five classic and consumer groups, plus a share and a streams group where the broker has them.
    const expected = 5 + Number(hasGroupType('share')) + Number(hasGroupType('streams'));
    expect(Object.keys(mine)).toHaveLength(expected);
  });

  it('is sorted by group id (UTF-8 byte order) with no duplicates', async () => {
    const { body } = await t.get<GroupList>(
      `/groups?prefix=${encodeURIComponent(run)}&limit=1000`,
      '/groups',
    );
    const idsInOrder = body.groups.map((g) => g.groupId);
    expect(new Set(idsInOrder).size).toBe(idsInOrder.length);
    const sorted = [...idsInOrder].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    expect(idsInOrder).toEqual(sorted);
  });

  it('rejects an unknown query parameter, naming it', async () => {
    const { status, body } = await t.get<Problem>('/groups?typ=share', '/groups');
    expect(status).toBe(400);
    expect(body.type).toBe('/problems/invalid-input');
    expect(body.errors).toEqual([
      expect.objectContaining({
        in: 'query',
        name: 'typ',
        received: 'share',
        expected:
          'one of the known parameters: type, state, prefix, protocolType, limit, cursor, include, isolation, topic, minLag, minTimeLagSeconds, verdict, sort, maxLag, maxTimeLagSeconds, idleAfterSeconds',
      }),
    ]);
  });
});

describe('GET /groups/{groupId} for classic groups', () => {
  it('describes a consumer group of two members with decoded subscriptions and assignments', async () => {
    const { status, body } = await t.get<ClassicGroup>(path(ids.classic), '/groups/{groupId}');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'classic',
      groupId: ids.classic,
      state: 'Stable',
      protocolType: 'consumer',
      assignor: 'range',
      groupEpoch: null,
      assignmentEpoch: null,
    });
    expect(body.coordinator.port).toBe(Number(t.bootstrap.split(':').pop()));
    expect(body.members).toHaveLength(2);
    for (const member of body.members) {
      expect(member.clientId).toMatch(new RegExp(`^${run}-cl-[01]$`));
      expect(member.memberId.startsWith(member.clientId)).toBe(true);
      expect(member.clientHost).toBe('/127.0.0.1');
      expect(member.instanceId).toBeNull();
      expect(member.rack).toBeNull();
      expect(member.consumerProtocol?.subscription).toMatchObject({
        topics: [topic],
        userData: null,
        rack: null,
      });
      expect(member.consumerProtocol?.subscription?.version).toBeGreaterThanOrEqual(1);
      expect(member.consumerProtocol?.assignment?.partitions.every((p) => p.topic === topic)).toBe(true);
      // The held partitions are the decoded assignment's, under the name every group type uses.
      expect(member.partitions).toEqual(member.consumerProtocol?.assignment?.partitions);
      expect(member.partitions.every((p) => p.topicId === null)).toBe(true);
      expect(Buffer.from(member.memberMetadata, 'base64').length).toBeGreaterThan(0);
      expect(member.consumerProtocol?.decodeError).toBeNull();
    }
    // Between them the two members hold every partition exactly once.
    const held = body.members.flatMap((m) => m.partitions.flatMap((p) => p.partitions)).sort();
    expect(held).toEqual([0, 1, 2]);
  });

  it('shows a static member with its group.instance.id', async () => {
    const { status, body } = await t.get<ClassicGroup>(path(ids.static), '/groups/{groupId}');
    expect(status).toBe(200);
    expect(body.members).toHaveLength(1);
    expect(body.members[0]).toMatchObject({ instanceId: `${run}-inst-0`, clientId: `${run}-st-0` });
    expect(body.members[0]?.memberId.startsWith(`${run}-inst-0-`)).toBe(true);
    expect(body.members[0]?.partitions).toEqual([{ topic, topicId: null, partitions: [0, 1, 2] }]);
    expect(body.members[0]?.consumerProtocol?.assignment?.partitions).toEqual([
      { topic, topicId: null, partitions: [0, 1, 2] },
    ]);
  });

  it('describes an Empty group made by an offset commit', async () => {
    const { status, body } = await t.get<ClassicGroup>(path(ids.empty), '/groups/{groupId}');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'classic',
      groupId: ids.empty,
      state: 'Empty',
      protocolType: '',
      assignor: null,
      members: [],
    });
  });

  it('round-trips an id with spaces, slashes, %, +, ?, # and unicode', async () => {
    const { status, body } = await t.get<ClassicGroup>(path(ids.odd), '/groups/{groupId}');
    expect(status).toBe(200);
    expect(body.groupId).toBe(ids.odd);
    expect(body.state).toBe('Empty');
  });

  it('answers 404 problem+json for a group that does not exist', async () => {
    const missing = `${run}-missing`;
    const res = await t.app.request(path(missing));
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await t.checker.check('get', '/groups/{groupId}', res)) as Problem;
    expect(res.status).toBe(404);
    expect(body).toMatchObject({
      type: '/problems/group-not-found',
      status: 404,
      groupId: missing,
      instance: path(missing),
    });
  });

  it('asks the broker about a 10,000-character id and answers 404', async () => {
    const long = `${run}-${'x'.repeat(10_000 - run.length - 1)}`;
    expect(long).toHaveLength(10_000);
    const { status, body } = await t.get<Problem>(path(long), '/groups/{groupId}');
    expect(status).toBe(404);
    expect(body.groupId).toBe(long);
    // The broker itself said so: proof the id travelled whole.
    expect(body.kafkaError?.name ?? 'Dead before v6').not.toBe('INVALID_GROUP_ID');
  });

  it('accepts an id of exactly 32,767 UTF-8 bytes and refuses one byte more, naming the limit', async () => {
    const atLimit = `${'é'.repeat(16_383)}a`; // 2 × 16,383 + 1 bytes
    expect(Buffer.byteLength(atLimit)).toBe(32_767);
    expect((await t.get<Problem>(path(atLimit), '/groups/{groupId}')).status).toBe(404);

    const over = `${atLimit}b`;
    const { status, body } = await t.get<Problem>(path(over), '/groups/{groupId}');
    expect(status).toBe(400);
    expect(body.type).toBe('/problems/invalid-input');
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0]).toMatchObject({
      in: 'path',
      name: 'groupId',
      expected: 'a group id of 1 to 32767 UTF-8 bytes',
    });
    expect(body.errors?.[0]?.received?.length).toBeLessThan(300);
  });

  it('rejects unknown query parameters on a group', async () => {
    const { status, body } = await t.get<Problem>(`${path(ids.classic)}?foo=1`, '/groups/{groupId}');
    expect(status).toBe(400);
    expect(body.errors?.[0]).toMatchObject({ in: 'query', name: 'foo', received: '1' });
  });
});

describe('documents and docs', () => {
  it('serves a valid OpenAPI 3.1 document in which every route has an example per response', async () => {
    const doc = t.checker.document as unknown as {
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content?: Record<string, { schema?: unknown; example?: unknown; examples?: unknown }> }
            >;
          }
        >
      >;
      components: { schemas: Record<string, { example?: unknown }> };
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const [route, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          for (const [type, media] of Object.entries(response.content ?? {})) {
            const ref = (media.schema as { $ref?: string } | undefined)?.$ref?.split('/').pop();
            const hasExample =
              media.example !== undefined ||
              media.examples !== undefined ||
              (ref !== undefined && doc.components.schemas[ref]?.example !== undefined);
            expect(hasExample, `${method} ${route} ${status} ${type} has an example`).toBe(true);
          }
        }
      }
    }
  });

  it('serves the docs page', async () => {
    const res = await t.app.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('SwaggerUIBundle');
    expect(html).toContain('/openapi.json');
  });

  it('answers an unknown route with a 404 problem', async () => {
    const res = await t.app.request('/group');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: '/problems/route-not-found', status: 404 });
  });
});
