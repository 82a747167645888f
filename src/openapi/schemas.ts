/**
 * The API's models as zod schemas: they validate nothing at run time on the way out, but they
 * are the published contract, and the route handlers are type-checked against them.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';
import { KafkaErrorSchema, ProblemSchema } from './problems.js';
import { expect } from './validation.js';

/** A Kafka int64 (offsets, lag): `format: int64` so that generated clients use 64-bit integers. */
const Int64 = () => z.number().int().openapi({ format: 'int64' });
/** A Kafka int32 (epochs, partitions, ports). */
const Int32 = () => z.number().int().openapi({ format: 'int32' });

/**
 * A named schema or null: `anyOf [$ref, null]`. zod's `.nullable()` on a named schema loses the
 * null in the document (a bare `$ref`), so answers with null would not match their own schema.
 */
function nullableRef<T extends z.ZodType>(schema: T, description: string) {
  // Always sent, yet not `required` in the document: OpenAPI Generator's Java okhttp-gson client
  // validates a required property as an object even when the schema allows null, and fails the
  // whole answer on the null; optional properties are checked for null first.
  return z
    .union([schema, z.null()])
    .optional()
    .openapi({ description: `${description} (always present)` });
}

/** Kafka strings carry an int16 length: the longest group id a broker can hold, in UTF-8 bytes. */
export const MAX_GROUP_ID_BYTES = 32_767;
export const GROUP_ID_RULE = `a group id of 1 to ${MAX_GROUP_ID_BYTES} UTF-8 bytes`;

export const BrokerRefSchema = z
  .object({
    nodeId: Int32(),
    host: z.string(),
    port: Int32(),
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

const TOPIC_ID = 'p3Y0yRr9SSiHDzcwCd0p4g';

export const TopicPartitionsSchema = z
  .object({
    topic: z.string(),
    topicId: z.string().nullable().openapi({
      description:
        "Kafka's topic id (base64url uuid); null where Kafka names the topic only (classic, streams)",
    }),
    partitions: z.array(Int32()),
  })
  .openapi('TopicPartitions', {
    description: 'Partitions of one topic',
    example: { topic: 'demo-events', topicId: TOPIC_ID, partitions: [0, 1, 2] },
  });

const Base64 = z.string().openapi({ format: 'byte', description: 'base64' });

export const ConsumerSubscriptionSchema = z
  .object({
    version: Int32(),
    topics: z.array(z.string()),
    userData: Base64.nullable(),
    ownedPartitions: z.array(TopicPartitionsSchema),
    generationId: Int32().openapi({ description: '-1 before v2 or when unknown' }),
    rack: z.string().nullable().openapi({ description: 'The rack the client sent (v3+); null when none' }),
  })
  .openapi('ConsumerSubscription', {
    description: "A consumer's subscription (ConsumerProtocolSubscription v0-3)",
  });

export const ConsumerAssignmentSchema = z
  .object({
    version: Int32(),
    partitions: z.array(TopicPartitionsSchema),
    userData: Base64.nullable(),
  })
  .openapi('ConsumerAssignment', {
    description: "A consumer's assignment (ConsumerProtocolAssignment v0-3)",
  });

export const ConsumerProtocolSchema = z
  .object({
    subscription: nullableRef(
      ConsumerSubscriptionSchema,
      'memberMetadata decoded; null when the bytes are empty or unreadable',
    ),
    assignment: nullableRef(
      ConsumerAssignmentSchema,
      'memberAssignment decoded; null when the bytes are empty (until Stable) or unreadable',
    ),
    decodeError: z
      .string()
      .nullable()
      .openapi({ description: 'Why the bytes could not be decoded; null when they could' }),
  })
  .openapi('ConsumerProtocol', {
    description: "A classic member's protocol bytes decoded, for groups of protocol type 'consumer'",
  });

/** The fields every member of every group type has, under the same names. */
const memberCore = {
  memberId: z.string(),
  instanceId: z.string().nullable().openapi({
    description: 'Static membership id (group.instance.id); null when none (always null in share groups)',
  }),
  clientId: z.string(),
  clientHost: z.string(),
  rack: z.string().nullable().openapi({ description: "The member's rack (client.rack); null when not sent" }),
  partitions: z.array(TopicPartitionsSchema).openapi({
    description:
      'The partitions the member holds now. Streams: the input partitions of its active tasks (topicId null)',
  }),
};

/** Group fields every group type has, under the same names (`type` aside). */
const groupCore = {
  groupId: z.string(),
  protocolType: z.string().openapi({
    description:
      "Classic groups: what the clients sent ('consumer', 'connect', ...); other types: their own type",
  }),
  groupEpoch: Int32()
    .nullable()
    .openapi({ description: 'The group epoch; null for classic groups (DescribeGroups does not say)' }),
  assignmentEpoch: Int32().nullable().openapi({
    description: 'The target assignment epoch; null for classic groups (DescribeGroups does not say)',
  }),
  coordinator: BrokerRefSchema,
};

export const ClassicMemberSchema = z
  .object({
    ...memberCore,
    memberMetadata: Base64.openapi({ description: 'Protocol metadata as sent by the member, base64' }),
    memberAssignment: Base64.openapi({
      description: 'Assignment as sent by the leader, base64; empty until Stable',
    }),
    consumerProtocol: nullableRef(
      ConsumerProtocolSchema,
      "Protocol type 'consumer': the two byte fields decoded; null for other protocol types",
    ),
  })
  .openapi('ClassicMember');

export const CLASSIC_GROUP_EXAMPLE = {
  type: 'classic',
  groupId: 'demo-classic',
  state: 'Stable',
  protocolType: 'consumer',
  assignor: 'range',
  groupEpoch: null,
  assignmentEpoch: null,
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'demo-classic-0-5b1f4f0e-8c5c-4a36-9b8e-0f2c7d1e9a11',
      instanceId: null,
      clientId: 'demo-classic-0',
      clientHost: '/127.0.0.1',
      rack: null,
      partitions: [{ topic: 'demo-events', topicId: null, partitions: [0, 1, 2] }],
      memberMetadata: 'AAMAAAABAAtkZW1vLWV2ZW50c/////8AAAAA////////',
      memberAssignment: 'AAMAAAABAAtkZW1vLWV2ZW50cwAAAAMAAAAAAAAAAQAAAAL/////',
      consumerProtocol: {
        subscription: {
          version: 3,
          topics: ['demo-events'],
          userData: null,
          ownedPartitions: [],
          generationId: -1,
          rack: null,
        },
        assignment: {
          version: 3,
          partitions: [{ topic: 'demo-events', topicId: null, partitions: [0, 1, 2] }],
          userData: null,
        },
        decodeError: null,
      },
    },
  ],
} as const;

export const ClassicGroupSchema = z
  .object({
    type: z.literal('classic'),
    groupId: groupCore.groupId,
    state: z.string().openapi({ description: 'Empty, PreparingRebalance, CompletingRebalance, Stable' }),
    protocolType: groupCore.protocolType,
    assignor: z.string().nullable().openapi({
      description:
        "The chosen protocol (DescribeGroups ProtocolData): the partition assignor for consumers ('range'); null while none is chosen",
    }),
    groupEpoch: groupCore.groupEpoch,
    assignmentEpoch: groupCore.assignmentEpoch,
    coordinator: groupCore.coordinator,
    members: z.array(ClassicMemberSchema),
  })
  .openapi('ClassicGroup', { description: 'A classic group', example: CLASSIC_GROUP_EXAMPLE });

export const ConsumerMemberSchema = z
  .object({
    ...memberCore,
    memberEpoch: Int32(),
    subscribedTopicNames: z.array(z.string()),
    subscribedTopicRegex: z.string().nullable(),
    targetPartitions: z
      .array(TopicPartitionsSchema)
      .openapi({ description: 'The partitions the group wants the member to hold (target assignment)' }),
    usesClassicProtocol: z.boolean().nullable().openapi({
      description:
        'true for a member still speaking the classic protocol in a mixed group; null from brokers before ConsumerGroupDescribe v1',
    }),
  })
  .openapi('ConsumerMember');

export const CONSUMER_GROUP_EXAMPLE = {
  type: 'consumer',
  groupId: 'demo-consumer',
  state: 'Stable',
  protocolType: 'consumer',
  assignor: 'uniform',
  groupEpoch: 3,
  assignmentEpoch: 3,
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'JZ8dKx3qS2yGmR1c9v4LqA',
      instanceId: null,
      clientId: 'demo-consumer-0',
      clientHost: '/127.0.0.1',
      rack: null,
      partitions: [{ topic: 'demo-events', topicId: TOPIC_ID, partitions: [0, 1] }],
      memberEpoch: 3,
      subscribedTopicNames: ['demo-events'],
      subscribedTopicRegex: null,
      targetPartitions: [{ topic: 'demo-events', topicId: TOPIC_ID, partitions: [0, 1] }],
      usesClassicProtocol: false,
    },
  ],
} as const;

export const ConsumerGroupSchema = z
  .object({
    type: z.literal('consumer'),
    groupId: groupCore.groupId,
    state: z.string().openapi({ description: 'Empty, Assigning, Reconciling, Stable' }),
    protocolType: groupCore.protocolType,
    assignor: z.string().openapi({ description: 'The server-side assignor' }),
    groupEpoch: Int32(),
    assignmentEpoch: Int32(),
    coordinator: groupCore.coordinator,
    members: z.array(ConsumerMemberSchema),
  })
  .openapi('ConsumerGroup', { description: 'A KIP-848 consumer group', example: CONSUMER_GROUP_EXAMPLE });

export const ShareMemberSchema = z
  .object({
    ...memberCore,
    memberEpoch: Int32(),
    subscribedTopicNames: z.array(z.string()),
  })
  .openapi('ShareMember');

export const SHARE_GROUP_EXAMPLE = {
  type: 'share',
  groupId: 'demo-share',
  state: 'Stable',
  protocolType: 'share',
  assignor: 'simple',
  groupEpoch: 2,
  assignmentEpoch: 2,
  coordinator: { nodeId: 1, host: '127.0.0.1', port: 9092 },
  members: [
    {
      memberId: 'a1yZ2vJDT3uMvK0xQe8nXw',
      instanceId: null,
      clientId: 'demo-share-0',
      clientHost: '/127.0.0.1',
      rack: null,
      partitions: [{ topic: 'demo-events', topicId: TOPIC_ID, partitions: [0, 1, 2] }],
      memberEpoch: 2,
      subscribedTopicNames: ['demo-events'],
    },
  ],
} as const;

export const ShareGroupSchema = z
  .object({
    type: z.literal('share'),
    groupId: groupCore.groupId,
    state: z.string().openapi({ description: 'Empty, Stable' }),
    protocolType: groupCore.protocolType,
    assignor: z.string().openapi({ description: 'The server-side assignor' }),
    groupEpoch: Int32(),
    assignmentEpoch: Int32(),
    coordinator: groupCore.coordinator,
    members: z.array(ShareMemberSchema),
  })
  .openapi('ShareGroup', { description: 'A KIP-932 share group', example: SHARE_GROUP_EXAMPLE });

const StreamsTopicInfoSchema = z
  .object({
    name: z.string(),
    partitions: Int32(),
    replicationFactor: Int32(),
    topicConfigs: z.array(z.object({ key: z.string(), value: z.string() })),
  })
  .openapi('StreamsTopicInfo');

const StreamsTasksSchema = z
  .object({ subtopologyId: z.string(), partitions: z.array(Int32()) })
  .openapi('StreamsTasks');

export const StreamsTasksByKindSchema = z
  .object({
    activeTasks: z.array(StreamsTasksSchema),
    standbyTasks: z.array(StreamsTasksSchema),
    warmupTasks: z.array(StreamsTasksSchema),
  })
  .openapi('StreamsTasksByKind');

export const StreamsTaskOffsetSchema = z
  .object({ subtopologyId: z.string(), partition: Int32(), offset: Int64() })
  .openapi('StreamsTaskOffset');

export const StreamsSubtopologySchema = z
  .object({
    subtopologyId: z.string(),
    sourceTopics: z.array(z.string()),
    repartitionSinkTopics: z.array(z.string()),
    stateChangelogTopics: z.array(StreamsTopicInfoSchema),
    repartitionSourceTopics: z.array(StreamsTopicInfoSchema),
  })
  .openapi('StreamsSubtopology');

export const StreamsMemberSchema = z
  .object({
    ...memberCore,
    memberEpoch: Int32(),
    topologyEpoch: Int32(),
    processId: z.string(),
    userEndpoint: nullableRef(
      z.object({ host: z.string(), port: Int32() }).openapi('StreamsUserEndpoint'),
      "The member's application.server endpoint; null when none",
    ),
    clientTags: z.array(z.object({ key: z.string(), value: z.string() })),
    taskOffsets: z.array(StreamsTaskOffsetSchema),
    taskEndOffsets: z.array(StreamsTaskOffsetSchema),
    tasks: StreamsTasksByKindSchema.openapi({ description: 'The tasks the member holds now' }),
    targetTasks: StreamsTasksByKindSchema.openapi({
      description: 'The tasks the group wants the member to hold (target assignment)',
    }),
    usesClassicProtocol: z
      .boolean()
      .openapi({ description: 'true for a member that has not moved to the streams protocol yet' }),
  })
  .openapi('StreamsMember');

export const STREAMS_GROUP_EXAMPLE = {
  type: 'streams',
  groupId: 'demo-streams',
  state: 'Stable',
  protocolType: 'streams',
  assignor: 'sticky',
  groupEpoch: 4,
  assignmentEpoch: 4,
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
      instanceId: null,
      clientId: 'demo-streams-0',
      clientHost: '/127.0.0.1',
      rack: null,
      partitions: [
        { topic: 'demo-events', topicId: null, partitions: [0, 1, 2] },
        { topic: 'demo-streams-by-value-repartition', topicId: null, partitions: [0, 1, 2] },
      ],
      memberEpoch: 4,
      topologyEpoch: 0,
      processId: '6c2a4c52-51b4-4e0c-9f3a-3c1f0f4f2b1e',
      userEndpoint: null,
      clientTags: [],
      taskOffsets: [],
      taskEndOffsets: [],
      tasks: {
        activeTasks: [
          { subtopologyId: '0', partitions: [0, 1, 2] },
          { subtopologyId: '1', partitions: [0, 1, 2] },
        ],
        standbyTasks: [],
        warmupTasks: [],
      },
      targetTasks: {
        activeTasks: [
          { subtopologyId: '0', partitions: [0, 1, 2] },
          { subtopologyId: '1', partitions: [0, 1, 2] },
        ],
        standbyTasks: [],
        warmupTasks: [],
      },
      usesClassicProtocol: false,
    },
  ],
} as const;

export const StreamsGroupSchema = z
  .object({
    type: z.literal('streams'),
    groupId: groupCore.groupId,
    state: z.string().openapi({ description: 'Empty, NotReady, Assigning, Reconciling, Stable' }),
    protocolType: groupCore.protocolType,
    assignor: z
      .string()
      .nullable()
      .openapi({ description: 'The server-side assignor; null from brokers before StreamsGroupDescribe v1' }),
    groupEpoch: Int32(),
    assignmentEpoch: Int32(),
    topology: nullableRef(
      z
        .object({ epoch: Int32(), subtopologies: z.array(StreamsSubtopologySchema) })
        .openapi('StreamsTopology'),
      'null until a member has sent the topology',
    ),
    coordinator: groupCore.coordinator,
    members: z.array(StreamsMemberSchema),
  })
  .openapi('StreamsGroup', { description: 'A KIP-1071 streams group', example: STREAMS_GROUP_EXAMPLE });

export const GroupSchema = z
  .discriminatedUnion('type', [ClassicGroupSchema, ConsumerGroupSchema, ShareGroupSchema, StreamsGroupSchema])
  .openapi('Group', {
    description: 'A group, discriminated on `type`',
    example: CLASSIC_GROUP_EXAMPLE,
  });

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

export const ClusterSchema = z
  .object({
    clusterId: z.string().nullable(),
    controllerId: Int32().nullable(),
    brokers: z.array(
      BrokerRefSchema.extend({ rack: z.string().nullable() }).openapi('ClusterBroker', {
        example: { nodeId: 1, host: '10.0.0.12', port: 9092, rack: 'eu-west-1a' },
      }),
    ),
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
    latencyMs: Int32().optional().openapi({ description: 'Round trip, when it answered' }),
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
