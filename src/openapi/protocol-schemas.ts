/** The API models of GET /cluster/protocols: which groups must leave the classic protocol. */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES, PROTOCOL_CATEGORIES } from '../vocabulary.js';
import { BrokerFailureSchema } from './schemas.js';

const Int32 = () => z.number().int().openapi({ format: 'int32' });

export const ProtocolFeaturesSchema = z
  .object({
    groupVersion: Int32()
      .nullable()
      .openapi({ description: 'group.version: 1 or more serves the consumer protocol (KIP-848)' }),
    shareVersion: Int32().nullable().openapi({ description: 'share.version: 1 or more serves share groups' }),
    streamsVersion: Int32()
      .nullable()
      .openapi({ description: 'streams.version: 1 or more serves streams groups' }),
  })
  .openapi('ProtocolFeatures', {
    description:
      'Finalized feature levels from ApiVersions v3+; 0 for a feature the cluster has not finalized, null when the broker does not say',
    example: { groupVersion: 1, shareVersion: 1, streamsVersion: 1 },
  });

export const ProtocolCategorySchema = z.enum(PROTOCOL_CATEGORIES).openapi('ProtocolCategory', {
  description:
    'can-migrate: classic consumers, members present (switch them to group.protocol=consumer); cannot-migrate: classic with ' +
    'another protocol type such as connect; mixed: a consumer group with members still on classic; empty-classic: classic ' +
    'and Empty; unknown: a consumer group that could not be described',
  example: 'can-migrate',
});

const PROTOCOL_GROUP_EXAMPLE = {
  groupId: 'orders-mixed',
  category: 'mixed',
  type: 'consumer',
  state: 'Stable',
  protocolType: 'consumer',
  classicMembers: [{ memberId: 'orders-1-4f1c0d2e', clientId: 'orders-1', clientHost: '/10.0.0.21' }],
  error: null,
} as const;

export const ProtocolGroupSchema = z
  .object({
    groupId: z.string(),
    category: ProtocolCategorySchema,
    type: z.enum(GROUP_TYPES),
    state: z.string().nullable(),
    protocolType: z.string().nullable(),
    classicMembers: z
      .array(z.object({ memberId: z.string(), clientId: z.string(), clientHost: z.string() }))
      .openapi({ description: 'mixed: the members still speaking the classic protocol; empty otherwise' }),
    error: z.string().nullable().openapi({ description: 'unknown: why the group could not be described' }),
  })
  .openapi('ProtocolGroup', { example: PROTOCOL_GROUP_EXAMPLE });

export const ProtocolTotalsSchema = z
  .object({
    canMigrate: Int32(),
    cannotMigrate: Int32(),
    mixed: Int32(),
    emptyClassic: Int32(),
    unknown: Int32(),
    consumer: Int32().openapi({
      description: 'Consumer groups with every member on the consumer protocol (not listed)',
    }),
  })
  .openapi('ProtocolTotals', {
    example: { canMigrate: 12, cannotMigrate: 3, mixed: 1, emptyClassic: 40, unknown: 0, consumer: 25 },
  });

export const ClusterProtocolsSchema = z
  .object({
    features: ProtocolFeaturesSchema,
    consumerProtocol: z.boolean().nullable().openapi({
      description: 'The cluster serves the consumer protocol (group.version 1 or more); null when unknown',
    }),
    totals: ProtocolTotalsSchema,
    groups: z
      .array(ProtocolGroupSchema)
      .openapi({ description: 'Classic and mixed groups, in listing order' }),
    failures: z.array(BrokerFailureSchema).openapi({
      description: 'Brokers whose ListGroups failed: the groups they coordinate are missing',
    }),
  })
  .openapi('ClusterProtocols', {
    example: {
      features: { groupVersion: 1, shareVersion: 1, streamsVersion: 1 },
      consumerProtocol: true,
      totals: { canMigrate: 1, cannotMigrate: 0, mixed: 1, emptyClassic: 0, unknown: 0, consumer: 4 },
      groups: [
        {
          groupId: 'billing',
          category: 'can-migrate',
          type: 'classic',
          state: 'Stable',
          protocolType: 'consumer',
          classicMembers: [],
          error: null,
        },
        PROTOCOL_GROUP_EXAMPLE,
      ],
      failures: [],
    },
  });

export const ProtocolLineSchema = z
  .union([
    z.object({ features: ProtocolFeaturesSchema, consumerProtocol: z.boolean().nullable() }).openapi({
      description: 'The first line: the feature levels',
    }),
    z.object({ failure: BrokerFailureSchema }).openapi({ description: 'A broker whose ListGroups failed' }),
    ProtocolGroupSchema,
    z
      .object({ end: ProtocolTotalsSchema })
      .openapi({ description: 'The last line: a stream without it was cut short' }),
  ])
  .openapi('ProtocolLine', {
    description:
      'With application/x-ndjson: a features line, a failure line per broker whose ListGroups failed, one group per line, ' +
      'then `{"end": totals}`.',
    example: PROTOCOL_GROUP_EXAMPLE,
  });
