/**
 * A group's health: the verdict of every partition and of the group from one reading of its
 * offsets, and, given the progress token of an earlier reading, the rates between the two.
 */

import type { GroupHealth, PartitionHealth } from '../../openapi/health-schemas.js';
import type { Group, GroupOffsets } from '../model.js';
import { catchUp, type PartitionLag, type Retention, runway, skew, windowRate } from './forecast.js';
import { type ProgressData, partitionsBefore, rate } from './progress-token.js';
import {
  type PartitionState,
  partitionVerdict,
  SEVERITY,
  type Thresholds,
  type Verdict,
  worst,
} from './verdicts.js';

export interface HealthInput {
  /** Only its members count: a group listed Empty can be given as its listing says, without a describe. */
  group: Pick<Group, 'members'>;
  offsets: GroupOffsets;
  at: number;
  bytesPerRecord?: ReadonlyMap<string, number> | undefined;
  retention?: ReadonlyMap<string, Retention> | undefined;
  window?: { ms: number; startOffsets: ReadonlyMap<string, number | null> } | undefined;
}

type PartitionOffsets = GroupOffsets['topics'][number]['partitions'][number];

/** What a partition's verdict is made from. */
function stateOf(p: PartitionOffsets): PartitionState {
  return {
    offset: p.offset,
    lag: p.lag,
    logStartOffset: p.logStartOffset ?? null,
    timeLagMinMs: p.timeLagMs?.min ?? null,
    headAgeMs: p.headAgeMs ?? null,
    failed: p.error !== null && p.error !== undefined,
  };
}

/**
 * The verdict and the skew's largest and median lag that `healthOf` gives one reading without an
 * earlier one, made without the rest of its answer (no per-partition forecasts, no objects per
 * partition): what /metrics writes of each of a hundred thousand groups.
 */
export function verdictOf(
  offsets: Pick<GroupOffsets, 'topics'>,
  members: number,
  thresholds: Thresholds,
): { verdict: Verdict; maxLag: number | null; medianLag: number | null } {
  let verdict: Verdict | undefined;
  const lags: number[] = [];
  for (const t of offsets.topics) {
    for (const p of t.partitions) {
      const v = partitionVerdict(stateOf(p), members, thresholds);
      if (verdict === undefined || SEVERITY[v] > SEVERITY[verdict]) verdict = v;
      if (p.lag !== null && p.offset !== null) lags.push(p.lag);
    }
  }
  const n = lags.length;
  if (n > 1) lags.sort((a, b) => a - b);
  const median =
    n === 0
      ? null
      : n % 2 === 1
        ? (lags[(n - 1) / 2] as number)
        : ((lags[n / 2 - 1] as number) + (lags[n / 2] as number)) / 2;
  return {
    verdict: verdict ?? 'NO_OFFSET',
    maxLag: n === 0 ? null : (lags[n - 1] as number),
    medianLag: median,
  };
}

/** Partitions named in `forecast.skew.top`. */
export const SKEW_TOP = 5;

/** The verdicts of one reading, compared with `before` when there is one. Pure: no clock, no I/O. */
export function healthOf(
  { group, offsets, at, bytesPerRecord, retention, window }: HealthInput,
  thresholds: Thresholds,
  before?: { snapshot: ProgressData; issuedAt: number },
): Omit<GroupHealth, 'snapshot'> {
  const members = group.members.length;
  const previous = before ? partitionsBefore(before.snapshot) : undefined;
  const intervalMs = before ? Math.max(0, at - before.issuedAt) : 0;
  const partitions: PartitionHealth[] = [];
  let consumed = 0;
  let produced = 0;
  let compared = 0;
  let producedKnown = false;
  let windowProduced: number | null = null;
  const lags: PartitionLag[] = [];
  for (const t of offsets.topics) {
    for (const p of t.partitions) {
      const then = previous?.get(`${p.partition}:${t.topic}`);
      const verdict = partitionVerdict(stateOf(p), members, thresholds, then);
      const key = `${p.partition}:${t.topic}`;
      const consumptionRate = then ? rate(then.offset, p.offset, intervalMs) : null;
      const inWindow = window
        ? windowRate(window.startOffsets.get(key) ?? null, p.endOffset, window.ms)
        : null;
      if (inWindow !== null) windowProduced = (windowProduced ?? 0) + inWindow;
      const productionRate = then ? rate(then.endOffset, p.endOffset, intervalMs) : inWindow;
      if (p.lag !== null && p.offset !== null)
        lags.push({ topic: t.topic, partition: p.partition, lag: p.lag });
      const eta = p.lag === null ? null : catchUp(p.lag, consumptionRate, productionRate);
      const left =
        p.offset === null
          ? null
          : runway(
              {
                lag: p.lag,
                ageMs: p.timeLagMs?.max ?? null,
                consume: consumptionRate,
                produce: productionRate,
                bytesPerRecord: bytesPerRecord?.get(key) ?? null,
              },
              retention?.get(t.topic),
            );
      if (then && p.offset !== null && then.offset !== null) {
        compared++;
        consumed += p.offset - then.offset;
      }
      if (then && then.endOffset !== null && p.endOffset !== null) {
        produced += p.endOffset - then.endOffset;
        producedKnown = true;
      }
      partitions.push({
        topic: t.topic,
        partition: p.partition,
        verdict,
        offset: p.offset,
        endOffset: p.endOffset,
        logStartOffset: p.logStartOffset ?? null,
        lag: p.lag,
        timeLagMs: p.timeLagMs ?? null,
        timeLagReason: p.timeLagReason ?? null,
        headAgeMs: p.headAgeMs ?? null,
        error: p.error ?? null,
        previousOffset: then?.offset ?? null,
        consumptionRate,
        productionRate,
        catchUpSeconds: eta?.seconds ?? null,
        catchUpReason: eta?.reason ?? null,
        runwaySeconds: left?.seconds ?? null,
        runwayReason: left?.reason ?? null,
        runwayLimit: left?.limit ?? null,
      });
    }
  }
  const groupConsumption = before && compared > 0 ? rate(0, consumed, intervalMs) : null;
  const groupProduction = before ? (producedKnown ? rate(0, produced, intervalMs) : null) : windowProduced;
  const eta = catchUp(offsets.totals.lag, groupConsumption, groupProduction);
  return {
    groupId: offsets.groupId,
    type: offsets.type,
    state: offsets.state,
    members,
    isolation: offsets.isolation,
    verdict: worst(partitions.map((p) => p.verdict)),
    checkedAt: new Date(at).toISOString(),
    thresholds,
    totals: {
      lag: offsets.totals.lag,
      maxTimeLagMs: offsets.totals.maxTimeLagMs ?? null,
      partitions: partitions.length,
    },
    partitions,
    forecast: {
      rateSource: before ? 'since' : windowProduced !== null ? 'window' : null,
      windowSeconds: before
        ? Math.round(intervalMs / 1000)
        : windowProduced !== null && window
          ? window.ms / 1000
          : null,
      consumptionRate: groupConsumption,
      productionRate: groupProduction,
      catchUpSeconds: eta.seconds,
      catchUpReason: eta.reason,
      skew: skew(lags, SKEW_TOP),
      retention: groupRunway(partitions, retention),
    },
    since: before
      ? {
          issuedAt: new Date(before.issuedAt).toISOString(),
          intervalMs,
          consumptionRate: groupConsumption,
          productionRate: groupProduction,
          partitionsCompared: compared,
        }
      : null,
  };
}

/**
 * The group's runway: its partition nearest to losing records; when none has a number, the reason
 * of the partition furthest behind (the one that would matter first).
 */
function groupRunway(
  partitions: readonly PartitionHealth[],
  retention: ReadonlyMap<string, Retention> | undefined,
): GroupHealth['forecast']['retention'] {
  let nearest: PartitionHealth | undefined;
  let furthest: PartitionHealth | undefined;
  for (const p of partitions) {
    if (
      p.runwaySeconds !== null &&
      (nearest === undefined || p.runwaySeconds < (nearest.runwaySeconds as number))
    )
      nearest = p;
    if (p.runwayReason !== null && (furthest === undefined || (p.lag ?? 0) > (furthest.lag ?? 0)))
      furthest = p;
  }
  const chosen = nearest ?? furthest;
  const config = chosen ? retention?.get(chosen.topic) : undefined;
  return {
    runwaySeconds: nearest?.runwaySeconds ?? null,
    runwayReason: nearest ? null : (furthest?.runwayReason ?? 'no-lag'),
    limit: nearest?.runwayLimit ?? null,
    topic: chosen?.topic ?? null,
    partition: chosen?.partition ?? null,
    retentionMs: config?.retentionMs ?? null,
    retentionBytes: config?.retentionBytes ?? null,
  };
}
