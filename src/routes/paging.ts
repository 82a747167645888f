/**
 * Paging over a sorted list of groups. A cursor names the last group id of the page it came
 * with, so the next page starts right after it: groups created or deleted meanwhile neither shift
 * nor repeat the others. Kafka itself has no paging; every page lists anew.
 */

import { compareIds } from '../groups/service.js';

const PREFIX = 'g1:';
const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeCursor(lastGroupId: string): string {
  const bytes = utf8.encode(PREFIX + lastGroupId);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The group id a cursor points after; undefined for anything that is not a cursor of ours. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const text = strictUtf8.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
    return text.startsWith(PREFIX) && text.length > PREFIX.length ? text.slice(PREFIX.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Up to `limit` items after the id `after` (all from the start without it), and whether more follow. */
export function pageAfter<T extends { groupId: string }>(
  sorted: readonly T[],
  after: string | undefined,
  limit: number,
): { page: T[]; more: boolean } {
  let start = 0;
  if (after !== undefined) {
    // Binary search: the first id greater than `after`.
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareIds((sorted[mid] as T).groupId, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const page = sorted.slice(start, start + limit);
  return { page, more: start + limit < sorted.length };
}
