/**
 * What an event stream compares from one poll to the next: per group its type, state, epoch, a
 * hash of its members and one of their assignment, and its health verdict. An entry is small (the
 * hashes stand for the member lists), so the entries of every group a stream watches fit in the
 * signed snapshot token each event carries as its `id:`, and a reconnecting client's token says
 * exactly what it has seen: no state on the server.
 */

import type { Group } from '../model.js';

/** [groupId, type, state, epoch or null, members hash, assignment hash, verdict or null]. */
export type SeenEntry = [string, string, string, number | null, string, string, string | null];

export const CHANGE_FIELDS = [
  'appeared',
  'type',
  'state',
  'epoch',
  'members',
  'assignment',
  'verdict',
] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];

/** FNV-1a, 32 bits, as 8 hex digits: a change detector, not a security measure (the token is signed). */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The group's epoch: the group epoch where Kafka gives one (classic groups: none). */
export function epochOf(group: Group): number | null {
  return group.groupEpoch ?? null;
}

/** Members in a stable order (Kafka's order may vary between answers). */
function sortedMembers(group: Group) {
  return [...group.members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
}

/** The entry of a group as a caller sees it (`verdict` null when it may not see offsets). */
export function entryOf(group: Group, verdict: string | null): SeenEntry {
  const members = sortedMembers(group);
  const who = members.map((m) => [m.memberId, m.instanceId, m.clientId, m.clientHost]);
  const holds = members.map((m) => [
    m.memberId,
    [...m.partitions]
      .map((t) => [t.topic, [...t.partitions].sort((a, b) => a - b)] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
  ]);
  return [
    group.groupId,
    group.type,
    group.state,
    epochOf(group),
    fnv1a(JSON.stringify(who)),
    fnv1a(JSON.stringify(holds)),
    verdict,
  ];
}

/** What differs between what the caller saw (`before`, undefined: nothing) and `now`; empty: nothing. */
export function changesOf(before: SeenEntry | undefined, now: SeenEntry): ChangeField[] {
  if (!before) return ['appeared'];
  const out: ChangeField[] = [];
  if (before[1] !== now[1]) out.push('type');
  if (before[2] !== now[2]) out.push('state');
  if (before[3] !== now[3]) out.push('epoch');
  if (before[4] !== now[4]) out.push('members');
  if (before[5] !== now[5]) out.push('assignment');
  if (before[6] !== now[6]) out.push('verdict');
  return out;
}

/** The snapshot token's data: which watch it belongs to, and what the caller has seen. */
export interface SeenData {
  /** The watch (route, group or filters), hashed: a token of another stream starts afresh. */
  w: string;
  s: SeenEntry[];
}

const isEntry = (row: unknown): row is SeenEntry =>
  Array.isArray(row) &&
  row.length === 7 &&
  typeof row[0] === 'string' &&
  typeof row[1] === 'string' &&
  typeof row[2] === 'string' &&
  (row[3] === null || Number.isSafeInteger(row[3])) &&
  typeof row[4] === 'string' &&
  typeof row[5] === 'string' &&
  (row[6] === null || typeof row[6] === 'string');

/** The token's data checked for shape (signed by us, but maybe by an older release); undefined if not. */
export function readSeen(data: unknown): SeenData | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { w, s } = data as Record<string, unknown>;
  if (typeof w !== 'string' || !Array.isArray(s) || !s.every(isEntry)) return undefined;
  return { w, s };
}
