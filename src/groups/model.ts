/**
 * What the group service returns: plain JSON-ready objects (no bigint, bytes as base64), in the
 * shape the HTTP API publishes. A group is a discriminated union on `type`.
 *
 * One truth for shapes: every type here is inferred from the zod schema the OpenAPI document is
 * generated from (src/openapi/schemas.ts), so the service cannot return a shape the document does
 * not describe, and a renamed field fails to compile where the service builds it. The import is
 * type-only: nothing of the HTTP side is loaded by the service at run time.
 */

import type { z } from '@hono/zod-openapi';
import type {
  BrokerFailureSchema,
  BrokerRefSchema,
  ClassicGroupSchema,
  ClassicMemberSchema,
  ConsumerAssignmentSchema,
  ConsumerGroupSchema,
  ConsumerMemberSchema,
  ConsumerProtocolSchema,
  ConsumerSubscriptionSchema,
  GroupListingSchema,
  GroupListSchema,
  GroupOffsetsSchema,
  GroupSchema,
  LagTotalsSchema,
  ShareGroupSchema,
  ShareMemberSchema,
  StreamsGroupSchema,
  StreamsMemberSchema,
  StreamsSubtopologySchema,
  StreamsTaskOffsetSchema,
  StreamsTasksByKindSchema,
  TopicPartitionsSchema,
} from '../openapi/schemas.js';

export { GROUP_TYPES, type GroupType } from '../vocabulary.js';

export type BrokerRef = z.infer<typeof BrokerRefSchema>;
export type GroupListing = z.infer<typeof GroupListingSchema>;
export type BrokerFailure = z.infer<typeof BrokerFailureSchema>;
export type GroupList = z.infer<typeof GroupListSchema>;

/** Partitions of a topic; `topicId` null where Kafka names the topic only. */
export type TopicPartitions = z.infer<typeof TopicPartitionsSchema>;
export type ConsumerSubscription = z.infer<typeof ConsumerSubscriptionSchema>;
export type ConsumerAssignment = z.infer<typeof ConsumerAssignmentSchema>;
export type ConsumerProtocol = z.infer<typeof ConsumerProtocolSchema>;

export type ClassicMember = z.infer<typeof ClassicMemberSchema>;
export type ClassicGroup = z.infer<typeof ClassicGroupSchema>;
export type ConsumerMember = z.infer<typeof ConsumerMemberSchema>;
export type ConsumerGroup = z.infer<typeof ConsumerGroupSchema>;
export type ShareMember = z.infer<typeof ShareMemberSchema>;
export type ShareGroup = z.infer<typeof ShareGroupSchema>;
export type StreamsSubtopology = z.infer<typeof StreamsSubtopologySchema>;
export type StreamsTasksByKind = z.infer<typeof StreamsTasksByKindSchema>;
export type StreamsTaskOffset = z.infer<typeof StreamsTaskOffsetSchema>;
export type StreamsMember = z.infer<typeof StreamsMemberSchema>;
export type StreamsGroup = z.infer<typeof StreamsGroupSchema>;

export type Group = z.infer<typeof GroupSchema>;
/** The fields every member of every group type has. */
export type GroupMember = Group['members'][number];

export type GroupOffsets = z.infer<typeof GroupOffsetsSchema>;
export type TopicOffsets = GroupOffsets['topics'][number];
export type PartitionOffsets = TopicOffsets['partitions'][number];
export type PartitionOwner = PartitionOffsets['owners'][number];
export type LagTotals = z.infer<typeof LagTotalsSchema>;
export type MaxLag = NonNullable<LagTotals['maxLag']>;
