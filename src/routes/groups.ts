import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { BrokerAdmin } from '../broker/admin.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { GroupListSchema, GroupSchema, MAX_GROUP_ID_BYTES } from '../openapi/schemas.js';
import { expect, strictQuery } from '../openapi/validation.js';

const utf8 = new TextEncoder();

export const GroupIdParam = z
  .string()
  .min(1, expect(`a group id of 1 to ${MAX_GROUP_ID_BYTES} UTF-8 bytes`))
  .refine(
    (id) => utf8.encode(id).byteLength <= MAX_GROUP_ID_BYTES,
    expect(`a group id of 1 to ${MAX_GROUP_ID_BYTES} UTF-8 bytes`),
  )
  .openapi({
    param: { name: 'groupId', in: 'path' },
    description: 'The group id, percent-encoded: any id Kafka holds (spaces, slashes, unicode) round-trips',
    example: 'demo-classic',
  });

const listGroups = createRoute({
  method: 'get',
  path: '/groups',
  tags: ['groups'],
  summary: 'List the groups of every broker',
  description:
    'Asks every broker for its groups (ListGroups at the highest version it offers) and merges the answers, sorted by group id. ' +
    'A broker that fails is listed in `failures`, never silently dropped.',
  request: { query: strictQuery({}) },
  responses: {
    200: { description: 'The groups', content: { 'application/json': { schema: GroupListSchema } } },
    ...problemResponses('invalid-input', ...BROKER_PROBLEMS),
  },
});

const describeGroup = createRoute({
  method: 'get',
  path: '/groups/{groupId}',
  tags: ['groups'],
  summary: 'Describe a group',
  description:
    "Finds the group's coordinator (FindCoordinator, retrying coordinator errors with a bounded backoff) and describes the group " +
    'there. Classic groups with protocol type `consumer` have their subscriptions and assignments decoded.',
  request: { params: z.object({ groupId: GroupIdParam }), query: strictQuery({}) },
  responses: {
    200: { description: 'The group', content: { 'application/json': { schema: GroupSchema } } },
    ...problemResponses('invalid-input', 'group-not-found', 'coordinator-unavailable', ...BROKER_PROBLEMS),
  },
});

export function groupRoutes(app: OpenAPIHono, admin: BrokerAdmin): void {
  app.openapi(listGroups, async (c) => c.json(await admin.listGroups(), 200));
  app.openapi(describeGroup, async (c) => {
    const { groupId } = c.req.valid('param');
    return c.json(await admin.describeGroup(groupId), 200);
  });
}
