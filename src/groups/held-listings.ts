/**
 * Listing snapshots: the listing a first page was cut from, kept for a few seconds so that the
 * next pages are cut from it too instead of asking every broker for every group again (Kafka has
 * no paging: one page of 1,000 out of 100,000 costs the broker a whole listing). A cursor names
 * its snapshot; a snapshot that is gone (expired, evicted, or held by another process) is no
 * error: the caller lists afresh past the cursor and keeps that listing as a new snapshot.
 *
 * A snapshot is the listing under the filter's broker-side parts (types, states, prefix, protocol
 * type), keyed by them: a cursor used with another filter does not find it. What a caller may
 * see (`visible`, its grants) is not part of the snapshot: each page applies the caller's own
 * predicate before the page is cut, so a cursor handed to another caller shows only what that
 * caller may see. The failures of the listing travel with the snapshot to every page.
 *
 * Bounded: at most `maxSnapshots` snapshots and `maxGroups` groups in all (the least recently
 * used go first), each dropped once its last page has been cut, `idleMs` after its last read
 * and `maxAgeMs` after it was taken.
 * Nothing runs in the background: expiry is checked whenever the cache is used, which suits the
 * Worker and Lambda runtimes as well as Node.
 */

import { compareIds, type ListFilter, smallestAfter, sortById } from './listing.js';
import type { BrokerFailure, GroupListing } from './model.js';

export interface SnapshotOptions {
  /** Most snapshots held at once. Default 16. */
  maxSnapshots?: number;
  /** Most groups held over all snapshots; a larger listing is not kept. Default 250,000. */
  maxGroups?: number;
  /** A snapshot not read for this long is dropped (ms). Default 60,000. */
  idleMs?: number;
  /** A snapshot older than this is dropped however much it is read (ms). Default 300,000. */
  maxAgeMs?: number;
  now?: () => number;
}

/** A page cut from a listing: `limit` groups at most, and whether more follow. */
export interface CutPage {
  groups: GroupListing[];
  failures: BrokerFailure[];
  more: boolean;
}

interface Snapshot {
  readonly key: string;
  /** Unsorted until enough pages were cut from it to pay for a sort (see `page`). */
  groups: GroupListing[];
  sorted: boolean;
  /** Pages cut by a pass over the unsorted listing so far. */
  scans: number;
  readonly failures: BrokerFailure[];
  readonly takenAt: number;
  usedAt: number;
}

/** The parts of a filter a snapshot depends on, as a key (order of values does not matter). */
export function snapshotKey(filter: ListFilter): string {
  return JSON.stringify([
    filter.types ? [...filter.types].sort() : null,
    filter.states ? [...filter.states].sort() : null,
    filter.prefix ?? null,
    filter.protocolType ?? null,
  ]);
}

/**
 * The first `limit` groups after `after` that `visible` keeps, from a listing in any order: one
 * pass with a bounded selection (see `smallestAfter`).
 */
export function cutPage(
  groups: readonly GroupListing[],
  failures: BrokerFailure[],
  after: string | undefined,
  limit: number,
  visible?: (group: GroupListing) => boolean,
): CutPage {
  const page = smallestAfter(groups, after, limit + 1, visible);
  const more = page.length > limit;
  if (more) page.pop();
  return { groups: page, failures, more };
}

/** Index of the first group whose id comes after `after` in a sorted listing. */
function firstAfter(sorted: readonly GroupListing[], after: string | undefined): number {
  if (after === undefined) return 0;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds((sorted[mid] as GroupListing).groupId, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Pages cut from a held listing by a pass over it before it is sorted (see `page`). */
const PASSES_BEFORE_SORT = 4;

function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}

export class ListingSnapshots {
  private readonly snapshots = new Map<string, Snapshot>();
  private held = 0;
  private readonly maxSnapshots: number;
  private readonly maxGroups: number;
  private readonly idleMs: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: SnapshotOptions = {}) {
    this.maxSnapshots = options.maxSnapshots ?? 16;
    this.maxGroups = options.maxGroups ?? 250_000;
    this.idleMs = options.idleMs ?? 60_000;
    this.maxAgeMs = options.maxAgeMs ?? 300_000;
    this.now = options.now ?? Date.now;
  }

  /** Snapshots held now (after dropping the expired ones). */
  get size(): number {
    this.expire();
    return this.snapshots.size;
  }

  /** Groups held now over all snapshots. */
  get groupsHeld(): number {
    this.expire();
    return this.held;
  }

  /**
   * Keeps a listing (in any order; the snapshot owns the array from now on) and returns its id,
   * or undefined when it is larger than the whole bound.
   */
  take(key: string, groups: GroupListing[], failures: readonly BrokerFailure[]): string | undefined {
    this.expire();
    if (groups.length > this.maxGroups || this.maxSnapshots <= 0) return undefined;
    // The least recently used go first (a Map iterates in insertion order; reading re-inserts).
    for (const [id, snapshot] of this.snapshots) {
      if (this.snapshots.size < this.maxSnapshots && this.held + groups.length <= this.maxGroups) break;
      this.drop(id, snapshot);
    }
    const at = this.now();
    const id = newId();
    this.snapshots.set(id, {
      key,
      groups,
      sorted: false,
      scans: 0,
      failures: [...failures],
      takenAt: at,
      usedAt: at,
    });
    this.held += groups.length;
    return id;
  }

  /**
   * The page after `after` from snapshot `id`, cut after `visible` has kept what the caller may
   * see; undefined when there is no such snapshot for `key` (then list afresh).
   */
  page(
    id: string,
    key: string,
    after: string | undefined,
    limit: number,
    visible?: (group: GroupListing) => boolean,
  ): CutPage | undefined {
    this.expire();
    const snapshot = this.snapshots.get(id);
    if (!snapshot || snapshot.key !== key) return undefined;
    this.snapshots.delete(id);
    this.snapshots.set(id, snapshot);
    snapshot.usedAt = this.now();
    // A page from the unsorted listing is one pass over it; a sort costs about ten passes at
    // 100,000 groups (n·log2(n) comparisons, each dearer), after which every page is a binary
    // search and a walk. So the pages after the first are passes until PASSES_BEFORE_SORT were,
    // then the snapshot is sorted: a caller who reads a few pages never waits for a sort of the
    // whole estate, and one who follows every page pays less than half again the sort alone.
    if (!snapshot.sorted && snapshot.scans < PASSES_BEFORE_SORT) {
      snapshot.scans++;
      const cut = cutPage(snapshot.groups, snapshot.failures, after, limit, visible);
      if (!cut.more) this.drop(id, snapshot);
      return cut;
    }
    if (!snapshot.sorted) {
      sortById(snapshot.groups);
      snapshot.sorted = true;
    }
    const { groups } = snapshot;
    const page: GroupListing[] = [];
    let more = false;
    for (let i = firstAfter(groups, after); i < groups.length; i++) {
      const group = groups[i] as GroupListing;
      if (visible && !visible(group)) continue;
      if (page.length === limit) {
        more = true;
        break;
      }
      page.push(group);
    }
    // The last page: whoever followed the cursors is done, and the memory goes back at once.
    if (!more) this.drop(id, snapshot);
    return { groups: page, failures: snapshot.failures, more };
  }

  private expire(): void {
    const at = this.now();
    for (const [id, snapshot] of this.snapshots) {
      if (at - snapshot.usedAt > this.idleMs || at - snapshot.takenAt > this.maxAgeMs)
        this.drop(id, snapshot);
    }
  }

  private drop(id: string, snapshot: Snapshot): void {
    this.snapshots.delete(id);
    this.held -= snapshot.groups.length;
  }
}
