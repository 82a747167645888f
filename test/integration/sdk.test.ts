/**
 * The generated client (sdk/) against the Node server as a process and real groups of every type.
 * The compiler is part of the test: `npm run typecheck` proves that a group narrows on `type`, with
 * no cast in this file, and that a new group type fails the exhaustive switch below.
 */

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createGroupsClient, type Group, type GroupsClient } from '../../sdk/index.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { hasGroupType } from '../support/kafka-version.js';
import { startServerProcess, stopServerProcess } from '../support/server-process.js';

type Kind = Group['type'];

const run = uniqueName('sdk');
const topic = `${run}-events`;
const ids = {
  classic: `${run}-classic`,
  consumer: `${run}-consumer`,
  share: `${run}-share`,
  streams: `${run}-streams`,
} satisfies Record<Kind, string>;
const allKinds: Kind[] = ['classic', 'consumer', 'share', 'streams'];
/** The kinds the broker has groups of (3.x: no share, no streams). */
const kinds = allKinds.filter(hasGroupType);

let server: ChildProcess | undefined;
let fixtures: RunningFixtures | undefined;
let api: GroupsClient;

async function startServer(): Promise<string> {
  const started = await startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
    env: { KAFKA_BROKERS: inject('kafkaBrokers'), AUTH: 'none' },
  });
  server = started.child;
  return started.url;
}

/**
 * What every group type has under the same names, read without narrowing: the member of any
 * type holds `partitions`, and the one member here holds all three partitions of the topic.
 */
function checkCoreFields(data: Group): void {
  expect(data.protocolType).toMatch(/\S/);
  expect(data.members).toHaveLength(1);
  for (const member of data.members) {
    expect(member.memberId).toMatch(/\S/);
    expect(member.clientId.startsWith(run)).toBe(true);
    expect(member.clientHost).toBe('/127.0.0.1');
    expect(member.instanceId).toBeNull();
    expect(member.rack).toBeNull();
    const held = member.partitions.find((tp) => tp.topic === topic);
    expect(held?.partitions).toEqual([0, 1, 2]);
    // Kafka names the topic by id only in the KIP-848 and KIP-932 describes.
    if (data.type === 'consumer' || data.type === 'share')
      expect(held?.topicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    else expect(held?.topicId).toBeNull();
  }
}

/**
 * What only a group of its own type has, read without a cast: each case sees one member of the
 * union. A fifth group type in the document makes `never` below fail to compile.
 */
function checkTypeSpecific(data: Group): string {
  switch (data.type) {
    case 'classic': {
      expect(data.protocolType).toBe('consumer');
      expect(data.assignor).toBe('range');
      expect(data.members).toHaveLength(1);
      for (const member of data.members) {
        expect(member.consumerProtocol?.decodeError).toBeNull();
        const owned = member.consumerProtocol?.assignment?.partitions.flatMap((tp) =>
          tp.partitions.map((p) => `${tp.topic}:${p}`),
        );
        expect(owned?.sort()).toEqual([`${topic}:0`, `${topic}:1`, `${topic}:2`]);
      }
      return data.protocolType;
    }
    case 'consumer': {
      expect(data.assignor).toMatch(/\S/);
      expect(data.members).toHaveLength(1);
      for (const member of data.members) {
        expect(member.memberEpoch).toBeGreaterThan(0);
        expect(member.targetPartitions.length).toBeGreaterThan(0);
        for (const tp of member.targetPartitions) {
          expect(tp.topic).toBe(topic);
          expect(tp.topicId).toMatch(/^[A-Za-z0-9_-]{22}$/);
        }
      }
      return data.assignor;
    }
    case 'share': {
      expect(data.assignor).toMatch(/\S/);
      expect(data.members).toHaveLength(1);
      for (const member of data.members) {
        expect(member.subscribedTopicNames).toEqual([topic]);
      }
      return data.assignor;
    }
    case 'streams': {
      const subtopologies = data.topology?.subtopologies ?? [];
      expect(subtopologies.length).toBeGreaterThan(0);
      expect(subtopologies.flatMap((s) => s.sourceTopics)).toContain(topic);
      expect(data.members).toHaveLength(1);
      for (const member of data.members) {
        expect(member.processId).toMatch(/\S/);
        expect(member.tasks.activeTasks.length).toBeGreaterThan(0);
      }
      return `${subtopologies.length} subtopologies`;
    }
    default: {
      const never: never = data;
      throw new Error(`a group type this test does not know: ${JSON.stringify(never)}`);
    }
  }
}

describe('the generated client against the Node server', () => {
  beforeAll(async () => {
    const [base, started] = await Promise.all([
      startServer(),
      startFixtures({
        bootstrap: inject('kafkaBrokers'),
        topics: [{ name: topic, partitions: 3, records: 5 }],
        groups: [
          { type: 'classic', groupId: ids.classic, topics: [topic], clientId: `${run}-cl` },
          { type: 'consumer', groupId: ids.consumer, topics: [topic], clientId: `${run}-co` },
          ...(hasGroupType('share')
            ? [{ type: 'share' as const, groupId: ids.share, topics: [topic], clientId: `${run}-sh` }]
            : []),
          ...(hasGroupType('streams')
            ? [{ type: 'streams' as const, groupId: ids.streams, topics: [topic], clientId: `${run}-st` }]
            : []),
        ],
      }),
    ]);
    fixtures = started;
    api = createGroupsClient(base);
  });

  afterAll(async () => {
    await stopServerProcess(server);
    await fixtures?.stop();
  });

  it('lists the groups of every type, filtered by prefix and type', async () => {
    const { data, error } = await api.GET('/groups', {
      params: { query: { prefix: run, type: ['classic', 'consumer', 'share', 'streams'] } },
    });
    expect(error).toBeUndefined();
    if (!data) throw new Error('no page');
    expect(data.failures).toEqual([]);
    expect(data.nextCursor).toBeNull();
    expect(data.groups.map((g) => [g.groupId, g.type, g.state])).toEqual(
      kinds.map((kind) => [ids[kind], kind, 'Stable']),
    );

    const shareOnly = await api.GET('/groups', { params: { query: { prefix: run, type: ['share'] } } });
    expect(shareOnly.data?.groups.map((g) => g.groupId)).toEqual(kinds.includes('share') ? [ids.share] : []);
  });

  for (const kind of allKinds) {
    it.skipIf(!hasGroupType(kind))(`describes the ${kind} group and narrows it on \`type\``, async () => {
      const { data, error, response } = await api.GET('/groups/{groupId}', {
        params: { path: { groupId: ids[kind] } },
      });
      expect(error, JSON.stringify(error)).toBeUndefined();
      expect(response.status).toBe(200);
      if (!data) throw new Error('no group');
      expect(data.type).toBe(kind);
      expect(data.groupId).toBe(ids[kind]);
      expect(data.state).toBe('Stable');
      expect(data.coordinator.port).toBeGreaterThan(0);
      checkCoreFields(data);
      expect(checkTypeSpecific(data)).toMatch(/\S/);
    });
  }

  it('reads a 404 problem+json as a typed error', async () => {
    const missing = `${run}-missing`;
    const { data, error, response } = await api.GET('/groups/{groupId}', {
      params: { path: { groupId: missing } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    if (!error) throw new Error('no problem');
    expect(error.type).toBe('/problems/group-not-found');
    expect(error.status).toBe(404);
    expect(error.groupId).toBe(missing);
    expect(error.kafkaError?.name).toBe('GROUP_ID_NOT_FOUND');
  });

  it('reads a 409 type mismatch with the expected and actual types', async () => {
    // The share group asked as a consumer group; where there are no share groups, the classic one.
    const actual: Kind = hasGroupType('share') ? 'share' : 'classic';
    const { data, error, response } = await api.GET('/groups/{groupId}', {
      params: { path: { groupId: ids[actual] }, query: { type: 'consumer' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    if (!error) throw new Error('no problem');
    expect(error.type).toBe('/problems/group-type-mismatch');
    expect(error.expectedType).toBe('consumer');
    expect(error.actualType).toBe(actual);
    expect(error.groupId).toBe(ids[actual]);
  });

  it('describes a batch, each outcome a group narrowed on `type` or a problem', async () => {
    const missing = `${run}-missing`;
    const groupIds = [...kinds.map((kind) => ids[kind]), missing];
    const { data, error } = await api.POST('/groups/describe', { body: { groupIds } });
    expect(error, JSON.stringify(error)).toBeUndefined();
    if (!data) throw new Error('no result');
    expect(data.results.map((r) => r.groupId)).toEqual(groupIds);
    const seen: string[] = [];
    for (const outcome of data.results) {
      if (outcome.status === 'found') {
        expect(outcome.group.groupId).toBe(outcome.groupId);
        expect(checkTypeSpecific(outcome.group)).toMatch(/\S/);
        seen.push(outcome.group.type);
      } else {
        expect(outcome.groupId).toBe(missing);
        expect(outcome.problem.type).toBe('/problems/group-not-found');
        expect(outcome.problem.status).toBe(404);
        seen.push(outcome.problem.type);
      }
    }
    expect(seen).toEqual([...kinds, '/problems/group-not-found']);
  });
});
