import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { MetricsNames } from '../config.js';
import { healthOf } from '../groups/health/assess.js';
import type { Thresholds } from '../groups/health/verdicts.js';
import type { Group, GroupListing } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { permissionsOf, streamDeadlineOf } from '../http/middleware.js';
import { exposition, type Labels, type MetricFamily, PROMETHEUS_CONTENT_TYPE } from '../http/prometheus.js';
import { requires } from '../http/route-policy.js';
import { listedVisible } from '../http/visibility.js';
import { patternParam } from '../openapi/pattern.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { ThresholdParams, thresholdsOf } from './group-health.js';
import { compatibleFamilies } from './metrics-names.js';
import { type GroupReading, streamedScrape } from './metrics-stream.js';

export const GRANULARITIES = ['group', 'topic', 'partition'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export const DEFAULT_MAX_SERIES = 10_000;
const MAX_SERIES_LIMIT = 1_000_000;
const SERIES_RULE = `an integer from 1 to ${MAX_SERIES_LIMIT}`;

export const METRICS_EXAMPLE = `# HELP kafka_group_lag_records Records not yet consumed: end offset minus committed offset, summed over the partitions with a commit.
# TYPE kafka_group_lag_records gauge
kafka_group_lag_records{group="demo-classic",type="classic"} 1240
# HELP kafka_group_time_lag_min_seconds Lower bound of how long ago the oldest record not yet consumed was written (largest over the partitions).
# TYPE kafka_group_time_lag_min_seconds gauge
kafka_group_time_lag_min_seconds{group="demo-classic",type="classic"} 95.2
# HELP kafka_group_time_lag_max_seconds Upper bound of how long ago the oldest record not yet consumed was written (largest over the partitions).
# TYPE kafka_group_time_lag_max_seconds gauge
kafka_group_time_lag_max_seconds{group="demo-classic",type="classic"} 95.95
# HELP kafka_group_members Members of the group.
# TYPE kafka_group_members gauge
kafka_group_members{group="demo-classic",type="classic"} 2
# HELP kafka_group_state The group's state (1 for the state it is in).
# TYPE kafka_group_state gauge
kafka_group_state{group="demo-classic",type="classic",state="Stable"} 1
# HELP kafka_group_verdict The group's verdict, its worst partition's (1 for the verdict it has).
# TYPE kafka_group_verdict gauge
kafka_group_verdict{group="demo-classic",type="classic",verdict="LAGGING"} 1
# HELP kafka_group_partition_lag_max_records The largest lag of one partition of the group (skew: compare with the median).
# TYPE kafka_group_partition_lag_max_records gauge
kafka_group_partition_lag_max_records{group="demo-classic",type="classic"} 1200
# HELP kafka_group_partition_lag_median_records The median of the group's partition lags.
# TYPE kafka_group_partition_lag_median_records gauge
kafka_group_partition_lag_median_records{group="demo-classic",type="classic"} 620
# HELP kafka_group_offsets_errors Groups listed whose offsets or description could not be read in this scrape.
# TYPE kafka_group_offsets_errors gauge
kafka_group_offsets_errors 0
# HELP kafka_group_listing_failures Brokers whose ListGroups failed in this scrape: their groups are missing.
# TYPE kafka_group_listing_failures gauge
kafka_group_listing_failures 0
# HELP kafka_group_series_limit_reached 1 when groups were left out because the answer reached maxSeries.
# TYPE kafka_group_series_limit_reached gauge
kafka_group_series_limit_reached 0
# HELP kafka_group_series_dropped Series left out because the answer reached maxSeries.
# TYPE kafka_group_series_dropped gauge
kafka_group_series_dropped 0
`;

const metrics = createRoute({
  method: 'get',
  path: '/metrics',
  middleware: requires({ action: 'offsets' }),
  operationId: 'getMetrics',
  tags: ['offsets'],
  summary: 'Lag, time lag, members, state and verdict of every visible group, in the Prometheus text format',
  description:
    'Prometheus text format 0.0.4. One listing, one describe and one OffsetFetch per coordinator, and per partition ' +
    'leader one ListOffsets for the end offsets, one Fetch and two ListOffsets for the time lag (as include=lag). ' +
    'Only groups the caller may read offsets of are exported; `allow` and `deny` narrow them by id. ' +
    'Series stop at `maxSeries`, whole groups at a time, and kafka_group_series_limit_reached says so. ' +
    'Verdicts use the thresholds given here (defaults as /groups/{groupId}/health); STALLED and REWOUND need a ' +
    'snapshot and do not appear here.',
  request: {
    query: strictQuery({
      granularity: z
        .enum(GRANULARITIES, expect(`one of ${GRANULARITIES.join(', ')}`))
        .optional()
        .openapi({
          param: { name: 'granularity', in: 'query' },
          description: 'Lag and time lag per group (default), per topic, or per partition',
          example: 'topic',
        }),
      allow: patternParam(
        'allow',
        'Only group ids matching this RE2 regular expression (anchored)',
        'orders-.*',
      ),
      deny: patternParam(
        'deny',
        'Leave out group ids matching this RE2 regular expression (anchored)',
        '.*-test',
      ),
      maxSeries: z
        .string()
        .regex(/^\d{1,7}$/, expect(SERIES_RULE))
        .transform(Number)
        .refine((n) => n >= 1 && n <= MAX_SERIES_LIMIT, expect(SERIES_RULE))
        .optional()
        .openapi({
          param: { name: 'maxSeries', in: 'query' },
          type: 'integer',
          format: 'int32',
          minimum: 1,
          maximum: MAX_SERIES_LIMIT,
          default: DEFAULT_MAX_SERIES,
          description: `Most group series in the answer (default ${DEFAULT_MAX_SERIES}); the scrape's own series are not counted`,
          example: 5000,
        }),
      ...ThresholdParams,
    }),
  },
  responses: {
    200: {
      description: 'The metrics',
      content: { 'text/plain': { schema: z.string(), example: METRICS_EXAMPLE } },
    },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
});

export type { GroupReading } from './metrics-stream.js';

interface Families {
  lag: MetricFamily;
  timeLagMin: MetricFamily;
  timeLagMax: MetricFamily;
  members: MetricFamily;
  state: MetricFamily;
  verdict: MetricFamily;
  lagMax: MetricFamily;
  lagMedian: MetricFamily;
}

const seconds = (ms: number) => ms / 1000;

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
): { families: MetricFamily[]; dropped: number } {
  const per = granularity === 'group' ? 'over the partitions' : `per ${granularity}`;
  const f: Families = {
    lag: {
      name: 'kafka_group_lag_records',
      help: `Records not yet consumed: end offset minus committed offset, summed ${per === 'over the partitions' ? 'over the partitions with a commit' : per}.`,
      type: 'gauge',
      samples: [],
    },
    timeLagMin: {
      name: 'kafka_group_time_lag_min_seconds',
      help: `Lower bound of how long ago the oldest record not yet consumed was written (${granularity === 'partition' ? 'per partition' : `largest ${per}`}).`,
      type: 'gauge',
      samples: [],
    },
    timeLagMax: {
      name: 'kafka_group_time_lag_max_seconds',
      help: `Upper bound of how long ago the oldest record not yet consumed was written (${granularity === 'partition' ? 'per partition' : `largest ${per}`}).`,
      type: 'gauge',
      samples: [],
    },
    members: { name: 'kafka_group_members', help: 'Members of the group.', type: 'gauge', samples: [] },
    state: {
      name: 'kafka_group_state',
      help: "The group's state (1 for the state it is in).",
      type: 'gauge',
      samples: [],
    },
    verdict: {
      name: 'kafka_group_verdict',
      help: "The group's verdict, its worst partition's (1 for the verdict it has).",
      type: 'gauge',
      samples: [],
    },
    lagMax: {
      name: 'kafka_group_partition_lag_max_records',
      help: 'The largest lag of one partition of the group (skew: compare with the median).',
      type: 'gauge',
      samples: [],
    },
    lagMedian: {
      name: 'kafka_group_partition_lag_median_records',
      help: "The median of the group's partition lags.",
      type: 'gauge',
      samples: [],
    },
  };
  let series = 0;
  let dropped = 0;
  for (const { listing, group, table } of readings) {
    const base: Labels = { group: listing.groupId, type: group.type };
    const mine: [MetricFamily, Labels, number][] = [];
    const timeLag = (labels: Labels, bounds: { min: number; max: number } | null | undefined) => {
      if (!bounds) return;
      mine.push([f.timeLagMin, labels, seconds(bounds.min)], [f.timeLagMax, labels, seconds(bounds.max)]);
    };
    if (granularity === 'group') {
      mine.push([f.lag, base, table.totals.lag]);
      timeLag(base, table.totals.maxTimeLagMs);
    } else {
      for (const t of table.topics) {
        if (granularity === 'topic') {
          const labels = { ...base, topic: t.topic };
          mine.push([f.lag, labels, t.lag]);
          let max: { min: number; max: number } | null = null;
          for (const p of t.partitions) {
            const b = p.timeLagMs;
            if (b) max = max ? { min: Math.max(max.min, b.min), max: Math.max(max.max, b.max) } : { ...b };
          }
          timeLag(labels, max);
        } else {
          for (const p of t.partitions) {
            const labels = { ...base, topic: t.topic, partition: String(p.partition) };
            if (p.lag !== null) mine.push([f.lag, labels, p.lag]);
            timeLag(labels, p.timeLagMs);
          }
        }
      }
    }
    const health = healthOf({ group, offsets: { ...groupHeader(listing, group), ...table }, at }, thresholds);
    mine.push([f.members, base, group.members.length]);
    mine.push([f.state, { ...base, state: group.state }, 1]);
    mine.push([f.verdict, { ...base, verdict: health.verdict }, 1]);
    const { maxLag, medianLag } = health.forecast.skew;
    if (maxLag !== null && medianLag !== null)
      mine.push([f.lagMax, base, maxLag], [f.lagMedian, base, medianLag]);
    if (series + mine.length > maxSeries) {
      dropped += mine.length;
      continue;
    }
    series += mine.length;
    for (const [family, labels, value] of mine) family.samples.push({ labels, value });
  }
  return {
    families: [f.lag, f.timeLagMin, f.timeLagMax, f.members, f.state, f.verdict, f.lagMax, f.lagMedian],
    dropped,
  };
}

function groupHeader(listing: GroupListing, group: Group) {
  return {
    groupId: listing.groupId,
    type: group.type,
    state: group.state,
    offsetKind: group.type === 'share' ? ('start' as const) : ('committed' as const),
    isolation: 'read_uncommitted' as const,
  };
}

/** METRICS_NAMES, and the cluster alias the kafka-lag-exporter names put in cluster_name. */
export interface MetricsNaming {
  names: MetricsNames;
  cluster: string;
}

export function metricsRoutes(
  app: OpenAPIHono,
  service: GroupService,
  naming: MetricsNaming = { names: 'native', cluster: 'default' },
): void {
  app.openapi(metrics, async (c) => {
    const {
      granularity = 'group',
      allow,
      deny,
      maxSeries = DEFAULT_MAX_SERIES,
      ...query
    } = c.req.valid('query');
    const thresholds = thresholdsOf(query);
    const { groups: listed, failures } = await service.listGroups({
      visible: (g: GroupListing) =>
        listedVisible(c, 'offsets', g.groupId, g.type) &&
        (allow === undefined || allow.test(g.groupId)) &&
        (deny === undefined || !deny.test(g.groupId)),
    });
    if (naming.names === 'native' && granularity === 'group') {
      return streamedScrape(service, {
        listed,
        failures,
        maxSeries,
        permissions: permissionsOf(c),
        deadline: streamDeadlineOf(c),
        families: (readings, max, at) => groupFamilies(readings, 'group', thresholds, max, at),
      }) as never;
    }
    const { groups, offsets: tables } = await service.describeListed(listed, { offsets: { timeLag: true } });
    const at = Date.now();
    const permissions = permissionsOf(c);
    const readings: GroupReading[] = [];
    let errors = 0;
    for (const listing of listed) {
      const group = groups.get(listing.groupId);
      const table = tables?.get(listing.groupId);
      if (!group?.ok || !table?.ok) {
        errors++;
        continue;
      }
      // A listing without a type (old brokers) is checked again once the type is known.
      if (!permissions.allows('offsets', listing.groupId, group.value.type)) continue;
      readings.push({ listing, group: group.value, table: table.value });
    }
    const { families, dropped } =
      naming.names === 'native'
        ? groupFamilies(readings, granularity, thresholds, maxSeries, at)
        : compatibleFamilies(readings, naming.names, naming.cluster, maxSeries);
    const scrape = (name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type: 'gauge',
      samples: [{ labels: {}, value }],
    });
    const text = exposition([
      ...families,
      scrape(
        'kafka_group_offsets_errors',
        'Groups listed whose offsets or description could not be read in this scrape.',
        errors,
      ),
      scrape(
        'kafka_group_listing_failures',
        'Brokers whose ListGroups failed in this scrape: their groups are missing.',
        failures.length,
      ),
      scrape(
        'kafka_group_series_limit_reached',
        '1 when groups were left out because the answer reached maxSeries.',
        dropped > 0 ? 1 : 0,
      ),
      scrape('kafka_group_series_dropped', 'Series left out because the answer reached maxSeries.', dropped),
    ]);
    return c.body(text, 200, { 'content-type': PROMETHEUS_CONTENT_TYPE }) as never;
  });
}
