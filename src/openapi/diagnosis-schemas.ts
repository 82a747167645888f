/** The API model of a group's diagnosis: findings with their evidence, and membership churn. */

import { z } from '@hono/zod-openapi';
import { FINDING_CODES, SEVERITIES } from '../vocabulary.js';
import { nullableRef } from './shapes/primitives.js';

const Int64 = () => z.number().int().openapi({ format: 'int64' });
const Int32 = () => z.number().int().openapi({ format: 'int32' });

export const SeveritySchema = z.enum(SEVERITIES).openapi('FindingSeverity', {
  description:
    'error: records are not being consumed or the group cannot make progress; warning: it works but not as configured, ' +
    'or is slow to settle; info: worth knowing (a rebalance in flight, a migration left to do)',
  example: 'warning',
});

export const FindingCodeSchema = z.enum(FINDING_CODES).openapi('FindingCode', {
  description: 'A stable code per rule (see docs/diagnosis.md for the rules and the Kafka fields each reads)',
  example: 'PARTITIONS_PENDING_REVOCATION',
});

/** What a piece of evidence holds: a value Kafka sent, or a list of them (partitions, member ids). */
export type EvidenceValue = string | number | boolean | null | (string | number)[];

// Any JSON value in the document: a union with a list in it is more than some generated clients
// can express (openapi-generator's Java client does not compile one), so the shape is described.
const EvidenceValueSchema = z.unknown().openapi({
  description:
    'The value Kafka sent (or one derived from it, said in `field`): a string, a number, a boolean, null, ' +
    'or a list of strings or numbers',
  example: 3,
});

export const EvidenceSchema = z
  .object({
    field: z
      .string()
      .openapi({ description: 'The field of this API it was read from', example: 'memberEpoch' }),
    source: z.string().openapi({
      description: "Kafka's RPC and field it came from",
      example: 'ConsumerGroupDescribe Members.MemberEpoch',
    }),
    value: EvidenceValueSchema,
  })
  .openapi('Evidence', {
    example: { field: 'memberEpoch', source: 'ConsumerGroupDescribe Members.MemberEpoch', value: 3 },
  });

export const FINDING_EXAMPLE = {
  code: 'PARTITIONS_PENDING_REVOCATION',
  severity: 'warning',
  memberId: 'JZ8dKx3qS2yGmR1c9v4LqA',
  summary:
    'Member JZ8dKx3qS2yGmR1c9v4LqA (client demo-consumer-0) still holds 1 partition the group has moved away from it',
  evidence: [
    { field: 'memberEpoch', source: 'ConsumerGroupDescribe Members.MemberEpoch', value: 3 },
    { field: 'assignmentEpoch', source: 'ConsumerGroupDescribe AssignmentEpoch', value: 4 },
    {
      field: 'partitions',
      source: 'ConsumerGroupDescribe Members.Assignment',
      value: ['demo-events-0', 'demo-events-1'],
    },
    {
      field: 'targetPartitions',
      source: 'ConsumerGroupDescribe Members.TargetAssignment',
      value: ['demo-events-0'],
    },
  ],
  action:
    'The member must revoke these partitions before another member may take them: it is slow in onPartitionsRevoked or does not call poll(). ' +
    'If it stays, look at its processing time against max.poll.interval.ms.',
} as const;

export const FindingSchema = z
  .object({
    code: FindingCodeSchema,
    severity: SeveritySchema,
    memberId: z
      .string()
      .nullable()
      .openapi({ description: 'The member it is about; null for the whole group' }),
    summary: z.string().openapi({ description: 'What is wrong, in a sentence' }),
    evidence: z.array(EvidenceSchema).openapi({ description: 'The Kafka fields read, with their values' }),
    action: z.string().openapi({ description: 'What to do about it' }),
  })
  .openapi('Finding', { example: FINDING_EXAMPLE });

export const ChurnSchema = z
  .object({
    issuedAt: z.string().openapi({ description: 'When the `since` snapshot was taken (ISO 8601)' }),
    intervalMs: Int64(),
    joins: Int32().openapi({ description: 'Members present now that the snapshot did not have' }),
    leaves: Int32().openapi({ description: 'Members of the snapshot no longer present' }),
    epochBumps: Int32().nullable().openapi({
      description: 'How far GroupEpoch moved; null for classic groups (DescribeGroups gives no generation)',
    }),
    joinsPerMinute: z.number().nullable(),
    leavesPerMinute: z.number().nullable(),
    epochBumpsPerMinute: z.number().nullable(),
    rejoined: z.array(z.string()).openapi({
      description:
        'Client ids (or group.instance.id) that left and came back under a new member id (flapping)',
    }),
  })
  .openapi('MembershipChurn', {
    example: {
      issuedAt: '2026-12-01T17:58:00.000Z',
      intervalMs: 120_000,
      joins: 2,
      leaves: 2,
      epochBumps: 4,
      joinsPerMinute: 1,
      leavesPerMinute: 1,
      epochBumpsPerMinute: 2,
      rejoined: ['orders-consumer-3'],
    },
  });

const EXAMPLE_TOKEN =
  'eyJwIjoiZGlhZ25vc2lzLXNuYXBzaG90IiwidCI6MTc2NDU0MjQwMDAwMCwiZCI6eyJnIjoiZGVtby1jb25zdW1lciJ9fQ.c2lnbmF0dXJl';

export const GroupDiagnosisSchema = z
  .object({
    groupId: z.string(),
    type: z.enum(['classic', 'consumer', 'share', 'streams']),
    state: z.string(),
    members: Int32(),
    checkedAt: z.string().openapi({ description: 'When the group was read (ISO 8601)' }),
    stuckAfterSeconds: Int32().openapi({ description: 'The threshold the since rules used' }),
    findings: z.array(FindingSchema).openapi({ description: 'Worst first; empty when nothing is wrong' }),
    since: nullableRef(ChurnSchema, 'Membership churn since the `since` snapshot; null without one'),
    snapshot: z
      .string()
      .nullable()
      .openapi({
        description:
          'A signed snapshot of this reading (members, epochs, offsets): pass it back as `since` for churn, flapping and the rules ' +
          'that need two readings. null when the group is too large for a token',
        example: EXAMPLE_TOKEN,
      }),
  })
  .openapi('GroupDiagnosis', {
    example: {
      groupId: 'demo-consumer',
      type: 'consumer',
      state: 'Reconciling',
      members: 2,
      checkedAt: '2026-12-01T18:00:00.000Z',
      stuckAfterSeconds: 60,
      findings: [FINDING_EXAMPLE],
      since: {
        issuedAt: '2026-12-01T17:59:00.000Z',
        intervalMs: 60_000,
        joins: 1,
        leaves: 0,
        epochBumps: 1,
        joinsPerMinute: 1,
        leavesPerMinute: 0,
        epochBumpsPerMinute: 1,
        rejoined: [],
      },
      snapshot: EXAMPLE_TOKEN,
    },
  });

export type Finding = z.infer<typeof FindingSchema>;
export type Evidence = z.infer<typeof EvidenceSchema>;
export type Churn = z.infer<typeof ChurnSchema>;
export type GroupDiagnosis = z.infer<typeof GroupDiagnosisSchema>;
