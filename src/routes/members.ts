/**
 * Removing static members (LeaveGroup by group.instance.id), one or a batch: what an operator does
 * when a static member's process is gone and the group would otherwise wait out its session
 * timeout. Classic and consumer groups only; Kafka offers no admin removal for share and streams
 * groups (409 `member-removal-unsupported`).
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { guardedWrite, type WriteDeps } from '../http/audit.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { strictQuery } from '../openapi/validation.js';
import {
  MemberRemovalRequestSchema,
  MemberRemovalSchema,
  MemberRemovalsSchema,
} from '../openapi/write-schemas.js';
import { problemOf } from './errors.js';
import { GroupIdParam } from './params.js';
import { WriteTypeParam } from './writes.js';

const InstanceIdParam = z
  .string()
  .min(1)
  .openapi({
    param: { name: 'instanceId', in: 'path' },
    description: 'The group.instance.id of the static member, percent-encoded',
    example: 'demo-classic-1',
  });

const GROUP_PROBLEMS = [
  'invalid-input',
  'writes-disabled',
  'forbidden',
  'group-not-found',
  'group-type-mismatch',
  'member-removal-unsupported',
  'group-type-unavailable',
  'coordinator-unavailable',
  ...BROKER_PROBLEMS,
] as const;

const removeMember = createRoute({
  method: 'delete',
  path: '/groups/{groupId}/members/{instanceId}',
  middleware: requires({ action: 'remove-members' }),
  operationId: 'removeGroupMember',
  tags: ['writes'],
  summary: 'Remove a static member (LeaveGroup)',
  description:
    'Makes the static member with this group.instance.id leave the group, as if it had left by itself: the group ' +
    'rebalances without waiting for its session to time out. Classic and consumer groups only. A live client may join ' +
    "again. Needs the grant action 'remove-members'; every attempt is logged as an audit line.",
  request: {
    params: z.object({ groupId: GroupIdParam, instanceId: InstanceIdParam }),
    query: strictQuery({ type: WriteTypeParam }),
  },
  responses: {
    200: {
      description: 'The member removed',
      content: { 'application/json': { schema: MemberRemovalSchema } },
    },
    ...problemResponses(...GROUP_PROBLEMS, 'member-not-found'),
  },
});

const removeMembers = createRoute({
  method: 'post',
  path: '/groups/{groupId}/members/remove',
  middleware: requires({ action: 'remove-members', body: 'json' }),
  operationId: 'removeGroupMembers',
  tags: ['writes'],
  summary: 'Remove static members, one outcome each (LeaveGroup)',
  description:
    'Removes several static members by group.instance.id in one LeaveGroup; each gets its own outcome (removed, or the ' +
    "problem, e.g. member-not-found). Classic and consumer groups only. Needs the grant action 'remove-members'; every " +
    'attempt is logged as an audit line.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({ type: WriteTypeParam }),
    body: { required: true, content: { 'application/json': { schema: MemberRemovalRequestSchema } } },
  },
  responses: {
    200: {
      description: 'One outcome per instance id',
      content: { 'application/json': { schema: MemberRemovalsSchema } },
    },
    ...problemResponses(...GROUP_PROBLEMS, 'payload-too-large', 'unsupported-media-type'),
  },
});

export function memberRoutes(app: OpenAPIHono, deps: WriteDeps): void {
  app.openapi(removeMember, async (c) => {
    const { groupId, instanceId } = c.req.valid('param');
    const { type } = c.req.valid('query');
    const answer = await guardedWrite(
      c,
      deps,
      { operation: 'removeGroupMember', action: 'remove-members', groupId, type },
      async (_group, audit) => {
        audit.note({ instanceIds: [instanceId] });
        const outcome = (
          await deps.service.writes.removeMembers(groupId, type, [instanceId], {
            ...deadlineOf(c),
            progress: audit.progress,
          })
        ).get(instanceId);
        if (!outcome) throw new Error(`no outcome for member ${instanceId}`);
        if (!outcome.ok) throw outcome.error;
        audit.note({ removed: [outcome.value] });
        return {
          groupId,
          type,
          instanceId,
          memberId: outcome.value.memberId,
          sent: audit.progress.sent,
        };
      },
    );
    return c.json(answer, 200);
  });

  app.openapi(removeMembers, async (c) => {
    const { groupId } = c.req.valid('param');
    const { type } = c.req.valid('query');
    const { instanceIds } = c.req.valid('json');
    const answer = await guardedWrite(
      c,
      deps,
      { operation: 'removeGroupMembers', action: 'remove-members', groupId, type },
      async (_group, audit) => {
        audit.note({ instanceIds });
        const outcomes = await deps.service.writes.removeMembers(groupId, type, instanceIds, {
          ...deadlineOf(c),
          progress: audit.progress,
        });
        const results = [...new Set(instanceIds)].map((instanceId) => {
          const outcome = outcomes.get(instanceId);
          if (outcome?.ok)
            return { status: 'removed' as const, instanceId, memberId: outcome.value.memberId };
          const error = outcome ? outcome.error : new Error(`no outcome for member ${instanceId}`);
          return {
            status: 'failed' as const,
            instanceId,
            problem: problemOf(error, deps.logger, c.req.path),
          };
        });
        audit.note({
          removed: results.filter((r) => r.status === 'removed').map((r) => r.instanceId),
          failed: results.flatMap((r) =>
            r.status === 'failed' ? [{ instanceId: r.instanceId, problem: r.problem.type }] : [],
          ),
        });
        return { groupId, type, results, sent: audit.progress.sent };
      },
    );
    return c.json(answer, 200);
  });
}
