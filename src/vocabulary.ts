/**
 * The words every layer shares: group types and states, grant actions, health verdicts and their
 * default thresholds, reset scenarios. Kafka's own words where Kafka has them. This module imports
 * nothing, so anything may import it, the API's schemas and the domain alike, without a cycle.
 */

// Kafka's names of the group types, on the wire and in the API.
export const GROUP_TYPES = ['classic', 'consumer', 'share', 'streams'] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

/** Every state name Kafka uses, over all group types. */
export const GROUP_STATES = [
  'Empty',
  'Stable',
  'Dead',
  'PreparingRebalance',
  'CompletingRebalance',
  'Assigning',
  'Reconciling',
  'NotReady',
] as const;
export type GroupState = (typeof GROUP_STATES)[number];

/**
 * Every action a grant can name. Reads: `read` (list, describe, batch describe, cluster) and
 * `offsets` (committed offsets and lag). Each write is an action of its own, named by no read
 * grant, so a read grant never implies a write and one write never implies another.
 */
export const READ_ACTIONS = ['read', 'offsets'] as const;
export const WRITE_ACTIONS = [
  'reset-offsets',
  'delete-offsets',
  'delete',
  'remove-members',
  'configs',
] as const;
export const ACTIONS = [...READ_ACTIONS, ...WRITE_ACTIONS] as const;
export type Action = (typeof ACTIONS)[number];
export type WriteAction = (typeof WRITE_ACTIONS)[number];

export function isWriteAction(action: Action): action is WriteAction {
  return (WRITE_ACTIONS as readonly string[]).includes(action);
}

/** Health verdicts, best first (groups/health/verdicts.ts holds the rules). */
export const VERDICTS = [
  'OK',
  'IDLE',
  'NO_OFFSET',
  'UNKNOWN',
  'LAGGING',
  'STALLED',
  'STOPPED',
  'REWOUND',
  'DATA_LOSS',
] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface Thresholds {
  /** Records behind above which a partition is LAGGING. */
  maxLag: number;
  /** Seconds behind (lower bound) above which a partition is LAGGING. */
  maxTimeLagSeconds: number;
  /** A partition with nothing to consume whose newest record is older than this is IDLE. */
  idleAfterSeconds: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = {
  maxLag: 1000,
  maxTimeLagSeconds: 60,
  idleAfterSeconds: 3600,
};

/** Reset scenarios, as kafka-consumer-groups.sh names them (groups/reset/plan.ts plans them). */
export const RESET_SCENARIOS = [
  'to-earliest',
  'to-latest',
  'to-offset',
  'shift-by',
  'to-datetime',
  'by-duration',
  'to-current',
  'from-list',
] as const;
export type ResetScenarioName = (typeof RESET_SCENARIOS)[number];

/** Share groups have start offsets, not commits: Kafka's share tool resets to these only. */
export const SHARE_SCENARIOS: readonly ResetScenarioName[] = [
  'to-earliest',
  'to-latest',
  'to-datetime',
  // KIP-1323 (kafka-share-groups.sh --to-offset, --from-file): any start offset, per partition.
  'to-offset',
  'from-list',
];

/**
 * An ISO 8601 duration as Java's Duration.parse reads it (days, hours, minutes, seconds with a
 * fraction: `P1D`, `PT1H30M`, `PT0.5S`), without signs: a reset goes back in time. Milliseconds,
 * or undefined when `text` is not one.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:[.,](\d{1,9}))?S)?)?$/i.exec(text);
  if (!m) return undefined;
  const [, days, hours, minutes, seconds, fraction] = m;
  if (days === undefined && hours === undefined && minutes === undefined && seconds === undefined)
    return undefined;
  // "PT" alone, or a T with nothing after it, is not a duration for Java either.
  if (/T$/i.test(text)) return undefined;
  const ms =
    Number(days ?? 0) * 86_400_000 +
    Number(hours ?? 0) * 3_600_000 +
    Number(minutes ?? 0) * 60_000 +
    Number(seconds ?? 0) * 1000 +
    Math.floor(Number(`0.${fraction ?? '0'}`) * 1000);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** Why a forecast's catch-up time is null (groups/health/forecast.ts). */
export const CATCH_UP_REASONS = ['idle', 'no-rate-yet', 'not-catching-up'] as const;
export type CatchUpReason = (typeof CATCH_UP_REASONS)[number];

/** Why a retention runway is null (groups/health/forecast.ts). */
export const RUNWAY_REASONS = ['no-lag', 'catching-up', 'no-retention', 'no-config', 'no-time-lag'] as const;
export type RunwayReason = (typeof RUNWAY_REASONS)[number];

/** Where a group stands on leaving the classic protocol (groups/protocols.ts). */
export const PROTOCOL_CATEGORIES = [
  'can-migrate',
  'cannot-migrate',
  'mixed',
  'empty-classic',
  'unknown',
] as const;
export type ProtocolCategory = (typeof PROTOCOL_CATEGORIES)[number];

/** How bad a diagnosis finding is, from worst. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The stable codes of the diagnosis rules (docs/diagnosis.md: one section per rule). */
export const FINDING_CODES = [
  'NO_MEMBERS_RECORDS_WAITING',
  'MEMBER_NOT_CONSUMING',
  'STATIC_MEMBER_NOT_CONSUMING',
  'MEMBERSHIP_CHURN',
  'MEMBERSHIP_FLAPPING',
  'ASSIGNMENT_PENDING',
  'MEMBER_RECONCILING',
  'MEMBER_NOT_RECONCILING',
  'PARTITIONS_PENDING_REVOCATION',
  'UNSUBSCRIBED_TOPIC_HELD',
  'CLASSIC_MEMBERS_IN_CONSUMER_GROUP',
  'SUBSCRIPTIONS_DIFFER',
  'REBALANCE_IN_PROGRESS',
  'REBALANCE_STUCK',
  'PROTOCOL_VERSIONS_DIFFER',
  'TOPOLOGY_EPOCHS_DIFFER',
  'WARMUP_TASKS_PENDING',
  'WARMUP_NOT_CONVERGING',
  'SOURCE_TOPICS_MISSING',
  'STANDBY_TASKS_UNASSIGNED',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];
