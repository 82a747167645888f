/**
 * The answers of the write routes that delete and remove (the reset has its own): what was deleted
 * or removed, so the caller and the audit line see the same facts.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';
import { ProblemSchema } from './problems.js';

const GroupTypeField = z
  .enum(GROUP_TYPES)
  .openapi({ description: 'The type of the group', example: 'classic' });

/** On every write answer: whether the write request left for Kafka (groups/writes/progress.ts). */
export const SentField = z.boolean().openapi({
  description:
    'Whether the write request was sent to Kafka. true: sent and answered, so applied as this answer says. false: ' +
    'nothing was sent (a dry run, a reset plan that already stands, nothing to delete). A failed write says the same ' +
    "in its problem's `sent`",
  example: true,
});

export const DeletedOffsetSchema = z
  .object({
    topic: z.string(),
    partition: z.number().int().openapi({ format: 'int32' }),
    offset: z.number().int().nullable().openapi({
      format: 'int64',
      description: 'The offset that was committed (share groups: the start offset); null where none was',
    }),
  })
  .openapi('DeletedOffset', { example: { topic: 'orders', partition: 0, offset: 1200 } });

export const GroupDeletionSchema = z
  .object({
    groupId: z.string(),
    type: GroupTypeField,
    state: z.string().openapi({ description: 'The state the group was in (Empty: no members)' }),
    dryRun: z.boolean().openapi({ description: 'true: nothing was deleted, this is what would be' }),
    deleted: z.boolean().openapi({ description: 'Whether the group is gone now (false on a dry run)' }),
    sent: SentField,
    offsets: z
      .array(DeletedOffsetSchema)
      .openapi({ description: 'The committed offsets (share groups: start offsets) deleted with the group' }),
  })
  .openapi('GroupDeletion', {
    example: {
      groupId: 'demo-empty',
      type: 'classic',
      state: 'Empty',
      dryRun: false,
      deleted: true,
      sent: true,
      offsets: [
        { topic: 'demo-orders', partition: 0, offset: 40 },
        { topic: 'demo-orders', partition: 1, offset: 40 },
      ],
    },
  });

export const OffsetsDeletionSchema = z
  .object({
    groupId: z.string(),
    type: GroupTypeField,
    topic: z.string(),
    deleted: z
      .array(DeletedOffsetSchema)
      .openapi({ description: 'The partitions whose offset was deleted, with the offset that was there' }),
    sent: SentField,
  })
  .openapi('OffsetsDeletion', {
    example: {
      groupId: 'demo-classic',
      type: 'classic',
      topic: 'demo-payments',
      deleted: [{ topic: 'demo-payments', partition: 0, offset: 15 }],
      sent: true,
    },
  });

export const MemberRemovalSchema = z
  .object({
    groupId: z.string(),
    type: GroupTypeField,
    instanceId: z.string().openapi({ description: 'The group.instance.id of the member removed' }),
    memberId: z.string().nullable().openapi({ description: 'The member id Kafka removed, where it said' }),
    sent: SentField,
  })
  .openapi('MemberRemoval', {
    example: {
      groupId: 'demo-classic',
      type: 'classic',
      instanceId: 'demo-classic-1',
      memberId: 'demo-classic-1-3f0c2a9e-5d7b-4b1e-8f61-2a9c0d4e7b13',
      sent: true,
    },
  });

export const MAX_REMOVALS = 100;

// Strict: a field this route does not take (a `dryRun`, say) is refused, not dropped while the removal goes on.
export const MemberRemovalRequestSchema = z
  .strictObject({
    instanceIds: z
      .array(z.string().min(1, 'a non-empty group.instance.id'), 'a list of group.instance.id strings')
      .min(1, `1 to ${MAX_REMOVALS} group.instance.id strings`)
      .max(MAX_REMOVALS, `1 to ${MAX_REMOVALS} group.instance.id strings`)
      .openapi({ description: 'The group.instance.id of each static member to remove' }),
  })
  .openapi('MemberRemovalRequest', { example: { instanceIds: ['demo-classic-1', 'demo-classic-9'] } });

export const MemberRemovalOutcomeSchema = z
  .discriminatedUnion('status', [
    z
      .object({
        status: z.literal('removed'),
        instanceId: z.string(),
        memberId: z.string().nullable(),
      })
      .openapi('MemberRemoved'),
    z
      .object({
        status: z.literal('failed'),
        instanceId: z.string(),
        problem: ProblemSchema,
      })
      .openapi('MemberRemovalFailed'),
  ])
  .openapi('MemberRemovalOutcome');

export const MemberRemovalsSchema = z
  .object({
    groupId: z.string(),
    type: GroupTypeField,
    results: z
      .array(MemberRemovalOutcomeSchema)
      .openapi({ description: 'One outcome per instance id, in the order asked' }),
    sent: SentField,
  })
  .openapi('MemberRemovals', {
    example: {
      groupId: 'demo-classic',
      type: 'classic',
      results: [
        {
          status: 'removed',
          instanceId: 'demo-classic-1',
          memberId: 'demo-classic-1-3f0c2a9e-5d7b-4b1e-8f61-2a9c0d4e7b13',
        },
        {
          status: 'failed',
          instanceId: 'demo-classic-9',
          problem: {
            type: '/problems/member-not-found',
            title: 'Member not found',
            status: 404,
            detail: "group 'demo-classic' has no member with group.instance.id 'demo-classic-9'",
            groupId: 'demo-classic',
            instanceId: 'demo-classic-9',
            kafkaError: { code: 25, name: 'UNKNOWN_MEMBER_ID', message: null },
          },
        },
      ],
      sent: true,
    },
  });
