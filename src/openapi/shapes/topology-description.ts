/** A streams group's topology description (KIP-1331), as GET /groups/{groupId}?include=topology shows it. */

import { z } from '@hono/zod-openapi';

const TopologyNodeSchema = z
  .object({
    name: z.string(),
    nodeType: z.enum(['source', 'processor', 'sink', 'unknown']),
    sourceTopics: z.array(z.string()),
    sinkTopic: z.string().nullable(),
    stores: z.array(z.string()),
    successors: z.array(z.string()),
  })
  .openapi('StreamsTopologyNode');

export const TOPOLOGY_DESCRIPTION_EXAMPLE = {
  subtopologies: [
    {
      subtopologyId: '0',
      nodes: [
        {
          name: 'KSTREAM-SOURCE-0000000000',
          nodeType: 'source',
          sourceTopics: ['demo-events'],
          sinkTopic: null,
          stores: [],
          successors: ['KSTREAM-MAPVALUES-0000000001'],
        },
        {
          name: 'KSTREAM-MAPVALUES-0000000001',
          nodeType: 'processor',
          sourceTopics: [],
          sinkTopic: null,
          stores: [],
          successors: [],
        },
      ],
    },
  ],
  globalStores: [],
} as const;

export const TopologyDescriptionSchema = z
  .object({
    subtopologies: z.array(
      z
        .object({ subtopologyId: z.string(), nodes: z.array(TopologyNodeSchema) })
        .openapi('StreamsTopologySubtopology'),
    ),
    globalStores: z.array(
      z
        .object({ source: TopologyNodeSchema, processor: TopologyNodeSchema })
        .openapi('StreamsTopologyGlobalStore'),
    ),
  })
  .openapi('StreamsTopologyDescription', { example: TOPOLOGY_DESCRIPTION_EXAMPLE });

export const TopologyDescriptionStatusSchema = z
  .enum(['not-requested', 'not-stored', 'error', 'available', 'unknown'])
  .openapi('StreamsTopologyDescriptionStatus', {
    description:
      "Why topologyDescription is there or not (StreamsGroupDescribe v1 TopologyDescriptionStatus): not-stored when the broker keeps none (it keeps one only with a topology description plugin, and Kafka's Streams client sends its description only when the broker asks), error when the broker could not read it",
  });
