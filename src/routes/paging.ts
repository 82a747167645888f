/**
 * Paging over a sorted list of groups. A cursor names the last group id of the page it came
 * with, so the next page starts right after it: groups created or deleted meanwhile neither shift
 * nor repeat the others. Kafka itself has no paging: a cursor also names the listing snapshot its
 * page was cut from (src/groups/held-listings.ts), so the next page is cut from that same listing
 * while this process still holds it, and from a fresh listing past the id otherwise.
 */

import { compareIds } from '../groups/listing.js';

/** 'g1:<id>': cursors without a snapshot, as every earlier version made them; they still work. */
const PREFIX = 'g1:';
/** 'g2:<snapshot>:<id>': the snapshot id is base64url, so the first ':' after it ends it. */
const SNAPSHOT_PREFIX = 'g2:';
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Where a page starts: right after the group id `after`, from `snapshot` while it is held. */
export interface PageCursor {
  after: string;
  snapshot?: string;
}

export function encodeCursor(lastGroupId: string, snapshot?: string): string {
  const bytes = utf8.encode(
    snapshot === undefined ? PREFIX + lastGroupId : `${SNAPSHOT_PREFIX}${snapshot}:${lastGroupId}`,
  );
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What a cursor points after; undefined for anything that is not a cursor of ours. */
export function decodePageCursor(cursor: string): PageCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let text: string;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    text = strictUtf8.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
  if (text.startsWith(PREFIX))
    return text.length > PREFIX.length ? { after: text.slice(PREFIX.length) } : undefined;
  if (!text.startsWith(SNAPSHOT_PREFIX)) return undefined;
  const colon = text.indexOf(':', SNAPSHOT_PREFIX.length);
  const snapshot = text.slice(SNAPSHOT_PREFIX.length, colon);
  if (colon < 0 || !/^[A-Za-z0-9_-]+$/.test(snapshot) || colon + 1 >= text.length) return undefined;
  return { after: text.slice(colon + 1), snapshot };
}

/** Index of the first item whose id comes after `after` (binary search; 0 without it). */
export function startAfter(sorted: readonly { groupId: string }[], after: string | undefined): number {
  if (after === undefined) return 0;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareIds((sorted[mid] as { groupId: string }).groupId, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export const NDJSON = 'application/x-ndjson';
