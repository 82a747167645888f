/**
 * The API's models as zod schemas: they validate nothing at run time on the way out, but they
 * are the published contract, and the route handlers are type-checked against them.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../broker/model.js';

/** Kafka strings carry an int16 length: the longest group id a broker can hold, in UTF-8 bytes. */
export const MAX_GROUP_ID_BYTES = 32_767;

export const GroupTypeSchema = z.enum(GROUP_TYPES).openapi('GroupType', {
  description: "The group's type, in Kafka's own words (KIP-848 consumer, KIP-932 share, KIP-1071 streams)",
});

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
    type: GroupTypeSchema.nullable().openapi({
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

const CLASSIC_GROUP_EXAMPLE = {
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

export const GroupSchema = z.discriminatedUnion('type', [ClassicGroupSchema]).openapi('Group', {
  description: 'A group, discriminated on `type`',
  example: CLASSIC_GROUP_EXAMPLE,
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
