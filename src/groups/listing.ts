/**
 * Filters over group listings, and Kafka's state names. The filter runs here on every listing,
 * whatever the broker already filtered: brokers before ListGroups v4/v5 cannot filter at all.
 */

import type { GroupListing, GroupType } from './model.js';

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

export interface ListFilter {
  types?: readonly GroupType[];
  /** Canonical state names (see `canonicalState`). */
  states?: readonly GroupState[];
  /** Group ids starting with this (exact, case-sensitive). */
  prefix?: string;
  /** Exact protocol type ('consumer', 'connect', '' for groups made by an offset commit, ...). */
  protocolType?: string;
}

const fold = (state: string) => state.replace(/[_\s-]/g, '').toLowerCase();
const CANONICAL = new Map<string, GroupState>(GROUP_STATES.map((s) => [fold(s), s]));

/** 'stable', 'NOT_READY', 'NotReady' → the canonical name; undefined when Kafka has no such state. */
export function canonicalState(state: string): GroupState | undefined {
  return CANONICAL.get(fold(state));
}

/** A state as the broker wrote it, in Kafka's canonical spelling when it is a known one. */
export function normalizeState(state: string): string {
  return canonicalState(state) ?? state;
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
  return true;
}
