/** The API models of group health (verdicts, snapshots) and of the metrics endpoint. */

import { z } from '@hono/zod-openapi';
import {
  CATCH_UP_REASONS,
  DEFAULT_THRESHOLDS,
  GROUP_TYPES,
  RUNWAY_REASONS,
  VERDICTS,
} from '../vocabulary.js';
import { KafkaErrorSchema } from './problems.js';
import { TIME_LAG_REASONS, TimeLagBoundsSchema } from './shapes/offsets.js';
import { nullableRef } from './shapes/primitives.js';

const Int64 = () => z.number().int().openapi({ format: 'int64' });
const Int32 = () => z.number().int().openapi({ format: 'int32' });

export const VerdictSchema = z.enum(VERDICTS).openapi('Verdict', {
  description:
    'OK; IDLE (nothing to consume, newest record older than idleAfterSeconds); NO_OFFSET (nothing committed); ' +
    "UNKNOWN (the partition's offsets could not be read); LAGGING (lag above maxLag or time lag above maxTimeLagSeconds); " +
    'STALLED (since: members present, offset not moving, lag not falling); STOPPED (no members, lag above zero); ' +
    'REWOUND (since: the committed offset went backwards); DATA_LOSS (committed offset below the log start). ' +
    'Listed from best to worst: a group takes its worst partition’s.',
  example: 'LAGGING',
});

const EXAMPLE_TOKEN =
  'eyJwIjoibGFnLXNuYXBzaG90IiwidCI6MTc2NDU0MjQwMDAwMCwiZCI6eyJnIjoiZGVtby1jbGFzc2ljIn19.c2lnbmF0dXJlLW9mLXRoZS10b2tlbi1pbi1iYXNlNjR1cmw';

const HEALTH_EXAMPLE = {
  groupId: 'demo-classic',
  type: 'classic',
  state: 'Stable',
  members: 2,
  isolation: 'read_uncommitted',
  verdict: 'LAGGING',
  checkedAt: '2026-11-30T22:40:00.000Z',
  thresholds: { ...DEFAULT_THRESHOLDS },
  totals: { lag: 1240, maxTimeLagMs: { min: 95_200, max: 95_950 }, partitions: 2 },
  partitions: [
    {
      topic: 'demo-events',
      partition: 0,
      verdict: 'LAGGING',
      offset: 60,
      endOffset: 1260,
      logStartOffset: 0,
      lag: 1200,
      timeLagMs: { min: 95_200, max: 95_950 },
      timeLagReason: null,
      headAgeMs: 120,
      error: null,
      previousOffset: 40,
      consumptionRate: 0.667,
      productionRate: 40,
      catchUpSeconds: null,
      catchUpReason: 'not-catching-up',
      runwaySeconds: 503_640.5,
      runwayReason: null,
      runwayLimit: 'retention.ms',
    },
    {
      topic: 'demo-events',
      partition: 1,
      verdict: 'OK',
      offset: 1180,
      endOffset: 1220,
      logStartOffset: 0,
      lag: 40,
      timeLagMs: { min: 1_010, max: 1_010 },
      timeLagReason: null,
      headAgeMs: 80,
      error: null,
      previousOffset: 1000,
      consumptionRate: 6,
      productionRate: 6.333,
      catchUpSeconds: null,
      catchUpReason: 'not-catching-up',
      runwaySeconds: 19_440_525.2,
      runwayReason: null,
      runwayLimit: 'retention.ms',
    },
  ],
  forecast: {
    rateSource: 'since',
    windowSeconds: 30,
    consumptionRate: 6.667,
    productionRate: 46.333,
    catchUpSeconds: null,
    catchUpReason: 'not-catching-up',
    skew: {
      maxLag: 1200,
      medianLag: 620,
      top: [
        { topic: 'demo-events', partition: 0, lag: 1200, share: 0.968 },
        { topic: 'demo-events', partition: 1, lag: 40, share: 0.032 },
      ],
    },
    retention: {
      runwaySeconds: 503_640.5,
      runwayReason: null,
      limit: 'retention.ms',
      topic: 'demo-events',
      partition: 0,
      retentionMs: 604_800_000,
      retentionBytes: null,
    },
  },
  since: {
    issuedAt: '2026-11-30T22:39:30.000Z',
    intervalMs: 30_000,
    consumptionRate: 6.667,
    productionRate: 46.333,
    partitionsCompared: 2,
  },
  snapshot: EXAMPLE_TOKEN,
} as const;

const CatchUpReasonSchema = z.enum(CATCH_UP_REASONS).openapi('CatchUpReason', {
  description:
    'Why catchUpSeconds is null: idle (no lag and nothing produced), no-rate-yet (no consumption rate: pass since), ' +
    'not-catching-up (consumption at or below production)',
  example: 'no-rate-yet',
});

const RunwayReasonSchema = z.enum(RUNWAY_REASONS).openapi('RunwayReason', {
  description:
    'Why runwaySeconds is null: no-lag, catching-up (consumption at or above production), no-retention ' +
    '(retention.ms and retention.bytes -1, or cleanup.policy compact), no-config (the topic configs could not be read), ' +
    'no-time-lag (retention.ms only, and the time lag is unknown)',
  example: 'catching-up',
});

const RunwayLimitSchema = z
  .enum(['retention.ms', 'retention.bytes'])
  .openapi('RunwayLimit', { description: 'The retention limit that deletes first' });

const ThresholdsSchema = z
  .object({
    maxLag: Int64().openapi({ description: 'Records behind above which a partition is LAGGING' }),
    maxTimeLagSeconds: Int64().openapi({
      description: 'Seconds behind (the lower bound of the time lag) above which a partition is LAGGING',
    }),
    idleAfterSeconds: Int64().openapi({
      description: 'A partition with nothing to consume whose newest record is older than this is IDLE',
    }),
  })
  .openapi('HealthThresholds');

const nullableTimeLag = (description: string) =>
  z
    .union([TimeLagBoundsSchema, z.null()])
    .optional()
    .openapi({ description: `${description} (always present)` });

export const PartitionHealthSchema = z
  .object({
    topic: z.string(),
    partition: Int32(),
    verdict: VerdictSchema,
    offset: Int64().nullable().openapi({ description: 'Committed (share: start) offset; null when none' }),
    endOffset: Int64().nullable(),
    logStartOffset: Int64().nullable(),
    lag: Int64().nullable(),
    timeLagMs: nullableTimeLag(
      'How long ago the first record not yet consumed was written, bounds from its batch header; 0 when nothing is behind; null when unknown',
    ),
    timeLagReason: z
      .enum(TIME_LAG_REASONS)
      .nullable()
      .optional()
      .openapi({ description: 'Why timeLagMs is null; null when it is known (always present)' }),
    headAgeMs: Int64()
      .nullable()
      .openapi({ description: 'ms since the newest record; null for an empty log' }),
    error: z.union([KafkaErrorSchema, z.null()]).optional().openapi({
      description: 'Why the partition could not be read (always present)',
    }),
    previousOffset: Int64().nullable().openapi({
      description: 'With since: the committed offset in the snapshot; null without since or when it had none',
    }),
    consumptionRate: z.number().nullable().openapi({
      description: 'With since: records committed per second over the interval (negative when rewound)',
    }),
    productionRate: z.number().nullable().openapi({
      description:
        'Records appended per second: with since over the interval, without it over the production window (forecast.windowSeconds)',
    }),
    catchUpSeconds: z.number().nullable().openapi({
      description: 'Seconds until lag reaches zero at the current rates; null with catchUpReason',
    }),
    catchUpReason: nullableRef(CatchUpReasonSchema, 'Why catchUpSeconds is null; null when it is not'),
    runwaySeconds: z.number().nullable().openapi({
      description:
        'Seconds (lower bound) until retention deletes records at the committed offset, at the current rates; null with runwayReason',
    }),
    runwayReason: nullableRef(RunwayReasonSchema, 'Why runwaySeconds is null; null when it is not'),
    runwayLimit: nullableRef(RunwayLimitSchema, 'The retention limit behind runwaySeconds; null without one'),
  })
  .openapi('PartitionHealth');

const ForecastSchema = z
  .object({
    rateSource: z.enum(['since', 'window']).nullable().openapi({
      description:
        'since: rates over the interval since the snapshot; window: production rate only, over the production window (no consumption rate without since)',
    }),
    windowSeconds: Int64().nullable().openapi({ description: 'The interval the rates are taken over' }),
    consumptionRate: z
      .number()
      .nullable()
      .openapi({ description: 'Records committed per second (with since)' }),
    productionRate: z.number().nullable().openapi({ description: 'Records appended per second' }),
    catchUpSeconds: z.number().nullable().openapi({
      description:
        'Seconds until the group’s lag reaches zero: lag / (consumption - production); null with catchUpReason',
    }),
    catchUpReason: nullableRef(CatchUpReasonSchema, 'Why catchUpSeconds is null; null when it is not'),
    skew: z
      .object({
        maxLag: Int64().nullable().openapi({ description: 'The largest partition lag' }),
        medianLag: z.number().nullable().openapi({ description: 'The median partition lag' }),
        top: z
          .array(
            z.object({
              topic: z.string(),
              partition: Int32(),
              lag: Int64(),
              share: z.number().openapi({ description: 'This partition’s part of the group’s lag, 0 to 1' }),
            }),
          )
          .openapi({
            description: 'The partitions holding most of the lag, largest first (at most 5, lag above 0)',
          }),
      })
      .openapi('LagSkew'),
    retention: z
      .object({
        runwaySeconds: z.number().nullable().openapi({
          description:
            'The smallest partition runway: seconds before retention deletes records not yet consumed',
        }),
        runwayReason: nullableRef(RunwayReasonSchema, 'Why runwaySeconds is null; null when it is not'),
        limit: nullableRef(RunwayLimitSchema, 'The retention limit behind runwaySeconds; null without one'),
        topic: z
          .string()
          .nullable()
          .openapi({ description: 'The partition the runway (or its reason) is of' }),
        partition: Int32().nullable(),
        retentionMs: Int64()
          .nullable()
          .openapi({ description: 'That topic’s retention.ms; null for none (-1)' }),
        retentionBytes: Int64()
          .nullable()
          .openapi({ description: 'That topic’s retention.bytes; null for none (-1)' }),
      })
      .openapi('RetentionRunway'),
  })
  .openapi('HealthForecast');

export const GroupHealthSchema = z
  .object({
    groupId: z.string(),
    type: z.enum(GROUP_TYPES),
    state: z.string(),
    members: Int32(),
    isolation: z.enum(['read_uncommitted', 'read_committed']),
    verdict: VerdictSchema,
    checkedAt: z.string().openapi({ format: 'date-time', description: 'When the offsets were read' }),
    thresholds: ThresholdsSchema,
    totals: z
      .object({
        lag: Int64(),
        maxTimeLagMs: nullableTimeLag("Bounds on the group's largest time lag"),
        partitions: Int32(),
      })
      .openapi('HealthTotals'),
    partitions: z.array(PartitionHealthSchema),
    forecast: ForecastSchema,
    since: z
      .union([
        z
          .object({
            issuedAt: z.string().openapi({ format: 'date-time', description: 'When the snapshot was taken' }),
            intervalMs: Int64(),
            consumptionRate: z.number().nullable().openapi({ description: 'Records committed per second' }),
            productionRate: z.number().nullable().openapi({ description: 'Records appended per second' }),
            partitionsCompared: Int32(),
          })
          .openapi('HealthInterval'),
        z.null(),
      ])
      .optional()
      .openapi({
        description: 'With since: the interval since the snapshot (always present; null without since)',
      }),
    snapshot: z
      .string()
      .nullable()
      .openapi({
        description:
          'Signed, opaque token of this answer’s offsets: pass it back as `since` for STALLED, REWOUND and rates. ' +
          'Null when the group has more partitions than a token holds (2000).',
      }),
  })
  .openapi('GroupHealth', { example: HEALTH_EXAMPLE });

export type GroupHealth = z.infer<typeof GroupHealthSchema>;
export type PartitionHealth = z.infer<typeof PartitionHealthSchema>;
