/**
 * What every diagnosis rule shares: the finding it returns, the reading it looks at, and small
 * helpers to name partitions and members the same way in every rule.
 */

import type { Evidence, EvidenceValue, Finding } from '../../openapi/diagnosis-schemas.js';
import type { FindingCode, Severity } from '../../vocabulary.js';
import type { Group, GroupMember, GroupOffsets, TopicPartitions } from '../model.js';
import type { SnapshotBefore } from './snapshot.js';

export type { Evidence, Finding };

/** One reading of a group and, when the caller handed back a snapshot, the reading before it. */
export interface Reading<G extends Group = Group> {
  group: G;
  offsets: GroupOffsets;
  /** When the group was read (ms). */
  at: number;
  before?: SnapshotBefore;
  /** How long a condition must last across two readings before a since rule reports it. */
  stuckAfterMs: number;
  /** Group configs the rules read (streams: streams.num.standby.replicas); absent when unread. */
  configs?: ReadonlyMap<string, string | null>;
}

export type Rule<G extends Group = Group> = (reading: Reading<G>) => Finding[];

export function finding(
  code: FindingCode,
  severity: Severity,
  memberId: string | null,
  summary: string,
  evidence: Evidence[],
  action: string,
): Finding {
  return { code, severity, memberId, summary, evidence, action };
}

/** One piece of evidence: the API field, Kafka's RPC and field, the value. */
export const ev = (field: string, source: string, value: EvidenceValue): Evidence => ({
  field,
  source,
  value,
});

/** `topic-partition` names, sorted, for evidence and summaries. */
export function partitionNames(held: readonly TopicPartitions[]): string[] {
  return held.flatMap((t) => t.partitions.map((p) => `${t.topic}-${p}`)).sort();
}

/** The member as a person reads it: its id and client id. */
export function who(member: GroupMember): string {
  return `${member.memberId} (client ${member.clientId}${member.instanceId ? `, instance ${member.instanceId}` : ''})`;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Worst first, then by code and member, so that answers compare across readings. */
export function ordered(findings: Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      RANK[a.severity] - RANK[b.severity] ||
      a.code.localeCompare(b.code) ||
      (a.memberId ?? '').localeCompare(b.memberId ?? ''),
  );
}
