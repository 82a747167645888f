/** The probes' answers (/healthz, /readyz), as the document shows them (routes/start-docs.ts). */

import { z } from '@hono/zod-openapi';
import { Int32 } from './shapes/scalars.js';

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

export const ClusterReadinessSchema = z
  .object({
    ready: z
      .boolean()
      .openapi({ description: 'A broker of this cluster answered a Metadata request in this check' }),
    reason: z.string().optional().openapi({ description: 'Why it is not ready' }),
  })
  .openapi('ClusterReadiness');

export const ReadinessSchema = z
  .object({
    status: z.enum(['ok']),
    checkedAt: z.string().openapi({
      format: 'date-time',
      description: 'When the brokers were asked; one check serves every probe for a second',
    }),
    brokersAsked: Int32().openapi({ description: 'How many brokers were asked, bootstrap and discovered' }),
    brokersAnswered: Int32().openapi({ description: 'How many of them answered; ready when one did' }),
    brokers: z.array(BrokerReadinessSchema).openapi({
      description:
        'Every bootstrap and discovered broker, asked at once: to a caller with the `read` action in this cluster, ' +
        'and to everyone with AUTH=none; empty to any other caller (brokersAsked and brokersAnswered count them)',
    }),
    clusters: z
      .record(z.string(), ClusterReadinessSchema)
      .optional()
      .openapi({
        description:
          'At /readyz only: each configured cluster by alias, the default included, and whether it is ready now; ' +
          'the clusters where the caller has the `read` action (every cluster with AUTH=none), absent when none. ' +
          "The status is the default cluster's whatever the others say.",
      }),
  })
  .openapi('Readiness', {
    example: {
      status: 'ok',
      checkedAt: '2026-11-30T20:00:00.000Z',
      brokersAsked: 3,
      brokersAnswered: 2,
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
      clusters: {
        default: { ready: true },
        'eu-west': { ready: false, reason: '10.1.0.11:9092 did not answer Metadata within 2000 ms' },
      },
    },
  });
