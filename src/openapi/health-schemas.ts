/** The API models of group health (verdicts, snapshots) and of the metrics endpoint. */

import { z } from '@hono/zod-openapi';
import { DEFAULT_THRESHOLDS, GROUP_TYPES, VERDICTS } from '../vocabulary.js';
import { KafkaErrorSchema } from './problems.js';
import { TIME_LAG_REASONS, TimeLagBoundsSchema } from './shapes/offsets.js';

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
    },
  ],
  since: {
    issuedAt: '2026-11-30T22:39:30.000Z',
    intervalMs: 30_000,
    consumptionRate: 6.667,
    productionRate: 46.333,
    partitionsCompared: 2,
  },
  snapshot: EXAMPLE_TOKEN,
} as const;

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
      description: 'With since: records appended per second over the interval',
    }),
  })
  .openapi('PartitionHealth');

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
