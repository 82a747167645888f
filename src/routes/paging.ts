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

const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * UTF-8, except that a lone surrogate is written as its own three bytes (WTF-8) rather than as
 * U+FFFD: an id that holds one comes back from its cursor as itself, so the next page starts
 * right after it, not after U+FFFD (the page would then repeat, or lose, the ids in between).
 */
function encodeText(text: string): Uint8Array {
  if (!LONE_SURROGATE.test(text)) return utf8.encode(text);
  const out: number[] = [];
  for (const ch of text) {
    const unit = ch.charCodeAt(0);
    if (ch.length === 1 && unit >= 0xd800 && unit <= 0xdfff)
      out.push(0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f));
    else out.push(...utf8.encode(ch));
  }
  return Uint8Array.from(out);
}

/**
 * The text of `encodeText`'s bytes: strict UTF-8, or WTF-8 where UTF-8 refuses a lone surrogate;
 * undefined for anything else (overlong forms, a pair written as two surrogates, a cut sequence).
 */
/** The smallest code point of a sequence with this many continuation bytes: anything less is overlong. */
const SMALLEST: readonly number[] = [0, 0x80, 0x800, 0x10000];

function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    // Not UTF-8: WTF-8 below, or nothing.
  }
  let out = '';
  let afterHigh = false;
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    const extra =
      lead < 0x80
        ? 0
        : lead >= 0xc2 && lead < 0xe0
          ? 1
          : lead >= 0xe0 && lead < 0xf0
            ? 2
            : lead >= 0xf0 && lead < 0xf5
              ? 3
              : -1;
    if (extra < 0 || i + extra >= bytes.length) return undefined;
    let point = extra === 0 ? lead : lead & (0x3f >> extra);
    for (let k = 1; k <= extra; k++) {
      const next = bytes[i + k] as number;
      if ((next & 0xc0) !== 0x80) return undefined;
      point = (point << 6) | (next & 0x3f);
    }
    if (point < (SMALLEST[extra] as number) || point > 0x10ffff) return undefined;
    const low = point >= 0xdc00 && point <= 0xdfff;
    if (low && afterHigh) return undefined;
    afterHigh = point >= 0xd800 && point <= 0xdbff;
    out += String.fromCodePoint(point);
    i += extra + 1;
  }
  return out;
}

export function encodeCursor(lastGroupId: string, snapshot?: string): string {
  const bytes = encodeText(
    snapshot === undefined ? PREFIX + lastGroupId : `${SNAPSHOT_PREFIX}${snapshot}:${lastGroupId}`,
  );
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What a cursor points after; undefined for anything that is not a cursor of ours. */
export function decodePageCursor(cursor: string): PageCursor | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let text: string | undefined;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    text = decodeText(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
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
