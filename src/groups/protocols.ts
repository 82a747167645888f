/**
 * Leaving the classic protocol (KIP-1274 deprecates it in Kafka 5.0): which groups still use it and
 * what each can do, from the listing and, for consumer groups only, their describe.
 *
 *   can-migrate     classic, protocol type `consumer`, members present: the consumers can switch to
 *                   group.protocol=consumer one by one (the group converts online, KIP-848)
 *   cannot-migrate  classic with another protocol type (Connect's `connect`, anything else): the
 *                   consumer protocol serves only consumers; these stay classic until their client moves
 *   mixed           a consumer group some of whose members still speak classic (named with client
 *                   id and host): the migration is under way
 *   empty-classic   classic and Empty: nothing to migrate; its offsets carry over when a consumer-
 *                   protocol member joins, or the group can be deleted
 *   unknown         a consumer group that could not be described (its error says why)
 *
 * Consumer groups without classic members are counted, never listed. Share and streams groups have
 * no classic side. Memory: consumer groups are described a chunk at a time.
 */

import type { KafkaErrorInfo } from '../broker/errors.js';
import type { ProtocolCategory } from '../vocabulary.js';
import type { Group, GroupListing, GroupType } from './model.js';
import type { Outcome } from './outcome.js';

export { PROTOCOL_CATEGORIES, type ProtocolCategory } from '../vocabulary.js';

export interface ClassicMember {
  memberId: string;
  clientId: string;
  clientHost: string;
}

export interface ProtocolGroup {
  groupId: string;
  category: ProtocolCategory;
  type: GroupType;
  state: string | null;
  protocolType: string | null;
  /** mixed: the members still on the classic protocol; empty otherwise. */
  classicMembers: ClassicMember[];
  /** unknown: why the group could not be described. */
  error: string | null;
}

export interface ProtocolTotals {
  canMigrate: number;
  cannotMigrate: number;
  mixed: number;
  emptyClassic: number;
  unknown: number;
  /** Consumer groups with every member on the consumer protocol. */
  consumer: number;
}

export const emptyTotals = (): ProtocolTotals => ({
  canMigrate: 0,
  cannotMigrate: 0,
  mixed: 0,
  emptyClassic: 0,
  unknown: 0,
  consumer: 0,
});

const TOTAL_OF: Record<ProtocolCategory, keyof ProtocolTotals> = {
  'can-migrate': 'canMigrate',
  'cannot-migrate': 'cannotMigrate',
  mixed: 'mixed',
  'empty-classic': 'emptyClassic',
  unknown: 'unknown',
};

/** A classic group by its listing alone. */
export function classicCategory(listing: GroupListing): ProtocolCategory {
  if (listing.state === 'Empty') return 'empty-classic';
  return listing.protocolType === 'consumer' ? 'can-migrate' : 'cannot-migrate';
}

/** A consumer group by its describe: mixed when a member speaks classic, else undefined (nothing to do). */
export function consumerEntry(listing: GroupListing, described: Outcome<Group>): ProtocolGroup | undefined {
  const base = { groupId: listing.groupId, type: 'consumer' as const, protocolType: 'consumer' };
  if (!described.ok) {
    const e = described.error as Partial<KafkaErrorInfo> & { message?: string };
    return {
      ...base,
      category: 'unknown',
      state: listing.state ?? null,
      classicMembers: [],
      error: e.message ?? String(described.error),
    };
  }
  const group = described.value;
  if (group.type !== 'consumer') return undefined;
  const classic = group.members.filter((m) => m.usesClassicProtocol === true);
  if (classic.length === 0) return undefined;
  return {
    ...base,
    category: 'mixed',
    state: group.state,
    classicMembers: classic.map((m) => ({
      memberId: m.memberId,
      clientId: m.clientId,
      clientHost: m.clientHost,
    })),
    error: null,
  };
}

function classicEntry(g: GroupListing, category: ProtocolCategory): ProtocolGroup {
  return {
    groupId: g.groupId,
    category,
    type: 'classic',
    state: g.state ?? null,
    protocolType: g.protocolType ?? null,
    classicMembers: [],
    error: null,
  };
}

/** Consumer groups described per chunk, so memory holds one chunk's describes. */
export const DESCRIBE_CHUNK = 200;

/**
 * The groups to report, in the listing's order (classic first as listed, then consumer groups
 * chunk by chunk), counting into `totals` as they go. `describe` is the service's describeGroups.
 */
export async function* protocolGroups(
  listed: readonly GroupListing[],
  describe: (
    ids: readonly string[],
    hints: ReadonlyMap<string, GroupType>,
  ) => Promise<Map<string, Outcome<Group>>>,
  totals: ProtocolTotals,
): AsyncGenerator<ProtocolGroup> {
  const consumers: GroupListing[] = [];
  for (const g of listed) {
    // Before ListGroups v5 (Kafka 3.x) a listing has no type: its describe says.
    if (
      g.type === 'consumer' ||
      (g.type === null && (g.protocolType === 'consumer' || g.protocolType === ''))
    ) {
      consumers.push(g);
      continue;
    }
    if (g.type !== 'classic' && g.type !== null) continue;
    const category = classicCategory(g);
    totals[TOTAL_OF[category]]++;
    yield classicEntry(g, category);
  }
  for (let i = 0; i < consumers.length; i += DESCRIBE_CHUNK) {
    const chunk = consumers.slice(i, i + DESCRIBE_CHUNK);
    const hints = new Map(chunk.flatMap((g) => (g.type ? [[g.groupId, g.type] as const] : [])));
    const described = await describe(
      chunk.map((g) => g.groupId),
      hints,
    );
    for (const g of chunk) {
      const outcome = described.get(g.groupId);
      if (outcome?.ok && outcome.value.type === 'classic') {
        const group = outcome.value;
        const category = classicCategory({ ...g, state: group.state, protocolType: group.protocolType });
        totals[TOTAL_OF[category]]++;
        yield { ...classicEntry(g, category), state: group.state, protocolType: group.protocolType };
        continue;
      }
      const entry = outcome ? consumerEntry(g, outcome) : undefined;
      if (!entry) {
        totals.consumer++;
        continue;
      }
      totals[TOTAL_OF[entry.category]]++;
      yield entry;
    }
  }
}

/** The feature levels the migration depends on; 0 for a feature not finalized, null when unknown. */
export interface ProtocolFeatures {
  groupVersion: number | null;
  shareVersion: number | null;
  streamsVersion: number | null;
}

export function protocolFeatures(
  finalized: readonly { name: string; level: number }[] | null,
): ProtocolFeatures {
  const level = (name: string) => (finalized ? (finalized.find((f) => f.name === name)?.level ?? 0) : null);
  return {
    groupVersion: level('group.version'),
    shareVersion: level('share.version'),
    streamsVersion: level('streams.version'),
  };
}
