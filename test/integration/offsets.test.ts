/**
 * GET /groups/{groupId}/offsets and include=lag on real groups with produced records and known
 * commits: exact figures, the same as Kafka's own Java Admin client reports, per-partition errors
 * for a deleted topic, and proof that no endpoint ever moves a committed offset.
 */

import { describe, expect, it, vi } from 'vitest';
import { BrokerConnection } from '../../src/broker/transport/connection.js';
import type { GroupOffsets } from '../../src/groups/model.js';
import type { Problem } from '../../src/openapi/problems.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import {
  javaAdminCreatePartitions,
  javaAdminDeleteTopic,
  javaAdminOffsets,
} from '../broker-harness/java-admin.js';
import { testApp } from '../support/app.js';
import { appWithGroups } from '../support/app-with-groups.js';
import { hasGroupType } from '../support/kafka-version.js';

const run = uniqueName('off');
const topic = `${run}-in`;
const doomed = `${run}-doomed`;
const growing = `${run}-grow`;
const RECORDS = 10;
const ids = {
  classic: `${run}-classic`,
  consumer: `${run}-consumer`,
  uncommitted: `${run}-uncommitted`,
  empty: `${run}-empty`,
  deleted: `${run}-deleted`,
  growing: `${run}-growing`,
  share: `${run}-share`,
  streams: `${run}-streams`,
};

const t = appWithGroups({
  topics: [
    { name: topic, partitions: 3, records: RECORDS },
    { name: doomed, partitions: 2, records: RECORDS },
    { name: growing, partitions: 2, records: RECORDS },
  ],
  groups: () => [
    {
      type: 'classic',
      groupId: ids.classic,
      topics: [topic],
      members: 2,
      commit: 4,
      clientId: `${run}-cl`,
    },
    { type: 'consumer', groupId: ids.consumer, topics: [topic], commit: 7, clientId: `${run}-co` },
    { type: 'consumer', groupId: ids.uncommitted, topics: [topic], clientId: `${run}-un` },
    { type: 'empty', groupId: ids.empty, topics: [topic], commit: 2 },
    { type: 'empty', groupId: ids.deleted, topics: [doomed], commit: 3 },
    { type: 'classic', groupId: ids.growing, topics: [growing], commit: 5, clientId: `${run}-gr` },
    ...(hasGroupType('share')
      ? [
          {
            type: 'share' as const,
            groupId: ids.share,
            topics: [topic],
            offsetReset: 'earliest' as const,
            clientId: `${run}-sh`,
          },
        ]
      : []),
    ...(hasGroupType('streams')
      ? [{ type: 'streams' as const, groupId: ids.streams, topics: [topic], clientId: `${run}-st` }]
      : []),
  ],
});

const offsets = async (id: string, query = '') => {
  const { status, body } = await t.get<GroupOffsets>(
    `/groups/${encodeURIComponent(id)}/offsets${query}`,
    '/groups/{groupId}/offsets',
  );
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
};
const partitionsOf = (body: GroupOffsets, name = topic) =>
  body.topics.find((x) => x.topic === name)?.partitions ?? [];

describe('GET /groups/{groupId}/offsets', () => {
  it('gives exact committed offsets, end offsets, lag and owners of a classic group', async () => {
    const body = await offsets(ids.classic);
    expect(body).toMatchObject({
      groupId: ids.classic,
      type: 'classic',
      state: 'Stable',
      offsetKind: 'committed',
      isolation: 'read_uncommitted',
    });
    const rows = partitionsOf(body);
    expect(rows.map((p) => [p.partition, p.offset, p.endOffset, p.lag])).toEqual([
      [0, 4, RECORDS, RECORDS - 4],
      [1, 4, RECORDS, RECORDS - 4],
      [2, 4, RECORDS, RECORDS - 4],
    ]);
    for (const p of rows) {
      expect(p.error).toBeNull();
      expect(p.owners).toHaveLength(1);
      expect(p.owners[0]?.clientId).toMatch(new RegExp(`^${run}-cl-[01]$`));
    }
    expect(body.totals).toEqual({
      lag: 3 * (RECORDS - 4),
      maxLag: { lag: RECORDS - 4, topic, partition: 0 },
      partitions: 3,
      partitionsWithoutOffset: 0,
      partitionsWithErrors: 0,
    });
    expect(body.topics.find((x) => x.topic === topic)?.lag).toBe(3 * (RECORDS - 4));
  });

  it('gives a consumer group its offsets, and read_committed its last stable offsets', async () => {
    const body = await offsets(ids.consumer, '?isolation=read_committed');
    expect(body.isolation).toBe('read_committed');
    expect(partitionsOf(body).map((p) => [p.offset, p.endOffset, p.lag])).toEqual(
      Array(3).fill([7, RECORDS, RECORDS - 7]),
    );
    expect(partitionsOf(body).every((p) => p.owners[0]?.clientId === `${run}-co-0`)).toBe(true);
  });

  it('shows held partitions that were never committed with no offset and no lag', async () => {
    const body = await offsets(ids.uncommitted);
    const rows = partitionsOf(body);
    expect(rows).toHaveLength(3);
    for (const p of rows)
      expect(p).toMatchObject({ offset: null, lag: null, endOffset: RECORDS, error: null });
    expect(body.totals).toMatchObject({ lag: 0, maxLag: null, partitionsWithoutOffset: 3 });
  });

  it('gives an Empty group its offsets with no owners', async () => {
    const body = await offsets(ids.empty);
    expect(partitionsOf(body).map((p) => [p.offset, p.lag, p.owners])).toEqual(
      Array(3).fill([2, RECORDS - 2, []]),
    );
  });

  it.skipIf(!hasGroupType('share'))(
    'gives a share group its start offsets, as the Java Admin client reports them',
    async () => {
      const body = await offsets(ids.share);
      expect(body).toMatchObject({ type: 'share', offsetKind: 'start' });
      const java = await javaAdminOffsets({ bootstrap: t.bootstrap, groupId: ids.share, share: true });
      const rows = partitionsOf(body);
      expect(rows.length).toBeGreaterThan(0);
      for (const p of rows) {
        const k = java.share.get(`${topic}:${p.partition}`);
        expect(p.offset).toBe(k?.startOffset === -1 ? null : k?.startOffset);
        // Kafka reports a share partition's lag from 4.2 (DescribeShareGroupOffsets v1); before, the
        // Java client has none and this product counts it as for the other types.
        const expectedLag = k?.lag ?? (p.offset === null ? null : RECORDS - p.offset);
        expect(p.lag).toBe(expectedLag);
        expect(p.endOffset).toBe(RECORDS);
        expect(p.owners.map((o) => o.clientId)).toEqual([`${run}-sh-0`]);
      }
    },
  );

  it('agrees with the Java Admin client for classic, consumer, Empty and streams groups', async () => {
    const groups = [ids.classic, ids.consumer, ids.empty, ...(hasGroupType('streams') ? [ids.streams] : [])];
    for (const id of groups) {
      const [body, java] = await Promise.all([
        offsets(id),
        javaAdminOffsets({ bootstrap: t.bootstrap, groupId: id }),
      ]);
      const ours = new Map(
        body.topics.flatMap((x) =>
          x.partitions.filter((p) => p.offset !== null).map((p) => [`${x.topic}:${p.partition}`, p] as const),
        ),
      );
      expect([...ours.keys()].sort(), id).toEqual([...java.committed.keys()].sort());
      for (const [key, p] of ours) {
        expect(p.offset, `${id} ${key}`).toBe(java.committed.get(key)?.offset);
        expect(p.leaderEpoch, `${id} ${key}`).toBe(java.committed.get(key)?.leaderEpoch ?? null);
        expect(p.endOffset, `${id} ${key}`).toBe(java.end.get(key));
      }
    }
  });

  it('shows a partition added after the commits, held but not committed', async () => {
    await javaAdminCreatePartitions(t.bootstrap, growing, 3);
    // The member notices the new partition (metadata.max.age.ms is 1 s in the fixture) and rejoins.
    await vi.waitFor(
      async () => {
        const rows = partitionsOf(await offsets(ids.growing), growing);
        expect(rows.map((p) => p.partition)).toEqual([0, 1, 2]);
        expect(rows[2]).toMatchObject({ offset: null, endOffset: 0, lag: null, error: null });
        expect(rows[2]?.owners[0]?.clientId).toBe(`${run}-gr-0`);
      },
      { timeout: 30_000, interval: 500 },
    );
    const body = await offsets(ids.growing);
    expect(body.totals).toMatchObject({ lag: 2 * (RECORDS - 5), partitions: 3, partitionsWithoutOffset: 1 });
  });

  it('keeps answering while a topic is deleted: its partitions carry an error until Kafka drops their offsets', async () => {
    const before = partitionsOf(await offsets(ids.deleted), doomed);
    expect(before.map((p) => [p.offset, p.endOffset, p.lag])).toEqual([
      [3, RECORDS, RECORDS - 3],
      [3, RECORDS, RECORDS - 3],
    ]);
    await javaAdminDeleteTopic(t.bootstrap, doomed);
    // Kafka removes a deleted topic's committed offsets shortly after; until then the partitions
    // are listed with UNKNOWN_TOPIC_OR_PARTITION. Either way the call itself succeeds.
    await vi.waitFor(
      async () => {
        const rows = partitionsOf(await offsets(ids.deleted), doomed);
        for (const p of rows) {
          expect(p).toMatchObject({ offset: 3, endOffset: null, lag: null });
          expect(p.error?.name).toBe('UNKNOWN_TOPIC_OR_PARTITION');
        }
        expect(rows).toEqual([]);
      },
      { timeout: 30_000, interval: 200 },
    );
  });

  it('answers 404 for a missing group, 409 for a type mismatch, 400 for a bad isolation', async () => {
    const missing = await t.get<Problem>(`/groups/${run}-nope/offsets`, '/groups/{groupId}/offsets');
    expect(missing.status).toBe(404);
    // The share group asked as a consumer group; where there are no share groups, the classic one.
    const actualType = hasGroupType('share') ? 'share' : 'classic';
    const mismatch = await t.get<Problem>(
      `/groups/${ids[actualType]}/offsets?type=consumer`,
      '/groups/{groupId}/offsets',
    );
    expect(mismatch.body).toMatchObject({ status: 409, expectedType: 'consumer', actualType });
    const bad = await t.get<Problem>(
      `/groups/${ids.classic}/offsets?isolation=dirty`,
      '/groups/{groupId}/offsets',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors?.[0]).toMatchObject({
      name: 'isolation',
      received: 'dirty',
      expected: 'read_uncommitted or read_committed',
    });
  });
});

describe('GET /groups?include=lag', () => {
  it('adds each group’s totals, one offsets RPC per coordinator and one ListOffsets per leader', async () => {
    const classic = (await offsets(ids.classic)).totals;
    const fresh = await testApp();
    const send = vi.spyOn(BrokerConnection.prototype, 'send');
    try {
      const { status, body } = await fresh.get<{
        groups: { groupId: string; lag?: unknown; lagError?: unknown }[];
      }>(`/groups?prefix=${encodeURIComponent(run)}&include=details,lag`, '/groups');
      expect(status).toBe(200);
      const byId = new Map(body.groups.map((g) => [g.groupId, g]));
      expect(byId.get(ids.classic)?.lag).toEqual(classic);
      expect(byId.get(ids.empty)?.lag).toMatchObject({ lag: 3 * (RECORDS - 2), partitions: 3 });
      if (hasGroupType('share')) {
        expect(byId.get(ids.share)?.lag).toMatchObject({ partitions: expect.any(Number) });
      }
      const names = send.mock.calls.map(([api]) => api.name);
      expect(names.filter((n) => n === 'OffsetFetch')).toHaveLength(1);
      // No share groups on the page (3.x): no share offsets RPC.
      expect(names.filter((n) => n === 'DescribeShareGroupOffsets')).toHaveLength(
        hasGroupType('share') ? 1 : 0,
      );
      expect(names.filter((n) => n === 'ListOffsets')).toHaveLength(1);
      // Details and lag of the page are read together; their coordinators are looked up once.
      expect(names.filter((n) => n === 'FindCoordinator')).toHaveLength(1);
    } finally {
      send.mockRestore();
      await fresh.close();
    }
  });
});

describe('read-only', () => {
  it('leaves every committed offset as it was, whatever is asked', async () => {
    const watched = [ids.classic, ids.consumer, ids.empty];
    const before = await Promise.all(
      watched.map((groupId) => javaAdminOffsets({ bootstrap: t.bootstrap, groupId })),
    );
    expect(before.every((b) => b.committed.size === 3)).toBe(true);
    for (const id of watched) {
      const e = encodeURIComponent(id);
      for (const path of [
        `/groups/${e}`,
        `/groups/${e}/offsets`,
        `/groups/${e}/offsets?isolation=read_committed`,
        `/groups?prefix=${encodeURIComponent(run)}&include=details,lag`,
        '/groups',
        '/cluster',
      ]) {
        expect((await t.app.request(path)).status, path).toBe(200);
      }
    }
    const batch = await t.app.request('/groups/describe', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupIds: watched }),
    });
    expect(batch.status).toBe(200);
    const after = await Promise.all(
      watched.map((groupId) => javaAdminOffsets({ bootstrap: t.bootstrap, groupId })),
    );
    expect(after.map((a) => [...a.committed])).toEqual(before.map((b) => [...b.committed]));
    // Six Java Admin processes start here; on a loaded 2-core machine their JVM start alone can pass a minute.
  }, 180_000);
});
