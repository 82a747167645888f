/**
 * Describe answers shaped as the broker sends them (taken from the API's examples, which were read
 * from a real broker), for the rule tests to bend one field at a time.
 */

import {
  CLASSIC_GROUP_EXAMPLE,
  CONSUMER_GROUP_EXAMPLE,
  SHARE_GROUP_EXAMPLE,
  STREAMS_GROUP_EXAMPLE,
} from '../../openapi/schemas.js';
import type { ClassicGroup, ConsumerGroup, GroupOffsets, ShareGroup, StreamsGroup } from '../model.js';
import type { Reading } from './finding.js';

const copy = <T>(v: unknown): T => structuredClone(v) as T;

export const classicGroup = (): ClassicGroup => copy(CLASSIC_GROUP_EXAMPLE);
export const consumerGroup = (): ConsumerGroup => copy(CONSUMER_GROUP_EXAMPLE);
export const shareGroup = (): ShareGroup => copy(SHARE_GROUP_EXAMPLE);
export const streamsGroup = (): StreamsGroup => copy(STREAMS_GROUP_EXAMPLE);

export const AT = Date.parse('2026-12-01T18:00:00.000Z');

/** Offsets of `demo-events` partitions: [partition, committed, end]. */
export function offsetsOf(
  group: { groupId: string; type: GroupOffsets['type'] },
  rows: [number, number, number][],
): GroupOffsets {
  const partitions = rows.map(([partition, offset, endOffset]) => ({
    partition,
    offset,
    leaderEpoch: null,
    metadata: null,
    endOffset,
    lag: Math.max(0, endOffset - offset),
    owners: [],
    error: null,
  }));
  const lag = partitions.reduce((s, p) => s + p.lag, 0);
  return {
    groupId: group.groupId,
    type: group.type,
    state: 'Stable',
    offsetKind: group.type === 'share' ? 'start' : 'committed',
    isolation: 'read_uncommitted',
    topics: [{ topic: 'demo-events', lag, partitions }],
    totals: {
      lag,
      maxLag: null,
      partitions: partitions.length,
      partitionsWithoutOffset: 0,
      partitionsWithErrors: 0,
    },
  } as GroupOffsets;
}

export function reading<G extends Reading['group']>(group: G, extra: Partial<Reading<G>> = {}): Reading<G> {
  return { group, offsets: offsetsOf(group, [[0, 10, 10]]), at: AT, stuckAfterMs: 60_000, ...extra };
}
