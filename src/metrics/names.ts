/**
 * METRICS_NAMES: /metrics under the names and labels of another exporter, so the dashboards and
 * alert rules written for it keep working when a team switches. The values are this product's
 * (the same readings as the native names); only the shape follows the other exporter:
 *
 *   kafka-lag-exporter  per partition kafka_consumergroup_group_{offset,lag,lag_seconds} with
 *                       cluster_name, group, topic, partition, member_host, consumer_id, client_id;
 *                       per group _max_lag, _max_lag_seconds (with is_simple_consumer), _sum_lag;
 *                       per group and topic _topic_sum_lag; kafka_partition_{latest,earliest}_offset.
 *   kafka-exporter      per partition kafka_consumergroup_{current_offset,lag} (-1 without a commit)
 *                       with consumergroup, topic, partition; per group and topic the _sum of each;
 *                       kafka_consumergroup_members; kafka_topic_partition_{current,oldest}_offset.
 *
 * Time lag in seconds is the lower bound of the native bounds: the group is at least that far behind.
 */

import type { MetricsNames } from '../config.js';
import type { Group, GroupListing } from '../groups/model.js';
import type { OffsetTable } from '../groups/service.js';
import type { Labels, MetricFamily } from '../http/prometheus.js';

/** One group as /metrics read it (routes/metrics.ts's GroupReading). */
interface GroupReading {
  listing: GroupListing;
  group: Pick<Group, 'members'>;
  table: OffsetTable;
}

export type CompatibleNames = Exclude<MetricsNames, 'native'>;

type Row = [MetricFamily, Labels, number];

const gauge = (name: string, help: string): MetricFamily => ({ name, help, type: 'gauge', samples: [] });

/**
 * The families of these readings under `names`, whole groups until `maxSeries` group series, as the
 * native families; the partitions' end and start offsets (shared by the groups) are not counted, and
 * are written once per scrape: `seen` holds the partitions written by earlier batches.
 */
export function compatibleFamilies(
  readings: readonly GroupReading[],
  names: CompatibleNames,
  cluster: string,
  maxSeries: number,
  seen: Set<string> = new Set(),
): { families: MetricFamily[]; dropped: number } {
  return names === 'kafka-lag-exporter'
    ? lagExporter(readings, cluster, maxSeries, seen)
    : kafkaExporter(readings, maxSeries, seen);
}

/** Adds each group's rows while they fit; partition rows once per topic-partition. */
function collect(
  readings: readonly GroupReading[],
  maxSeries: number,
  groupRows: (r: GroupReading) => Row[],
  partitionRows: (r: GroupReading) => [string, Row[]][],
  seen: Set<string>,
): number {
  let series = 0;
  let dropped = 0;
  for (const reading of readings) {
    const rows = groupRows(reading);
    if (series + rows.length > maxSeries) {
      dropped += rows.length;
      continue;
    }
    series += rows.length;
    for (const [family, labels, value] of rows) family.samples.push({ labels, value });
    for (const [key, shared] of partitionRows(reading)) {
      if (seen.has(key)) continue;
      seen.add(key);
      for (const [family, labels, value] of shared) family.samples.push({ labels, value });
    }
  }
  return dropped;
}

function lagExporter(
  readings: readonly GroupReading[],
  cluster: string,
  maxSeries: number,
  seen: Set<string>,
) {
  const f = {
    offset: gauge('kafka_consumergroup_group_offset', 'Committed offset of the group on the partition.'),
    lag: gauge('kafka_consumergroup_group_lag', 'Records not yet consumed on the partition.'),
    lagSeconds: gauge(
      'kafka_consumergroup_group_lag_seconds',
      'Lower bound of the time lag on the partition, in seconds.',
    ),
    maxLag: gauge('kafka_consumergroup_group_max_lag', 'Largest partition lag of the group.'),
    maxLagSeconds: gauge(
      'kafka_consumergroup_group_max_lag_seconds',
      'Largest partition time lag (lower bound) of the group, in seconds.',
    ),
    sumLag: gauge('kafka_consumergroup_group_sum_lag', 'Lag of the group summed over its partitions.'),
    topicSumLag: gauge(
      'kafka_consumergroup_group_topic_sum_lag',
      'Lag of the group summed over the partitions of one topic.',
    ),
    latest: gauge('kafka_partition_latest_offset', 'End offset (high watermark) of the partition.'),
    earliest: gauge('kafka_partition_earliest_offset', 'Log start offset of the partition.'),
  };
  const dropped = collect(
    readings,
    maxSeries,
    ({ listing, group, table }) => {
      const rows: Row[] = [];
      const base = { cluster_name: cluster, group: listing.groupId };
      let maxLagSeconds: number | undefined;
      let maxLag = 0;
      for (const t of table.topics) {
        for (const p of t.partitions) {
          if (p.offset === null || p.lag === null) continue;
          const owner = p.owners[0];
          const labels = {
            ...base,
            topic: t.topic,
            partition: String(p.partition),
            member_host: owner?.clientHost ?? '',
            consumer_id: owner?.memberId ?? '',
            client_id: owner?.clientId ?? '',
          };
          rows.push([f.offset, labels, p.offset], [f.lag, labels, p.lag]);
          maxLag = Math.max(maxLag, p.lag);
          if (p.timeLagMs) {
            const s = p.timeLagMs.min / 1000;
            rows.push([f.lagSeconds, labels, s]);
            maxLagSeconds = Math.max(maxLagSeconds ?? 0, s);
          }
        }
        rows.push([f.topicSumLag, { ...base, topic: t.topic }, t.lag]);
      }
      const simple = { ...base, is_simple_consumer: String(group.members.length === 0) };
      rows.push([f.maxLag, simple, maxLag]);
      if (maxLagSeconds !== undefined) rows.push([f.maxLagSeconds, simple, maxLagSeconds]);
      rows.push([f.sumLag, base, table.totals.lag]);
      return rows;
    },
    ({ table }) =>
      table.topics.flatMap((t) =>
        t.partitions.map((p): [string, Row[]] => {
          const labels = { cluster_name: cluster, topic: t.topic, partition: String(p.partition) };
          const rows: Row[] = [];
          if (p.endOffset !== null) rows.push([f.latest, labels, p.endOffset]);
          if (p.logStartOffset != null) rows.push([f.earliest, labels, p.logStartOffset]);
          return [`${t.topic}\u0000${p.partition}`, rows];
        }),
      ),
    seen,
  );
  return { families: Object.values(f), dropped };
}

function kafkaExporter(readings: readonly GroupReading[], maxSeries: number, seen: Set<string>) {
  const f = {
    offset: gauge(
      'kafka_consumergroup_current_offset',
      'Committed offset of the group on the partition; -1 without a commit.',
    ),
    offsetSum: gauge(
      'kafka_consumergroup_current_offset_sum',
      'Committed offsets of the group summed over the partitions of one topic.',
    ),
    lag: gauge('kafka_consumergroup_lag', 'Records not yet consumed on the partition; -1 without a commit.'),
    lagSum: gauge('kafka_consumergroup_lag_sum', 'Lag of the group summed over the partitions of one topic.'),
    members: gauge('kafka_consumergroup_members', 'Members of the group.'),
    current: gauge('kafka_topic_partition_current_offset', 'End offset (high watermark) of the partition.'),
    oldest: gauge('kafka_topic_partition_oldest_offset', 'Log start offset of the partition.'),
  };
  const dropped = collect(
    readings,
    maxSeries,
    ({ listing, group, table }) => {
      const rows: Row[] = [];
      const consumergroup = listing.groupId;
      for (const t of table.topics) {
        let offsets = 0;
        let lags = 0;
        for (const p of t.partitions) {
          const labels = { consumergroup, topic: t.topic, partition: String(p.partition) };
          const committed = p.offset !== null && p.lag !== null;
          rows.push([f.offset, labels, p.offset ?? -1], [f.lag, labels, committed ? (p.lag as number) : -1]);
          if (committed) {
            offsets += p.offset as number;
            lags += p.lag as number;
          }
        }
        const labels = { consumergroup, topic: t.topic };
        rows.push([f.offsetSum, labels, offsets], [f.lagSum, labels, lags]);
      }
      rows.push([f.members, { consumergroup }, group.members.length]);
      return rows;
    },
    ({ table }) =>
      table.topics.flatMap((t) =>
        t.partitions.map((p): [string, Row[]] => {
          const labels = { topic: t.topic, partition: String(p.partition) };
          const rows: Row[] = [];
          if (p.endOffset !== null) rows.push([f.current, labels, p.endOffset]);
          if (p.logStartOffset != null) rows.push([f.oldest, labels, p.logStartOffset]);
          return [`${t.topic}\u0000${p.partition}`, rows];
        }),
      ),
    seen,
  );
  return { families: Object.values(f), dropped };
}
