/**
 * The shape of every problem this API answers (RFC 9457), as the document shows it, with the
 * catalogue of its types (problem-catalogue.ts). problems.ts builds the document's examples from them.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';
import { PROBLEMS, type ProblemSlug } from './problem-catalogue.js';

export { PROBLEM_CONTENT_TYPE, PROBLEMS, type ProblemSlug, type ProblemStatus } from './problem-catalogue.js';

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
    expectedClusterId: z.string().optional().openapi({
      description: 'cluster-mismatch: the cluster id configured (KAFKA_CLUSTER_ID) or first seen',
      example: 'MkU3OEVBNTcwNTJENDM2Qg',
    }),
    seenClusterId: z.string().nullable().optional().openapi({
      description: 'cluster-mismatch: the id of the cluster the broker is of; null when it would not say',
      example: 'q1Sh-9_nRNyCQ5DrnjzAoA',
    }),
    host: z.string().optional().openapi({
      description: 'host-not-allowed: the host the request was for',
      example: 'evil.example.com:8080',
    }),
    origin: z.string().optional().openapi({
      description: 'origin-not-allowed: the Origin the request came from',
      example: 'http://evil.example.com',
    }),
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

export type ProblemExtensions = Omit<Problem, 'type' | 'title' | 'status' | 'detail'>;
