/**
 * Diagnosis against the real broker, each situation made by Kafka's own clients: healthy groups
 * with no finding, a classic consumer that stops polling while another joins (a rebalance that
 * does not end until max.poll.interval.ms, then the member leaves), a KIP-848 consumer that cannot
 * revoke, a static member killed with a long session timeout, a mixed classic/consumer group, and a
 * streams group configured for more standbys than its one instance can hold. Warm-up tasks have no
 * situation here: no released broker assigns them (docs/diagnosis.md names the sources).
 */

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrokerConnection } from '../../src/broker/transport/connection.js';
import type { GroupDiagnosis } from '../../src/openapi/diagnosis-schemas.js';
import { startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminSetGroupConfig } from '../broker-harness/group-admin.js';
import { javaProduce } from '../broker-harness/java-admin.js';
import { type RunningSituation, type Situation, startSituation } from '../broker-harness/situations.js';
import { sleep, waitFor } from '../broker-harness/wait.js';
import { type TestApp, testApp } from '../support/app.js';
import { hasGroupType, kafkaAtLeast } from '../support/kafka-version.js';

const run = uniqueName('dg');
let t: TestApp;
const running: RunningSituation[] = [];

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await t?.close();
});

const path = (id: string, query = '') => `/groups/${encodeURIComponent(id)}/diagnosis${query}`;
async function diagnosis(id: string, query = ''): Promise<GroupDiagnosis> {
  const { status, body } = await t.get<GroupDiagnosis>(path(id, query), '/groups/{groupId}/diagnosis');
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}
const codes = (d: GroupDiagnosis) => d.findings.map((f) => f.code);
const since = (d: GroupDiagnosis, extra = '') => `?since=${encodeURIComponent(d.snapshot ?? '')}${extra}`;

async function situation(kind: Situation, group: string, partitions: number, records: number) {
  const s = await startSituation(t.bootstrap, kind, group, { name: `${group}-in`, partitions, records });
  running.push(s);
  return s;
}

/** Asks until `done` holds (bounded): the broker's view changes on its own clock. */
async function until(
  id: string,
  what: string,
  done: (d: GroupDiagnosis) => boolean,
  query = '',
  ms = 40_000,
): Promise<GroupDiagnosis> {
  let last: GroupDiagnosis | undefined;
  return waitFor(
    async () => {
      last = await diagnosis(id, query);
      return done(last) && last;
    },
    { timeoutMs: ms, what: () => `${what} in the diagnosis of ${id}; last: ${JSON.stringify(last)}` },
  );
}

describe('healthy groups', () => {
  it('have no finding, before or across a since snapshot; bad input names its cause', async () => {
    const topic = `${run}-ok`;
    const groups = [
      {
        type: 'classic' as const,
        groupId: `${run}-ok-classic`,
        topics: [{ name: topic, partitions: 2, records: 5 }],
        commit: 5,
      },
      ...(hasGroupType('consumer')
        ? [{ type: 'consumer' as const, groupId: `${run}-ok-consumer`, topics: [topic], commit: 5 }]
        : []),
    ];
    const fx = await startFixtures({ bootstrap: t.bootstrap, groups });
    try {
      for (const g of groups) {
        const first = await diagnosis(g.groupId);
        expect(first.findings, g.type).toEqual([]);
        expect(first.type).toBe(g.type);
        expect(first.snapshot).toBeTruthy();
        const second = await diagnosis(g.groupId, since(first));
        expect(second.findings, g.type).toEqual([]);
        expect(second.since).toMatchObject({ joins: 0, leaves: 0, rejoined: [] });
      }
      const classic = groups[0]?.groupId ?? '';
      const snap = (await diagnosis(classic)).snapshot ?? '';
      const mismatch = await t.get(path(classic, '?type=consumer'), '/groups/{groupId}/diagnosis');
      expect(mismatch.status).toBe(409);
      const otherGroup = await t.get(
        path(`${run}-ok-consumer`, `?since=${encodeURIComponent(snap)}`),
        '/groups/{groupId}/diagnosis',
      );
      if (groups.length > 1) {
        expect(otherGroup.status).toBe(400);
        expect(JSON.stringify(otherGroup.body)).toContain('another group');
      }
      const bad = await t.get(path(classic, '?stuckAfterSeconds=soon'), '/groups/{groupId}/diagnosis');
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain('stuckAfterSeconds');
      const health = await t.get<{ snapshot: string }>(
        `/groups/${encodeURIComponent(classic)}/health`,
        '/groups/{groupId}/health',
      );
      const lagToken = await t.get(
        path(classic, `?since=${encodeURIComponent(health.body.snapshot)}`),
        '/groups/{groupId}/diagnosis',
      );
      expect(lagToken.status).toBe(400);
      const mirrored = await t.get(
        `/clusters/default/groups/${encodeURIComponent(classic)}/diagnosis`,
        '/clusters/{alias}/groups/{groupId}/diagnosis',
      );
      expect(mirrored.status).toBe(200);
      const altered = await t.get(
        path(classic, `?since=${encodeURIComponent(`${snap}x`)}`),
        '/groups/{groupId}/diagnosis',
      );
      expect(altered.status).toBe(400);
    } finally {
      await fx.stop();
    }
  }, 180_000);
});

/** The connection's own RPCs (versions, leaders, the cluster id, coordinators): cached, not the group's. */
const CONNECTION_RPCS = new Set(['ApiVersions', 'Metadata', 'FindCoordinator']);

/** The RPCs about the group sent through every broker connection while `work` runs, by API name. */
async function rpcsOf(work: () => Promise<unknown>): Promise<Record<string, number>> {
  // A spy calls the real send: the requests still reach the broker.
  const spy = vi.spyOn(BrokerConnection.prototype, 'send');
  try {
    await work();
    const counts: Record<string, number> = {};
    for (const [api] of spy.mock.calls)
      if (!CONNECTION_RPCS.has(api.name)) counts[api.name] = (counts[api.name] ?? 0) + 1;
    return counts;
  } finally {
    spy.mockRestore();
  }
}

describe('what a diagnosis reads', () => {
  it('sends the describe, the committed and the end offsets, none of the health probes', async () => {
    const groupId = `${run}-reads`;
    const topics = [{ name: `${run}-reads-in`, partitions: 3, records: 6 }];
    const fx = await startFixtures({
      bootstrap: t.bootstrap,
      groups: [{ type: 'empty', groupId, topics, commit: 1 }],
    });
    try {
      // Warm: the coordinator, the group's type and the leaders are known, as for any later call.
      await diagnosis(groupId);
      const diagnosed = await rpcsOf(() => diagnosis(groupId));
      expect(diagnosed).toEqual({ DescribeGroups: 1, OffsetFetch: 1, ListOffsets: 1 });
      // /health reads the same group with its time-lag probe, window and retention on top.
      const health = await rpcsOf(() =>
        t.get(`/groups/${encodeURIComponent(groupId)}/health`, '/groups/{groupId}/health'),
      );
      expect(health).toMatchObject({ DescribeGroups: 1, OffsetFetch: 1, Fetch: 1, DescribeConfigs: 1 });
      expect(health.ListOffsets).toBeGreaterThan(1);
    } finally {
      await fx.stop();
    }
  }, 180_000);
});

describe('a classic consumer that stops polling while another joins', () => {
  it('keeps the group rebalancing until max.poll.interval.ms, then leaves it', async () => {
    const group = `${run}-stall-classic`;
    const s = await situation('stall-classic', group, 2, 10);
    await s.waitFor('JOINING');
    const first = await until(
      group,
      'REBALANCE_IN_PROGRESS',
      (d) => codes(d).includes('REBALANCE_IN_PROGRESS'),
      '',
      15_000,
    );
    expect(codes(first)).toContain('REBALANCE_IN_PROGRESS');
    expect(first.findings[0]?.evidence).toContainEqual({
      field: 'state',
      source: 'DescribeGroups GroupState',
      value: 'PreparingRebalance',
    });
    // Clock wait: stuck means unchanged for stuckAfterSeconds (2 s) of wall clock since the snapshot.
    await sleep(2_500);
    const stuck = await diagnosis(group, since(first, '&stuckAfterSeconds=2'));
    expect(codes(stuck)).toEqual(['REBALANCE_STUCK']);
    // max.poll.interval.ms (20 s) runs out: the stalled member leaves, the joiner takes everything.
    const after = await until(group, 'state Stable', (d) => d.state === 'Stable', since(first), 45_000);
    expect(after.state).toBe('Stable');
    expect(after.since?.leaves).toBe(1);
    expect(codes(after)).toContain('MEMBERSHIP_CHURN');
  }, 120_000);
});

describe.runIf(kafkaAtLeast(4, 0))('a KIP-848 consumer that stops polling while another joins', () => {
  it('holds partitions pending revocation, behind the target epoch, and does not reconcile', async () => {
    const group = `${run}-stall-consumer`;
    const s = await situation('stall-consumer', group, 4, 10);
    await s.waitFor('JOINING');
    const first = await until(
      group,
      'PARTITIONS_PENDING_REVOCATION',
      (d) => codes(d).includes('PARTITIONS_PENDING_REVOCATION'),
      '',
      15_000,
    );
    expect(codes(first)).toContain('PARTITIONS_PENDING_REVOCATION');
    const revoking = first.findings.find((f) => f.code === 'PARTITIONS_PENDING_REVOCATION');
    expect(revoking?.evidence.map((e) => e.source)).toContain(
      'ConsumerGroupDescribe Members.TargetAssignment',
    );
    // Clock wait: not reconciling means so for stuckAfterSeconds (2 s) of wall clock since the snapshot.
    await sleep(2_500);
    const stuck = await diagnosis(group, since(first, '&stuckAfterSeconds=2'));
    expect(codes(stuck)).toContain('MEMBER_NOT_RECONCILING');
  }, 120_000);
});

describe('a static member killed with a long session timeout', () => {
  it('keeps its partitions, which do not move while records wait', async () => {
    const group = `${run}-static`;
    const s = await situation('static', group, 1, 300);
    await s.waitFor('CONSUMING');
    // The broker has the static member in a Stable group (it has committed: CONSUMING) before the kill.
    await until(
      group,
      'state Stable with 1 member',
      (d) => d.state === 'Stable' && d.members === 1,
      '',
      15_000,
    );
    await s.kill();
    const first = await diagnosis(group);
    expect(first.members).toBe(1);
    // Clock wait: committed offsets unmoved for stuckAfterSeconds (2 s) of wall clock since the snapshot.
    await sleep(2_500);
    const second = await diagnosis(group, since(first, '&stuckAfterSeconds=2'));
    expect(codes(second)).toEqual(['STATIC_MEMBER_NOT_CONSUMING']);
    expect(second.findings[0]?.evidence).toContainEqual({
      field: 'instanceId',
      source: 'DescribeGroups Members.GroupInstanceId',
      value: `${group}-static`,
    });
  }, 120_000);
});

describe.runIf(kafkaAtLeast(4, 1))('a mixed classic/consumer group', () => {
  it('names the members still on the classic protocol', async () => {
    const group = `${run}-mixed`;
    const s = await situation('mixed', group, 2, 5);
    await s.waitFor('MIXED');
    const d = await diagnosis(group);
    expect(d.type).toBe('consumer');
    const mixed = d.findings.find((f) => f.code === 'CLASSIC_MEMBERS_IN_CONSUMER_GROUP');
    expect(mixed?.evidence).toContainEqual({
      field: 'members[].clientId',
      source: 'ConsumerGroupDescribe Members.ClientId',
      value: [`${group}-classic`],
    });
  }, 120_000);
});

describe.runIf(hasGroupType('share'))('a share group whose consumers stopped', () => {
  it('has records waiting and no member', async () => {
    const group = `${run}-share`;
    const topic = `${group}-in`;
    const fx = await startFixtures({
      bootstrap: t.bootstrap,
      groups: [
        {
          type: 'share',
          groupId: group,
          topics: [{ name: topic, partitions: 1, records: 3 }],
          offsetReset: 'earliest',
        },
      ],
    });
    await fx.stop();
    await javaProduce(t.bootstrap, topic, 0, 5);
    const d = await until(
      group,
      'no members and NO_MEMBERS_RECORDS_WAITING',
      (x) => x.members === 0 && codes(x).includes('NO_MEMBERS_RECORDS_WAITING'),
      '',
      20_000,
    ).catch(async (err: Error) => {
      // What the group's offsets were when the finding never came.
      const offsets = await t.get(
        `/groups/${encodeURIComponent(group)}/offsets`,
        '/groups/{groupId}/offsets',
      );
      throw new Error(`${err.message}; offsets: ${JSON.stringify(offsets.body)}`);
    });
    expect(codes(d)).toEqual(['NO_MEMBERS_RECORDS_WAITING']);
    const lag = d.findings[0]?.evidence.find((e) => e.field === 'totals.lag');
    expect(lag?.source).toBe('DescribeShareGroupOffsets StartOffset, ListOffsets');
    // The 5 records written after the consumers stopped, and any of the first 3 not yet acknowledged.
    expect(lag?.value).toBeGreaterThanOrEqual(5);
  }, 120_000);
});

describe.runIf(kafkaAtLeast(4, 2) && hasGroupType('streams'))('a streams group with standbys', () => {
  it('reports the standby tasks one instance cannot hold', async () => {
    const group = `${run}-standby`;
    await javaAdminSetGroupConfig(t.bootstrap, group, 'streams.num.standby.replicas', '1');
    const fx = await startFixtures({
      bootstrap: t.bootstrap,
      groups: [
        { type: 'streams', groupId: group, topics: [{ name: `${group}-in`, partitions: 2, records: 5 }] },
      ],
    });
    try {
      const d = await diagnosis(group);
      const standby = d.findings.find((f) => f.code === 'STANDBY_TASKS_UNASSIGNED');
      expect(standby?.evidence).toContainEqual({
        field: 'streams.num.standby.replicas',
        source: 'DescribeConfigs (GROUP) streams.num.standby.replicas',
        value: 1,
      });
    } finally {
      await fx.stop();
    }
  }, 180_000);
});
