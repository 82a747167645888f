/**
 * A streams group's topology description and assignor (Kafka 4.4: StreamsGroupDescribe v1,
 * KIP-1331 and KIP-1357) through GET /groups/{groupId}?include=topology, with a group made by
 * Kafka Streams itself. The test broker runs no topology description plugin, so it stores none:
 * Kafka's Streams client sends its description only when the broker asks for it
 * (topologyPushRequired in the heartbeat answer), and the answer says so.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/openapi/problems.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
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
    'Kafka 4.4: the status and (null) description of a broker without a description plugin, and the assignor',
    async () => {
      const { status, body } = await t.get<Json>(path(streams, '?include=topology'), '/groups/{groupId}');
      expect(status).toBe(200);
      expect(body).toMatchObject({ type: 'streams', groupId: streams, state: 'Stable' });
      // No plugin on the test broker: nothing stored, so no description (null, not absent).
      expect(body.topologyDescriptionStatus).toBe('not-stored');
      expect(body.topologyDescription).toBeNull();
      // KIP-1357: the broker names its streams assignor from v1.
      expect(body.assignor).toBe('sticky');
      expect(body.topology.subtopologies.length).toBeGreaterThan(0);

      const plain = await t.get<Json>(path(streams), '/groups/{groupId}');
      expect(plain.body).not.toHaveProperty('topologyDescriptionStatus');
      expect(plain.body).not.toHaveProperty('topologyDescription');
    },
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
