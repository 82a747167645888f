/**
 * The events of GET /groups/{groupId}/events and GET /groups.events (text/event-stream): each
 * event's `data` is one JSON object, its shape named by the `event:` field; `id:` is the signed
 * snapshot token a reconnecting client sends back as `Last-Event-ID`.
 */

import { z } from '@hono/zod-openapi';
import { GROUP_TYPES } from '../vocabulary.js';
import { VerdictSchema } from './health-schemas.js';
import { ProblemSchema } from './problem-schema.js';
import { Int32, Int64, nullableRef, TopicPartitionsSchema } from './shapes/primitives.js';

const At = z
  .string()
  .openapi({ description: 'When the poll read it (ISO 8601)', example: '2026-12-01T17:40:05.120Z' });

const EventMemberSchema = z
  .object({
    memberId: z.string(),
    instanceId: z.string().nullable(),
    clientId: z.string(),
    clientHost: z.string(),
    partitions: z
      .array(TopicPartitionsSchema)
      .openapi({ description: 'The partitions the member holds now' }),
  })
  .openapi('EventMember');

export const GroupChangeEventSchema = z
  .object({
    groupId: z.string(),
    type: z.enum(GROUP_TYPES),
    state: z.string(),
    epoch: Int32().nullable().openapi({ description: 'The group epoch; null for classic groups' }),
    assignmentEpoch: Int32().nullable(),
    members: z.array(EventMemberSchema),
    verdict: nullableRef(
      VerdictSchema,
      "The group's health verdict by the default thresholds; null when its offsets could not be read or the caller has no grant with the action `offsets`",
    ),
    changed: z
      .array(z.enum(['appeared', 'type', 'state', 'epoch', 'members', 'assignment', 'verdict']))
      .openapi({
        description:
          'What changed since the snapshot in `Last-Event-ID` (or the previous event); `appeared`: the caller had not seen the group',
      }),
    at: At,
  })
  .openapi('GroupChangeEvent', {
    example: {
      groupId: 'orders-eu',
      type: 'consumer',
      state: 'Stable',
      epoch: 7,
      assignmentEpoch: 7,
      members: [
        {
          memberId: 'kX1d0J5qS7mUgC8n0pQv9A',
          instanceId: null,
          clientId: 'orders-1',
          clientHost: '/10.0.0.21',
          partitions: [{ topic: 'orders', topicId: 'x0iNqXI1Tmq2c3n0o9Jh9w', partitions: [0, 1] }],
        },
      ],
      verdict: 'OK',
      changed: ['epoch', 'members', 'assignment'],
      at: '2026-12-01T17:40:05.120Z',
    },
  });

export const GroupRemovedEventSchema = z
  .object({ groupId: z.string(), at: At })
  .openapi('GroupRemovedEvent', {
    description: 'A group the caller had seen is gone (deleted, of another type now, or out of its grants)',
  });

export const GroupLagEventSchema = z
  .object({
    groupId: z.string(),
    type: z.enum(GROUP_TYPES),
    lag: Int64().nullable().openapi({ description: 'Records behind, summed over the partitions' }),
    maxTimeLagMs: z
      .object({ min: Int64(), max: Int64() })
      .nullable()
      .openapi({ description: "Bounds on the group's largest time lag, ms" }),
    partitions: Int32(),
    verdict: VerdictSchema,
    at: At,
  })
  .openapi('GroupLagEvent', {
    description: 'Sent every EVENTS_LAG_INTERVAL_MS per group, to callers granted `offsets` on it',
    example: {
      groupId: 'orders-eu',
      type: 'consumer',
      lag: 1240,
      maxTimeLagMs: { min: 95_200, max: 95_950 },
      partitions: 2,
      verdict: 'LAGGING',
      at: '2026-12-01T17:40:05.120Z',
    },
  });

export const OverflowEventSchema = z
  .object({
    matching: Int32().openapi({ description: 'Groups the filters match' }),
    watched: Int32().openapi({
      description: 'Groups this stream watches: the first EVENTS_MAX_GROUPS by id',
    }),
    at: At,
  })
  .openapi('StreamOverflowEvent');

export const StreamEndEventSchema = z
  .object({
    reason: z.literal('lifetime').openapi({ description: 'The stream reached EVENTS_MAX_LIFETIME_MS' }),
    reconnectAfterMs: Int32().openapi({ description: 'The `retry:` sent with it' }),
    at: At,
  })
  .openapi('StreamEndEvent');

/** One event as it travels: `event:` names which `data` shape follows. */
export const GroupStreamEventSchema = z
  .union([
    z.object({ event: z.literal('group'), id: z.string(), data: GroupChangeEventSchema }),
    z.object({ event: z.literal('removed'), id: z.string(), data: GroupRemovedEventSchema }),
    z.object({ event: z.literal('lag'), id: z.string(), data: GroupLagEventSchema }),
    z.object({ event: z.literal('overflow'), data: OverflowEventSchema }),
    z.object({ event: z.literal('poll-failed'), data: ProblemSchema }),
    z.object({ event: z.literal('end'), retry: Int32(), data: StreamEndEventSchema }),
  ])
  .openapi('GroupStreamEvent', {
    description:
      'One server-sent event: `event:` names the shape of `data` (one JSON line). `id:` is a signed snapshot of what the ' +
      'caller has seen; sent back as `Last-Event-ID` it resumes the stream with the changes since, not a replay. Lines ' +
      'starting with `:` are heartbeats. `poll-failed` carries the problem of a poll that failed (the stream polls again); ' +
      '`end` closes the stream at its maximum lifetime with `retry:`.',
    example: {
      event: 'group',
      id: 'eyJwIjoiZ3JvdXAtZXZlbnRzIn0.c2lnbmF0dXJl',
      data: {
        groupId: 'orders-eu',
        type: 'consumer',
        state: 'Stable',
        epoch: 7,
        assignmentEpoch: 7,
        members: [],
        verdict: 'OK',
        changed: ['epoch', 'members'],
        at: '2026-12-01T17:40:05.120Z',
      },
    },
  });

export type GroupChangeEvent = z.infer<typeof GroupChangeEventSchema>;
export type GroupLagEvent = z.infer<typeof GroupLagEventSchema>;
