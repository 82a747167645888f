/**
 * A listing held as the brokers' answers themselves (ListedGroupsTable: the ids' UTF-8 bytes and a
 * few typed arrays) and the rows of them it keeps, in order: filtered, merged and sorted without an
 * object per group. A group's strings are made only where something asks for them (a caller's
 * grants, a page of objects).
 */

import { ErrorCode } from '../broker/protocol/errors.js';
import {
  ABSENT,
  ID_NON_ASCII,
  ID_STRIDE,
  type ListedGroupsTable,
  tableGroupId,
} from '../broker/protocol/list-groups-table.js';
import { canonicalState, type ListFilter, normalizeState } from './listing.js';
import { GROUP_TYPES, type GroupListing, type GroupType } from './model.js';

/** Rows of a table, in the order they are listed. */
export interface ListedRows {
  readonly table: ListedGroupsTable;
  readonly rows: Uint32Array;
}

/** What a table's words mean as a listing's fields: the type and the canonical state. */
export interface WordMeanings {
  type: (GroupType | null)[];
  state: string[];
}

const meanings = new WeakMap<ListedGroupsTable, WordMeanings>();

export function wordMeanings(table: ListedGroupsTable): WordMeanings {
  let known = meanings.get(table);
  if (!known) {
    known = { type: table.words.map(groupType), state: table.words.map(normalizeState) };
    meanings.set(table, known);
  }
  return known;
}

/** A type as the broker spelled it, in the product's words; null for one it does not know. */
export function groupType(type: string | undefined): GroupType | null {
  if (type === undefined) return null;
  const lower = type.toLowerCase();
  return (GROUP_TYPES as readonly string[]).includes(lower) ? (lower as GroupType) : null;
}

// Every byte one UTF-16 unit, so an ASCII id is a slice of the whole answer read once as text.
const singleByte = (() => {
  try {
    return new TextDecoder('windows-1252');
  } catch {
    return undefined;
  }
})();
const asText = new WeakMap<ListedGroupsTable, string>();

export function groupIdAt(table: ListedGroupsTable, row: number): string {
  const at = row * ID_STRIDE;
  if (!singleByte || ((table.ids[at + 2] as number) & ID_NON_ASCII) !== 0) return tableGroupId(table, row);
  let text = asText.get(table);
  if (text === undefined) {
    text = singleByte.decode(table.bytes);
    asText.set(table, text);
  }
  const start = table.ids[at] as number;
  return text.slice(start, start + (table.ids[at + 1] as number));
}

export function listingAt(table: ListedGroupsTable, row: number): GroupListing {
  const { type, state } = wordMeanings(table);
  const t = table.type[row] as number;
  const s = table.state[row] as number;
  return {
    groupId: groupIdAt(table, row),
    type: t === ABSENT ? null : (type[t] ?? null),
    protocolType: table.words[table.protocolType[row] as number] as string,
    state: s === ABSENT ? null : (state[s] as string),
  };
}

const utf8 = new TextEncoder();
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);

/** The rows of `table` that `filter` keeps (listing.ts's listingMatches, on the columns). */
export function selectRows(table: ListedGroupsTable, filter: ListFilter): Uint32Array {
  const { type: typeOf, state: stateOf } = wordMeanings(table);
  // Per word: does a group with it pass? (the handful of words is judged once, not per group)
  const typeOk = table.words.map(
    (_, w) => !filter.types?.length || (typeOf[w] != null && filter.types.includes(typeOf[w] as GroupType)),
  );
  const stateOk = table.words.map((word, w) => {
    if (!filter.states?.length) return true;
    const state = canonicalState(stateOf[w] ?? word);
    return state !== undefined && filter.states.includes(state);
  });
  const protocolOk = table.words.map(
    (word) => filter.protocolType === undefined || word === filter.protocolType,
  );
  const absentTypeOk = !filter.types?.length;
  const absentStateOk = !filter.states?.length;
  // A prefix compares as UTF-8 bytes; one with a lone surrogate (no UTF-8) only as text.
  const prefix =
    filter.prefix !== undefined && wellFormed(filter.prefix) ? utf8.encode(filter.prefix) : undefined;
  const textPrefix = filter.prefix !== undefined && !prefix ? filter.prefix : undefined;
  const { bytes, ids } = table;
  const out = new Uint32Array(table.count);
  let n = 0;
  for (let i = 0; i < table.count; i++) {
    if (!protocolOk[table.protocolType[i] as number]) continue;
    const t = table.type[i] as number;
    if (t === ABSENT ? !absentTypeOk : !typeOk[t]) continue;
    const s = table.state[i] as number;
    if (s === ABSENT ? !absentStateOk : !stateOk[s]) continue;
    if (prefix) {
      if ((ids[i * ID_STRIDE + 1] as number) < prefix.length) continue;
      const start = ids[i * ID_STRIDE] as number;
      let j = 0;
      while (j < prefix.length && bytes[start + j] === prefix[j]) j++;
      if (j < prefix.length) continue;
    } else if (textPrefix !== undefined && !groupIdAt(table, i).startsWith(textPrefix)) continue;
    if (filter.visible && !filter.visible(listingAt(table, i))) continue;
    out[n++] = i;
  }
  return out.subarray(0, n);
}

/**
 * The brokers' rows as one listing. While a coordinator moves, two brokers can list the same group:
 * the first answer stands (listing.ts's mergeListings). One answer that lists anything is taken as it is.
 */
export function mergeRows(parts: readonly ListedRows[]): ListedRows | undefined {
  const nonEmpty = parts.filter((p) => p.rows.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? parts[0];
  const seen = new Set<string>();
  const kept = nonEmpty.map(({ table, rows }) =>
    rows.filter((row) => {
      const id = groupIdAt(table, row);
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    }),
  );
  const count = kept.reduce((n, rows) => n + rows.length, 0);
  const bytes = new Uint8Array(nonEmpty.reduce((n, p) => n + p.table.bytes.length, 0));
  const merged = {
    errorCode: ErrorCode.NONE,
    throttleTimeMs: undefined,
    count,
    bytes,
    ids: new Int32Array(count * ID_STRIDE),
    kinds: [] as { protocolType: number; state: number; type: number }[],
    protocolType: new Uint32Array(count),
    state: new Uint32Array(count),
    type: new Uint32Array(count),
    words: [] as string[],
  };
  const wordIndex = new Map<string, number>();
  const wordOf = (word: string) => {
    let w = wordIndex.get(word);
    if (w === undefined) {
      w = merged.words.push(word) - 1;
      wordIndex.set(word, w);
    }
    return w;
  };
  let base = 0;
  let n = 0;
  nonEmpty.forEach(({ table }, p) => {
    bytes.set(table.bytes, base);
    const remap = table.words.map(wordOf);
    const code = (w: number) => (w === ABSENT ? ABSENT : (remap[w] as number));
    const kindBase = merged.kinds.length;
    for (const k of table.kinds)
      merged.kinds.push({ protocolType: code(k.protocolType), state: code(k.state), type: code(k.type) });
    for (const row of kept[p] as Uint32Array) {
      const from = row * ID_STRIDE;
      const to = n * ID_STRIDE;
      merged.ids[to] = base + (table.ids[from] as number);
      merged.ids[to + 1] = table.ids[from + 1] as number;
      merged.ids[to + 2] = table.ids[from + 2] as number;
      merged.ids[to + 3] = kindBase + (table.ids[from + 3] as number);
      merged.protocolType[n] = code(table.protocolType[row] as number);
      merged.state[n] = code(table.state[row] as number);
      merged.type[n] = code(table.type[row] as number);
      n++;
    }
    base += table.bytes.length;
  });
  return { table: merged, rows: Uint32Array.from({ length: count }, (_, i) => i) };
}

/** Buckets smaller than this are sorted by insertion rather than split again. */
const SMALL = 32;

/** Rows a sort by prefix can number: the low 24 bits of each pair's low word. */
const PREFIX_SORT_ROWS = 1 << 24;
/** The pairs of a sort by prefix are read back as 32-bit words: low word first on these machines. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Sorts the rows in place by the UTF-8 bytes of their ids, Kafka's order (listing.ts's compareIds).
 * First by the five bytes after the prefix every id shares, all at once: each row becomes one
 * 64-bit number (those bytes above its row number), made in one pass in the rows' own order (the
 * answer's, so its bytes are read in order, not from all over it) and sorted natively. Rows whose
 * five bytes are the same are then sorted by sortRange.
 */
export function sortRows({ table, rows }: ListedRows): void {
  const n = rows.length;
  if (n < 2) return;
  if (n >= PREFIX_SORT_ROWS || !LITTLE_ENDIAN) {
    sortRange(table, rows, 0, n, 0, radixWork(n));
    return;
  }
  const { bytes, ids } = table;
  // The bytes every id shares from its start.
  const first = (rows[0] as number) * ID_STRIDE;
  const firstStart = ids[first] as number;
  let shared = ids[first + 1] as number;
  for (let k = 1; k < n && shared > 0; k++) {
    const at = (rows[k] as number) * ID_STRIDE;
    const start = ids[at] as number;
    const m = Math.min(shared, ids[at + 1] as number);
    let i = 0;
    while (i < m && bytes[start + i] === bytes[firstStart + i]) i++;
    shared = i;
  }
  // Pair k: low word (byte 5 << 24 | row), high word (bytes 1 to 4); a byte past an id's end is 0.
  const pairs = new BigUint64Array(n);
  const words = new Uint32Array(pairs.buffer);
  for (let k = 0; k < n; k++) {
    const row = rows[k] as number;
    const at = row * ID_STRIDE;
    const from = (ids[at] as number) + shared;
    const left = (ids[at + 1] as number) - shared;
    let high = 0;
    for (let i = 0; i < 4; i++) high = high * 256 + (i < left ? (bytes[from + i] as number) : 0);
    words[2 * k] = ((4 < left ? (bytes[from + 4] as number) : 0) * 2 ** 24 + row) >>> 0;
    words[2 * k + 1] = high;
  }
  pairs.sort();
  for (let k = 0; k < n; k++) rows[k] = (words[2 * k] as number) & 0xffffff;
  // Runs of the same five bytes (or of ids that end within them) are sorted whole: from `shared`,
  // since an id's end and a 0 byte were both read as 0.
  let work: RadixWork | undefined;
  for (let lo = 0; lo < n; ) {
    const high = words[2 * lo + 1] as number;
    const low = (words[2 * lo] as number) >>> 24;
    let hi = lo + 1;
    while (hi < n && words[2 * hi + 1] === high && (words[2 * hi] as number) >>> 24 === low) hi++;
    if (hi - lo >= SMALL) {
      work ??= radixWork(n);
      sortRange(table, rows, lo, hi, shared, work);
    } else if (hi - lo > 1) insertionSort(table, rows, lo, hi, shared);
    lo = hi;
  }
}

/** A radix sort's arrays, as long as the rows. */
interface RadixWork {
  scratch: Uint32Array;
  keys: Uint16Array;
  counts: Int32Array;
}

const radixWork = (n: number): RadixWork => ({
  scratch: new Uint32Array(n),
  // Each row's byte at the current depth, read once (from all over the answer) and then in order.
  keys: new Uint16Array(n),
  counts: new Int32Array(258),
});

/**
 * Sorts rows[lo..hi), whose ids share their first `depth` bytes, by the bytes after:
 * most-significant-byte radix sort, no comparison function per pair and no string per id. Each
 * level reads one byte of each id in its bucket, so the work is bounded by the ids' bytes.
 */
function sortRange(
  table: ListedGroupsTable,
  rows: Uint32Array,
  from: number,
  to: number,
  at: number,
  { scratch, keys, counts }: RadixWork,
): void {
  const { bytes, ids } = table;
  const stack: number[] = [from, to, at];
  while (stack.length > 0) {
    let depth = stack.pop() as number;
    const hi = stack.pop() as number;
    const lo = stack.pop() as number;
    if (hi - lo < SMALL) {
      insertionSort(table, rows, lo, hi, depth);
      continue;
    }
    // Bucket 0: ids that end here (they come first); bucket b + 1: next byte b. Only the keys
    // seen (min..max) are swept: ids use a few dozen byte values.
    let min = 257;
    let max = 0;
    for (let k = lo; k < hi; k++) {
      const at = (rows[k] as number) * ID_STRIDE;
      const key = depth < (ids[at + 1] as number) ? (bytes[(ids[at] as number) + depth] as number) + 1 : 0;
      keys[k] = key;
      counts[key + 1] = (counts[key + 1] as number) + 1;
      if (key < min) min = key;
      if (key > max) max = key;
    }
    if (min === max) {
      counts[min + 1] = 0;
      // All the same id: done. Else every id shares this byte, and maybe more: go past all the
      // bytes they share at once (one pass), rather than one pass per shared byte.
      if (min > 0) stack.push(lo, hi, depth + sharedBytes(table, rows, lo, hi, depth));
      continue;
    }
    for (let b = min + 1; b <= max + 1; b++) counts[b] = (counts[b] as number) + (counts[b - 1] as number);
    for (let k = lo; k < hi; k++) scratch[lo + (counts[keys[k] as number] as number)++] = rows[k] as number;
    rows.set(scratch.subarray(lo, hi), lo);
    // counts[key] is now the end of bucket key; buckets of a byte (not 0) go one byte deeper.
    depth++;
    for (let key = Math.max(min, 1); key <= max; key++) {
      const start = lo + (key === min ? 0 : (counts[key - 1] as number));
      const end = lo + (counts[key] as number);
      if (end - start > 1) stack.push(start, end, depth);
    }
    // Zero again for the next bucket.
    for (let b = min; b <= max + 1; b++) counts[b] = 0;
  }
}

/** How many bytes from `depth` on every id of rows[lo..hi) shares with the first (at least 1: the caller saw one). */
function sharedBytes(
  table: ListedGroupsTable,
  rows: Uint32Array,
  lo: number,
  hi: number,
  depth: number,
): number {
  const { bytes, ids } = table;
  const first = (rows[lo] as number) * ID_STRIDE;
  const start = ids[first] as number;
  let shared = (ids[first + 1] as number) - depth;
  for (let k = lo + 1; k < hi && shared > 1; k++) {
    const at = (rows[k] as number) * ID_STRIDE;
    const other = (ids[at] as number) + depth;
    const n = Math.min(shared, (ids[at + 1] as number) - depth);
    let i = 1;
    while (i < n && bytes[other + i] === bytes[start + depth + i]) i++;
    shared = i;
  }
  return Math.max(shared, 1);
}

function insertionSort(
  table: ListedGroupsTable,
  rows: Uint32Array,
  lo: number,
  hi: number,
  depth: number,
): void {
  for (let k = lo + 1; k < hi; k++) {
    const row = rows[k] as number;
    let at = k;
    while (at > lo && compareRows(table, rows[at - 1] as number, row, depth) > 0) {
      rows[at] = rows[at - 1] as number;
      at--;
    }
    rows[at] = row;
  }
}

/** The UTF-8 order of two rows' ids, which agree on their first `depth` bytes. */
function compareRows(table: ListedGroupsTable, a: number, b: number, depth: number): number {
  const { bytes, ids } = table;
  const la = ids[a * ID_STRIDE + 1] as number;
  const lb = ids[b * ID_STRIDE + 1] as number;
  const sa = ids[a * ID_STRIDE] as number;
  const sb = ids[b * ID_STRIDE] as number;
  const n = Math.min(la, lb);
  for (let i = depth; i < n; i++) {
    const d = (bytes[sa + i] as number) - (bytes[sb + i] as number);
    if (d !== 0) return d;
  }
  return la - lb;
}

/** Index of the first sorted row whose id comes after `after` (binary search; 0 without it). */
export function rowsAfter({ table, rows }: ListedRows, after: string | undefined): number {
  if (after === undefined) return 0;
  const key = utf8.encode(after);
  const { bytes, ids } = table;
  const compare = (row: number) => {
    const start = ids[row * ID_STRIDE] as number;
    const length = ids[row * ID_STRIDE + 1] as number;
    const n = Math.min(length, key.length);
    for (let i = 0; i < n; i++) {
      const d = (bytes[start + i] as number) - (key[i] as number);
      if (d !== 0) return d;
    }
    return length - key.length;
  };
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(rows[mid] as number) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
