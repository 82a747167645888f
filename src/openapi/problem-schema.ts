/**
 * The shape of every problem this API answers (RFC 9457) and the catalogue of its types: slug,
 * status and title. problems.ts builds answers and the document's examples from them.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const KafkaErrorSchema = z
  .object({
    code: z.number().int().openapi({ description: "Kafka's error code", format: 'int32', example: 69 }),
    name: z.string().openapi({ description: "Kafka's name for the code", example: 'GROUP_ID_NOT_FOUND' }),
    message: z.string().nullable().openapi({ description: "Kafka's own message, where it sent one" }),
  })
  .openapi('KafkaError');

export const InvalidParameterSchema = z
  .object({
    in: z.enum(['path', 'query', 'header', 'body']),
    name: z.string().openapi({
      example: 'groupId',
      description: 'The parameter, or the path of the body field (groupIds[2])',
    }),
    expected: z.string().openapi({ description: 'What the parameter accepts' }),
    received: z
      .string()
      .nullable()
      .openapi({ description: 'What came (shortened when long), null when absent' }),
    message: z.string(),
  })
  .openapi('InvalidParameter');

export const ProblemMemberSchema = z
  .object({
    memberId: z.string(),
    instanceId: z.string().nullable().openapi({ description: 'group.instance.id of a static member' }),
    clientId: z.string(),
    clientHost: z.string(),
  })
  .openapi('ProblemMember');

export const ProblemPartitionSchema = z
  .object({
    topic: z.string(),
    partition: z.number().int().openapi({ format: 'int32' }),
  })
  .openapi('ProblemPartition');

export const PROBLEMS = {
  'invalid-input': { status: 400, title: 'Invalid input' },
  'group-not-found': { status: 404, title: 'Group not found' },
  'route-not-found': { status: 404, title: 'No such route' },
  'cluster-not-found': { status: 404, title: 'No such cluster' },
  'topic-not-found': { status: 404, title: 'Topic not found' },
  'group-type-mismatch': { status: 409, title: 'Group is of another type' },
  'internal-error': { status: 500, title: 'Internal error' },
  'configuration-error': { status: 500, title: 'Configuration error' },
  'group-type-unavailable': { status: 501, title: 'Group type not served by this cluster' },
  'share-group-creation-unsupported': {
    status: 501,
    title: 'The brokers cannot create a share group with its start offsets',
  },
  'broker-response-unreadable': { status: 502, title: 'Broker response cannot be read' },
  'unsupported-broker-api': { status: 502, title: 'Broker does not support a needed RPC version' },
  'kafka-error': { status: 502, title: 'Kafka returned an error' },
  'broker-unavailable': { status: 503, title: 'Broker unavailable' },
  'coordinator-unavailable': { status: 503, title: 'Group coordinator unavailable' },
  'broker-timeout': { status: 504, title: 'Broker did not answer in time' },
  // Access control and request limits.
  'malformed-request': { status: 400, title: 'Malformed HTTP request' },
  unauthorized: { status: 401, title: 'Credentials missing or refused' },
  forbidden: { status: 403, title: 'Not granted' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'not-acceptable': { status: 406, title: 'No acceptable representation' },
  'client-timeout': { status: 408, title: 'Request not received in time' },
  'payload-too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'too-many-streams': { status: 429, title: 'Too many open event streams' },
  'event-streams-unsupported': { status: 501, title: 'Event streams not served by this deployment' },
  'headers-too-large': { status: 431, title: 'Request URI or headers too large' },
  'request-timeout': { status: 504, title: 'Request took longer than its deadline' },
  'auth-unavailable': { status: 503, title: 'Credentials cannot be checked now' },
  // Writes.
  'writes-disabled': { status: 403, title: 'Writes are disabled' },
  'group-not-empty': { status: 409, title: 'Group has members' },
  'group-subscribed-to-topic': { status: 409, title: 'Group still subscribes to the topic' },
  'member-removal-unsupported': { status: 409, title: 'Members of this group type cannot be removed' },
  'member-not-found': { status: 404, title: 'Member not found' },
  'plan-stale': { status: 409, title: 'The group changed since the plan' },
  'group-deletion-failed': { status: 502, title: 'Kafka could not delete the group' },
} as const;

export type ProblemSlug = keyof typeof PROBLEMS;
const PROBLEM_TYPES = Object.keys(PROBLEMS).map((slug) => `/problems/${slug}`) as [
  `/problems/${ProblemSlug}`,
  ...`/problems/${ProblemSlug}`[],
];

export const ProblemSchema = z
  .object({
    type: z.enum(PROBLEM_TYPES).openapi({
      description: 'Stable URI reference naming the kind of problem',
      example: '/problems/group-not-found',
    }),
    title: z.string(),
    status: z.number().int().openapi({ format: 'int32' }),
    detail: z.string(),
    instance: z.string().optional().openapi({ description: 'The request path' }),
    groupId: z.string().optional(),
    broker: z.string().optional().openapi({ description: 'host:port of the broker concerned' }),
    kafkaError: KafkaErrorSchema.optional(),
    errors: z.array(InvalidParameterSchema).optional(),
    expectedType: z
      .enum(GROUP_TYPES)
      .optional()
      .openapi({ description: 'The group type the request asked for' }),
    actualType: z.enum(GROUP_TYPES).optional().openapi({ description: 'The type the group really has' }),
    action: z
      .string()
      .optional()
      .openapi({ description: 'The grant action a refused write needs', example: 'delete' }),
    members: z
      .array(ProblemMemberSchema)
      .optional()
      .openapi({ description: 'The members that keep the group from being written (group-not-empty)' }),
    partitions: z.array(ProblemPartitionSchema).optional().openapi({
      description:
        'The partitions the problem is about (group-subscribed-to-topic; plan-stale: those whose offset moved)',
    }),
    instanceId: z.string().optional().openapi({ description: 'The group.instance.id the request named' }),
    sent: z
      .boolean()
      .optional()
      .openapi({
        description:
          'Writes only: whether the write request left for Kafka. false: nothing was sent, nothing changed. true: Kafka ' +
          'refused it (kafkaError says why) or did not answer (503, 504), so it may have been applied: read the group, or ' +
          'execute the same reset plan again, which is safe',
      }),
    clusters: z
      .array(z.string())
      .optional()
      .openapi({ description: 'cluster-not-found: the aliases the caller may use' }),
    offers: z
      .array(z.string())
      .optional()
      .openapi({
        description: 'not-acceptable: the media types the route answers with',
        example: ['application/json', 'application/x-ndjson'],
      }),
    limit: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'too-many-streams: the open streams a caller may have', format: 'int32' }),
    kafkaVersion: z.string().optional().openapi({
      description: "The brokers' Kafka version (major.minor) as their ApiVersions show it",
      example: '4.1',
    }),
    requiredKafkaVersion: z.string().optional().openapi({
      description: 'The first Kafka version (major.minor) that serves the request',
      example: '4.2',
    }),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details' });

export type Problem = z.infer<typeof ProblemSchema>;
export type InvalidParameter = z.infer<typeof InvalidParameterSchema>;

export type ProblemStatus = (typeof PROBLEMS)[ProblemSlug]['status'];

export type ProblemExtensions = Omit<Problem, 'type' | 'title' | 'status' | 'detail'>;
