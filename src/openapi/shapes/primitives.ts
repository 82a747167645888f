/**
 * The building blocks of the API's models: Kafka's integer widths, group id rules, broker and
 * partition references, the consumer protocol, and the fields every group and member shares.
 */

import { z } from '@hono/zod-openapi';
import { Int32 } from './scalars.js';

export { GROUP_ID_RULE, Int32, Int64, MAX_GROUP_ID_BYTES } from './scalars.js';

/**
 * A named schema or null: `anyOf [$ref, null]`. zod's `.nullable()` on a named schema loses the
 * null in the document (a bare `$ref`), so answers with null would not match their own schema.
 */
export function nullableRef<T extends z.ZodType>(schema: T, description: string) {
  // Always sent, yet not `required` in the document: OpenAPI Generator's Java okhttp-gson client
  // validates a required property as an object even when the schema allows null, and fails the
  // whole answer on the null; optional properties are checked for null first.
  return z
    .union([schema, z.null()])
    .optional()
    .openapi({ description: `${description} (always present)` });
}

export const BrokerRefSchema = z
  .object({
    nodeId: Int32(),
    host: z.string(),
    port: Int32(),
  })
  .openapi('BrokerRef', { example: { nodeId: 1, host: '10.0.0.12', port: 9092 } });

export const TOPIC_ID = 'p3Y0yRr9SSiHDzcwCd0p4g';

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

export const Base64 = z.string().openapi({ format: 'byte', description: 'base64' });

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
export const memberCore = {
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
export const groupCore = {
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
