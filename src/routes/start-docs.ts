/**
 * The answers of the routes a start registers (describe, batch describe, cluster, clusters, the
 * probes) and of the listing, as the document shows them, and the unknown-cluster 404 of every
 * mirror. Only the document needs these models: a start registers those routes without them
 * (deferred-docs.ts), so a cold start neither parses nor builds them; the document loads this
 * module with the lazily loaded route modules (LAZY_MODULES).
 */

import { z } from '@hono/zod-openapi';
import { ESTATE_BATCH_GROUPS } from '../groups/estate.js';
import { GROUP_TYPES } from '../groups/model.js';
import { HealthSchema, ReadinessSchema } from '../openapi/probe-schemas.js';
import {
  BROKER_PROBLEMS,
  EXAMPLES,
  GROUP_PROBLEMS,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  problemResponses,
} from '../openapi/problems.js';
import {
  BatchDescribeResultSchema,
  BrokerFailureSchema,
  CLASSIC_GROUP_EXAMPLE,
  ClusterSchema,
  CONSUMER_GROUP_EXAMPLE,
  GroupListingSchema,
  GroupPageSchema,
  GroupSchema,
  LagTotalsSchema,
  SHARE_GROUP_EXAMPLE,
  STREAMS_GROUP_EXAMPLE,
} from '../openapi/schemas.js';
import { VERDICTS } from '../vocabulary.js';
import { NDJSON } from './paging.js';

/** One line of the application/x-ndjson listing. */
export const ListingLineSchema = z
  .union([
    GroupListingSchema.extend({
      lag: LagTotalsSchema.optional(),
      lagError: ProblemSchema.optional(),
      verdict: z
        .enum(VERDICTS)
        .optional()
        .openapi({ description: "With the verdict filter: the group's verdict" }),
    }).openapi('GroupListingLagLine', {
      description:
        'A group as listed; with include=lag (or timeLag) or the lag criteria also `lag` (its totals) or `lagError` (why not)',
    }),
    z.object({ failure: BrokerFailureSchema }).openapi({
      description: 'A broker whose ListGroups failed: the groups it coordinates are missing from the stream',
    }),
    z
      .object({
        end: z.object({
          groups: z.number().int().openapi({ format: 'int32', description: 'Group lines sent' }),
          failures: z.number().int().openapi({ format: 'int32', description: 'Failure lines sent' }),
          lagErrors: z
            .number()
            .int()
            .optional()
            .openapi({ format: 'int32', description: 'With include=lag: group lines with `lagError`' }),
          unread: z.number().int().optional().openapi({
            format: 'int32',
            description:
              "Group lines not read because the stream's deadline (STREAM_TIMEOUT_MS) passed first, each with a `request-timeout` `lagError` (counted in `lagErrors` too); absent when none",
          }),
          scanned: z.number().int().optional().openapi({
            format: 'int32',
            description: 'With the lag criteria: groups read, those left out by the criteria too',
          }),
          lagUnknown: z.number().int().optional().openapi({
            format: 'int32',
            description:
              'With the lag criteria: groups whose lag is not known, each a line with `lagError` or with a `lag` whose partitionsWithErrors is above 0',
          }),
        }),
      })
      .openapi({ description: 'The last line: a stream without it was cut short' }),
  ])
  .openapi('GroupListingLine', {
    description:
      'With `Accept: application/x-ndjson` every line is one JSON object: first a `{"failure": …}` line per broker ' +
      'whose ListGroups failed, then one group per line sorted by group id, then `{"end": {"groups": n, "failures": m}}`. ' +
      'With include=lag each group line carries its lag totals (or `lagError`), written as each batch of ' +
      `${ESTATE_BATCH_GROUPS} groups is read under the stream's deadline (STREAM_TIMEOUT_MS): a group whose coordinator ` +
      'does not answer in time has a `broker-timeout` `lagError` naming the broker, and the groups left when the deadline ' +
      'passes each a `request-timeout` one; every listed group is in the stream once.',
    example: { groupId: 'demo-classic', type: 'classic', protocolType: 'consumer', state: 'Stable' },
  });

const ClusterSummarySchema = z
  .object({
    alias: z.string().openapi({ example: 'eu-west' }),
    default: z
      .boolean()
      .openapi({ description: 'Whether the short routes (/groups, ...) serve this cluster' }),
    bootstrap: z
      .array(z.string())
      .openapi({ description: 'The bootstrap brokers configured', example: ['b-1.eu.example.com:9096'] }),
    tls: z.boolean(),
    sasl: z
      .string()
      .nullable()
      .openapi({ description: 'The SASL mechanism, null without SASL', example: 'scram-sha-512' }),
  })
  .openapi('ClusterSummary');

const ClusterListSchema = z.object({ clusters: z.array(ClusterSummarySchema) }).openapi('ClusterList', {
  example: {
    clusters: [
      { alias: 'default', default: true, bootstrap: ['10.0.0.11:9092'], tls: false, sasl: null },
      {
        alias: 'eu-west',
        default: false,
        bootstrap: ['b-1.eu.example.com:9096'],
        tls: true,
        sasl: 'aws-msk-iam',
      },
    ],
  },
});

const ApiRangeSchema = z
  .object({
    min: z.number().int().openapi({ format: 'int32' }),
    max: z.number().int().openapi({ format: 'int32' }),
  })
  .nullable();

const ClusterDetailSchema = ClusterSummarySchema.extend({
  clusterId: z.string().nullable(),
  controllerId: z.number().int().nullable().openapi({ format: 'int32' }),
  brokers: ClusterSchema.shape.brokers,
  features: ClusterSchema.shape.features,
  groupTypes: z.array(z.enum(GROUP_TYPES)).openapi({
    description:
      'Group types whose describe RPC the broker offers (a type switched off by a feature flag answers 501 later)',
  }),
  kafkaVersionHint: z.string().openapi({
    description: 'The Kafka releases whose RPC versions match what the broker offers',
    example: '4.4 or newer',
  }),
  apiVersions: z.record(z.string(), ApiRangeSchema).openapi({
    description: 'Version ranges of the group RPCs this product uses, null where the broker has none',
  }),
}).openapi('ClusterDetail', {
  example: {
    alias: 'eu-west',
    default: false,
    bootstrap: ['b-1.eu.example.com:9096'],
    tls: true,
    sasl: 'aws-msk-iam',
    clusterId: 'MkU3OEVBNTcwNTJENDM2Qk',
    controllerId: 1,
    brokers: [{ nodeId: 1, host: 'b-1.eu.example.com', port: 9096, rack: 'euw1-az1' }],
    features: {
      finalizedEpoch: 42,
      finalized: [
        { name: 'group.version', level: 1, minLevel: 1 },
        { name: 'share.version', level: 1, minLevel: 1 },
        { name: 'streams.version', level: 1, minLevel: 1 },
      ],
      supported: [{ name: 'group.version', minVersion: 0, maxVersion: 1 }],
    },
    groupTypes: ['classic', 'consumer', 'share', 'streams'],
    kafkaVersionHint: '4.4 or newer',
    apiVersions: {
      ListGroups: { min: 0, max: 5 },
      DescribeGroups: { min: 0, max: 6 },
      ConsumerGroupDescribe: { min: 0, max: 1 },
      ShareGroupDescribe: { min: 1, max: 1 },
      StreamsGroupDescribe: { min: 0, max: 1 },
      OffsetFetch: { min: 1, max: 10 },
    },
  },
});

/** Each route's answers, by operationId. */
export const START_RESPONSES = {
  getHealth: {
    200: { description: 'Alive', content: { 'application/json': { schema: HealthSchema } } },
  },
  getReadiness: {
    200: {
      description: 'Ready: at least one broker answered',
      content: {
        'application/json': {
          schema: ReadinessSchema,
          examples: {
            granted: {
              summary: 'A caller with the read action (or AUTH=none)',
              value: {
                status: 'ok',
                checkedAt: '2026-11-30T20:00:00.000Z',
                brokersAsked: 2,
                brokersAnswered: 1,
                brokers: [
                  { nodeId: 1, broker: '10.0.0.11:9092', answered: true, latencyMs: 2 },
                  {
                    nodeId: 2,
                    broker: '10.0.0.12:9092',
                    answered: false,
                    error: '10.0.0.12:9092 did not answer Metadata within 2000 ms',
                  },
                ],
                clusters: { default: { ready: true }, 'eu-west': { ready: true } },
              },
            },
            anonymous: {
              summary: 'Any other caller, with authentication on',
              value: {
                status: 'ok',
                checkedAt: '2026-11-30T20:00:00.000Z',
                brokersAsked: 2,
                brokersAnswered: 1,
                brokers: [],
              },
            },
          },
        },
      },
    },
    ...problemResponses('broker-unavailable', 'internal-error', 'configuration-error'),
  },
  listGroups: {
    200: {
      description: 'A page of groups',
      content: { 'application/json': { schema: GroupPageSchema } },
    },
    ...problemResponses('invalid-input', 'not-acceptable', ...BROKER_PROBLEMS),
  },
  streamGroups: {
    200: {
      description: 'Every matching group, one per line',
      content: { [NDJSON]: { schema: ListingLineSchema } },
    },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
  getGroup: {
    200: {
      description: 'The group',
      content: {
        'application/json': {
          schema: GroupSchema,
          examples: {
            classic: { summary: 'A classic consumer group', value: CLASSIC_GROUP_EXAMPLE },
            consumer: { summary: 'A consumer group (KIP-848)', value: CONSUMER_GROUP_EXAMPLE },
            share: { summary: 'A share group (KIP-932)', value: SHARE_GROUP_EXAMPLE },
            streams: { summary: 'A streams group (KIP-1071)', value: STREAMS_GROUP_EXAMPLE },
          },
        },
      },
    },
    ...problemResponses(...GROUP_PROBLEMS, ...BROKER_PROBLEMS),
  },
  describeGroups: {
    200: {
      description: 'One outcome per group id',
      content: { 'application/json': { schema: BatchDescribeResultSchema } },
    },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
  getCluster: {
    200: { description: 'The cluster', content: { 'application/json': { schema: ClusterSchema } } },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
  listClusters: {
    200: { description: 'The clusters', content: { 'application/json': { schema: ClusterListSchema } } },
    ...problemResponses('invalid-input'),
  },
  getClusterByAlias: {
    200: { description: 'The cluster', content: { 'application/json': { schema: ClusterDetailSchema } } },
    ...problemResponses('invalid-input', 'cluster-not-found', ...BROKER_PROBLEMS),
  },
};

interface ResponseObject {
  description: string;
  content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }>;
  headers?: unknown;
}

/** A mirrored route's answers (routes/clusters.ts) plus the unknown-cluster 404, merged into a 404 it may already have. */
export function withClusterNotFound(
  responses: Record<string, ResponseObject>,
): Record<string, ResponseObject> {
  const notFound = problemResponses('cluster-not-found')['404'] as ResponseObject;
  const existing = responses['404'];
  if (!existing) return { ...responses, 404: notFound };
  const content = existing.content?.[PROBLEM_CONTENT_TYPE];
  return {
    ...responses,
    404: {
      ...existing,
      description: `${existing.description}; No such cluster`,
      content: {
        ...existing.content,
        [PROBLEM_CONTENT_TYPE]: {
          ...content,
          examples: {
            ...content?.examples,
            'cluster-not-found': { summary: 'No such cluster', value: EXAMPLES['cluster-not-found'] },
          },
        },
      },
    },
  };
}
