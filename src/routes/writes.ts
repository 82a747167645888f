/**
 * Deleting: a whole group (DeleteGroups) and a group's committed offsets on a topic (OffsetDelete;
 * DeleteShareGroupOffsets for share groups). Both pass the write gate and log their audit line
 * (http/audit.ts); both answer with what was deleted. A delete executes at once; `dryRun=true`
 * answers what it would delete and changes nothing.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../groups/model.js';
import { GroupNotEmptyError, memberRefs } from '../groups/writes/errors.js';
import { guardedWrite, type WriteDeps } from '../http/audit.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { RouteProblem } from '../http/route-problem.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { GroupDeletionSchema, OffsetsDeletionSchema } from '../openapi/write-schemas.js';
import { TOPIC_PATTERN, TOPIC_RULE } from './listing-query.js';
import { GroupIdParam } from './params.js';

/** `?type=` on a write: required, since a write must never land on a group of another type. */
export const WriteTypeParam = z.enum(GROUP_TYPES, expect(`one of ${GROUP_TYPES.join(', ')}`)).openapi({
  param: { name: 'type', in: 'query', required: true },
  description: 'The type the group must have (required on every write); a group of another type answers 409',
  example: 'classic',
});

export const DryRunParam = z
  .enum(['true', 'false'], expect('true or false'))
  .optional()
  .transform((v) => v === 'true')
  .openapi({
    param: { name: 'dryRun', in: 'query' },
    description: 'true: answer what would be deleted, change nothing (default false)',
    example: 'true',
  });

const TopicParam = z
  .string()
  .regex(TOPIC_PATTERN, expect(TOPIC_RULE))
  .openapi({
    param: { name: 'topic', in: 'query', required: true },
    description: 'The topic',
    example: 'demo-payments',
  });

const PARTITIONS_RULE = 'partition numbers from 0 to 2147483647 (repeated or comma-separated)';
const PartitionParam = z
  .union([z.string(), z.array(z.string())])
  .transform((raw, ctx) => {
    const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => v.split(',')).map((v) => v.trim());
    const out: number[] = [];
    for (const value of values) {
      if (!/^\d{1,10}$/.test(value) || Number(value) > 2147483647) {
        ctx.addIssue({ code: 'custom', message: PARTITIONS_RULE });
        return z.NEVER;
      }
      if (!out.includes(Number(value))) out.push(Number(value));
    }
    return out;
  })
  .optional()
  .openapi({
    param: { name: 'partition', in: 'query' },
    description: `Only these partitions of the topic: ${PARTITIONS_RULE}; default: every partition the group has an offset on. Not for share groups (whole topics only)`,
    type: 'array',
    items: { type: 'integer', format: 'int32', minimum: 0 },
  });

const WRITE_PROBLEMS = ['writes-disabled', 'forbidden', 'group-not-found', 'group-type-mismatch'] as const;

const deleteGroup = createRoute({
  method: 'delete',
  path: '/groups/{groupId}',
  middleware: requires({ action: 'delete' }),
  operationId: 'deleteGroup',
  tags: ['writes'],
  summary: 'Delete a group (DeleteGroups)',
  description:
    'Deletes a group of any type and its committed offsets, at once; `dryRun=true` answers what would be deleted and changes ' +
    'nothing. The group must exist, be of the `type` named, and have no members (409 `group-not-empty` names them). Deleting ' +
    "a streams group leaves its internal topics (repartition, changelog) alone. Needs the grant action 'delete'; every attempt " +
    'is logged as an audit line.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({ type: WriteTypeParam, dryRun: DryRunParam }),
  },
  responses: {
    200: {
      description: 'What was deleted (or, on a dry run, what would be)',
      content: { 'application/json': { schema: GroupDeletionSchema } },
    },
    ...problemResponses(
      'invalid-input',
      ...WRITE_PROBLEMS,
      'group-not-empty',
      'group-deletion-failed',
      'group-type-unavailable',
      'coordinator-unavailable',
      ...BROKER_PROBLEMS,
    ),
  },
});

const deleteOffsets = createRoute({
  method: 'delete',
  path: '/groups/{groupId}/offsets',
  middleware: requires({ action: 'delete-offsets' }),
  operationId: 'deleteGroupOffsets',
  tags: ['writes'],
  summary: "Delete a group's committed offsets on a topic (OffsetDelete)",
  description:
    "Deletes the group's committed offsets on one topic (all its partitions, or those named), so the group starts there " +
    'by its auto.offset.reset next time. Share groups (DeleteShareGroupOffsets): whole topics only. A topic the live group ' +
    'still subscribes to answers 409 `group-subscribed-to-topic` listing the partitions, and nothing of it is deleted. ' +
    "Needs the grant action 'delete-offsets'; every attempt is logged as an audit line. `dryRun=true` answers what would " +
    'be deleted.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({
      type: WriteTypeParam,
      topic: TopicParam,
      partition: PartitionParam,
      dryRun: DryRunParam,
    }),
  },
  responses: {
    200: {
      description: 'The offsets deleted (or, on a dry run, those that would be)',
      content: { 'application/json': { schema: OffsetsDeletionSchema } },
    },
    ...problemResponses(
      'invalid-input',
      ...WRITE_PROBLEMS,
      'group-not-empty',
      'group-subscribed-to-topic',
      'group-type-unavailable',
      'coordinator-unavailable',
      ...BROKER_PROBLEMS,
    ),
  },
});

export function writeRoutes(app: OpenAPIHono, deps: WriteDeps): void {
  app.openapi(deleteGroup, async (c) => {
    const { groupId } = c.req.valid('param');
    const { type, dryRun } = c.req.valid('query');
    const answer = await guardedWrite(
      c,
      deps,
      { operation: 'deleteGroup', action: 'delete', groupId, type, dryRun },
      async (group, audit) => {
        // Kafka refuses too (NON_EMPTY_GROUP); asking first makes a dry run answer as the delete would.
        if (group.members.length > 0) throw new GroupNotEmptyError(groupId, memberRefs(group));
        const offsets = (await deps.service.writes.committedOffsets(groupId, type, deadlineOf(c)))
          .filter((o) => o.offset !== null)
          .map(({ topic, partition, offset }) => ({ topic, partition, offset }));
        audit.note({ state: group.state, offsets });
        if (!dryRun)
          await deps.service.writes.deleteGroup(groupId, { ...deadlineOf(c), progress: audit.progress });
        return {
          groupId,
          type,
          state: group.state,
          dryRun,
          deleted: !dryRun,
          offsets,
          sent: audit.progress.sent,
        };
      },
    );
    return c.json(answer, 200);
  });

  app.openapi(deleteOffsets, async (c) => {
    const { groupId } = c.req.valid('param');
    const { type, topic, partition, dryRun } = c.req.valid('query');
    if (type === 'share' && partition !== undefined) {
      const message =
        "query parameter 'partition' expected nothing for a share group (DeleteShareGroupOffsets deletes whole topics), received '" +
        `${partition.join(',')}'`;
      throw new RouteProblem('invalid-input', message, {
        errors: [
          {
            in: 'query',
            name: 'partition',
            expected: 'nothing for a share group (whole topics only)',
            received: partition.join(','),
            message,
          },
        ],
      });
    }
    const answer = await guardedWrite(
      c,
      deps,
      { operation: 'deleteGroupOffsets', action: 'delete-offsets', groupId, type, dryRun },
      async (_group, audit) => {
        const target = { topic, ...(partition && { partitions: partition }) };
        audit.note({ topic, ...(partition && { partitions: partition }) });
        const deleted = dryRun
          ? (await deps.service.writes.committedOffsets(groupId, type, deadlineOf(c)))
              .filter((o) => o.topic === topic && (!partition || partition.includes(o.partition)))
              .map(({ partition: p, offset }) => ({ topic, partition: p, offset }))
          : await deps.service.writes.deleteOffsets(groupId, type, [target], {
              ...deadlineOf(c),
              progress: audit.progress,
            });
        audit.note({ deleted });
        return { groupId, type, topic, deleted, sent: audit.progress.sent };
      },
    );
    return c.json(answer, 200);
  });
}
