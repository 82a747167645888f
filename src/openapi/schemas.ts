/**
 * The API's models as zod schemas: they validate nothing at run time on the way out, but they
 * are the published contract, and the route handlers are type-checked against them. A group per
 * type, a group's offsets and their building blocks live in shapes/; here are the listing, the
 * page, the batch describe, the cluster and the probes, and the shapes the routes take from here.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES, VERDICTS } from '../vocabulary.js';
import { KafkaErrorSchema, ProblemSchema } from './problems.js';
import { CLASSIC_GROUP_EXAMPLE, GroupSchema } from './shapes/groups.js';
import { LagTotalsSchema } from './shapes/offsets.js';
import { BrokerRefSchema, Int32, Int64 } from './shapes/primitives.js';

export { BatchDescribeRequestSchema, MAX_BATCH_GROUPS } from './batch-request.js';
export {
  BrokerReadinessSchema,
  ClusterReadinessSchema,
  HealthSchema,
  ReadinessSchema,
} from './probe-schemas.js';
export {
  CLASSIC_GROUP_EXAMPLE,
  ClassicGroupSchema,
  ClassicMemberSchema,
  CONSUMER_GROUP_EXAMPLE,
  ConsumerGroupSchema,
  ConsumerMemberSchema,
  GroupSchema,
  SHARE_GROUP_EXAMPLE,
  ShareGroupSchema,
  ShareMemberSchema,
  STREAMS_GROUP_EXAMPLE,
  StreamsGroupSchema,
  StreamsMemberSchema,
  StreamsSubtopologySchema,
  StreamsTaskOffsetSchema,
  StreamsTasksByKindSchema,
} from './shapes/groups.js';
export { GroupOffsetsSchema, LagTotalsSchema } from './shapes/offsets.js';
export {
  BrokerRefSchema,
  ConsumerAssignmentSchema,
  ConsumerProtocolSchema,
  ConsumerSubscriptionSchema,
  GROUP_ID_RULE,
  MAX_GROUP_ID_BYTES,
  TopicPartitionsSchema,
} from './shapes/primitives.js';

export const GroupListingSchema = z
  .object({
    groupId: z.string(),
    // A separate enum: annotating the shared GroupType schema here would make it nullable everywhere.
    type: z.enum(GROUP_TYPES).nullable().openapi({
      description: 'null when the broker is older than ListGroups v5 (Kafka 3.x) and does not say',
    }),
    protocolType: z.string().openapi({
      description:
        "Classic groups: what the clients sent ('consumer', 'connect', ...); other types report their own type",
    }),
    state: z
      .string()
      .nullable()
      .openapi({ description: "Kafka's state name; null when the broker is older than ListGroups v4" }),
  })
  .openapi('GroupListing');

export const BrokerFailureSchema = z
  .object({
    broker: BrokerRefSchema,
    error: z.object({
      name: z.string(),
      message: z.string(),
      kafkaError: KafkaErrorSchema.optional(),
    }),
  })
  .openapi('BrokerFailure');

export const GroupListSchema = z
  .object({
    groups: z.array(GroupListingSchema),
    failures: z.array(BrokerFailureSchema).openapi({
      description: 'Brokers whose ListGroups failed: the groups they coordinate are missing from `groups`',
    }),
  })
  .openapi('GroupList', {
    example: {
      groups: [
        { groupId: 'demo-classic', type: 'classic', protocolType: 'consumer', state: 'Stable' },
        { groupId: 'demo-consumer', type: 'consumer', protocolType: 'consumer', state: 'Stable' },
        { groupId: 'demo-empty', type: 'classic', protocolType: 'consumer', state: 'Empty' },
        { groupId: 'demo-share', type: 'share', protocolType: 'share', state: 'Stable' },
      ],
      failures: [],
    },
  });

const GroupPageEntrySchema = GroupListingSchema.extend({
  // Descriptions stay off these references: they would rewrite the shared schemas'.
  details: GroupSchema.optional(),
  detailsError: ProblemSchema.optional(),
  lag: LagTotalsSchema.optional(),
  lagError: ProblemSchema.optional(),
  verdict: z.enum(VERDICTS).optional().openapi({
    description:
      "With the verdict filter: the group's verdict (a Verdict, as GET /groups/{groupId}/health gives it)",
  }),
}).openapi('GroupPageEntry', {
  description:
    'A group as listed; with include=details also `details` (the group described) or `detailsError` (why not); ' +
    'with include=lag or the lag criteria its `lag` totals (or `lagError`)',
});

export const GroupPageSchema = z
  .object({
    groups: z.array(GroupPageEntrySchema),
    lagUnknown: z
      .array(GroupPageEntrySchema)
      .optional()
      .openapi({
        description:
          'With the lag criteria: groups whose lag is not known (their offsets could not be read: `lagError`; or some ' +
          'partitions could not: `lag` with partitionsWithErrors), named here rather than filtered or sorted as if they had ' +
          'none; at most `limit` of them, `scanned.lagUnknown` counts them all',
      }),
    scanned: z
      .object({
        scanned: Int32().openapi({ description: 'Groups read for this answer' }),
        lagUnknown: Int32().openapi({ description: 'Of them, groups whose lag is not known' }),
        unread: Int32().openapi({
          description:
            "Of them, groups not read because the request's deadline passed first (in lagUnknown with `lagError`)",
        }),
      })
      .optional()
      .openapi({ description: 'With the lag criteria: what the answer read' }),
    failures: z.array(BrokerFailureSchema).openapi({
      description: 'Brokers whose ListGroups failed: the groups they coordinate are missing from `groups`',
    }),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass as `cursor` for the next page; null on the last page' }),
  })
  .openapi('GroupPage', {
    example: {
      groups: [
        { groupId: 'demo-classic', type: 'classic', protocolType: 'consumer', state: 'Stable' },
        { groupId: 'demo-consumer', type: 'consumer', protocolType: 'consumer', state: 'Stable' },
        { groupId: 'demo-empty', type: 'classic', protocolType: '', state: 'Empty' },
        { groupId: 'demo-share', type: 'share', protocolType: 'share', state: 'Stable' },
      ],
      failures: [],
      nextCursor: 'ZzE6ZGVtby1zaGFyZQ',
    },
  });

export const BatchDescribeFoundSchema = z
  .object({
    status: z.literal('found'),
    groupId: z.string(),
    group: GroupSchema,
  })
  .openapi('BatchDescribeFound', { description: 'A group that was described' });

export const BatchDescribeFailedSchema = z
  .object({
    status: z.literal('failed'),
    groupId: z.string(),
    problem: ProblemSchema,
  })
  .openapi('BatchDescribeFailed', { description: 'A group that could not be described, and why' });

export const BatchDescribeOutcomeSchema = z
  .discriminatedUnion('status', [BatchDescribeFoundSchema, BatchDescribeFailedSchema])
  .openapi('BatchDescribeOutcome', {
    description:
      'The group (`status: found`), or the problem that kept it from being described (`status: failed`)',
  });

export const BatchDescribeResultSchema = z
  .object({ results: z.array(BatchDescribeOutcomeSchema) })
  .openapi('BatchDescribeResult', {
    example: {
      results: [
        { status: 'found', groupId: 'demo-classic', group: CLASSIC_GROUP_EXAMPLE },
        {
          status: 'failed',
          groupId: 'no-such-group',
          problem: {
            type: '/problems/group-not-found',
            title: 'Group not found',
            status: 404,
            detail: "group 'no-such-group' does not exist",
            groupId: 'no-such-group',
            kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'Group no-such-group not found.' },
          },
        },
      ],
    },
  });

const CLUSTER_FEATURES_EXAMPLE = {
  finalizedEpoch: 42,
  finalized: [
    { name: 'group.version', level: 1, minLevel: 1 },
    { name: 'metadata.version', level: 29, minLevel: 29 },
    { name: 'share.version', level: 1, minLevel: 1 },
    { name: 'streams.version', level: 1, minLevel: 1 },
  ],
  supported: [
    { name: 'group.version', minVersion: 0, maxVersion: 1 },
    { name: 'share.version', minVersion: 0, maxVersion: 1 },
    { name: 'streams.version', minVersion: 0, maxVersion: 1 },
  ],
};

const ClusterFeaturesSchema = z
  .object({
    finalizedEpoch: Int64()
      .nullable()
      .openapi({ description: 'Epoch of the finalized levels; null when the cluster has none yet' }),
    finalized: z
      .array(
        z.object({
          name: z.string(),
          level: Int32().openapi({ description: 'The level the cluster runs at (MaxVersionLevel)' }),
          minLevel: Int32().openapi({ description: 'MinVersionLevel' }),
        }),
      )
      .openapi({
        description:
          'Finalized feature levels by name: group.version (consumer groups), share.version (share groups), streams.version (streams groups), metadata.version, …; a feature at level 0 is off and may be missing',
      }),
    supported: z
      .array(z.object({ name: z.string(), minVersion: Int32(), maxVersion: Int32() }))
      .openapi({ description: 'The range of each feature the answering broker supports' }),
  })
  .openapi('ClusterFeatures', { example: CLUSTER_FEATURES_EXAMPLE });

export const ClusterSchema = z
  .object({
    clusterId: z.string().nullable(),
    controllerId: Int32().nullable(),
    brokers: z.array(
      BrokerRefSchema.extend({ rack: z.string().nullable() }).openapi('ClusterBroker', {
        example: { nodeId: 1, host: '10.0.0.12', port: 9092, rack: 'eu-west-1a' },
      }),
    ),
    features: ClusterFeaturesSchema.nullable().openapi({
      description: 'Feature levels from ApiVersions v3+; null when the broker answers an older version',
    }),
  })
  .openapi('Cluster', {
    example: {
      clusterId: 'MkU3OEVBNTcwNTJENDM2Qk',
      controllerId: 1,
      brokers: [{ nodeId: 1, host: '127.0.0.1', port: 9092, rack: null }],
      features: CLUSTER_FEATURES_EXAMPLE,
    },
  });
