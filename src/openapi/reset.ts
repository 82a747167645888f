/**
 * Schemas of POST /groups/{groupId}/offsets/reset: the request (a scenario and a scope, or a plan
 * token to execute) and its two answers, the plan of a dry run and the outcome of an execute.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES, parseDuration, RESET_SCENARIOS, SHARE_SCENARIOS } from '../vocabulary.js';
import { KafkaErrorSchema } from './problems.js';
import { expect } from './validation.js';
import { SentField } from './write-schemas.js';

const Int64 = () => z.number().int().openapi({ format: 'int64' });
const Int32 = () => z.number().int().openapi({ format: 'int32' });

/** Most partitions one request may name (a list or a scope). */
export const MAX_RESET_PARTITIONS = 10_000;

const OFFSET_RULE = 'an offset: an integer from 0 to 2^53 - 1';
const PARTITION_RULE = 'a partition: an integer from 0 to 2^31 - 1';
const TOPIC_RULE = 'a topic name of 1 to 249 characters';
const SHIFT_RULE = 'an integer from -(2^53 - 1) to 2^53 - 1';

const Offset = () =>
  z
    .number(expect(OFFSET_RULE))
    .int(expect(OFFSET_RULE))
    .min(0, expect(OFFSET_RULE))
    .max(Number.MAX_SAFE_INTEGER, expect(OFFSET_RULE))
    .openapi({ format: 'int64' });
const Partition = () =>
  z
    .number(expect(PARTITION_RULE))
    .int(expect(PARTITION_RULE))
    .min(0, expect(PARTITION_RULE))
    .max(2_147_483_647, expect(PARTITION_RULE))
    .openapi({ format: 'int32' });
const Topic = () => z.string(expect(TOPIC_RULE)).min(1, expect(TOPIC_RULE)).max(249, expect(TOPIC_RULE));

/** Fields only one scenario takes. */
const SCENARIO_FIELDS = {
  offset: 'to-offset',
  shiftBy: 'shift-by',
  datetime: 'to-datetime',
  duration: 'by-duration',
  offsets: 'from-list',
} as const;

export const ResetOffsetsRequestSchema = z
  .strictObject(
    {
      type: z.enum(GROUP_TYPES, expect(`one of ${GROUP_TYPES.join(', ')}`)).openapi({
        description: 'The type the group must have (required on every write); another type answers 409',
      }),
      scenario: z
        .enum(RESET_SCENARIOS, expect(`one of ${RESET_SCENARIOS.join(', ')}`))
        .optional()
        .openapi({
          description:
            "How targets are chosen, as Kafka's kafka-consumer-groups.sh: to-earliest, to-latest, to-offset (`offset`), " +
            'shift-by (`shiftBy` from the committed offset), to-datetime (`datetime`: the first record at or after it, the ' +
            'end when none is that new), by-duration (`duration`: now minus it, then as to-datetime), to-current (the ' +
            'committed offset; the end where none), from-list (`offsets`). Share groups: to-earliest, to-latest, ' +
            'to-datetime. Required for a plan; with execute=true, optional and checked against the plan.',
        }),
      offset: Offset().optional().openapi({ description: 'to-offset: the target of every partition' }),
      shiftBy: z
        .number(expect(SHIFT_RULE))
        .int(expect(SHIFT_RULE))
        .min(-Number.MAX_SAFE_INTEGER, expect(SHIFT_RULE))
        .max(Number.MAX_SAFE_INTEGER, expect(SHIFT_RULE))
        .optional()
        .openapi({
          format: 'int64',
          description: 'shift-by: added to each committed offset (negative: back)',
        }),
      datetime: z.iso
        .datetime({
          offset: true,
          error: 'an RFC 3339 date-time with a time zone, e.g. 2026-11-30T20:00:00Z',
        })
        .optional()
        .openapi({ format: 'date-time', description: 'to-datetime: the time to go back (or forward) to' }),
      duration: z
        .string(expect('an ISO 8601 duration such as PT1H or P1DT30M'))
        .optional()
        .openapi({ description: 'by-duration: how far back from now (ISO 8601: PT15M, PT1H, P1D)' }),
      offsets: z
        .array(
          z.strictObject({ topic: Topic(), partition: Partition(), offset: Offset() }),
          expect('a list of {topic, partition, offset}'),
        )
        .min(1, expect('a list of 1 or more {topic, partition, offset}'))
        .max(MAX_RESET_PARTITIONS, expect(`at most ${MAX_RESET_PARTITIONS} entries`))
        .optional()
        .openapi({ description: "from-list: the target of each partition named (Kafka's --from-file)" }),
      allTopics: z.boolean(expect('true')).optional().openapi({
        description: "Scope: true, every partition the group has an offset for (Kafka's --all-topics)",
      }),
      topics: z
        .array(
          z.strictObject({
            topic: Topic(),
            partitions: z
              .array(Partition(), expect('a list of partitions'))
              .min(1, expect('a list of 1 or more partitions'))
              .optional()
              .openapi({ description: 'Some partitions only; omitted: every partition of the topic' }),
          }),
          expect('a list of {topic, partitions?}'),
        )
        .min(1, expect('a list of 1 or more {topic, partitions?}'))
        .max(MAX_RESET_PARTITIONS, expect(`at most ${MAX_RESET_PARTITIONS} topics`))
        .optional()
        .openapi({
          description: "Scope: these topics, or some of their partitions (Kafka's --topic t[:p,p])",
        }),
      planToken: z
        .string(expect('the planToken of a dry run'))
        .min(1, expect('the planToken of a dry run'))
        .optional()
        .openapi({
          description: 'With execute=true: the planToken of the dry run to apply (or send it as If-Match)',
        }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `one of the known fields: type, scenario, offset, shiftBy, datetime, duration, offsets, allTopics, topics, planToken`
          : undefined,
    },
  )
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const scenario = body.scenario;
    for (const [field, owner] of Object.entries(SCENARIO_FIELDS)) {
      if (body[field as keyof typeof SCENARIO_FIELDS] === undefined) continue;
      if (scenario === undefined) issue('scenario', `'${owner}' alongside '${field}'`);
      else if (scenario !== owner)
        issue(field, `nothing: only scenario ${owner} takes '${field}', not ${scenario}`);
    }
    if (scenario === undefined) {
      if (body.allTopics !== undefined || body.topics !== undefined)
        issue('scenario', 'a scenario alongside a scope (allTopics or topics)');
      return;
    }
    if (body.type === 'share' && !SHARE_SCENARIOS.includes(scenario)) {
      issue(
        'scenario',
        `for a share group one of ${SHARE_SCENARIOS.join(', ')}: a share group has start offsets, not commits, and Kafka resets them only to these`,
      );
    }
    const required: Partial<Record<string, [keyof typeof body, string]>> = {
      'to-offset': ['offset', OFFSET_RULE],
      'shift-by': ['shiftBy', SHIFT_RULE],
      'to-datetime': ['datetime', 'an RFC 3339 date-time with a time zone, e.g. 2026-11-30T20:00:00Z'],
      'by-duration': ['duration', 'an ISO 8601 duration such as PT1H or P1DT30M'],
      'from-list': ['offsets', 'a list of 1 or more {topic, partition, offset}'],
    };
    const need = Object.hasOwn(required, scenario) ? required[scenario] : undefined;
    if (need && body[need[0]] === undefined) issue(need[0], `${need[1]} (scenario ${scenario} needs it)`);
    if (
      body.duration !== undefined &&
      scenario === 'by-duration' &&
      parseDuration(body.duration) === undefined
    )
      issue(
        'duration',
        'an ISO 8601 duration such as PT1H or P1DT30M (days, hours, minutes, seconds; no sign)',
      );
    if (scenario === 'from-list') {
      if (body.allTopics !== undefined) issue('allTopics', 'nothing: from-list names its partitions itself');
      if (body.topics !== undefined) issue('topics', 'nothing: from-list names its partitions itself');
      const seen = new Set<string>();
      body.offsets?.forEach((o, i) => {
        const key = `${o.topic}:${o.partition}`;
        if (seen.has(key))
          ctx.addIssue({
            code: 'custom',
            path: ['offsets', i],
            message: `each partition once; ${key} is listed twice`,
          });
        seen.add(key);
      });
    } else if (body.allTopics === false) {
      issue('allTopics', 'true, or no allTopics and a topics scope');
    } else if ((body.allTopics === undefined) === (body.topics === undefined)) {
      issue(
        body.topics === undefined ? 'allTopics' : 'topics',
        'exactly one scope: allTopics (true) or topics ([{topic, partitions?}])',
      );
    }
  })
  .openapi('ResetOffsetsRequest', {
    example: {
      type: 'classic',
      scenario: 'shift-by',
      shiftBy: -100,
      topics: [{ topic: 'orders', partitions: [0, 1] }],
    },
  });

export type ResetOffsetsRequestBody = z.infer<typeof ResetOffsetsRequestSchema>;

export const ExecuteParam = z
  .enum(['true', 'false'], expect('true or false'))
  .optional()
  .openapi({
    param: { name: 'execute', in: 'query' },
    description:
      'true: apply the plan of the token (body planToken or If-Match); default false: a dry run that returns a plan',
    example: 'true',
  });

export const CreateParam = z
  .enum(['true', 'false'], expect('true or false'))
  .optional()
  .openapi({
    param: { name: 'create', in: 'query' },
    description:
      'Share groups only. true: a share group that does not exist yet is planned for and, on execute, created ' +
      'with these start offsets (before its first consumer, which then starts there); needs topics or from-list. ' +
      'Give it on the dry run and on the execute. Needs Kafka 4.2 or later (501 `share-group-creation-unsupported` ' +
      'below). Default false: a missing group is a 404, as for every write',
    example: 'true',
  });

export const IfMatchHeader = z
  .string()
  .optional()
  .openapi({
    param: { name: 'if-match', in: 'header' },
    description: 'With execute=true: the planToken (the ETag of the dry run), quoted or not',
  });

export const PlannedPartitionSchema = z
  .object({
    topic: z.string(),
    partition: Int32(),
    current: Int64()
      .nullable()
      .openapi({ description: 'The committed offset now (share: the start offset); null: none' }),
    earliest: Int64().openapi({ description: 'Log start offset' }),
    latest: Int64().openapi({ description: 'Log end offset (high watermark)' }),
    requested: Int64().openapi({ description: 'What the scenario asked for, before clamping' }),
    target: Int64().openapi({
      description: 'What will be committed: requested clamped into [earliest, latest]',
    }),
    clampedTo: z
      .enum(['earliest', 'latest'])
      .nullable()
      .openapi({ description: 'The bound the target was clamped to; null when requested was in range' }),
    reason: z.string().nullable().openapi({
      description: 'Why the target is not simply what was asked (clamped, or a fallback); null otherwise',
    }),
  })
  .openapi('PlannedPartition');

const TYPE_AND_EPOCHS = {
  groupId: z.string(),
  type: z.enum(GROUP_TYPES),
  state: z.string().openapi({ description: "Kafka's state name when the plan was made (or applied)" }),
  groupEpoch: Int32().nullable().openapi({ description: 'Group epoch (null for classic groups)' }),
  assignmentEpoch: Int32()
    .nullable()
    .openapi({ description: 'Target assignment epoch (null for classic groups)' }),
};

const PLAN_EXAMPLE = {
  status: 'planned' as const,
  groupId: 'orders-eu',
  type: 'classic' as const,
  state: 'Empty',
  groupEpoch: null,
  assignmentEpoch: null,
  scenario: 'shift-by' as const,
  timestamp: null,
  partitions: [
    {
      topic: 'orders',
      partition: 0,
      current: 1200,
      earliest: 0,
      latest: 1500,
      requested: 1100,
      target: 1100,
      clampedTo: null,
      reason: null,
    },
    {
      topic: 'orders',
      partition: 1,
      current: 40,
      earliest: 0,
      latest: 1480,
      requested: -60,
      target: 0,
      clampedTo: 'earliest' as const,
      reason: '-60 is below the earliest offset 0',
    },
  ],
  creates: false,
  planToken: 'eyJwIjoicmVzZXQtcGxhbiIsInQiOjE3OTY…',
  expiresAt: '2026-11-30T20:10:00.000Z',
  sent: false,
};

export const ResetPlannedSchema = z
  .object({
    status: z.literal('planned'),
    ...TYPE_AND_EPOCHS,
    scenario: z.enum(RESET_SCENARIOS),
    timestamp: z.string().nullable().openapi({
      format: 'date-time',
      description: 'to-datetime and by-duration: the time looked for; null otherwise',
    }),
    partitions: z.array(PlannedPartitionSchema),
    creates: z.boolean().openapi({
      description:
        'true: the group does not exist yet and executing this plan creates it (a share group, create=true); its ' +
        '`state` is then Dead and its epochs null',
    }),
    planToken: z.string().openapi({
      description:
        'Opaque and signed: hand it back with execute=true (body or If-Match) to apply exactly this plan',
    }),
    expiresAt: z.string().openapi({ format: 'date-time', description: 'After this the token is refused' }),
    sent: SentField,
  })
  .openapi('ResetPlanned', { description: 'A dry run: the plan, nothing changed', example: PLAN_EXAMPLE });

export const AppliedPartitionSchema = z
  .object({
    topic: z.string(),
    partition: Int32(),
    before: Int64().nullable().openapi({ description: 'The offset the plan was made from (null: none)' }),
    after: Int64().openapi({ description: 'The offset committed' }),
    error: z.union([KafkaErrorSchema, z.null()]).optional().openapi({
      description: 'What Kafka answered for this partition when it refused it; null: done (always present)',
    }),
  })
  .openapi('AppliedPartition');

const EXECUTED_EXAMPLE = {
  status: 'executed' as const,
  groupId: 'orders-eu',
  type: 'classic' as const,
  state: 'Empty',
  groupEpoch: null,
  assignmentEpoch: null,
  partitions: [
    { topic: 'orders', partition: 0, before: 1200, after: 1100, error: null },
    { topic: 'orders', partition: 1, before: 40, after: 0, error: null },
  ],
  sent: true,
};

const ALREADY_APPLIED_EXAMPLE = { ...EXECUTED_EXAMPLE, status: 'already-applied' as const, sent: false };

export const ResetExecutedSchema = z
  .object({
    status: z.literal('executed'),
    ...TYPE_AND_EPOCHS,
    partitions: z.array(AppliedPartitionSchema),
    sent: SentField,
  })
  .openapi('ResetExecuted', { description: 'The plan, applied', example: EXECUTED_EXAMPLE });

export const ResetAlreadyAppliedSchema = z
  .object({
    status: z.literal('already-applied'),
    ...TYPE_AND_EPOCHS,
    partitions: z.array(AppliedPartitionSchema),
    sent: SentField,
  })
  .openapi('ResetAlreadyApplied', {
    description:
      "The plan executed again: every planned partition's offset already equals its target (an earlier execute " +
      'of this plan applied it, answered or not), so nothing was sent. `before` and `after` are those of the plan',
    example: ALREADY_APPLIED_EXAMPLE,
  });

export const ResetOutcomeSchema = z
  .discriminatedUnion('status', [ResetPlannedSchema, ResetExecutedSchema, ResetAlreadyAppliedSchema])
  .openapi('ResetOutcome');

export type ResetPlanned = z.infer<typeof ResetPlannedSchema>;
export type ResetExecuted = z.infer<typeof ResetExecutedSchema>;
export type ResetAlreadyApplied = z.infer<typeof ResetAlreadyAppliedSchema>;

export const RESET_EXAMPLES = {
  planned: PLAN_EXAMPLE,
  executed: EXECUTED_EXAMPLE,
  alreadyApplied: ALREADY_APPLIED_EXAMPLE,
};
