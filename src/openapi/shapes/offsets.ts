/** A group's offsets: per partition committed and end offsets, lag and time lag, and the totals. */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../../vocabulary.js';
import { KafkaErrorSchema } from '../problems.js';
import { Int32, Int64, nullableRef } from './primitives.js';

/** Bounds on how long ago the first record not yet consumed was written (see README, Health). */
export const TimeLagBoundsSchema = z
  .object({
    min: Int64().openapi({ description: 'At least this many ms behind' }),
    max: Int64().openapi({ description: 'At most this many ms behind (equal to min when exact)' }),
  })
  .openapi('TimeLagBounds', { example: { min: 41_200, max: 41_950 } });

export const TIME_LAG_REASONS = [
  'no-offset',
  'below-log-start',
  'offset-out-of-range',
  'not-authorized',
  'no-record',
  'no-timestamp',
  'unreadable',
] as const;

export const LagTotalsSchema = z
  .object({
    lag: Int64().openapi({ description: 'Sum of the known partition lags' }),
    maxLag: nullableRef(
      z.object({ lag: Int64(), topic: z.string(), partition: Int32() }).openapi('MaxLag'),
      'The partition with the largest lag; null when no lag is known',
    ),
    partitions: Int32().openapi({
      description: 'Partitions counted: those with an offset and those held without one',
    }),
    partitionsWithoutOffset: Int32().openapi({
      description: 'Partitions held or known with no committed offset: no lag counted',
    }),
    partitionsWithErrors: Int32().openapi({
      description: 'Partitions whose offsets could not be read: no lag counted',
    }),
    maxTimeLagMs: z.union([TimeLagBoundsSchema, z.null()]).optional().openapi({
      description:
        "With include=timeLag: bounds on the group's largest time lag (largest min, largest max); null when no partition's is known",
    }),
  })
  .openapi('LagTotals', {
    example: {
      lag: 140,
      maxLag: { lag: 60, topic: 'demo-events', partition: 2 },
      partitions: 3,
      partitionsWithoutOffset: 0,
      partitionsWithErrors: 0,
    },
  });

/** One group's offsets as the examples of the document show them; others reuse its totals. */
export const GROUP_OFFSETS_EXAMPLE = {
  groupId: 'demo-classic',
  type: 'classic',
  state: 'Stable',
  offsetKind: 'committed',
  isolation: 'read_uncommitted',
  topics: [
    {
      topic: 'demo-events',
      lag: 120,
      partitions: [0, 1, 2].map((partition) => ({
        partition,
        offset: 60,
        leaderEpoch: 0,
        metadata: null,
        endOffset: 100,
        lag: 40,
        owners: [
          {
            memberId: `demo-classic-${partition % 2}-5b1f4f0e`,
            clientId: `demo-classic-${partition % 2}`,
            clientHost: '/127.0.0.1',
            instanceId: null,
          },
        ],
        error: null,
      })),
    },
  ],
  totals: {
    lag: 120,
    maxLag: { lag: 40, topic: 'demo-events', partition: 0 },
    partitions: 3,
    partitionsWithoutOffset: 0,
    partitionsWithErrors: 0,
  },
} as const;

export const GroupOffsetsSchema = z
  .object({
    groupId: z.string(),
    type: z.enum(GROUP_TYPES),
    state: z.string(),
    offsetKind: z.enum(['committed', 'start']).openapi({
      description:
        "'committed': the group's committed offsets (OffsetFetch); 'start': a share group's start offsets (DescribeShareGroupOffsets)",
    }),
    isolation: z.enum(['read_uncommitted', 'read_committed']),
    topics: z.array(
      z
        .object({
          topic: z.string(),
          lag: Int64().openapi({ description: "Sum of the partitions' known lags" }),
          partitions: z.array(
            z
              .object({
                partition: Int32(),
                offset: Int64()
                  .nullable()
                  .openapi({ description: 'Committed (share: start) offset; null when there is none' }),
                leaderEpoch: Int32().nullable(),
                metadata: z
                  .string()
                  .nullable()
                  .openapi({ description: 'Metadata committed with the offset' }),
                endOffset: Int64().nullable().openapi({
                  description:
                    'High watermark, or last stable offset with isolation=read_committed; null when it could not be read',
                }),
                lag: Int64().nullable().openapi({
                  description:
                    'endOffset - offset, never below 0 (share groups: the broker figure where given); null when either is unknown',
                }),
                owners: z.array(
                  z
                    .object({
                      memberId: z.string(),
                      clientId: z.string(),
                      clientHost: z.string(),
                      instanceId: z.string().nullable(),
                    })
                    .openapi('PartitionOwner'),
                ),
                error: nullableRef(
                  KafkaErrorSchema,
                  'Why this partition could not be read fully (deleted topic, moving leader)',
                ),
                logStartOffset: Int64().nullable().optional().openapi({
                  description: 'With include=timeLag: the first offset still in the log; null when unknown',
                }),
                belowLogStart: z.boolean().optional().openapi({
                  description:
                    'With include=timeLag: the offset is below the log start: records were deleted before the group read them',
                }),
                timeLagMs: z.union([TimeLagBoundsSchema, z.null()]).optional().openapi({
                  description:
                    'With include=timeLag: how long ago the first record not yet consumed was written, as bounds read from its record batch header; 0 when nothing is behind; null when unknown (see timeLagReason)',
                }),
                timeLagReason: z.enum(TIME_LAG_REASONS).nullable().optional().openapi({
                  description: 'With include=timeLag: why timeLagMs is null; null when it is known',
                }),
                headAgeMs: Int64().nullable().optional().openapi({
                  description:
                    'With include=timeLag: ms since the newest record of the partition (ListOffsets max timestamp); null for an empty log or when unknown',
                }),
              })
              .openapi('PartitionOffsets'),
          ),
        })
        .openapi('TopicOffsets'),
    ),
    totals: LagTotalsSchema,
  })
  .openapi('GroupOffsets', { example: GROUP_OFFSETS_EXAMPLE });
