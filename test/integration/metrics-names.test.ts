/**
 * METRICS_NAMES against the real broker, groups made by Kafka's own clients: /metrics under the
 * names and labels of kafka-lag-exporter and of kafka_exporter, each value equal to the native
 * metrics' and to the offsets the JSON API reads, for a live group and an empty one on a shared topic.
 */

import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GroupOffsets } from '../../src/groups/model.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { brokerApps } from '../support/broker-apps.js';

const bootstrap = inject('kafkaBrokers');
const run = uniqueName('names');
const shared = `${run}-shared`;
const own = `${run}-own`;
const ids = { live: `${run}-live`, empty: `${run}-empty` };
let fixtures: RunningFixtures;

type Families = ReturnType<typeof parsePrometheusTextFormat>;

const made = brokerApps();
const appWith = (names: string) => made.app({ AUTH: 'none', METRICS_NAMES: names });

const apps = {
  native: appWith('native'),
  lag: appWith('kafka-lag-exporter'),
  exporter: appWith('kafka-exporter'),
};

async function metrics(app: ReturnType<typeof appWith>, query = ''): Promise<Families> {
  const res = await app.request(`/metrics?allow=${encodeURIComponent(`${run}-.*`)}${query}`);
  expect(res.status).toBe(200);
  return parsePrometheusTextFormat(await res.text());
}

const samples = (families: Families, name: string) => families.find((f) => f.name === name)?.metrics ?? [];

/** name{labels} → value, the labels in a fixed order, for comparing whole families. */
function table(families: Families, name: string, labels: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    samples(families, name).map((m) => {
      expect(Object.keys(m.labels ?? {}).sort(), name).toEqual([...labels].sort());
      return [labels.map((l) => m.labels?.[l]).join('|'), Number(m.value)];
    }),
  );
}

let offsets: Record<string, GroupOffsets>;

beforeAll(async () => {
  fixtures = await startFixtures({
    bootstrap,
    topics: [
      { name: shared, partitions: 2, records: 10 },
      { name: own, partitions: 1, records: 10 },
    ],
    groups: [
      { type: 'classic', groupId: ids.live, topics: [shared, own], commit: 4, clientId: `${run}-client` },
      { type: 'empty', groupId: ids.empty, topics: [shared], commit: 2 },
    ],
  });
  offsets = {};
  for (const id of Object.values(ids)) {
    const res = await apps.native.request(`/groups/${id}/offsets`);
    expect(res.status).toBe(200);
    offsets[id] = (await res.json()) as GroupOffsets;
  }
}, 240_000);

afterAll(async () => {
  await fixtures?.stop();
  await made.close();
});

/** Per partition from the JSON API: group|topic|partition → committed offset, lag, end offset, owner. */
function partitions() {
  return Object.values(offsets).flatMap((g) =>
    g.topics.flatMap((t) =>
      t.partitions.map((p) => ({ ...p, group: g.groupId, topic: t.topic, partition: String(p.partition) })),
    ),
  );
}

describe('METRICS_NAMES=kafka-lag-exporter', () => {
  it('writes its names and labels, with the native values', async () => {
    const [m, native, nativeGroup] = await Promise.all([
      metrics(apps.lag),
      metrics(apps.native, '&granularity=partition'),
      metrics(apps.native),
    ]);
    const perPartition = [
      'cluster_name',
      'group',
      'topic',
      'partition',
      'member_host',
      'consumer_id',
      'client_id',
    ];
    const lag = table(m, 'kafka_consumergroup_group_lag', perPartition);
    const offset = table(m, 'kafka_consumergroup_group_offset', perPartition);
    const expectedLag: Record<string, number> = {};
    const expectedOffset: Record<string, number> = {};
    for (const p of partitions()) {
      const owner = p.owners[0];
      const key = [
        'default',
        p.group,
        p.topic,
        p.partition,
        owner?.clientHost ?? '',
        owner?.memberId ?? '',
        owner?.clientId ?? '',
      ].join('|');
      expectedLag[key] = p.lag as number;
      expectedOffset[key] = p.offset as number;
    }
    expect(lag).toEqual(expectedLag);
    expect(offset).toEqual(expectedOffset);
    // The live group's partitions name their member, as kafka-lag-exporter does.
    expect(Object.keys(lag).filter((k) => k.includes(`|${run}-client`))).toHaveLength(3);
    // The same lags as the native per-partition series.
    const nativeLag = table(native, 'kafka_group_lag_records', ['group', 'type', 'topic', 'partition']);
    expect(Object.values(lag).sort()).toEqual(Object.values(nativeLag).sort());

    const groupLag = table(nativeGroup, 'kafka_group_lag_records', ['group', 'type']);
    expect(table(m, 'kafka_consumergroup_group_sum_lag', ['cluster_name', 'group'])).toEqual({
      [`default|${ids.live}`]: groupLag[`${ids.live}|classic`],
      [`default|${ids.empty}`]: groupLag[`${ids.empty}|classic`],
    });
    const maxLag = table(m, 'kafka_consumergroup_group_max_lag', [
      'cluster_name',
      'group',
      'is_simple_consumer',
    ]);
    const maxOf = (id: string) =>
      Math.max(
        ...partitions()
          .filter((p) => p.group === id)
          .map((p) => p.lag as number),
      );
    expect(maxLag).toEqual({
      [`default|${ids.live}|false`]: maxOf(ids.live),
      [`default|${ids.empty}|true`]: maxOf(ids.empty),
    });
    const topicSum = table(m, 'kafka_consumergroup_group_topic_sum_lag', ['cluster_name', 'group', 'topic']);
    expect(topicSum).toEqual(
      Object.fromEntries(
        Object.values(offsets).flatMap((g) =>
          g.topics.map((t) => [`default|${g.groupId}|${t.topic}`, t.lag]),
        ),
      ),
    );
    // Time lag: one series per partition behind, and the group's largest.
    const seconds = table(m, 'kafka_consumergroup_group_lag_seconds', perPartition);
    expect(Object.keys(seconds).length).toBeGreaterThan(0);
    expect(Object.values(seconds).every((s) => s >= 0 && s < 600)).toBe(true);
    const maxSeconds = table(m, 'kafka_consumergroup_group_max_lag_seconds', [
      'cluster_name',
      'group',
      'is_simple_consumer',
    ]);
    expect(Object.keys(maxSeconds).sort()).toEqual(Object.keys(maxLag).sort());
    // The partitions' offsets once each, though two groups read the shared topic.
    const latest = table(m, 'kafka_partition_latest_offset', ['cluster_name', 'topic', 'partition']);
    expect(latest).toEqual(
      Object.fromEntries(partitions().map((p) => [`default|${p.topic}|${p.partition}`, p.endOffset])),
    );
    expect(Object.keys(latest)).toHaveLength(3);
    expect(samples(m, 'kafka_partition_earliest_offset').map((s) => Number(s.value))).toEqual([0, 0, 0]);
    // Native group families are not there; the scrape's own are.
    expect(samples(m, 'kafka_group_lag_records')).toEqual([]);
    expect(samples(m, 'kafka_group_listing_failures').map((s) => s.value)).toEqual(['0']);
  });
});

describe('METRICS_NAMES=kafka-exporter', () => {
  it('writes its names and labels, with the native values', async () => {
    const [m, nativeTopic] = await Promise.all([
      metrics(apps.exporter),
      metrics(apps.native, '&granularity=topic'),
    ]);
    const perPartition = ['consumergroup', 'topic', 'partition'];
    expect(table(m, 'kafka_consumergroup_lag', perPartition)).toEqual(
      Object.fromEntries(partitions().map((p) => [`${p.group}|${p.topic}|${p.partition}`, p.lag])),
    );
    expect(table(m, 'kafka_consumergroup_current_offset', perPartition)).toEqual(
      Object.fromEntries(partitions().map((p) => [`${p.group}|${p.topic}|${p.partition}`, p.offset])),
    );
    const lagSum = table(m, 'kafka_consumergroup_lag_sum', ['consumergroup', 'topic']);
    const nativeTopicLag = table(nativeTopic, 'kafka_group_lag_records', ['group', 'type', 'topic']);
    expect(lagSum).toEqual(
      Object.fromEntries(Object.entries(nativeTopicLag).map(([k, v]) => [k.replace('|classic|', '|'), v])),
    );
    expect(table(m, 'kafka_consumergroup_current_offset_sum', ['consumergroup', 'topic'])).toEqual(
      Object.fromEntries(
        Object.values(offsets).flatMap((g) =>
          g.topics.map((t) => [
            `${g.groupId}|${t.topic}`,
            t.partitions.reduce((sum, p) => sum + (p.offset as number), 0),
          ]),
        ),
      ),
    );
    expect(table(m, 'kafka_consumergroup_members', ['consumergroup'])).toEqual({
      [ids.live]: 1,
      [ids.empty]: 0,
    });
    expect(table(m, 'kafka_topic_partition_current_offset', ['topic', 'partition'])).toEqual(
      Object.fromEntries(partitions().map((p) => [`${p.topic}|${p.partition}`, p.endOffset])),
    );
    expect(samples(m, 'kafka_topic_partition_oldest_offset')).toHaveLength(3);
    expect(samples(m, 'kafka_group_members')).toEqual([]);
  });
});
