/**
 * Lag in time, from one look at the log and no history. The first record not yet consumed sits in
 * the record batch a Fetch at the committed offset returns; that batch's header gives its first
 * (BaseTimestamp) and largest (MaxTimestamp) record time, so the record was written between the
 * two, and the lag is a pair of bounds: exact when the batch holds one record, or when the broker
 * stamps the batch (LogAppendTime: every record has MaxTimestamp). Producers that set their own
 * timestamps out of order within a batch could put the record outside the bounds; Kafka's clients
 * do not.
 */

import { ErrorCode } from '../../broker/protocol/errors.js';
import type { LagTotals, TopicOffsets } from '../model.js';
import { tpKey } from './end-offsets.js';
import type { BatchAt, PartitionProbe } from './log-probe.js';

export type TimeLagReason =
  | 'no-offset'
  | 'below-log-start'
  | 'offset-out-of-range'
  | 'not-authorized'
  | 'no-record'
  | 'no-timestamp'
  | 'unreadable';

export interface TimeLagBounds {
  min: number;
  max: number;
}

export type TimeLag = { ok: true; ms: TimeLagBounds } | { ok: false; reason: TimeLagReason };

export interface TimeLagInput {
  offset: number | null;
  lag: number | null;
  logStartOffset: number | null;
  batch: BatchAt | null;
  fetchErrorCode: number | null;
}

export function timeLagOf(input: TimeLagInput, now: number): TimeLag {
  const { offset, lag, logStartOffset, batch, fetchErrorCode } = input;
  if (offset === null) return { ok: false, reason: 'no-offset' };
  if (logStartOffset !== null && offset < logStartOffset) return { ok: false, reason: 'below-log-start' };
  if (lag === 0) return { ok: true, ms: { min: 0, max: 0 } };
  if (lag === null) return { ok: false, reason: 'unreadable' };
  if (fetchErrorCode !== null) {
    if (fetchErrorCode === ErrorCode.OFFSET_OUT_OF_RANGE) return { ok: false, reason: 'offset-out-of-range' };
    if (fetchErrorCode === ErrorCode.TOPIC_AUTHORIZATION_FAILED)
      return { ok: false, reason: 'not-authorized' };
    return { ok: false, reason: 'unreadable' };
  }
  if (!batch) return { ok: false, reason: 'no-record' };
  // -1: no timestamp (a log written before message format v1).
  if (batch.maxTimestamp < 0 || batch.firstTimestamp < 0) return { ok: false, reason: 'no-timestamp' };
  const newest = batch.maxTimestamp;
  const oldest =
    batch.timestampType === 'LogAppendTime' || batch.records <= 1
      ? newest
      : Math.min(batch.firstTimestamp, newest);
  // A producer clock ahead of ours would give a negative lag: nothing is later than now.
  return { ok: true, ms: { min: Math.max(0, now - newest), max: Math.max(0, now - oldest) } };
}

/**
 * The table with each partition's log start, time lag and head age filled in from `probes`, and
 * the group's largest time lag in the totals: largest lower bound, largest upper bound.
 */
export function withTimeLag(
  table: { topics: TopicOffsets[]; totals: LagTotals },
  probes: ReadonlyMap<string, PartitionProbe>,
  now: number,
): { topics: TopicOffsets[]; totals: LagTotals } {
  let max: TimeLagBounds | null = null;
  const topics = table.topics.map((t) => ({
    ...t,
    partitions: t.partitions.map((p) => {
      const probe = probes.get(tpKey(t.topic, p.partition));
      const logStartOffset = probe?.logStartOffset ?? null;
      const result = timeLagOf(
        {
          offset: p.offset,
          lag: p.error ? null : p.lag,
          logStartOffset,
          batch: probe?.batch ?? null,
          fetchErrorCode: probe?.fetchError?.code ?? null,
        },
        now,
      );
      if (result.ok) {
        max = max
          ? { min: Math.max(max.min, result.ms.min), max: Math.max(max.max, result.ms.max) }
          : { ...result.ms };
      }
      const head = probe?.headTimestamp ?? null;
      // Named field by field: a spread followed by new fields makes an object in V8's slow
      // (dictionary) mode, about 50 times the cost, paid per partition of every group of an estate.
      return {
        partition: p.partition,
        offset: p.offset,
        leaderEpoch: p.leaderEpoch,
        metadata: p.metadata,
        endOffset: p.endOffset,
        lag: p.lag,
        owners: p.owners,
        error: p.error,
        logStartOffset,
        belowLogStart: p.offset !== null && logStartOffset !== null && p.offset < logStartOffset,
        timeLagMs: result.ok ? result.ms : null,
        timeLagReason: result.ok ? null : result.reason,
        headAgeMs: head === null ? null : Math.max(0, now - head),
      };
    }),
  }));
  const { lag, maxLag, partitions, partitionsWithoutOffset, partitionsWithErrors } = table.totals;
  return {
    topics,
    totals: { lag, maxLag, partitions, partitionsWithoutOffset, partitionsWithErrors, maxTimeLagMs: max },
  };
}
