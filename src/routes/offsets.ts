import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { GroupService } from '../groups/service.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { readVisible } from '../http/visibility.js';
import { BROKER_PROBLEMS, GROUP_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { GroupOffsetsSchema } from '../openapi/schemas.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { GroupIdParam, IsolationParam, TypeAssertionParam } from './params.js';

const groupOffsets = createRoute({
  method: 'get',
  path: '/groups/{groupId}/offsets',
  middleware: requires({ action: 'offsets' }),
  operationId: 'getGroupOffsets',
  tags: ['offsets'],
  summary: "A group's committed offsets, end offsets and lag",
  description:
    'Per partition: the committed offset (share groups: the start offset) with its leader epoch and metadata, the end offset ' +
    '(high watermark, or last stable offset with isolation=read_committed), the lag and the members holding it; per topic and ' +
    'per group: total lag and the largest. Partitions held but never committed are listed with null offset and null lag: no ' +
    'number is invented. A partition that cannot be read (deleted topic, moving leader) carries its own error. Read-only: ' +
    'nothing is ever committed.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({
      isolation: IsolationParam,
      type: TypeAssertionParam,
      include: z
        .enum(['timeLag'], expect('timeLag'))
        .optional()
        .openapi({
          param: { name: 'include', in: 'query' },
          description:
            'timeLag: per partition also the log start, the time lag (bounds from the record batch header at the committed offset) and the age of the newest record; per group the largest time lag. Costs one Fetch and two ListOffsets per partition leader.',
          example: 'timeLag',
        }),
    }),
  },
  responses: {
    200: { description: 'Offsets and lag', content: { 'application/json': { schema: GroupOffsetsSchema } } },
    ...problemResponses(...GROUP_PROBLEMS, ...BROKER_PROBLEMS),
  },
});

export function offsetRoutes(app: OpenAPIHono, service: GroupService): void {
  app.openapi(groupOffsets, async (c) => {
    const { groupId } = c.req.valid('param');
    const { isolation, type, include } = c.req.valid('query');
    const offsets = await readVisible(c, 'offsets', groupId, () =>
      service.groupOffsets(groupId, {
        ...deadlineOf(c),
        ...(isolation && { isolation }),
        ...(type && { expected: type }),
        ...(include === 'timeLag' && { timeLag: true }),
      }),
    );
    return c.json(offsets, 200);
  });
}
