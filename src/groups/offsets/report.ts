/**
 * Lag, from committed (or share start) offsets and end offsets. The rule: lag = endOffset - offset,
 * never below 0; a partition without an offset, or whose end offset could not be read, has no lag
 * (null) and counts in `partitionsWithoutOffset` or `partitionsWithErrors` instead of as a number.
 * Share groups take the broker's own lag where it gives one (DescribeShareGroupOffsets v1).
 */

import type { Group, LagTotals, PartitionOffsets, PartitionOwner, TopicOffsets } from '../model.js';
import type { CommittedPartition } from './committed.js';
import { type EndOffset, tpKey } from './end-offsets.js';

export function lagOf(
  offset: number | null,
  end: EndOffset | undefined,
  brokerLag: number | null,
): number | null {
  if (brokerLag !== null) return brokerLag;
  if (offset === null || !end?.ok) return null;
  return Math.max(0, end.value - offset);
}

/** The partitions a group's members hold now, with who holds them: the same for every group type. */
export function ownership(group: Group, topic?: string): Map<string, PartitionOwner[]> {
  const owners = new Map<string, PartitionOwner[]>();
  for (const m of group.members) {
    const owner = {
      memberId: m.memberId,
      clientId: m.clientId,
      clientHost: m.clientHost,
      instanceId: m.instanceId,
    };
    for (const tp of m.partitions) {
      if (topic !== undefined && tp.topic !== topic) continue;
      for (const p of tp.partitions) {
        const key = tpKey(tp.topic, p);
        owners.set(key, [...(owners.get(key) ?? []), owner]);
      }
    }
  }
  return owners;
}

export function offsetTable(
  committed: readonly CommittedPartition[],
  owners: ReadonlyMap<string, PartitionOwner[]>,
  ends: ReadonlyMap<string, EndOffset>,
): { topics: TopicOffsets[]; totals: LagTotals } {
  const rows = new Map<string, { topic: string; row: PartitionOffsets }>();
  for (const c of committed) {
    const end = ends.get(tpKey(c.topic, c.partition));
    rows.set(tpKey(c.topic, c.partition), {
      topic: c.topic,
      row: {
        partition: c.partition,
        offset: c.offset,
        leaderEpoch: c.leaderEpoch,
        metadata: c.metadata,
        endOffset: end?.ok ? end.value : null,
        lag: c.error ? null : lagOf(c.offset, end, c.brokerLag),
        owners: owners.get(tpKey(c.topic, c.partition)) ?? [],
        error: c.error ?? (end && !end.ok ? end.error : null),
      },
    });
  }
  // Held but never committed: shown, with no offset and no lag.
  for (const [key, holders] of owners) {
    if (rows.has(key)) continue;
    const [partition, ...topicParts] = key.split(':');
    const topic = topicParts.join(':');
    const end = ends.get(key);
    rows.set(key, {
      topic,
      row: {
        partition: Number(partition),
        offset: null,
        leaderEpoch: null,
        metadata: null,
        endOffset: end?.ok ? end.value : null,
        lag: null,
        owners: holders,
        error: end && !end.ok ? end.error : null,
      },
    });
  }
  const byTopic = new Map<string, PartitionOffsets[]>();
  for (const { topic, row } of rows.values()) byTopic.set(topic, [...(byTopic.get(topic) ?? []), row]);
  const topics = [...byTopic]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([topic, partitions]) => ({
      topic,
      lag: partitions.reduce((sum, p) => sum + (p.lag ?? 0), 0),
      partitions: partitions.sort((a, b) => a.partition - b.partition),
    }));
  return { topics, totals: totalsOf(topics) };
}

export function totalsOf(topics: readonly TopicOffsets[]): LagTotals {
  const totals: LagTotals = {
    lag: 0,
    maxLag: null,
    partitions: 0,
    partitionsWithoutOffset: 0,
    partitionsWithErrors: 0,
  };
  for (const t of topics) {
    for (const p of t.partitions) {
      totals.partitions++;
      if (p.error) totals.partitionsWithErrors++;
      else if (p.offset === null) totals.partitionsWithoutOffset++;
      if (p.lag === null) continue;
      totals.lag += p.lag;
      if (!totals.maxLag || p.lag > totals.maxLag.lag)
        totals.maxLag = { lag: p.lag, topic: t.topic, partition: p.partition };
    }
  }
  return totals;
}
