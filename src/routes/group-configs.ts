import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { CONFIG_SOURCES, CONFIG_TYPES } from '../groups/configs.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { requireVisibleId } from '../http/visibility.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { strictQuery } from '../openapi/validation.js';
import { GroupIdParam } from './params.js';

const GROUP_CONFIGS_EXAMPLE = {
  groupId: 'orders-share',
  configs: [
    {
      name: 'share.auto.offset.reset',
      value: 'earliest',
      source: 'DYNAMIC_GROUP_CONFIG',
      sensitive: false,
      readOnly: false,
      type: 'string',
      documentation: 'The strategy to initialize the share-partition start offset.',
    },
    {
      name: 'consumer.session.timeout.ms',
      value: '45000',
      source: 'DEFAULT_CONFIG',
      sensitive: false,
      readOnly: false,
      type: 'int',
      documentation: 'The timeout to detect client failures when using the consumer group protocol.',
    },
  ],
} as const;

export const GroupConfigsSchema = z
  .object({
    groupId: z.string(),
    configs: z.array(
      z
        .object({
          name: z.string(),
          value: z.string().nullable().openapi({ description: 'null for a sensitive value or one not set' }),
          source: z.enum(CONFIG_SOURCES).openapi({
            description:
              "Where the value comes from, as Kafka's Admin client names it: DYNAMIC_GROUP_CONFIG (set on this group), DEFAULT_CONFIG, STATIC_BROKER_CONFIG, DYNAMIC_BROKER_CONFIG, …",
          }),
          sensitive: z.boolean(),
          readOnly: z.boolean(),
          type: z.enum(CONFIG_TYPES),
          documentation: z.string().nullable(),
        })
        .openapi('GroupConfig'),
    ),
  })
  .openapi('GroupConfigs', { example: GROUP_CONFIGS_EXAMPLE });

const getGroupConfigs = createRoute({
  method: 'get',
  path: '/groups/{groupId}/configs',
  operationId: 'getGroupConfigs',
  middleware: requires({ action: 'read' }),
  tags: ['groups'],
  summary: "A group's configs",
  description:
    "Every config of the group (DescribeConfigs on resource type GROUP): its value, where it comes from, whether it is sensitive or read-only. Kafka answers for any group id, existing or not, since a group's configs may be set before its first member arrives; a group without its own values shows the broker's defaults. Which configs there are depends on the Kafka version (consumer.*, share.*, streams.*, errors.deadletterqueue.*).",
  request: { params: z.object({ groupId: GroupIdParam }), query: strictQuery({}) },
  responses: {
    200: { description: 'The configs', content: { 'application/json': { schema: GroupConfigsSchema } } },
    ...problemResponses('invalid-input', 'group-not-found', ...BROKER_PROBLEMS),
  },
});

export function groupConfigRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(getGroupConfigs, async (c) => {
    const { groupId } = c.req.valid('param');
    requireVisibleId(c, 'read', groupId);
    if (!service.groupConfigs) throw new Error('this service reads no group configs');
    return c.json({ groupId, configs: await service.groupConfigs(groupId, deadlineOf(c)) }, 200);
  });
}
