import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { MetricsNames } from '../config.js';
import { PRODUCTION_WINDOW_MS } from '../groups/health/forecast.js';
import type { GroupListing } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf, permissionsOf, streamDeadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { listedVisible } from '../http/visibility.js';
import { GRANULARITIES, groupFamilies } from '../metrics/families.js';
import { compatibleFamilies } from '../metrics/names.js';
import { patternParam } from '../openapi/pattern.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { streamedScrape } from './metrics-stream.js';
import { ThresholdParams, thresholdsOf } from './threshold-params.js';

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
  middleware: requires({ action: 'offsets', negotiates: true }),
  operationId: 'getMetrics',
  tags: ['offsets'],
  summary: 'Lag, time lag, members, state and verdict of every visible group, in the Prometheus text format',
  description:
    'Prometheus text format 0.0.4. One listing, one describe and one OffsetFetch per coordinator, and per partition ' +
    'leader one ListOffsets for the end offsets, one Fetch and two ListOffsets for the time lag (as include=lag). ' +
    'Only groups the caller may read offsets of are exported; `allow` and `deny` narrow them by id. ' +
    'Series stop at `maxSeries`, whole groups at a time, and kafka_group_series_limit_reached says so. ' +
    'Verdicts use the thresholds given here (defaults as /groups/{groupId}/health); STALLED and REWOUND need a ' +
    'snapshot and do not appear here. Written as it is read, a batch of groups at a time; with forecast=true also ' +
    'the production rate, catch-up and retention runway where they can be said from one reading.',
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
      // Last: positional generated clients keep the order of the parameters before it.
      forecast: z
        .enum(['true', 'false'], expect('true or false'))
        .optional()
        .openapi({
          param: { name: 'forecast', in: 'query' },
          description:
            'true: add the production rate (records appended over the ' +
            `${PRODUCTION_WINDOW_MS / 60_000} minutes before, ListOffsets by timestamp), catch-up and retention ` +
            'runway series, as /groups/{groupId}/health computes them without since; costs one ListOffsets per ' +
            'partition leader and batch and one DescribeConfigs per batch with new topics. Default false. Native ' +
            'names only',
          example: 'true',
        }),
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

export type { GroupReading } from '../metrics/families.js';
export { GRANULARITIES, type Granularity, groupFamilies } from '../metrics/families.js';

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
      forecast: forecastParam,
      ...query
    } = c.req.valid('query');
    const thresholds = thresholdsOf(query);
    const forecast = forecastParam === 'true' && naming.names === 'native';
    const { groups: listed, failures } = await service.listGroups(
      {
        visible: (g: GroupListing) =>
          listedVisible(c, 'offsets', g.groupId, g.type) &&
          (allow === undefined || allow.test(g.groupId)) &&
          (deny === undefined || !deny.test(g.groupId)),
      },
      deadlineOf(c),
    );
    // Partitions' end and start offsets are named once per scrape, across batches.
    const seen = new Set<string>();
    return streamedScrape(service, {
      listed,
      failures,
      maxSeries,
      forecast,
      permissions: permissionsOf(c),
      deadline: streamDeadlineOf(c),
      families: (readings, max, at) =>
        naming.names === 'native'
          ? groupFamilies(readings, granularity, thresholds, max, at, forecast)
          : compatibleFamilies(readings, naming.names, naming.cluster, max, seen),
    }) as never;
  });
}
