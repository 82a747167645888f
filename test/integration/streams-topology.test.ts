/**
 * A streams group's topology description and assignor (Kafka 4.4: StreamsGroupDescribe v1,
 * KIP-1331 and KIP-1357) through GET /groups/{groupId}?include=topology, with a group made by
 * Kafka Streams itself. The test broker of 4.4 runs Kafka's in-memory topology description plugin
 * (test/broker-harness/broker.ts): the broker asks the group's Streams clients for their description
 * (topologyPushRequired in the heartbeat answer) and keeps it, and the answer is held against what
 * Kafka's Java Admin client reads of the same group.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/openapi/problems.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminStreamsTopology } from '../broker-harness/group-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import { type TestApp, testApp } from '../support/app.js';
import { hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('stopo');
const topic = `${run}-in`;
const streams = `${run}-streams`;
const consumer = `${run}-consumer`;

let t: TestApp;
let fixtures: RunningFixtures | undefined;

// biome-ignore lint/suspicious/noExplicitAny: answers checked against the document
type Json = any;

beforeAll(async () => {
  t = await testApp();
  if (!hasGroupType('streams')) return;
  fixtures = await startFixtures({
    bootstrap: t.bootstrap,
    topics: [{ name: topic, partitions: 3, records: 10 }],
    groups: [
      { type: 'streams', groupId: streams, topics: [topic], clientId: `${run}-st` },
      { type: 'consumer', groupId: consumer, topics: [topic], clientId: `${run}-co` },
    ],
  });
});

afterAll(async () => {
  await fixtures?.stop();
  await t?.close();
});

const path = (id: string, query = '') => `/groups/${encodeURIComponent(id)}${query}`;

describe.skipIf(!hasGroupType('streams'))('include=topology', () => {
  it.skipIf(!kafkaAtLeast(4, 4))(
    "Kafka 4.4: the description the group's Streams clients sent, as Kafka's Admin client reads it, and the assignor",
    async () => {
      // The clients send their description on the heartbeat after the broker asks for it.
      let last: Json;
      const described: Json = await waitFor(
        async () => {
          last = (await t.get<Json>(path(streams, '?include=topology'), '/groups/{groupId}')).body;
          return last.topologyDescriptionStatus === 'available' ? last : undefined;
        },
        {
          timeoutMs: 30_000,
          what: () => `the topology description to be stored (last: ${JSON.stringify(last)})`,
        },
      );
      expect(described).toMatchObject({ type: 'streams', groupId: streams, state: 'Stable' });
      // KIP-1357: the broker names its streams assignor from v1.
      expect(described.assignor).toBe('sticky');
      expect(described.topology.subtopologies.length).toBeGreaterThan(0);

      const admin = await javaAdminStreamsTopology(t.bootstrap, streams);
      expect(admin.status).toBe('AVAILABLE');
      const sorted = (xs: string[]) => [...xs].sort();
      const ours = (described.topologyDescription.subtopologies as Json[]).flatMap((s) =>
        (s.nodes as Json[]).map((n) => ({
          subtopologyId: s.subtopologyId,
          nodeType: n.nodeType,
          name: n.name,
          sourceTopics: sorted(n.sourceTopics),
          sinkTopic: n.sinkTopic,
          stores: sorted(n.stores),
          successors: sorted(n.successors),
        })),
      );
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect(ours.sort(byName)).toEqual([...admin.nodes].sort(byName));
      // The group's source topic is read by a source node of the description.
      expect(ours.some((n) => n.nodeType === 'source' && n.sourceTopics.includes(topic))).toBe(true);
      expect(described.topologyDescription.globalStores).toHaveLength(admin.globalStores.length);

      const plain = await t.get<Json>(path(streams), '/groups/{groupId}');
      expect(plain.body).not.toHaveProperty('topologyDescriptionStatus');
      expect(plain.body).not.toHaveProperty('topologyDescription');
    },
    60_000,
  );

  it.skipIf(kafkaAtLeast(4, 4))('before Kafka 4.4: 502 naming the RPC the broker lacks', async () => {
    const { status, body } = await t.get<Problem>(path(streams, '?include=topology'), '/groups/{groupId}');
    expect(status).toBe(502);
    expect(body.type).toBe('/problems/unsupported-broker-api');
    expect(body.detail).toContain('StreamsGroupDescribe');
  });

  it('other group types ignore it; an unknown include value is a 400 naming the parameter', async () => {
    const other = await t.get<Json>(path(consumer, '?include=topology'), '/groups/{groupId}');
    expect(other.status).toBe(200);
    expect(other.body.type).toBe('consumer');
    expect(other.body).not.toHaveProperty('topologyDescription');
    const bad = await t.get<Problem>(path(streams, '?include=nodes'), '/groups/{groupId}');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain("query parameter 'include'");
  });
});
