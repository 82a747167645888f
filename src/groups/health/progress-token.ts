/**
 * A snapshot of a group's position: committed and end offsets per partition, small enough to hand
 * to the caller inside a signed token and take back later (`?since=`), so trends need no store.
 * This module only shapes and reads the data; signing is the caller's.
 */

import type { GroupOffsets } from '../model.js';
import type { PartitionBefore } from './verdicts.js';

/** Partitions a snapshot holds at most: its token stays a query parameter (about 30 bytes each). */
export const MAX_PROGRESS_PARTITIONS = 2000;

export interface ProgressData {
  /** Group id. */
  g: string;
  /** Isolation: 'u' read_uncommitted, 'c' read_committed. */
  i: 'u' | 'c';
  /** Topic names, indexed by the partitions. */
  t: string[];
  /** [topic index, partition, committed offset or -1, end offset or -1]. */
  p: [number, number, number, number][];
}

/** The snapshot of `offsets`, or undefined when the group has more partitions than a token holds. */
export function progressOf(offsets: GroupOffsets): ProgressData | undefined {
  const t: string[] = [];
  const p: ProgressData['p'] = [];
  for (const topic of offsets.topics) {
    const index = t.length;
    let used = false;
    for (const row of topic.partitions) {
      // A partition without a commit still has a production rate: its end offset is kept.
      if (row.offset === null && row.endOffset === null) continue;
      used = true;
      p.push([index, row.partition, row.offset ?? -1, row.endOffset ?? -1]);
    }
    if (used) t.push(topic.topic);
  }
  if (p.length > MAX_PROGRESS_PARTITIONS) return undefined;
  return { g: offsets.groupId, i: offsets.isolation === 'read_committed' ? 'c' : 'u', t, p };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The snapshot's data checked for shape (it was signed by us, but maybe by an older release). */
export function readProgress(data: unknown): ProgressData | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { g, i, t, p } = data as Record<string, unknown>;
  if (typeof g !== 'string' || (i !== 'u' && i !== 'c') || !Array.isArray(t) || !Array.isArray(p))
    return undefined;
  if (!t.every((name) => typeof name === 'string')) return undefined;
  for (const row of p) {
    if (!Array.isArray(row) || row.length !== 4 || !row.every(isInt)) return undefined;
    const topicIndex = row[0] as number;
    if (topicIndex < 0 || topicIndex >= t.length) return undefined;
  }
  return data as ProgressData;
}

export interface Before extends PartitionBefore {
  endOffset: number | null;
}

/** The snapshot's partitions keyed `${partition}:${topic}`. */
export function partitionsBefore(snapshot: ProgressData): Map<string, Before> {
  const out = new Map<string, Before>();
  for (const [ti, partition, committed, end] of snapshot.p) {
    const endOffset = end < 0 ? null : end;
    const offset = committed < 0 ? null : committed;
    out.set(`${partition}:${snapshot.t[ti]}`, {
      offset,
      endOffset,
      lag: endOffset === null || offset === null ? null : Math.max(0, endOffset - offset),
    });
  }
  return out;
}

/** Records per second over `intervalMs`; null when the interval is empty or either end unknown. */
export function rate(then: number | null, now: number | null, intervalMs: number): number | null {
  if (then === null || now === null || intervalMs <= 0) return null;
  return Math.round(((now - then) * 1000 * 1000) / intervalMs) / 1000;
}
