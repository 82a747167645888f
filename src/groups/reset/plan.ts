/**
 * Reset plans as pure functions: a scenario and what Kafka says of each partition (the committed
 * offset, the earliest and latest offsets, the offset at a timestamp) → the target of each
 * partition, clamped into [earliest, latest]. Nothing here talks to a broker, so every rule is
 * unit-tested and property-tested apart from the broker.
 *
 * The scenarios are those of Kafka's kafka-consumer-groups.sh (GroupOffsetsResetter): to-earliest,
 * to-latest, to-offset, shift-by, to-datetime, by-duration (now minus the duration, then as
 * to-datetime), to-current, and from-list (the CLI's --from-file, given inline). Where Kafka's tool
 * differs per scenario, this follows it, except that every target is clamped: the CLI leaves
 * to-current unclamped, but a committed offset outside the log (retention deleted records, a
 * truncated log) is a target a consumer would only reset again on its own.
 */

import { ResetPlanError } from '../writes/errors.js';

export { ResetPlanError };

export interface PartitionOffsetRef {
  topic: string;
  partition: number;
  offset: number;
}

export type ResetScenario =
  | { kind: 'to-earliest' }
  | { kind: 'to-latest' }
  | { kind: 'to-current' }
  | { kind: 'to-offset'; offset: number }
  | { kind: 'shift-by'; shiftBy: number }
  /** `timestamp`: epoch ms; by-duration is turned into this at planning time (now - duration). */
  | { kind: 'to-datetime'; timestamp: number }
  | { kind: 'by-duration'; durationMs: number }
  | { kind: 'from-list'; offsets: PartitionOffsetRef[] };

/** What Kafka says of one partition, read just before planning. */
export interface PartitionFacts {
  topic: string;
  partition: number;
  /** The committed offset (share groups: the start offset); null when there is none. */
  current: number | null;
  /** Log start offset (ListOffsets earliest). */
  earliest: number;
  /** High watermark (ListOffsets latest). */
  latest: number;
  /**
   * to-datetime / by-duration: the first offset whose record time is at or after the timestamp;
   * null when no record is that new (ListOffsets answered -1).
   */
  atTimestamp?: number | null;
}

export type Clamp = 'earliest' | 'latest';

export interface PlannedPartition {
  topic: string;
  partition: number;
  current: number | null;
  earliest: number;
  latest: number;
  /** What the scenario asked for before clamping. */
  requested: number;
  /** What will be committed: `requested` clamped into [earliest, latest]. */
  target: number;
  /** Which bound the target was clamped to; null when `requested` was in range. */
  clampedTo: Clamp | null;
  /** Why the target is not simply what was asked (clamped, or a fallback); null otherwise. */
  reason: string | null;
}

export const partitionKey = (topic: string, partition: number) => `${topic}:${partition}`;

/** `requested` clamped into [earliest, latest], with which bound and why. */
export function clamp(
  requested: number,
  earliest: number,
  latest: number,
): { target: number; clampedTo: Clamp | null; reason: string | null } {
  if (requested > latest) {
    return {
      target: latest,
      clampedTo: 'latest',
      reason: `${requested} is above the latest offset ${latest}`,
    };
  }
  if (requested < earliest) {
    return {
      target: earliest,
      clampedTo: 'earliest',
      reason: `${requested} is below the earliest offset ${earliest}`,
    };
  }
  return { target: requested, clampedTo: null, reason: null };
}

/** The timestamp a by-duration reset looks for: `now` minus the duration, as Kafka's tool. */
export function durationTimestamp(now: number, durationMs: number): number {
  return now - durationMs;
}

/**
 * The plan: one row per partition of `facts`, in the order given. `scenario` must be resolved
 * (by-duration turned into to-datetime by the caller, who knows "now").
 */
export function planTargets(scenario: ResetScenario, facts: readonly PartitionFacts[]): PlannedPartition[] {
  if (scenario.kind === 'shift-by') {
    const without = facts.filter((f) => f.current === null);
    if (without.length > 0) {
      throw new ResetPlanError(
        'shiftBy',
        'partitions that all have a committed offset to shift from',
        `cannot shift partitions with no committed offset: ${without.map((f) => partitionKey(f.topic, f.partition)).join(', ')}`,
      );
    }
  }
  const listed =
    scenario.kind === 'from-list'
      ? new Map(scenario.offsets.map((o) => [partitionKey(o.topic, o.partition), o.offset]))
      : undefined;

  return facts.map((f) => {
    let requested: number;
    let note: string | null = null;
    switch (scenario.kind) {
      case 'to-earliest':
        requested = f.earliest;
        break;
      case 'to-latest':
        requested = f.latest;
        break;
      case 'to-offset':
        requested = scenario.offset;
        break;
      case 'shift-by':
        requested = (f.current ?? 0) + scenario.shiftBy;
        break;
      case 'to-current':
        // Kafka's tool: a partition without a commit goes to the end.
        if (f.current === null) {
          requested = f.latest;
          note = 'no committed offset: the latest offset';
        } else requested = f.current;
        break;
      case 'to-datetime':
      case 'by-duration':
        if (f.atTimestamp === undefined)
          throw new Error(`no offset by timestamp for ${partitionKey(f.topic, f.partition)}`);
        // Kafka's tool: no record that new falls back to the end of the partition.
        if (f.atTimestamp === null || f.atTimestamp < 0) {
          requested = f.latest;
          note = 'no record at or after the time: the latest offset';
        } else requested = f.atTimestamp;
        break;
      case 'from-list': {
        const offset = listed?.get(partitionKey(f.topic, f.partition));
        if (offset === undefined) throw new Error(`${partitionKey(f.topic, f.partition)} is not in the list`);
        requested = offset;
        break;
      }
    }
    const clamped = clamp(requested, f.earliest, f.latest);
    return {
      topic: f.topic,
      partition: f.partition,
      current: f.current,
      earliest: f.earliest,
      latest: f.latest,
      requested,
      target: clamped.target,
      clampedTo: clamped.clampedTo,
      reason: clamped.reason ?? note,
    };
  });
}

export { parseDuration } from '../../vocabulary.js';
