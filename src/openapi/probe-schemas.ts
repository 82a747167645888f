/**
 * The probes' answers (/healthz, /readyz): registered with the routes a start serves, so apart
 * from the other models (schemas.ts), which only the document builds.
 */

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
    brokers: z.array(BrokerReadinessSchema).openapi({
      description: 'Every bootstrap and discovered broker, asked at once; ready when one answered',
    }),
    clusters: z
      .record(z.string(), ClusterReadinessSchema)
      .optional()
      .openapi({
        description:
          'At /readyz only: every configured cluster by alias, the default included, and whether it is ready now. ' +
          "The status is the default cluster's whatever the others say.",
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
      clusters: {
        default: { ready: true },
        'eu-west': { ready: false, reason: '10.1.0.11:9092 did not answer Metadata within 2000 ms' },
      },
    },
  });
