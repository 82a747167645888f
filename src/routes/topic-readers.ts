/**
 * Who reads a topic: every visible group, read in batches (one describe of the groups not listed
 * Empty, one offsets RPC per coordinator, one ListOffsets per leader of the topic's partitions
 * each), kept when it has
 * committed offsets on the topic, subscribes to it or holds its partitions, with its lag there.
 * A group whose description or offsets cannot be read is reported as unreadable, never dropped.
 */

import { z } from '@hono/zod-openapi';
import type { Deadline } from '../broker/deadline.js';
import { GroupNotFoundError } from '../groups/errors.js';
import { pipelined, readsTopic } from '../groups/estate.js';
import type { GroupListing, GroupType } from '../groups/model.js';
import { type GroupService, type ListedOffsetsOptions, listedWithoutMembers } from '../groups/service.js';
import { type Problem, ProblemSchema } from '../openapi/problems.js';
import { GroupListingSchema, GroupOffsetsSchema, LagTotalsSchema } from '../openapi/schemas.js';
import { GROUP_OFFSETS_EXAMPLE } from '../openapi/shapes/offsets.js';
import { Int32 } from '../openapi/shapes/primitives.js';
import { batchReader } from './group-lines.js';

/** A reader of the topic as the examples of the document show it. */
export const TOPIC_GROUP_EXAMPLE = {
  groupId: 'demo-classic',
  type: 'classic',
  protocolType: 'consumer',
  state: 'Stable',
  members: 2,
  // The demo group reads only demo-events, so its lag there is its offsets' totals.
  lag: GROUP_OFFSETS_EXAMPLE.totals,
} as const;

export const TopicGroupSchema = GroupListingSchema.extend({
  members: Int32().openapi({ description: 'Members of the group' }),
  lag: LagTotalsSchema.openapi({ description: "The group's lag on this topic only" }),
  partitions: GroupOffsetsSchema.shape.topics.element.shape.partitions.optional().openapi({
    description: "With include=partitions: the topic's partitions the group has an offset on or holds",
  }),
}).openapi('TopicGroup', {
  description:
    'A group that reads the topic (committed offsets on it, a subscription, or its partitions held)',
  example: TOPIC_GROUP_EXAMPLE,
});

export const UnreadableGroupSchema = z
  .object({
    groupId: z.string(),
    type: GroupListingSchema.shape.type,
    problem: ProblemSchema,
  })
  .openapi('UnreadableGroup', {
    description:
      'A listed group whose description or offsets could not be read: whether it reads the topic is unknown',
  });

export type TopicGroup = z.infer<typeof TopicGroupSchema>;
export type UnreadableGroup = z.infer<typeof UnreadableGroupSchema>;
export type TopicReading = { reader: TopicGroup } | { unreadable: UnreadableGroup };

/** The readers of `topic` among `listed`, batch by batch, in the listing's order. */
export async function* topicReaders(
  service: GroupService,
  listed: readonly GroupListing[],
  topic: string,
  options: {
    offsets: ListedOffsetsOptions;
    partitions: boolean;
    problem: (error: unknown) => Problem;
    /** Bounds the reads; the groups whose batch it leaves unread are `unreadable` (request-timeout). */
    deadline?: Deadline;
  },
): AsyncGenerator<TopicReading[]> {
  // Groups listed Empty are not described: with no members, only their offsets can make them readers.
  const read = batchReader(service, { ...options.offsets, topic }, true);
  const deadline = options.deadline;
  for await (const { batch, answer } of pipelined(listed, read, deadline ? { deadline } : {})) {
    const out: TopicReading[] = [];
    for (const listing of batch) {
      const group = answer instanceof Error ? undefined : answer.groups.get(listing.groupId);
      const table = answer instanceof Error ? undefined : answer.offsets?.get(listing.groupId);
      const memberless = !group && listedWithoutMembers(listing);
      if ((group?.ok || memberless) && table?.ok) {
        const mine = table.value.topics.find((t) => t.topic === topic);
        if (!mine && !(group?.ok && readsTopic(group.value, topic))) continue;
        out.push({
          reader: {
            groupId: listing.groupId,
            type: group?.ok ? group.value.type : (listing.type as GroupType),
            protocolType: listing.protocolType,
            state: group?.ok ? group.value.state : listing.state,
            members: group?.ok ? group.value.members.length : 0,
            lag: table.value.totals,
            ...(options.partitions && { partitions: mine?.partitions ?? [] }),
          },
        });
        continue;
      }
      const error =
        answer instanceof Error
          ? answer
          : group && !group.ok
            ? group.error
            : table && !table.ok
              ? table.error
              : null;
      // Deleted since it was listed: it reads nothing now.
      if (error instanceof GroupNotFoundError) continue;
      out.push({
        unreadable: {
          groupId: listing.groupId,
          type: listing.type,
          problem: options.problem(error ?? new Error('no answer for this group')),
        },
      });
    }
    yield out;
  }
}
