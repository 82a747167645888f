/**
 * The membership snapshot a diagnosis hands out (signed by the route) and takes back as `since=`:
 * who was in the group, at which epochs, since when it was rebalancing, and its committed offsets,
 * so churn and the rules that need two readings work without a store. Member and client ids are
 * kept as short hashes: the token stays a query parameter, and says nothing a caller could not read.
 */

import {
  type Before,
  type ProgressData,
  partitionsBefore,
  progressOf,
  readProgress,
} from '../health/progress-token.js';
import type { Group, GroupOffsets } from '../model.js';

/** Members a snapshot holds at most; a larger group gets no snapshot. */
export const MAX_SNAPSHOT_MEMBERS = 2000;

/** [member id hash, member epoch (-1 for classic), client id or instance id hash, warm-up lag or -1]. */
export type MemberRow = [string, number, string, number];

export interface DiagnosisData {
  /** Group id. */
  g: string;
  /** Group type. */
  y: Group['type'];
  /** State. */
  s: string;
  /** Group epoch; null for classic groups. */
  e: number | null;
  /** Since when (ms) the group has been seen rebalancing, carried from reading to reading; null when not. */
  r: number | null;
  m: MemberRow[];
  /** The committed offsets, as in a lag snapshot; null when too many partitions for a token. */
  o: ProgressData | null;
}

/** What the rules see of the snapshot. */
export interface SnapshotBefore {
  issuedAt: number;
  type: Group['type'];
  state: string;
  groupEpoch: number | null;
  rebalancingSince: number | null;
  /** By member id hash. */
  members: Map<string, { memberEpoch: number; client: string; warmupLag: number | null }>;
  /** By `${partition}:${topic}`; empty when the snapshot held no offsets. */
  partitions: Map<string, Before>;
}

/** FNV-1a, 2 × 32 bits: short, stable across runtimes, enough to tell members apart. */
export function idHash(id: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 + 2) >>> 0;
  }
  return a.toString(36) + b.toString(36).padStart(7, '0');
}

export const REBALANCING_STATES: ReadonlySet<string> = new Set([
  'PreparingRebalance',
  'CompletingRebalance',
  'Assigning',
  'Reconciling',
]);

/** A streams member's warm-up lag: changelog records its warm-up tasks still have to restore. */
export function warmupLag(member: Group['members'][number]): number | null {
  if (!('tasks' in member) || member.tasks.warmupTasks.length === 0) return null;
  const ends = new Map(member.taskEndOffsets.map((t) => [`${t.subtopologyId}:${t.partition}`, t.offset]));
  const offsets = new Map(member.taskOffsets.map((t) => [`${t.subtopologyId}:${t.partition}`, t.offset]));
  let lag = 0;
  for (const w of member.tasks.warmupTasks) {
    for (const p of w.partitions) {
      const key = `${w.subtopologyId}:${p}`;
      const end = ends.get(key);
      if (end !== undefined) lag += Math.max(0, end - (offsets.get(key) ?? 0));
    }
  }
  return lag;
}

/** The snapshot of this reading; undefined when the group has more members than a token holds. */
export function snapshotOf(
  group: Group,
  offsets: GroupOffsets,
  at: number,
  before: SnapshotBefore | undefined,
): DiagnosisData | undefined {
  if (group.members.length > MAX_SNAPSHOT_MEMBERS) return undefined;
  const rebalancing = REBALANCING_STATES.has(group.state);
  const wasRebalancing = before !== undefined && REBALANCING_STATES.has(before.state);
  return {
    g: group.groupId,
    y: group.type,
    s: group.state,
    e: group.groupEpoch ?? null,
    r: rebalancing ? (wasRebalancing ? (before.rebalancingSince ?? before.issuedAt) : at) : null,
    m: group.members.map((m) => [
      idHash(m.memberId),
      'memberEpoch' in m ? m.memberEpoch : -1,
      idHash(m.instanceId ?? m.clientId),
      warmupLag(m) ?? -1,
    ]),
    o: progressOf(offsets) ?? null,
  };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const TYPES: readonly string[] = ['classic', 'consumer', 'share', 'streams'];

/** The snapshot read back from a verified token's data; undefined when its shape is not ours. */
export function readSnapshot(
  data: unknown,
  issuedAt: number,
): (SnapshotBefore & { groupId: string }) | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const { g, y, s, e, r, m, o } = data as Record<string, unknown>;
  if (typeof g !== 'string' || typeof y !== 'string' || !TYPES.includes(y) || typeof s !== 'string')
    return undefined;
  if ((e !== null && !isInt(e)) || (r !== null && !isInt(r)) || !Array.isArray(m)) return undefined;
  if (m.length > MAX_SNAPSHOT_MEMBERS) return undefined;
  const members: SnapshotBefore['members'] = new Map();
  for (const row of m) {
    if (!Array.isArray(row) || row.length !== 4) return undefined;
    const [key, epoch, client, warm] = row as unknown[];
    if (typeof key !== 'string' || typeof client !== 'string' || !isInt(epoch) || !isInt(warm))
      return undefined;
    members.set(key, { memberEpoch: epoch, client, warmupLag: warm < 0 ? null : warm });
  }
  let partitions = new Map<string, Before>();
  if (o !== null) {
    const progress = readProgress(o);
    if (!progress) return undefined;
    partitions = partitionsBefore(progress);
  }
  return {
    groupId: g,
    issuedAt,
    type: y as Group['type'],
    state: s,
    groupEpoch: e as number | null,
    rebalancingSince: r as number | null,
    members,
    partitions,
  };
}
