/**
 * The write and log codecs against the real broker, through a BrokerConnection at the version it
 * negotiates: each RPC's effect is read back with another RPC (and, for offsets, Kafka's own Admin
 * client), on groups and records made by Kafka's own clients.
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { NO_DEADLINE } from '../../src/broker/deadline.js';
import { ErrorCode } from '../../src/broker/protocol/errors.js';
import { AlterShareGroupOffsets } from '../../src/broker/protocol/messages/alter-share-group-offsets.js';
import { DeleteGroups } from '../../src/broker/protocol/messages/delete-groups.js';
import { DeleteShareGroupOffsets } from '../../src/broker/protocol/messages/delete-share-group-offsets.js';
import { DescribeShareGroupOffsets } from '../../src/broker/protocol/messages/describe-share-group-offsets.js';
import { Fetch, type FetchPartitionData } from '../../src/broker/protocol/messages/fetch.js';
import { FindCoordinator } from '../../src/broker/protocol/messages/find-coordinator.js';
import { LeaveGroup, UNKNOWN_MEMBER_ID } from '../../src/broker/protocol/messages/leave-group.js';
import { ListOffsets, ListOffsetsTimestamp } from '../../src/broker/protocol/messages/list-offsets.js';
import { Metadata } from '../../src/broker/protocol/messages/metadata.js';
import { ADMIN_COMMIT_GENERATION, OffsetCommit } from '../../src/broker/protocol/messages/offset-commit.js';
import { OffsetDelete } from '../../src/broker/protocol/messages/offset-delete.js';
import { OffsetFetch } from '../../src/broker/protocol/messages/offset-fetch.js';
import { KafkaCluster } from '../../src/broker/transport/cluster.js';
import type { BrokerConnection } from '../../src/broker/transport/connection.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminOffsets } from '../broker-harness/java-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import { hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('codec');
const topic = `${run}-data`;
const RECORDS = 30;
const classicGroup = `${run}-classic`;
const instancePrefix = `${run}-static`;
const shareGroup = `${run}-share`;

let bootstrap: string;
let cluster: KafkaCluster;
let fx: RunningFixtures | undefined;
let startedAt: number;

/** The group's coordinator, asked again while the offsets topic is still being set up. */
async function coordinator(groupId: string): Promise<BrokerConnection> {
  let last: string | undefined;
  return waitFor(
    async () => {
      const { response } = await cluster.anyBroker(
        (c) => c.send(FindCoordinator, { keyType: 0, coordinatorKeys: [groupId] }, { min: 4 }, NO_DEADLINE),
        NO_DEADLINE,
      );
      const found = response.coordinators?.[0];
      last = JSON.stringify(found);
      return (
        found?.errorCode === ErrorCode.NONE && cluster.connection({ host: found.host, port: found.port })
      );
    },
    { timeoutMs: 15_000, what: () => `a coordinator for ${groupId}; last FindCoordinator: ${last}` },
  );
}

async function topicInfo(name: string) {
  const { response } = await cluster.anyBroker(
    (c) =>
      c.send(
        Metadata,
        (v) => ({ topics: [{ name }], ...(v >= 4 && { allowAutoTopicCreation: false }) }),
        {
          min: 10,
        },
        NO_DEADLINE,
      ),
    NO_DEADLINE,
  );
  const t = response.topics.find((x) => x.name === name);
  if (!t?.topicId) throw new Error(`topic ${name} not in Metadata`);
  const leaderOf = (p: number) => {
    const leader = t.partitions.find((x) => x.partitionIndex === p)?.leaderId;
    const broker = response.brokers.find((b) => b.nodeId === leader);
    if (!broker) throw new Error(`no leader for ${name}-${p}`);
    return cluster.connection({ host: broker.host, port: broker.port });
  };
  return { topicId: t.topicId, leaderOf };
}

async function committed(groupId: string) {
  const connection = await coordinator(groupId);
  const { response } = await connection.send(
    OffsetFetch,
    { groups: [{ groupId, topics: [{ name: topic, partitionIndexes: [0, 1] }] }], requireStable: false },
    { min: 8, max: 9 },
    NO_DEADLINE,
  );
  const group = response.groups?.[0];
  expect(group?.errorCode).toBe(0);
  return new Map(group?.topics[0]?.partitions.map((p) => [p.partitionIndex, p.committedOffset]));
}

beforeAll(async () => {
  bootstrap = inject('kafkaBrokers');
  startedAt = Date.now();
  cluster = new KafkaCluster(
    { ...loadConfig({ AUTH: 'none' }).kafka, brokers: bootstrap.split(',') },
    { logger: silentLogger },
  );
  fx = await startFixtures({
    bootstrap,
    topics: [{ name: topic, partitions: 2, records: RECORDS }],
    groups: [
      { type: 'classic', groupId: classicGroup, topics: [topic], instanceIdPrefix: instancePrefix },
      // Share groups exist from Kafka 4.1: on older brokers their codecs' test skips.
      ...(hasGroupType('share')
        ? [{ type: 'share' as const, groupId: shareGroup, topics: [topic], offsetReset: 'earliest' as const }]
        : []),
    ],
  });
});

afterAll(async () => {
  await fx?.stop();
  await cluster?.close();
});

describe('Fetch', () => {
  it('reads the first batch header at an offset, and its timestamps agree with ListOffsets', async () => {
    const { topicId, leaderOf } = await topicInfo(topic);
    const leader = leaderOf(0);
    // The record with the largest timestamp: its batch's MaxTimestamp must be that timestamp.
    const { response: listed } = await leader.send(
      ListOffsets,
      {
        replicaId: -1,
        topics: [
          { name: topic, partitions: [{ partitionIndex: 0, timestamp: ListOffsetsTimestamp.MaxTimestamp }] },
        ],
      },
      { min: 7 },
      NO_DEADLINE,
    );
    const max = listed.topics[0]?.partitions[0];
    expect(max?.errorCode).toBe(0);
    const maxOffset = max?.offset ?? -1n;
    expect(maxOffset).toBeGreaterThanOrEqual(0n);

    const fetchAt = async (offset: bigint, bounds: { min?: number; max?: number } = {}) => {
      const { version, response } = await leader.send(
        Fetch,
        (v) => ({
          maxWaitMs: 0,
          minBytes: 0,
          maxBytes: 64,
          isolationLevel: 0,
          topics: [
            {
              ...(v >= 13 ? { topicId } : { topic }),
              partitions: [{ partition: 0, fetchOffset: offset, partitionMaxBytes: 64 }],
            },
          ],
        }),
        bounds,
        NO_DEADLINE,
      );
      expect(response.errorCode ?? ErrorCode.NONE).toBe(0);
      return { version, partition: response.responses[0]?.partitions[0] as FetchPartitionData };
    };

    for (const bounds of [{}, { max: 12 }, { max: 4 }]) {
      const { version, partition } = await fetchAt(maxOffset, bounds);
      if (bounds.max) expect(version).toBe(bounds.max);
      else expect(version).toBe(await leader.versionFor(Fetch, undefined, NO_DEADLINE));
      expect(partition.errorCode).toBe(0);
      expect(partition.highWatermark).toBe(BigInt(RECORDS));
      if (version >= 5) expect(partition.logStartOffset).toBe(0n);
      const batch = partition.records?.firstBatch;
      if (!batch) throw new Error(`no batch header at v${version}: ${JSON.stringify(partition.records)}`);
      // A 64-byte budget still gets the whole first batch (KIP-74), so its header is there.
      expect(partition.records?.sizeInBytes).toBeGreaterThanOrEqual(batch.batchLength + 12);
      expect(batch.magic).toBe(2);
      expect(batch.baseOffset).toBeLessThanOrEqual(maxOffset);
      expect(batch.baseOffset + BigInt(batch.lastOffsetDelta)).toBeGreaterThanOrEqual(maxOffset);
      expect(batch.recordsCount).toBe(batch.lastOffsetDelta + 1);
      expect(batch.compression).toBe('none');
      expect(batch.timestampType).toBe('CreateTime');
      expect(batch.isControl).toBe(false);
      expect(batch.maxTimestamp).toBe(max?.timestamp);
      expect(batch.baseTimestamp).toBeLessThanOrEqual(batch.maxTimestamp);
      expect(Number(batch.baseTimestamp)).toBeGreaterThanOrEqual(startedAt - 60_000);
      expect(Number(batch.maxTimestamp)).toBeLessThanOrEqual(Date.now());
    }

    // At the log end there is nothing to read: empty records, no header.
    const { partition: end } = await fetchAt(BigInt(RECORDS));
    expect(end.records).toStrictEqual({ sizeInBytes: 0, firstBatch: null });
    // Beyond it: OFFSET_OUT_OF_RANGE, with the high watermark still told.
    const { partition: beyond } = await fetchAt(BigInt(RECORDS + 5));
    expect(beyond.errorCode).toBe(ErrorCode.OFFSET_OUT_OF_RANGE);
  });
});

describe('OffsetCommit, OffsetDelete and DeleteGroups on a group without members', () => {
  const groupId = `${run}-admin`;

  it('an admin commit is read back by OffsetFetch and by Kafka Admin, then deleted', async () => {
    const connection = await coordinator(groupId);
    const { version, response } = await connection.send(
      OffsetCommit,
      (v) => ({
        groupId,
        generationIdOrMemberEpoch: ADMIN_COMMIT_GENERATION,
        memberId: '',
        topics: [
          {
            name: topic,
            partitions: [
              { partitionIndex: 0, committedOffset: 7n, committedMetadata: 'reset' },
              { partitionIndex: 1, committedOffset: 11n, committedMetadata: null },
            ],
          },
        ],
        ...(v >= 7 && { groupInstanceId: null }),
      }),
      { max: 9 },
      NO_DEADLINE,
    );
    expect(version).toBe(9);
    expect(response.topics).toStrictEqual([
      {
        name: topic,
        partitions: [
          { partitionIndex: 0, errorCode: ErrorCode.NONE },
          { partitionIndex: 1, errorCode: ErrorCode.NONE },
        ],
      },
    ]);
    expect(await committed(groupId)).toStrictEqual(
      new Map([
        [0, 7n],
        [1, 11n],
      ]),
    );
    const admin = await javaAdminOffsets({ bootstrap, groupId });
    expect(admin.committed.get(`${topic}:0`)).toMatchObject({ offset: 7, metadata: 'reset' });
    expect(admin.committed.get(`${topic}:1`)).toMatchObject({ offset: 11, metadata: '' });

    const deleted = await connection.send(
      OffsetDelete,
      {
        groupId,
        topics: [{ name: topic, partitions: [{ partitionIndex: 0 }] }],
      },
      undefined,
      NO_DEADLINE,
    );
    expect(deleted.response).toMatchObject({
      errorCode: ErrorCode.NONE,
      topics: [{ name: topic, partitions: [{ partitionIndex: 0, errorCode: ErrorCode.NONE }] }],
    });
    expect(await committed(groupId)).toStrictEqual(
      new Map([
        [0, -1n],
        [1, 11n],
      ]),
    );
  });

  it('DeleteGroups deletes the Empty group, and then finds nothing to delete', async () => {
    const connection = await coordinator(groupId);
    const first = await connection.send(DeleteGroups, { groupsNames: [groupId] }, undefined, NO_DEADLINE);
    expect(first.version).toBe(await connection.versionFor(DeleteGroups, undefined, NO_DEADLINE));
    expect(first.response.results).toStrictEqual([
      { groupId, errorCode: ErrorCode.NONE, ...(first.version >= 3 && { errorMessage: null }) },
    ]);
    const again = await connection.send(DeleteGroups, { groupsNames: [groupId] }, { max: 2 }, NO_DEADLINE);
    expect(again.response.results).toStrictEqual([{ groupId, errorCode: ErrorCode.GROUP_ID_NOT_FOUND }]);
  });
});

describe('on a live classic group with a static member', () => {
  it('refuses an admin commit and a delete, and removes the static member by instance id', async () => {
    const connection = await coordinator(classicGroup);
    const commit = await connection.send(
      OffsetCommit,
      {
        groupId: classicGroup,
        generationIdOrMemberEpoch: ADMIN_COMMIT_GENERATION,
        memberId: '',
        topics: [
          { name: topic, partitions: [{ partitionIndex: 0, committedOffset: 1n, committedMetadata: null }] },
        ],
      },
      // v10 names topics by id; v9 is the last by name.
      { max: 9 },
      NO_DEADLINE,
    );
    expect(commit.response.topics[0]?.partitions[0]?.errorCode).toBe(ErrorCode.UNKNOWN_MEMBER_ID);

    const del = await connection.send(DeleteGroups, { groupsNames: [classicGroup] }, undefined, NO_DEADLINE);
    expect(del.response.results[0]?.errorCode).toBe(ErrorCode.NON_EMPTY_GROUP);

    const left = await connection.send(
      LeaveGroup,
      (v) => ({
        groupId: classicGroup,
        members: [
          {
            memberId: UNKNOWN_MEMBER_ID,
            groupInstanceId: `${instancePrefix}-0`,
            ...(v >= 5 && { reason: 'removed by an administrator' }),
          },
          { memberId: UNKNOWN_MEMBER_ID, groupInstanceId: `${instancePrefix}-nobody` },
        ],
      }),
      undefined,
      NO_DEADLINE,
    );
    expect(left.version).toBe(5);
    expect(left.response.errorCode).toBe(0);
    expect(left.response.members.map((m) => [m.groupInstanceId, m.errorCode])).toStrictEqual([
      [`${instancePrefix}-0`, 0],
      [`${instancePrefix}-nobody`, ErrorCode.UNKNOWN_MEMBER_ID],
    ]);
  });
});

describe.runIf(hasGroupType('share'))('AlterShareGroupOffsets and DeleteShareGroupOffsets', () => {
  it('refuse a live share group, then set and delete the start offsets once it is empty', async () => {
    const connection = await coordinator(shareGroup);
    const alter = () =>
      connection.send(
        AlterShareGroupOffsets,
        {
          groupId: shareGroup,
          topics: [
            {
              topicName: topic,
              partitions: [
                { partitionIndex: 0, startOffset: 3n },
                { partitionIndex: 1, startOffset: 5n },
              ],
            },
          ],
        },
        undefined,
        NO_DEADLINE,
      );
    const live = await alter();
    if (kafkaAtLeast(4, 2)) {
      expect(live.response.errorCode).toBe(ErrorCode.NON_EMPTY_GROUP);
    } else {
      // Kafka 4.1 refuses nothing and alters nothing: no error, and no partition in the answer.
      // Callers must read an empty answer as "not applied".
      expect(live.response).toMatchObject({ errorCode: ErrorCode.NONE, responses: [] });
    }

    await fx?.stop();
    fx = undefined;
    const { topicId } = await topicInfo(topic);
    const altered = await alter();
    if (!kafkaAtLeast(4, 2)) {
      // Nor on an empty group: Kafka 4.1 answers every AlterShareGroupOffsets with nothing done.
      expect(altered.response).toMatchObject({ errorCode: ErrorCode.NONE, responses: [] });
      return;
    }
    expect(altered.response).toMatchObject({
      errorCode: ErrorCode.NONE,
      responses: [
        {
          topicName: topic,
          topicId,
          partitions: [
            { partitionIndex: 0, errorCode: ErrorCode.NONE },
            { partitionIndex: 1, errorCode: ErrorCode.NONE },
          ],
        },
      ],
    });
    const admin = await javaAdminOffsets({ bootstrap, groupId: shareGroup, share: true });
    expect(admin.share.get(`${topic}:0`)?.startOffset).toBe(3);
    expect(admin.share.get(`${topic}:1`)?.startOffset).toBe(5);

    const deleted = await connection.send(
      DeleteShareGroupOffsets,
      {
        groupId: shareGroup,
        topics: [{ topicName: topic }],
      },
      undefined,
      NO_DEADLINE,
    );
    expect(deleted.response).toMatchObject({
      errorCode: ErrorCode.NONE,
      responses: [{ topicName: topic, topicId, errorCode: ErrorCode.NONE }],
    });
    const { response: described } = await connection.send(
      DescribeShareGroupOffsets,
      {
        groups: [{ groupId: shareGroup, topics: null }],
      },
      undefined,
      NO_DEADLINE,
    );
    expect(described.groups[0]?.errorCode).toBe(0);
    expect(described.groups[0]?.topics.filter((t) => t.topicName === topic)).toStrictEqual([]);
  });
});
