/**
 * Filters over group listings, and Kafka's state names. The filter runs here on every listing,
 * whatever the broker already filtered: brokers before ListGroups v4/v5 cannot filter at all.
 */

import { GROUP_STATES, type GroupState } from '../vocabulary.js';
import type { GroupListing, GroupType } from './model.js';

export { GROUP_STATES, type GroupState } from '../vocabulary.js';

export interface ListFilter {
  types?: readonly GroupType[];
  /** Canonical state names (see `canonicalState`). */
  states?: readonly GroupState[];
  /** Group ids starting with this (exact, case-sensitive). */
  prefix?: string;
  /** Exact protocol type ('consumer', 'connect', '' for groups made by an offset commit, ...). */
  protocolType?: string;
  /** What the caller may see (its grants): applied here, before any page is cut, never sent to Kafka. */
  visible?: (group: GroupListing) => boolean;
}

const fold = (state: string) => state.replace(/[_\s-]/g, '').toLowerCase();
const CANONICAL = new Map<string, GroupState>(GROUP_STATES.map((s) => [fold(s), s]));

/** 'stable', 'NOT_READY', 'NotReady' → the canonical name; undefined when Kafka has no such state. */
export function canonicalState(state: string): GroupState | undefined {
  return CANONICAL.get(fold(state));
}

// A listing names a handful of states a hundred thousand times: each spelling is folded once.
const normalized = new Map<string, string>();
const NORMALIZED_MAX = 256;

/** A state as the broker wrote it, in Kafka's canonical spelling when it is a known one. */
export function normalizeState(state: string): string {
  let out = normalized.get(state);
  if (out === undefined) {
    out = canonicalState(state) ?? state;
    if (normalized.size < NORMALIZED_MAX) normalized.set(state, out);
  }
  return out;
}

/**
 * The brokers' answers as one list. While a coordinator moves, two brokers can list the same
 * group: the first answer stands. One answer (one broker, or one that listed anything) is taken
 * as it is, without looking at its ids.
 */
export function mergeListings<T extends { groupId: string }>(lists: readonly T[][]): T[] {
  const nonEmpty = lists.filter((list) => list.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  const seen = new Set<string>();
  const out: T[] = [];
  for (const list of nonEmpty) {
    for (const item of list) {
      if (seen.has(item.groupId)) continue;
      seen.add(item.groupId);
      out.push(item);
    }
  }
  return out;
}

export function listingMatches(group: GroupListing, filter: ListFilter): boolean {
  if (filter.prefix !== undefined && !group.groupId.startsWith(filter.prefix)) return false;
  if (filter.protocolType !== undefined && group.protocolType !== filter.protocolType) return false;
  // A broker too old to report the type or state cannot satisfy a filter on it.
  if (filter.types && filter.types.length > 0 && (group.type === null || !filter.types.includes(group.type)))
    return false;
  if (filter.states && filter.states.length > 0) {
    const state = group.state === null ? undefined : canonicalState(group.state);
    if (state === undefined || !filter.states.includes(state)) return false;
  }
  return filter.visible ? filter.visible(group) : true;
}

/**
 * Kafka's order of group ids: the bytes of their UTF-8 encoding, independent of the locale. UTF-8
 * byte order is code point order, which UTF-16 code units (JavaScript's own `<`) follow except where
 * a surrogate (a code point above U+FFFF) meets U+E000..U+FFFF; only that pair is mapped. No id is
 * encoded, so comparing costs no allocation.
 */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x >= 0xd800 && y >= 0xd800 ? codePointRank(x) - codePointRank(y) : x - y;
  }
  return a.length - b.length;
}

/** U+E000..U+FFFF below the surrogates, which stand for code points above U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

const byId = (a: { groupId: string }, b: { groupId: string }) => compareIds(a.groupId, b.groupId);

/** Sorted in place by `compareIds`. */
export function sortById<T extends { groupId: string }>(items: T[]): T[] {
  return items.sort(byId);
}

/**
 * The `limit` smallest items whose id comes after `after` (all, without it) among those `keep`
 * keeps (all, without it), sorted: one pass with a bounded max-heap, O(n log limit) rather than
 * sorting all n items for one page.
 */
export function smallestAfter<T extends { groupId: string }>(
  items: Iterable<T>,
  after: string | undefined,
  limit: number,
  keep?: (item: T) => boolean,
): T[] {
  // heap[0] is the largest kept item; an item not below it cannot be on the page.
  const heap: T[] = [];
  if (limit <= 0) return heap;
  for (const item of items) {
    if (after !== undefined && compareIds(item.groupId, after) <= 0) continue;
    // `keep` (a caller's grants) is asked only about items that would enter the heap.
    if (heap.length < limit) {
      if (keep && !keep(item)) continue;
      heap.push(item);
      siftUp(heap, heap.length - 1);
    } else if (byId(item, heap[0] as T) < 0) {
      if (keep && !keep(item)) continue;
      heap[0] = item;
      siftDown(heap, 0);
    }
  }
  return heap.sort(byId);
}

function siftUp<T extends { groupId: string }>(heap: T[], at: number): void {
  const item = heap[at] as T;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (byId(heap[parent] as T, item) >= 0) break;
    heap[at] = heap[parent] as T;
    at = parent;
  }
  heap[at] = item;
}

function siftDown<T extends { groupId: string }>(heap: T[], at: number): void {
  const item = heap[at] as T;
  const n = heap.length;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= n) break;
    if (child + 1 < n && byId(heap[child + 1] as T, heap[child] as T) > 0) child++;
    if (byId(heap[child] as T, item) <= 0) break;
    heap[at] = heap[child] as T;
    at = child;
  }
  heap[at] = item;
}

/** The types a listing gave, as describe hints: a listed group's describe needs no RPC to find its type. */
export function typeHints(
  listed: readonly { groupId: string; type: GroupType | null }[],
): Map<string, GroupType> {
  return new Map(listed.flatMap((g) => (g.type ? [[g.groupId, g.type] as const] : [])));
}
