/**
 * The native /metrics families of some groups' readings: lag and time lag at the granularity asked,
 * members, state, verdict and skew per group, and with forecasts the production rate, catch-up and
 * retention runway, each as /groups/{groupId}/health computes it (healthOf, one reading, no since).
 */

import { healthOf, verdictOf } from '../groups/health/assess.js';
import type { Retention } from '../groups/health/forecast.js';
import type { Thresholds } from '../groups/health/verdicts.js';
import type { Group, GroupListing } from '../groups/model.js';
import type { OffsetTable } from '../groups/service.js';
import type { Labels, MetricFamily } from '../http/prometheus.js';

export const GRANULARITIES = ['group', 'topic', 'partition'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** What forecasts read besides the offsets: the window's start offsets and the topics' retention. */
export interface ForecastReads {
  window?: { ms: number; startOffsets: ReadonlyMap<string, number | null> } | undefined;
  retention?: ReadonlyMap<string, Retention> | undefined;
  /** Bytes per record at the group's offsets, keyed `${partition}:${topic}` (the retention.bytes clock). */
  bytesPerRecord?: ReadonlyMap<string, number> | undefined;
}

/**
 * What the families read of a group: its description, or for a group listed Empty (no members, so
 * not described) what its listing says.
 */
export type GroupSummary = Pick<Group, 'type' | 'state' | 'members'>;

/** One group as /metrics read it; `forecast` when the scrape asked for forecasts. */
export interface GroupReading {
  listing: GroupListing;
  group: GroupSummary;
  table: OffsetTable;
  forecast?: ForecastReads | undefined;
}

const seconds = (ms: number) => ms / 1000;
const gauge = (name: string, help: string): MetricFamily => ({ name, help, type: 'gauge', samples: [] });

function familiesOf(granularity: Granularity, forecast: boolean) {
  const per = granularity === 'group' ? 'over the partitions' : `per ${granularity}`;
  const largest = granularity === 'partition' ? 'per partition' : `largest ${per}`;
  const at = granularity === 'partition' ? 'per partition' : 'of the group';
  const f = {
    lag: gauge(
      'kafka_group_lag_records',
      `Records not yet consumed: end offset minus committed offset, summed ${granularity === 'group' ? 'over the partitions with a commit' : per}.`,
    ),
    timeLagMin: gauge(
      'kafka_group_time_lag_min_seconds',
      `Lower bound of how long ago the oldest record not yet consumed was written (${largest}).`,
    ),
    timeLagMax: gauge(
      'kafka_group_time_lag_max_seconds',
      `Upper bound of how long ago the oldest record not yet consumed was written (${largest}).`,
    ),
    members: gauge('kafka_group_members', 'Members of the group.'),
    state: gauge('kafka_group_state', "The group's state (1 for the state it is in)."),
    verdict: gauge(
      'kafka_group_verdict',
      "The group's verdict, its worst partition's (1 for the verdict it has).",
    ),
    lagMax: gauge(
      'kafka_group_partition_lag_max_records',
      'The largest lag of one partition of the group (skew: compare with the median).',
    ),
    lagMedian: gauge('kafka_group_partition_lag_median_records', "The median of the group's partition lags."),
  };
  const forecasts = {
    production: gauge(
      'kafka_group_production_rate_records_per_second',
      `Records appended per second over the production window before the scrape (ListOffsets by timestamp), ${granularity === 'partition' ? 'per partition' : "summed over the group's partitions"}.`,
    ),
    catchUp: gauge(
      'kafka_group_catch_up_seconds',
      `Seconds until the lag reaches zero at the current rates (${at}); absent where it cannot be said: a scrape has no consumption rate, so only 0 (no lag while records are produced).`,
    ),
    runway: gauge(
      'kafka_group_retention_runway_seconds',
      `Lower bound of the seconds until retention deletes records not yet consumed (${at}; the sooner of the retention.ms and retention.bytes clocks, consumption counted as 0).`,
    ),
  };
  return { f, forecasts, all: [...Object.values(f), ...(forecast ? Object.values(forecasts) : [])] };
}

/** The families a scrape writes, in order, without samples: their HELP and TYPE. */
export function familyList(granularity: Granularity, forecast: boolean): MetricFamily[] {
  return familiesOf(granularity, forecast).all;
}

/**
 * The families of these readings, groups in the order given, until `maxSeries` group series: a
 * group goes in whole or not at all.
 */
export function groupFamilies(
  readings: readonly GroupReading[],
  granularity: Granularity,
  thresholds: Thresholds,
  maxSeries: number,
  at: number,
  forecast = false,
): { families: MetricFamily[]; dropped: number } {
  const { f, forecasts: fc, all } = familiesOf(granularity, forecast);
  let series = 0;
  let dropped = 0;
  const mine = new Pending();
  const timeLag = (labels: Labels, bounds: { min: number; max: number } | null | undefined) => {
    if (!bounds) return;
    mine.push(f.timeLagMin, labels, seconds(bounds.min));
    mine.push(f.timeLagMax, labels, seconds(bounds.max));
  };
  for (const { listing, group, table, forecast: reads } of readings) {
    // Labels named field by field, not spread from `base`: a spread followed by new fields makes
    // an object in V8's slow mode, at a hundred thousand groups a second of the scrape.
    const id = listing.groupId;
    const type = group.type;
    const base: Labels = { group: id, type };
    mine.clear();
    if (granularity === 'group') {
      mine.push(f.lag, base, table.totals.lag);
      timeLag(base, table.totals.maxTimeLagMs);
    } else {
      for (const t of table.topics) {
        if (granularity === 'topic') {
          const labels = { group: id, type, topic: t.topic };
          mine.push(f.lag, labels, t.lag);
          let max: { min: number; max: number } | null = null;
          for (const p of t.partitions) {
            const b = p.timeLagMs;
            if (b) max = max ? { min: Math.max(max.min, b.min), max: Math.max(max.max, b.max) } : { ...b };
          }
          timeLag(labels, max);
        } else {
          for (const p of t.partitions) {
            const labels = { group: id, type, topic: t.topic, partition: String(p.partition) };
            if (p.lag !== null) mine.push(f.lag, labels, p.lag);
            timeLag(labels, p.timeLagMs);
          }
        }
      }
    }
    mine.push(f.members, base, group.members.length);
    mine.push(f.state, { group: id, type, state: group.state }, 1);
    if (!forecast) {
      // Without forecasts only the verdict and the skew are written: made without healthOf's whole answer.
      const { verdict, maxLag, medianLag } = verdictOf(table, group.members.length, thresholds);
      mine.push(f.verdict, { group: id, type, verdict }, 1);
      if (maxLag !== null && medianLag !== null) {
        mine.push(f.lagMax, base, maxLag);
        mine.push(f.lagMedian, base, medianLag);
      }
    } else {
      const health = healthOf(
        {
          group,
          offsets: groupOffsets(listing, group, table),
          at,
          window: reads?.window,
          retention: reads?.retention,
          bytesPerRecord: reads?.bytesPerRecord,
        },
        thresholds,
      );
      mine.push(f.verdict, { group: id, type, verdict: health.verdict }, 1);
      const { maxLag, medianLag } = health.forecast.skew;
      if (maxLag !== null && medianLag !== null) {
        mine.push(f.lagMax, base, maxLag);
        mine.push(f.lagMedian, base, medianLag);
      }
      // No series where health says null: an absent series is not a zero.
      const some = (family: MetricFamily, labels: Labels, value: number | null) => {
        if (value !== null) mine.push(family, labels, value);
      };
      if (granularity === 'partition') {
        for (const p of health.partitions) {
          const labels = { group: id, type, topic: p.topic, partition: String(p.partition) };
          some(fc.production, labels, p.productionRate);
          some(fc.catchUp, labels, p.catchUpSeconds);
          some(fc.runway, labels, p.runwaySeconds);
        }
      } else {
        some(fc.production, base, health.forecast.productionRate);
        some(fc.catchUp, base, health.forecast.catchUpSeconds);
        some(fc.runway, base, health.forecast.retention.runwaySeconds);
      }
    }
    if (series + mine.length > maxSeries) {
      dropped += mine.length;
      continue;
    }
    series += mine.length;
    mine.addTo();
  }
  return { families: all, dropped };
}

/**
 * One group's series until it is known to fit (a group goes in whole): three arrays reused from
 * group to group, not an array per series.
 */
class Pending {
  length = 0;
  private readonly families: MetricFamily[] = [];
  private readonly labels: Labels[] = [];
  private readonly values: number[] = [];

  push(family: MetricFamily, labels: Labels, value: number): void {
    this.families[this.length] = family;
    this.labels[this.length] = labels;
    this.values[this.length] = value;
    this.length++;
  }

  clear(): void {
    this.length = 0;
  }

  /** Each series into its family. */
  addTo(): void {
    for (let i = 0; i < this.length; i++)
      (this.families[i] as MetricFamily).samples.push({
        labels: this.labels[i] as Labels,
        value: this.values[i] as number,
      });
  }
}

function groupOffsets(listing: GroupListing, group: GroupSummary, table: OffsetTable) {
  return {
    groupId: listing.groupId,
    type: group.type,
    state: group.state,
    offsetKind: group.type === 'share' ? ('start' as const) : ('committed' as const),
    isolation: 'read_uncommitted' as const,
    topics: table.topics,
    totals: table.totals,
  };
}
