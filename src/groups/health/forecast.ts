/**
 * Forecasts from two readings (or one reading and a window of the log): when lag reaches zero,
 * which partitions hold it, and how long until retention deletes records the group has not read.
 * Pure arithmetic over rates in records per second; no clock, no I/O.
 *
 *   catch-up   lag / (consume - produce), when consume > produce. Null with a reason otherwise:
 *              `idle` (nothing to consume and nothing produced), `no-rate-yet` (no consumption rate:
 *              no `since`, or no partition compared), `not-catching-up` (consume <= produce).
 *   runway     the smaller of two clocks, per partition:
 *              time  (retention.ms): the record at the committed offset is `age` old (the time lag's
 *                    upper bound) and ages by (1 - consume/produce) per second while the group falls
 *                    behind (by 1 when nothing is produced): (retention.ms - age) / drift;
 *              bytes (retention.bytes): the log holds about retention.bytes / bytesPerRecord records;
 *                    the log start follows the end that far behind, so the committed offset falls
 *                    below it after (capacity - lag) / (produce - consume).
 *              Kafka deletes whole segments, so deletion comes at or after these times: the runway
 *              is a lower bound. A consumption rate that is not known counts as 0 (the worst case).
 */

/**
 * Without `since`, the production rate is the records appended over this window before the reading
 * (ListOffsets by timestamp at its start): five minutes smooths producers that send in bursts and
 * batches, yet is recent enough to be the current rate, and costs one ListOffsets per leader.
 */
export const PRODUCTION_WINDOW_MS = 5 * 60_000;

import type { CatchUpReason, RunwayReason } from '../../vocabulary.js';

export { CATCH_UP_REASONS, type CatchUpReason, RUNWAY_REASONS, type RunwayReason } from '../../vocabulary.js';

export interface CatchUp {
  seconds: number | null;
  reason: CatchUpReason | null;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** When `lag` reaches zero at these rates (records/s); null rates are unknown. */
export function catchUp(lag: number, consume: number | null, produce: number | null): CatchUp {
  if (lag <= 0) {
    return produce === null || produce <= 0
      ? { seconds: null, reason: 'idle' }
      : { seconds: 0, reason: null };
  }
  if (consume === null) return { seconds: null, reason: 'no-rate-yet' };
  const net = consume - (produce ?? 0);
  if (net <= 0) return { seconds: null, reason: 'not-catching-up' };
  return { seconds: round3(lag / net), reason: null };
}

/** A topic's retention as DescribeConfigs gives it; -1 (Kafka's "none") as null. */
export interface Retention {
  retentionMs: number | null;
  retentionBytes: number | null;
  /** cleanup.policy holds `delete`: without it (compact only) nothing expires by retention. */
  deletes: boolean;
}

export interface RunwayInput {
  lag: number | null;
  /** Upper bound of the time lag, ms; null when unknown. */
  ageMs: number | null;
  consume: number | null;
  produce: number | null;
  /** Average bytes per record near the committed offset (its batch); null when unknown. */
  bytesPerRecord: number | null;
}

export interface Runway {
  seconds: number | null;
  reason: RunwayReason | null;
  /** Which retention limit comes first. */
  limit: 'retention.ms' | 'retention.bytes' | null;
}

/** Seconds until the committed offset falls below the log start (see the module comment). */
export function runway(input: RunwayInput, retention: Retention | undefined): Runway {
  const none = (reason: RunwayReason): Runway => ({ seconds: null, reason, limit: null });
  if (!retention) return none('no-config');
  if (!retention.deletes || (retention.retentionMs === null && retention.retentionBytes === null))
    return none('no-retention');
  if (input.lag === null || input.lag <= 0) return none('no-lag');
  const consume = Math.max(0, input.consume ?? 0);
  const produce = Math.max(0, input.produce ?? 0);
  if (consume > 0 && consume >= produce) return none('catching-up');
  let best: Runway | undefined;
  const take = (seconds: number, limit: Runway['limit']) => {
    const s = round3(Math.max(0, seconds));
    if (!best || best.seconds === null || s < best.seconds) best = { seconds: s, reason: null, limit };
  };
  if (retention.retentionMs !== null && input.ageMs !== null) {
    const drift = produce > 0 ? 1 - consume / produce : 1;
    take((retention.retentionMs - input.ageMs) / 1000 / drift, 'retention.ms');
  }
  if (retention.retentionBytes !== null && input.bytesPerRecord !== null && input.bytesPerRecord > 0) {
    const capacity = retention.retentionBytes / input.bytesPerRecord;
    if (capacity <= input.lag) take(0, 'retention.bytes');
    else if (produce > consume) take((capacity - input.lag) / (produce - consume), 'retention.bytes');
  }
  return best ?? none(retention.retentionMs !== null ? 'no-time-lag' : 'catching-up');
}

export interface PartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

export interface Skew {
  maxLag: number | null;
  medianLag: number | null;
  /** The partitions holding most of the lag, largest first, with their share of the group's lag. */
  top: (PartitionLag & { share: number })[];
}

/** Top `k` partitions by lag, and the max and median over partitions whose lag is known. */
export function skew(partitions: readonly PartitionLag[], k: number): Skew {
  if (partitions.length === 0) return { maxLag: null, medianLag: null, top: [] };
  const sorted = [...partitions].sort(
    (a, b) => b.lag - a.lag || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition),
  );
  const total = sorted.reduce((sum, p) => sum + p.lag, 0);
  const n = sorted.length;
  const lags = sorted.map((p) => p.lag).reverse();
  const median =
    n % 2 === 1 ? (lags[(n - 1) / 2] as number) : ((lags[n / 2 - 1] as number) + (lags[n / 2] as number)) / 2;
  return {
    maxLag: sorted[0]?.lag ?? null,
    medianLag: median,
    top: sorted
      .slice(0, k)
      .filter((p) => p.lag > 0)
      .map((p) => ({ ...p, share: total > 0 ? round3(p.lag / total) : 0 })),
  };
}

/**
 * Records per second produced over a window, from the first offset at or after its start
 * (ListOffsets by timestamp: -1 when no record is that new, so nothing was produced).
 */
export function windowRate(
  startOffset: number | null,
  endOffset: number | null,
  windowMs: number,
): number | null {
  if (endOffset === null || windowMs <= 0 || startOffset === null) return null;
  if (startOffset < 0) return 0;
  return round3((Math.max(0, endOffset - startOffset) * 1000) / windowMs);
}
