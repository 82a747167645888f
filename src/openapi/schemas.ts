/**
 * The API's models as zod schemas: they validate nothing at run time on the way out, but they
 * are the published contract, and the route handlers are type-checked against them.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../groups/model.js';
import { ProblemSchema } from './problems.js';
import { expect } from './validation.js';

/** Kafka strings carry an int16 length: the longest group id a broker can hold, in UTF-8 bytes. */
export const MAX_GROUP_ID_BYTES = 32_767;
export const GROUP_ID_RULE = `a group id of 1 to ${MAX_GROUP_ID_BYTES} UTF-8 bytes`;

export const BrokerRefSchema = z
  .object({
    nodeId: z.number().int(),
    host: z.string(),
    port: z.number().int(),
  })
  .openapi('BrokerRef', { example: { nodeId: 1, host: '10.0.0.12', port: 9092 } });

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
      kafkaError: z
        .object({ code: z.number().int(), name: z.string(), message: z.string().nullable() })
        .optional(),
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

const TopicPartitionsSchema = z
  .object({ topic: z.string(), partitions: z.array(z.number().int()) })
  .openapi('TopicPartitions');

const Base64 = z.string().openapi({ format: 'byte', description: 'base64' });

export const ConsumerSubscriptionSchema = z
  .object({
    version: z.number().int(),
    topics: z.array(z.string()),
    userData: Base64.nullable(),
    ownedPartitions: z.array(TopicPartitionsSchema),
    generationId: z.number().int().openapi({ description: '-1 before v2 or when unknown' }),
    rackId: z.string().nullable(),
  })
  .openapi('ConsumerSubscription', {
    description: "A consumer's subscription (ConsumerProtocolSubscription v0-3)",
  });

export const ConsumerAssignmentSchema = z
  .object({
    version: z.number().int(),
    partitions: z.array(TopicPartitionsSchema),
    userData: Base64.nullable(),
  })
  .openapi('ConsumerAssignment', {
    description: "A consumer's assignment (ConsumerProtocolAssignment v0-3)",
  });

export const ClassicMemberSchema = z
  .object({
    memberId: z.string(),
    groupInstanceId: z
      .string()
      .nullable()
      .openapi({ description: 'Static membership id (group.instance.id)' }),
    clientId: z.string(),
    clientHost: z.string(),
    memberMetadata: Base64.openapi({ description: 'Protocol metadata as sent by the member, base64' }),
    memberAssignment: Base64.openapi({
      description: 'Assignment as sent by the leader, base64; empty until Stable',
    }),
    subscription: ConsumerSubscriptionSchema.nullable().optional().openapi({
      description: "Protocol type 'consumer' only: memberMetadata decoded; null when empty",
    }),
    assignment: ConsumerAssignmentSchema.nullable().optional().openapi({
      description: "Protocol type 'consumer' only: memberAssignment decoded; null when empty",
    }),
    decodeError: z
      .string()
      .optional()
      .openapi({ description: 'Why the consumer-protocol bytes could not be decoded' }),
  })
  .openapi('ClassicMember');

export const CLASSIC_GROUP_EXAMPLE = {
  type: 'classic',
  groupId: 'demo-classic',
  state: 'Stable',
  protocolType: 'consumer',
  protocol: 'range',
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'demo-classic-0-5b1f4f0e-8c5c-4a36-9b8e-0f2c7d1e9a11',
      groupInstanceId: null,
      clientId: 'demo-classic-0',
      clientHost: '/127.0.0.1',
      memberMetadata: 'AAMAAAABAAtkZW1vLWV2ZW50c/////8AAAAA////////',
      memberAssignment: 'AAMAAAABAAtkZW1vLWV2ZW50cwAAAAMAAAAAAAAAAQAAAAL/////',
      subscription: {
        version: 3,
        topics: ['demo-events'],
        userData: null,
        ownedPartitions: [],
        generationId: -1,
        rackId: null,
      },
      assignment: {
        version: 3,
        partitions: [{ topic: 'demo-events', partitions: [0, 1, 2] }],
        userData: null,
      },
    },
  ],
} as const;

export const ClassicGroupSchema = z
  .object({
    type: z.literal('classic'),
    groupId: z.string(),
    state: z.string().openapi({ description: 'Empty, PreparingRebalance, CompletingRebalance, Stable' }),
    protocolType: z.string(),
    protocol: z
      .string()
      .openapi({ description: "The chosen protocol: the partition assignor for consumers ('range')" }),
    coordinator: BrokerRefSchema,
    members: z.array(ClassicMemberSchema),
  })
  .openapi('ClassicGroup', { example: CLASSIC_GROUP_EXAMPLE });

const TopicIdPartitionsSchema = z
  .object({
    topicId: z.string().openapi({ description: "Kafka's topic id (base64url uuid)" }),
    topic: z.string(),
    partitions: z.array(z.number().int()),
  })
  .openapi('TopicIdPartitions');

export const CONSUMER_GROUP_EXAMPLE = {
  type: 'consumer',
  groupId: 'demo-consumer',
  state: 'Stable',
  groupEpoch: 3,
  assignmentEpoch: 3,
  assignor: 'uniform',
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'JZ8dKx3qS2yGmR1c9v4LqA',
      instanceId: null,
      rackId: null,
      memberEpoch: 3,
      clientId: 'demo-consumer-0',
      clientHost: '/127.0.0.1',
      subscribedTopicNames: ['demo-events'],
      subscribedTopicRegex: null,
      assignment: [{ topicId: 'p3Y0yRr9SSiHDzcwCd0p4g', topic: 'demo-events', partitions: [0, 1] }],
      targetAssignment: [{ topicId: 'p3Y0yRr9SSiHDzcwCd0p4g', topic: 'demo-events', partitions: [0, 1] }],
      memberType: 'consumer',
    },
  ],
} as const;

export const ConsumerGroupSchema = z
  .object({
    type: z.literal('consumer'),
    groupId: z.string(),
    state: z.string().openapi({ description: 'Empty, Assigning, Reconciling, Stable' }),
    groupEpoch: z.number().int(),
    assignmentEpoch: z.number().int(),
    assignor: z.string().openapi({ description: 'The server-side assignor' }),
    coordinator: BrokerRefSchema,
    members: z.array(
      z
        .object({
          memberId: z.string(),
          instanceId: z.string().nullable(),
          rackId: z.string().nullable(),
          memberEpoch: z.number().int(),
          clientId: z.string(),
          clientHost: z.string(),
          subscribedTopicNames: z.array(z.string()),
          subscribedTopicRegex: z.string().nullable(),
          assignment: z.array(TopicIdPartitionsSchema),
          targetAssignment: z.array(TopicIdPartitionsSchema),
          memberType: z.enum(['consumer', 'classic']).nullable().openapi({
            description:
              "'classic' for a member still speaking the classic protocol in a mixed group; null from brokers before ConsumerGroupDescribe v1",
          }),
        })
        .openapi('ConsumerMember'),
    ),
  })
  .openapi('ConsumerGroup', { description: 'A KIP-848 consumer group', example: CONSUMER_GROUP_EXAMPLE });

export const SHARE_GROUP_EXAMPLE = {
  type: 'share',
  groupId: 'demo-share',
  state: 'Stable',
  groupEpoch: 2,
  assignmentEpoch: 2,
  assignor: 'simple',
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'a1yZ2vJDT3uMvK0xQe8nXw',
      rackId: null,
      memberEpoch: 2,
      clientId: 'demo-share-0',
      clientHost: '/127.0.0.1',
      subscribedTopicNames: ['demo-events'],
      assignment: [{ topicId: 'p3Y0yRr9SSiHDzcwCd0p4g', topic: 'demo-events', partitions: [0, 1, 2] }],
    },
  ],
} as const;

export const ShareGroupSchema = z
  .object({
    type: z.literal('share'),
    groupId: z.string(),
    state: z.string().openapi({ description: 'Empty, Stable' }),
    groupEpoch: z.number().int(),
    assignmentEpoch: z.number().int(),
    assignor: z.string(),
    coordinator: BrokerRefSchema,
    members: z.array(
      z
        .object({
          memberId: z.string(),
          rackId: z.string().nullable(),
          memberEpoch: z.number().int(),
          clientId: z.string(),
          clientHost: z.string(),
          subscribedTopicNames: z.array(z.string()),
          assignment: z.array(TopicIdPartitionsSchema),
        })
        .openapi('ShareMember'),
    ),
  })
  .openapi('ShareGroup', { description: 'A KIP-932 share group', example: SHARE_GROUP_EXAMPLE });

const StreamsTopicInfoSchema = z
  .object({
    name: z.string(),
    partitions: z.number().int(),
    replicationFactor: z.number().int(),
    topicConfigs: z.array(z.object({ key: z.string(), value: z.string() })),
  })
  .openapi('StreamsTopicInfo');

const StreamsTasksSchema = z
  .object({ subtopologyId: z.string(), partitions: z.array(z.number().int()) })
  .openapi('StreamsTasks');

const StreamsAssignmentSchema = z
  .object({
    activeTasks: z.array(StreamsTasksSchema),
    standbyTasks: z.array(StreamsTasksSchema),
    warmupTasks: z.array(StreamsTasksSchema),
  })
  .openapi('StreamsAssignment');

const StreamsTaskOffsetSchema = z
  .object({ subtopologyId: z.string(), partition: z.number().int(), offset: z.number().int() })
  .openapi('StreamsTaskOffset');

export const STREAMS_GROUP_EXAMPLE = {
  type: 'streams',
  groupId: 'demo-streams',
  state: 'Stable',
  groupEpoch: 4,
  assignmentEpoch: 4,
  assignor: 'sticky',
  topology: {
    epoch: 0,
    subtopologies: [
      {
        subtopologyId: '0',
        sourceTopics: ['demo-events'],
        repartitionSinkTopics: ['demo-streams-by-value-repartition'],
        stateChangelogTopics: [],
        repartitionSourceTopics: [],
      },
      {
        subtopologyId: '1',
        sourceTopics: [],
        repartitionSinkTopics: [],
        stateChangelogTopics: [
          { name: 'demo-streams-counts-changelog', partitions: 3, replicationFactor: 1, topicConfigs: [] },
        ],
        repartitionSourceTopics: [
          {
            name: 'demo-streams-by-value-repartition',
            partitions: 3,
            replicationFactor: 1,
            topicConfigs: [],
          },
        ],
      },
    ],
  },
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'Q1pbW4pTTe2f0J3y8mK9Yw',
      memberEpoch: 4,
      instanceId: null,
      rackId: null,
      clientId: 'demo-streams-0',
      clientHost: '/127.0.0.1',
      topologyEpoch: 0,
      processId: '6c2a4c52-51b4-4e0c-9f3a-3c1f0f4f2b1e',
      userEndpoint: null,
      clientTags: [],
      taskOffsets: [],
      taskEndOffsets: [],
      assignment: {
        activeTasks: [
          { subtopologyId: '0', partitions: [0, 1, 2] },
          { subtopologyId: '1', partitions: [0, 1, 2] },
        ],
        standbyTasks: [],
        warmupTasks: [],
      },
      targetAssignment: {
        activeTasks: [
          { subtopologyId: '0', partitions: [0, 1, 2] },
          { subtopologyId: '1', partitions: [0, 1, 2] },
        ],
        standbyTasks: [],
        warmupTasks: [],
      },
      isClassic: false,
    },
  ],
} as const;

export const StreamsGroupSchema = z
  .object({
    type: z.literal('streams'),
    groupId: z.string(),
    state: z.string().openapi({ description: 'Empty, NotReady, Assigning, Reconciling, Stable' }),
    groupEpoch: z.number().int(),
    assignmentEpoch: z.number().int(),
    assignor: z
      .string()
      .nullable()
      .openapi({ description: 'The server-side assignor; null from brokers before StreamsGroupDescribe v1' }),
    topology: z
      .object({
        epoch: z.number().int(),
        subtopologies: z.array(
          z
            .object({
              subtopologyId: z.string(),
              sourceTopics: z.array(z.string()),
              repartitionSinkTopics: z.array(z.string()),
              stateChangelogTopics: z.array(StreamsTopicInfoSchema),
              repartitionSourceTopics: z.array(StreamsTopicInfoSchema),
            })
            .openapi('StreamsSubtopology'),
        ),
      })
      .nullable()
      .openapi({ description: 'null until a member has sent the topology' }),
    coordinator: BrokerRefSchema,
    members: z.array(
      z
        .object({
          memberId: z.string(),
          memberEpoch: z.number().int(),
          instanceId: z.string().nullable(),
          rackId: z.string().nullable(),
          clientId: z.string(),
          clientHost: z.string(),
          topologyEpoch: z.number().int(),
          processId: z.string(),
          userEndpoint: z.object({ host: z.string(), port: z.number().int() }).nullable(),
          clientTags: z.array(z.object({ key: z.string(), value: z.string() })),
          taskOffsets: z.array(StreamsTaskOffsetSchema),
          taskEndOffsets: z.array(StreamsTaskOffsetSchema),
          assignment: StreamsAssignmentSchema,
          targetAssignment: StreamsAssignmentSchema,
          isClassic: z.boolean(),
        })
        .openapi('StreamsMember'),
    ),
  })
  .openapi('StreamsGroup', { description: 'A KIP-1071 streams group', example: STREAMS_GROUP_EXAMPLE });

export const GroupSchema = z
  .discriminatedUnion('type', [ClassicGroupSchema, ConsumerGroupSchema, ShareGroupSchema, StreamsGroupSchema])
  .openapi('Group', {
    description: 'A group, discriminated on `type`',
    example: CLASSIC_GROUP_EXAMPLE,
  });

const KafkaErrorRef = z.object({ code: z.number().int(), name: z.string(), message: z.string().nullable() });

export const LagTotalsSchema = z
  .object({
    lag: z.number().int().openapi({ description: 'Sum of the known partition lags' }),
    maxLag: z
      .object({ lag: z.number().int(), topic: z.string(), partition: z.number().int() })
      .nullable()
      .openapi({ description: 'The partition with the largest lag; null when no lag is known' }),
    partitions: z.number().int(),
    partitionsWithoutOffset: z
      .number()
      .int()
      .openapi({ description: 'Partitions held or known with no committed offset: no lag counted' }),
    partitionsWithErrors: z
      .number()
      .int()
      .openapi({ description: 'Partitions whose offsets could not be read: no lag counted' }),
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

const GROUP_OFFSETS_EXAMPLE = {
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
          lag: z.number().int().openapi({ description: "Sum of the partitions' known lags" }),
          partitions: z.array(
            z
              .object({
                partition: z.number().int(),
                offset: z
                  .number()
                  .int()
                  .nullable()
                  .openapi({ description: 'Committed (share: start) offset; null when there is none' }),
                leaderEpoch: z.number().int().nullable(),
                metadata: z
                  .string()
                  .nullable()
                  .openapi({ description: 'Metadata committed with the offset' }),
                endOffset: z.number().int().nullable().openapi({
                  description:
                    'High watermark, or last stable offset with isolation=read_committed; null when it could not be read',
                }),
                lag: z.number().int().nullable().openapi({
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
                error: KafkaErrorRef.nullable().openapi({
                  description: 'Why this partition could not be read fully (deleted topic, moving leader)',
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

export const MAX_BATCH_GROUPS = 100;

export const GroupPageSchema = z
  .object({
    groups: z.array(
      GroupListingSchema.extend({
        // Descriptions stay off these references: they would rewrite the shared schemas'.
        details: GroupSchema.optional(),
        detailsError: ProblemSchema.optional(),
        lag: LagTotalsSchema.optional(),
        lagError: ProblemSchema.optional(),
      }).openapi('GroupPageEntry', {
        description:
          'A group as listed; with include=details also `details` (the group described) or `detailsError` (why not)',
      }),
    ),
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

export const BatchDescribeRequestSchema = z
  .strictObject({
    groupIds: z
      .array(
        z
          .string(expect(GROUP_ID_RULE))
          .min(1, expect(GROUP_ID_RULE))
          .refine(
            (id) => new TextEncoder().encode(id).byteLength <= MAX_GROUP_ID_BYTES,
            expect(GROUP_ID_RULE),
          ),
        expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`),
      )
      .min(1, expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`))
      .max(MAX_BATCH_GROUPS, expect(`an array of 1 to ${MAX_BATCH_GROUPS} group ids`))
      .openapi({ description: `1 to ${MAX_BATCH_GROUPS} group ids; duplicates are answered once` }),
    type: z
      .enum(GROUP_TYPES, expect(`one of ${GROUP_TYPES.join(', ')}`))
      .optional()
      .openapi({ description: 'Assert every group has this type (mismatches are per-group 409 problems)' }),
  })
  .openapi('BatchDescribeRequest', {
    example: { groupIds: ['demo-classic', 'demo-share', 'no-such-group'] },
  });

export const BatchDescribeResultSchema = z
  .object({
    results: z.array(
      z
        .union([
          z.object({ groupId: z.string(), group: GroupSchema }).strict(),
          z.object({ groupId: z.string(), problem: ProblemSchema }).strict(),
        ])
        .openapi('BatchDescribeOutcome', {
          description: 'The group, or the problem that kept it from being described',
        }),
    ),
  })
  .openapi('BatchDescribeResult', {
    example: {
      results: [
        { groupId: 'demo-classic', group: CLASSIC_GROUP_EXAMPLE },
        {
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

export const ClusterSchema = z
  .object({
    clusterId: z.string().nullable(),
    controllerId: z.number().int().nullable(),
    brokers: z.array(BrokerRefSchema.extend({ rack: z.string().nullable() })),
  })
  .openapi('Cluster', {
    example: {
      clusterId: 'MkU3OEVBNTcwNTJENDM2Qk',
      controllerId: 1,
      brokers: [{ nodeId: 1, host: '127.0.0.1', port: 9092, rack: null }],
    },
  });

export const HealthSchema = z
  .object({ status: z.enum(['ok']) })
  .openapi('Health', { example: { status: 'ok' } });

export const BrokerReadinessSchema = z
  .object({
    nodeId: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'null for a bootstrap address Metadata has not named yet' }),
    broker: z.string().openapi({ description: 'host:port' }),
    answered: z.boolean().openapi({ description: 'It answered a Metadata request in this check' }),
    latencyMs: z.number().int().optional().openapi({ description: 'Round trip, when it answered' }),
    error: z.string().optional().openapi({ description: 'Why it did not answer' }),
  })
  .openapi('BrokerReadiness');

export const ReadinessSchema = z
  .object({
    status: z.enum(['ok']),
    checkedAt: z.string().openapi({
      format: 'date-time',
      description: 'When the brokers were asked; one check serves every probe for a second',
    }),
    brokers: z.array(BrokerReadinessSchema).openapi({
      description: 'Every bootstrap and discovered broker, asked at once; ready when one answered',
    }),
  })
  .openapi('Readiness', {
    example: {
      status: 'ok',
      checkedAt: '2026-11-30T20:00:00.000Z',
      brokers: [
        { nodeId: 1, broker: '10.0.0.11:9092', answered: true, latencyMs: 2 },
        { nodeId: 2, broker: '10.0.0.12:9092', answered: true, latencyMs: 3 },
        {
          nodeId: 3,
          broker: '10.0.0.13:9092',
          answered: false,
          error: '10.0.0.13:9092 did not answer Metadata within 2000 ms',
        },
      ],
    },
  });
