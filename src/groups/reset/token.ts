/**
 * What a plan token carries (signed by tokens/signed.ts, so nothing here is trusted before the
 * signature is): the group and type it was made for, the group's state and epochs, the request it
 * answered (as a digest), and per partition the offset the plan was made from and the target.
 * Compact, since the token rides in a header (If-Match) or a body: partitions grouped by topic,
 * each as [partition, current or -1, target].
 */

import { GROUP_TYPES, type GroupType } from '../model.js';

export const PLAN_TOKEN_PURPOSE = 'reset-plan';
/** A plan is a snapshot: after this long the group may well have moved on. */
export const PLAN_TOKEN_MAX_AGE_MS = 10 * 60_000;
/** A plan of ~30,000 partitions; more than any header a server reads, so the body carries those. */
export const PLAN_TOKEN_MAX_CHARS = 1_048_576;

export interface PlanBinding {
  groupId: string;
  type: GroupType;
  state: string;
  groupEpoch: number | null;
  assignmentEpoch: number | null;
  /** base64url SHA-256 of the request's scenario and scope (see requestDigest). */
  request: string;
  partitions: { topic: string; partition: number; current: number | null; target: number }[];
}

interface Wire {
  g: string;
  y: string;
  s: string;
  e: [number | null, number | null];
  r: string;
  p: Record<string, [number, number, number][]>;
}

export function toWire(plan: PlanBinding): Wire {
  // A Map: topic names are Kafka's, and `__proto__` or `constructor` is a valid one.
  const byTopic = new Map<string, [number, number, number][]>();
  for (const { topic, partition, current, target } of plan.partitions) {
    const rows = byTopic.get(topic) ?? [];
    rows.push([partition, current ?? -1, target]);
    byTopic.set(topic, rows);
  }
  const p: Wire['p'] = Object.fromEntries(byTopic);
  return {
    g: plan.groupId,
    y: plan.type,
    s: plan.state,
    e: [plan.groupEpoch, plan.assignmentEpoch],
    r: plan.request,
    p,
  };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isEpoch = (v: unknown): v is number | null => v === null || isInt(v);

/** The binding a verified token holds, or undefined when its data is not one (an older format). */
export function fromWire(data: unknown): PlanBinding | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const w = data as Partial<Wire>;
  if (
    typeof w.g !== 'string' ||
    !(GROUP_TYPES as readonly unknown[]).includes(w.y) ||
    typeof w.s !== 'string' ||
    !Array.isArray(w.e) ||
    !isEpoch(w.e[0]) ||
    !isEpoch(w.e[1]) ||
    typeof w.r !== 'string' ||
    w.p === null ||
    typeof w.p !== 'object'
  )
    return undefined;
  const partitions: PlanBinding['partitions'] = [];
  for (const [topic, rows] of Object.entries(w.p)) {
    if (!Array.isArray(rows)) return undefined;
    for (const row of rows) {
      if (!Array.isArray(row) || row.length !== 3 || !row.every(isInt)) return undefined;
      const [partition, current, target] = row as [number, number, number];
      partitions.push({ topic, partition, current: current < 0 ? null : current, target });
    }
  }
  return {
    groupId: w.g,
    type: w.y as GroupType,
    state: w.s,
    groupEpoch: w.e[0],
    assignmentEpoch: w.e[1],
    request: w.r,
    partitions,
  };
}

/** JSON with keys sorted at every level: the same request gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A digest of what was asked, so an execute that repeats its request can be checked against the plan. */
export async function requestDigest(request: unknown): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical(request))),
  );
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
