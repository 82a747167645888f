/**
 * POST /groups/{groupId}/offsets/reset: a dry run answers the plan and a signed token of it; with
 * execute=true the token's plan is applied, exactly, or refused when the group changed since.
 * The write gate (WRITES, grants, the group exists and has the type asked) and the audit line come
 * from http/audit.ts, so a reset cannot skip either.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { CallOptions } from '../broker/deadline.js';
import { absentShareGroup, type ResetGroup, type ResetRequest } from '../groups/reset/apply.js';
import { parseDuration, ResetPlanError, type ResetScenario } from '../groups/reset/plan.js';
import {
  fromWire,
  PLAN_TOKEN_MAX_AGE_MS,
  PLAN_TOKEN_MAX_CHARS,
  PLAN_TOKEN_PURPOSE,
  type PlanBinding,
  requestDigest,
  toWire,
} from '../groups/reset/token.js';
import { type AuditNotes, guardedWrite, guardedWriteOrCreate, type WriteDeps } from '../http/audit.js';
import { deadlineOf, tokenClusterOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import {
  CreateParam,
  ExecuteParam,
  IfMatchHeader,
  RESET_EXAMPLES,
  type ResetAlreadyApplied,
  type ResetExecuted,
  type ResetOffsetsRequestBody,
  ResetOffsetsRequestSchema,
  ResetOutcomeSchema,
  type ResetPlanned,
} from '../openapi/reset.js';
import { describeTokens, strictQuery } from '../openapi/validation.js';
import { bindCluster, clusterMismatch, type TokenCluster } from '../tokens/cluster-binding.js';
import type { TokenSigner } from '../tokens/signed.js';
import { GroupIdParam } from './params.js';

const resetOffsets = createRoute({
  method: 'post',
  path: '/groups/{groupId}/offsets/reset',
  middleware: requires({ action: 'reset-offsets', body: 'json' }),
  operationId: 'resetGroupOffsets',
  tags: ['writes'],
  summary: "Reset a group's offsets: a plan first, then exactly that plan",
  description:
    'Classic, consumer and streams groups (OffsetCommit as an admin commit) and share groups (AlterShareGroupOffsets), ' +
    "with the scenarios of Kafka's kafka-consumer-groups.sh. A dry run (the default) answers the plan: per partition the " +
    'current offset, the earliest and latest, what the scenario asked and the target, clamped into [earliest, latest] ' +
    'and marked when it was; and a signed `planToken` (also the ETag), valid 10 minutes, bound to the group, its type, ' +
    'state and epochs, the offsets the plan was made from and the targets. `execute=true` with that token (body ' +
    '`planToken` or `If-Match`) applies exactly the plan, or answers 409 `plan-stale` when the group changed since. ' +
    'Executing the same token again is safe: when every planned offset already equals its target (the first execute ' +
    'applied it, even if its answer was lost), the answer is 200 `already-applied` and nothing is sent; when the offsets ' +
    'moved elsewhere, 409 `plan-stale`. Every answer, and every problem, says in `sent` whether a write request left ' +
    'for Kafka. The ' +
    'group must exist, be of `type` and have no members (409 `group-not-empty`); a reset never creates a group, but ' +
    'for a share group with `create=true` (on the dry run and on the execute): a share group that does not exist yet ' +
    'is planned for (`creates: true`, topics or from-list required) and created with its start offsets by the execute ' +
    '(Kafka 4.2 or later; older brokers answer 501 `share-group-creation-unsupported`). ' +
    'Needs the `reset-offsets` grant. Every attempt is one audit log line.',
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({ execute: ExecuteParam, create: CreateParam }),
    headers: z.object({ 'if-match': IfMatchHeader }),
    body: { required: true, content: { 'application/json': { schema: ResetOffsetsRequestSchema } } },
  },
  responses: {
    200: {
      description: 'The plan (dry run) or what was applied (execute=true)',
      headers: {
        ETag: {
          description: 'Dry run: the planToken, quoted, for If-Match',
          schema: { type: 'string' },
        },
      },
      content: {
        'application/json': {
          schema: ResetOutcomeSchema,
          examples: {
            planned: { summary: 'A dry run: the plan', value: RESET_EXAMPLES.planned },
            executed: { summary: 'The plan applied', value: RESET_EXAMPLES.executed },
            alreadyApplied: {
              summary: 'The plan executed again after it was applied: nothing sent',
              value: RESET_EXAMPLES.alreadyApplied,
            },
          },
        },
      },
    },
    ...problemResponses(
      'invalid-input',
      'forbidden',
      'writes-disabled',
      'group-not-found',
      'group-type-mismatch',
      'group-not-empty',
      'plan-stale',
      'group-type-unavailable',
      'share-group-creation-unsupported',
      'coordinator-unavailable',
      ...BROKER_PROBLEMS,
    ),
  },
});

const TOKEN_RULE = 'the planToken of a dry run of this group, at most 10 minutes old';

/** The scenario and scope of a valid body (the schema has checked their combinations). */
function resetRequest(body: ResetOffsetsRequestBody): ResetRequest {
  let scenario: ResetScenario;
  switch (body.scenario) {
    case 'to-offset':
      scenario = { kind: 'to-offset', offset: body.offset ?? 0 };
      break;
    case 'shift-by':
      scenario = { kind: 'shift-by', shiftBy: body.shiftBy ?? 0 };
      break;
    case 'to-datetime':
      scenario = { kind: 'to-datetime', timestamp: Date.parse(body.datetime ?? '') };
      break;
    case 'by-duration':
      scenario = { kind: 'by-duration', durationMs: parseDuration(body.duration ?? '') ?? 0 };
      break;
    case 'from-list':
      scenario = { kind: 'from-list', offsets: body.offsets ?? [] };
      break;
    case 'to-earliest':
    case 'to-latest':
    case 'to-current':
      scenario = { kind: body.scenario };
      break;
    case undefined:
      throw new ResetPlanError('scenario', 'one of the scenarios', 'a dry run needs a scenario');
  }
  const scope: ResetRequest['scope'] =
    body.scenario === 'from-list'
      ? { kind: 'listed' }
      : body.topics
        ? {
            kind: 'topics',
            topics: body.topics.map((t) => ({
              topic: t.topic,
              ...(t.partitions && { partitions: t.partitions }),
            })),
          }
        : { kind: 'all-topics' };
  return { scenario, scope };
}

/** What the digest covers: the request without the token and the type (both bound on their own). */
function asked(body: ResetOffsetsRequestBody): Omit<ResetOffsetsRequestBody, 'planToken' | 'type'> {
  const { planToken: _token, type: _type, ...rest } = body;
  return rest;
}

/** An ETag-style value: `"token"` or `W/"token"` or the bare token. */
function fromIfMatch(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(value);
  return (m ? m[1] : value.trim()) || undefined;
}

async function plan(
  deps: ResetDeps,
  cluster: TokenCluster,
  group: ResetGroup,
  body: ResetOffsetsRequestBody,
  audit: AuditNotes,
  options: CallOptions,
): Promise<{ answer: ResetPlanned; token: string }> {
  const request = resetRequest(body);
  audit.note({ scenario: body.scenario, ...(group.absent && { creates: true }) });
  const planned = await deps.service.writes.planReset(group, request, options);
  audit.note({
    partitions: planned.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      before: p.current,
      after: p.target,
      clampedTo: p.clampedTo,
    })),
  });
  const binding: PlanBinding = {
    groupId: planned.groupId,
    type: planned.type,
    state: planned.state,
    groupEpoch: planned.groupEpoch,
    assignmentEpoch: planned.assignmentEpoch,
    request: await requestDigest(asked(body)),
    partitions: planned.partitions.map(({ topic, partition, current, target }) => ({
      topic,
      partition,
      current,
      target,
    })),
  };
  const token = await deps.tokens.sign(PLAN_TOKEN_PURPOSE, bindCluster(toWire(binding), cluster));
  const answer: ResetPlanned = {
    status: 'planned',
    groupId: planned.groupId,
    type: planned.type,
    state: planned.state,
    groupEpoch: planned.groupEpoch,
    assignmentEpoch: planned.assignmentEpoch,
    scenario: body.scenario ?? 'to-current',
    timestamp: planned.timestamp === null ? null : new Date(planned.timestamp).toISOString(),
    partitions: planned.partitions,
    creates: planned.creates,
    planToken: token,
    expiresAt: new Date(Date.now() + PLAN_TOKEN_MAX_AGE_MS).toISOString(),
    sent: false,
  };
  return { answer, token };
}

/** The plan a token holds, for this group and type, or a 400 naming what is wrong with it. */
async function verifiedPlan(
  deps: ResetDeps,
  cluster: TokenCluster,
  groupId: string,
  body: ResetOffsetsRequestBody,
  ifMatch: string | undefined,
): Promise<PlanBinding> {
  const header = fromIfMatch(ifMatch);
  const token = body.planToken ?? header;
  const where = body.planToken === undefined && header !== undefined ? 'header' : 'body';
  const field = where === 'header' ? 'if-match' : 'planToken';
  const refuse = (message: string): never => {
    throw new ResetPlanError(
      field,
      TOKEN_RULE,
      message,
      token === undefined ? null : describeTokens([token]),
      where,
    );
  };
  if (token === undefined)
    return refuse(
      'execute=true applies the plan of a dry run: send its planToken in the body or as If-Match',
    );
  if (body.planToken !== undefined && header !== undefined && body.planToken !== header)
    return refuse('the body planToken and If-Match name different plans');
  const verified = await deps.tokens.verify(PLAN_TOKEN_PURPOSE, token, {
    maxAgeMs: PLAN_TOKEN_MAX_AGE_MS,
    maxChars: PLAN_TOKEN_MAX_CHARS,
  });
  if (!verified.ok) return refuse(`the plan token is refused (${verified.reason}): ${verified.message}`);
  const elsewhere = clusterMismatch(verified.data, cluster);
  if (elsewhere) return refuse(`the plan token is refused: ${elsewhere}`);
  const binding = fromWire(verified.data);
  if (!binding) return refuse('the plan token is refused (malformed): it holds no plan');
  if (binding.groupId !== groupId) return refuse('the plan token was made for another group');
  if (binding.type !== body.type)
    return refuse(`the plan token was made for a ${binding.type} group, not a ${body.type} group`);
  if (body.scenario !== undefined && (await requestDigest(asked(body))) !== binding.request)
    return refuse('the body asks for another reset than the plan token was made for');
  return binding;
}

async function execute(
  deps: ResetDeps,
  group: ResetGroup,
  binding: PlanBinding,
  audit: AuditNotes,
  options: CallOptions,
): Promise<ResetExecuted | ResetAlreadyApplied> {
  audit.note({
    partitions: binding.partitions.map((p) => ({
      topic: p.topic,
      partition: p.partition,
      before: p.current,
      after: p.target,
    })),
  });
  const { outcome, partitions } = await deps.service.writes.applyReset(group, binding, {
    ...options,
    progress: audit.progress,
  });
  audit.note({ reset: outcome });
  const refused = partitions.filter((p) => p.error !== null);
  if (refused.length > 0)
    audit.note({
      refused: refused.map((p) => ({ topic: p.topic, partition: p.partition, error: p.error?.name })),
    });
  return {
    status: outcome === 'already-applied' ? 'already-applied' : 'executed',
    groupId: group.groupId,
    type: group.type,
    state: group.state,
    groupEpoch: group.groupEpoch,
    assignmentEpoch: group.assignmentEpoch,
    partitions,
    sent: audit.progress.sent,
  };
}

export interface ResetDeps extends WriteDeps {
  tokens: TokenSigner;
}

export function resetRoutes(app: OpenAPIHono, writes: WriteDeps, tokens: TokenSigner): void {
  const deps: ResetDeps = { ...writes, tokens };
  app.openapi(resetOffsets, async (c) => {
    const { groupId } = c.req.valid('param');
    const executing = c.req.valid('query').execute === 'true';
    const create = c.req.valid('query').create === 'true';
    const ifMatch = c.req.valid('header')['if-match'];
    const body = c.req.valid('json');
    const request = {
      action: 'reset-offsets' as const,
      operation: 'resetGroupOffsets',
      groupId,
      type: body.type,
      dryRun: !executing,
    };
    if (create && body.type !== 'share')
      throw new ResetPlanError(
        'create',
        'true only with type share',
        `only a share group is created by its reset (Kafka's AlterShareGroupOffsets); a ${body.type} group is never created here`,
        'true',
        'query',
      );
    // create=true: a share group that does not exist yet is planned for and created (KAFKA-19662).
    const gated = <T>(run: (group: ResetGroup, audit: AuditNotes) => Promise<T>) =>
      create
        ? guardedWriteOrCreate(c, deps, request, (group, audit) =>
            run(group ?? absentShareGroup(groupId), audit),
          )
        : guardedWrite(c, deps, request, run);
    if (!executing) {
      const { answer, token } = await gated(async (group, audit) =>
        plan(deps, await tokenClusterOf(c, deps.service), group, body, audit, deadlineOf(c)),
      );
      return c.json(answer, 200, { etag: `"${token}"` });
    }
    const answer = await gated(async (group, audit) =>
      execute(
        deps,
        group,
        await verifiedPlan(deps, await tokenClusterOf(c, deps.service), groupId, body, ifMatch),
        audit,
        deadlineOf(c),
      ),
    );
    return c.json(answer, 200);
  });
}
