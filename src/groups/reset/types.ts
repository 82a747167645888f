/**
 * The shapes of a reset, shared by its planning and its apply (apply.ts): the group as a plan
 * saw it, the plan, the plan handed back to be applied, and what applying it did.
 */

import type { KafkaErrorInfo } from '../../broker/errors.js';
import type { Group, GroupType } from '../model.js';
import type { PlannedPartition } from './plan.js';

/** The group as a plan saw it: what must still hold when the plan is applied. */
export interface PlanBasis {
  state: string;
  groupEpoch: number | null;
  assignmentEpoch: number | null;
}

export interface ResetPlan extends PlanBasis {
  groupId: string;
  type: GroupType;
  /** to-datetime and by-duration: the time looked for (epoch ms); null otherwise. */
  timestamp: number | null;
  partitions: PlannedPartition[];
  /** The group does not exist yet: applying the plan creates it (share groups, create=true). */
  creates: boolean;
}

/** A plan handed back to be applied: its basis, and per partition the current offset and the target. */
export interface PlanToApply extends PlanBasis {
  groupId: string;
  type: GroupType;
  partitions: { topic: string; partition: number; current: number | null; target: number }[];
}

export interface AppliedPartition {
  topic: string;
  partition: number;
  before: number | null;
  after: number;
  /** Kafka refused this partition; the others stand. */
  error: KafkaErrorInfo | null;
}

/**
 * What executing a plan did: `applied` (sent to Kafka, per-partition outcomes), or
 * `already-applied` (every planned partition already at its target: nothing sent).
 */
export interface AppliedReset {
  outcome: 'applied' | 'already-applied';
  partitions: AppliedPartition[];
}

export const applied = (
  p: PlanToApply['partitions'][number],
  error: KafkaErrorInfo | null,
): AppliedPartition => ({
  topic: p.topic,
  partition: p.partition,
  before: p.current,
  after: p.target,
  error,
});

// Defined with the other write errors, which the problem table loads without the reset code.
export { PlanStaleError } from '../writes/errors.js';

/**
 * The group a reset is for: one the write gate just described, or, for a share group created by
 * its reset (create=true), one that does not exist yet (`absent`, state Dead, no epochs).
 */
export type ResetGroup = Pick<
  Group,
  'groupId' | 'type' | 'state' | 'groupEpoch' | 'assignmentEpoch' | 'members'
> & {
  absent?: boolean;
};

/** A share group that does not exist yet, as its reset with create=true plans for it. */
export const absentShareGroup = (groupId: string): ResetGroup => ({
  groupId,
  type: 'share',
  state: 'Dead',
  groupEpoch: null,
  assignmentEpoch: null,
  members: [],
  absent: true,
});

export const planBasisOf = (group: ResetGroup): PlanBasis => ({
  state: group.state,
  groupEpoch: group.groupEpoch,
  assignmentEpoch: group.assignmentEpoch,
});
