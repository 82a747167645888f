/** A group, per type (classic, consumer, share, streams), with its members and an example each. */

import { z } from '@hono/zod-openapi';
import {
  Base64,
  ConsumerProtocolSchema,
  groupCore,
  Int32,
  Int64,
  memberCore,
  nullableRef,
  TOPIC_ID,
  TopicPartitionsSchema,
} from './primitives.js';
import { TopologyDescriptionSchema, TopologyDescriptionStatusSchema } from './topology-description.js';

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
    topologyDescriptionStatus: TopologyDescriptionStatusSchema.optional().openapi({
      description: 'With include=topology only',
    }),
    topologyDescription: TopologyDescriptionSchema.nullable().optional().openapi({
      description:
        'With include=topology only (Kafka 4.4+, StreamsGroupDescribe v1): the human-readable topology the Streams clients sent, null when the broker has none (see topologyDescriptionStatus)',
    }),
  })
  .openapi('StreamsGroup', { description: 'A KIP-1071 streams group', example: STREAMS_GROUP_EXAMPLE });

export const GroupSchema = z
  .discriminatedUnion('type', [ClassicGroupSchema, ConsumerGroupSchema, ShareGroupSchema, StreamsGroupSchema])
  .openapi('Group', {
    description: 'A group, discriminated on `type`',
    example: CLASSIC_GROUP_EXAMPLE,
  });
