/**
 * Changing a group's configs: PATCH /groups/{groupId}/configs, IncrementalAlterConfigs on the
 * GROUP resource. Kafka checks the whole change first (validateOnly), then applies it, so a
 * refused change applies nothing; `dryRun=true` stops after the check. The write gate and the
 * audit line as every write; its own grant action, `configs`.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { type AuditNotes, guardedWrite, guardedWriteOrCreate, type WriteDeps } from '../http/audit.js';
import { deadlineOf } from '../http/middleware.js';
import { requires } from '../http/route-policy.js';
import { BROKER_PROBLEMS, problemResponses } from '../openapi/problems.js';
import { expect, strictQuery } from '../openapi/validation.js';
import { SentField } from '../openapi/write-schemas.js';
import { GroupConfigsSchema } from './group-configs.js';
import { GroupIdParam } from './params.js';
import { DryRunParam, WriteTypeParam } from './writes.js';

const AllowMissingParam = z
  .enum(['true', 'false'], expect('true or false'))
  .optional()
  .openapi({
    param: { name: 'allowMissing', in: 'query' },
    description:
      "true: the group may not exist yet. Kafka keeps a group id's configs before its first member, so a group can " +
      'start with them (e.g. share.auto.offset.reset=earliest before the first share consumer); the group itself is ' +
      'not created, and `type` is taken as given. Default false: a missing group is a 404, so a mistyped id is caught',
    example: 'true',
  });

const ConfigName = z.string().min(1, expect('a config name')).max(249, expect('a config name'));

const GroupConfigChangeSchema = z
  .strictObject({
    set: z
      .record(ConfigName, z.string().max(32_767, expect('a value of at most 32767 characters')))
      .optional()
      .openapi({
        description: 'Configs to set on the group, name → value',
        example: { 'share.auto.offset.reset': 'earliest' },
      }),
    delete: z
      .array(ConfigName)
      .max(100, expect('at most 100 names'))
      .optional()
      .openapi({
        description: "Configs to remove from the group (back to the broker's default)",
        example: ['share.record.lock.duration.ms'],
      }),
  })
  .refine((b) => Object.keys(b.set ?? {}).length + (b.delete?.length ?? 0) > 0, {
    message: 'at least one config in set or delete',
  })
  // Own keys only: `constructor` or `toString` in delete is not "in set" by inheritance.
  .refine((b) => !(b.delete ?? []).some((name) => Object.hasOwn(b.set ?? {}, name)), {
    message: 'a config either in set or in delete, not both',
  })
  .openapi('GroupConfigChange', {
    example: { set: { 'share.auto.offset.reset': 'earliest' }, delete: ['share.record.lock.duration.ms'] },
  });

const GroupConfigsChangedSchema = z
  .object({
    groupId: z.string(),
    type: WriteTypeParam,
    dryRun: z.boolean(),
    groupExists: z.boolean().openapi({
      description:
        'false: no group has this id yet (allowMissing=true); the configs wait for the group made with this id',
    }),
    applied: z
      .boolean()
      .openapi({ description: 'false on a dry run: Kafka checked the change and applied nothing' }),
    set: z.record(z.string(), z.string()),
    delete: z.array(z.string()),
    configs: GroupConfigsSchema.shape.configs.openapi({
      description: "The group's configs after the change (before it, on a dry run)",
    }),
    sent: SentField,
  })
  .openapi('GroupConfigsChanged', {
    example: {
      groupId: 'orders-share',
      type: 'share',
      dryRun: false,
      groupExists: true,
      applied: true,
      sent: true,
      set: { 'share.auto.offset.reset': 'earliest' },
      delete: [],
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
      ],
    },
  });

const patchGroupConfigs = createRoute({
  method: 'patch',
  path: '/groups/{groupId}/configs',
  operationId: 'changeGroupConfigs',
  middleware: requires({ action: 'configs', body: 'json' }),
  tags: ['writes'],
  summary: "Set or delete a group's configs",
  description:
    "IncrementalAlterConfigs on the GROUP resource: Kafka checks the change first (validateOnly) and only then applies it, so a refused change applies nothing. A config Kafka refuses (unknown, out of range, not accepted by this Kafka version) answers 400 naming it, with Kafka's message. `dryRun=true` stops after Kafka's check. The group must exist and have the type named, unless `allowMissing=true`: then a group id no group has yet takes configs too, as Kafka allows, for the group made later with this id. Needs the grant action 'configs'; every attempt is logged as an audit line.",
  request: {
    params: z.object({ groupId: GroupIdParam }),
    query: strictQuery({ type: WriteTypeParam, dryRun: DryRunParam, allowMissing: AllowMissingParam }),
    body: { required: true, content: { 'application/json': { schema: GroupConfigChangeSchema } } },
  },
  responses: {
    200: {
      description: 'What was changed (or, on a dry run, what Kafka accepts), with the configs read back',
      content: { 'application/json': { schema: GroupConfigsChangedSchema } },
    },
    ...problemResponses(
      'invalid-input',
      'writes-disabled',
      'forbidden',
      'group-not-found',
      'group-type-mismatch',
      ...BROKER_PROBLEMS,
    ),
  },
});

export function groupConfigWriteRoutes(app: OpenAPIHono, deps: WriteDeps): void {
  app.openapi(patchGroupConfigs, async (c) => {
    const { groupId } = c.req.valid('param');
    const { type, dryRun, allowMissing } = c.req.valid('query');
    const body = c.req.valid('json');
    const change = { set: body.set ?? {}, delete: body.delete ?? [] };
    const { service } = deps;
    if (!service.alterGroupConfigs || !service.groupConfigs)
      throw new Error('this service changes no group configs');
    const request = { operation: 'changeGroupConfigs', action: 'configs' as const, groupId, type, dryRun };
    // Kafka keeps configs for a group id no group has yet: allowed when the caller says so.
    const gated = <T>(run: (exists: boolean, audit: AuditNotes) => Promise<T>) =>
      allowMissing === 'true'
        ? guardedWriteOrCreate(c, deps, request, (group, audit) => run(group !== null, audit))
        : guardedWrite(c, deps, request, (_group, audit) => run(true, audit));
    const answer = await gated(async (groupExists, audit) => {
      audit.note({ set: change.set, delete: change.delete, ...(!groupExists && { groupExists }) });
      const options = deadlineOf(c);
      await service.alterGroupConfigs?.(groupId, change, true, options);
      if (!dryRun)
        await service.alterGroupConfigs?.(groupId, change, false, { ...options, progress: audit.progress });
      const configs =
        (await service.groupConfigs?.(groupId, { ...options, ...(!dryRun && { showing: change }) })) ?? [];
      return {
        groupId,
        type,
        dryRun,
        groupExists,
        applied: !dryRun,
        ...change,
        configs,
        sent: audit.progress.sent,
      };
    });
    return c.json(answer, 200);
  });
}
