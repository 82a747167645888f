/**
 * Paging /groups by cursor over ids where UTF-8 and UTF-16 disagree: lone surrogates (which UTF-8
 * cannot carry: a client's encoder sends U+FFFD, or Java's '?'), U+FFFD itself, astral characters
 * and the BMP's top. Every page size from 1 to 3, cursors through their codec, every id exactly
 * once: over the brokers' rows (rowsAfter, byte order) and over listings as objects (smallestAfter).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupIdAt, rowsAfter, selectRows, sortRows } from '../../src/groups/listed-rows.js';
import { compareIds, smallestAfter } from '../../src/groups/listing.js';
import { decodePageCursor, encodeCursor } from '../../src/routes/paging.js';
import { stableClassicTable } from '../support/listing-table.js';

const UNITS = [
  'a',
  'z',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\uFFFD',
  '\uFFFF',
  '\uE000',
  '\u{1F600}',
  '\u{10000}',
  '\u{10FFFF}',
];
const FIXED = [
  'a',
  'a\uD800',
  'a\uDC00b',
  '\uD800',
  '\uDFFF\uD800',
  '\uFFFD',
  'a\uFFFD',
  '\uFFFF',
  '\u{1F600}',
  '\u{1F600}\uD83D',
  '\u{10FFFF}',
  '\uE000',
];

const idsArb = fc.uniqueArray(fc.string({ unit: fc.constantFrom(...UNITS), minLength: 1, maxLength: 6 }), {
  minLength: 1,
  maxLength: 40,
});

/** The next page's `after`, as a caller hands the cursor back. */
const through = (lastId: string) => decodePageCursor(encodeCursor(lastId, 'c2VlZA'))?.after;

/** As a broker holds them: UTF-8 on the wire, so two ids that encode alike are one group. */
function asBrokerHolds(ids: readonly string[]): string[] {
  const decoded = ids.map((id) => new TextDecoder().decode(new TextEncoder().encode(id)));
  return [...new Set(decoded)];
}

function pagedRows(ids: readonly string[], size: number): string[] {
  const table = stableClassicTable(ids);
  const listed = { table, rows: selectRows(table, {}) };
  sortRows(listed);
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages <= ids.length; pages++) {
    const first = rowsAfter(listed, after);
    const page = [...listed.rows.subarray(first, first + size)].map((row) => groupIdAt(table, row));
    seen.push(...page);
    if (first + size >= listed.rows.length) return seen;
    after = through(page.at(-1) as string);
  }
  throw new Error(`paging did not end: ${JSON.stringify(seen)}`);
}

function pagedObjects(ids: readonly string[], size: number): string[] {
  const items = ids.map((groupId) => ({ groupId }));
  const seen: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages <= ids.length; pages++) {
    const page = smallestAfter(items, after, size + 1);
    seen.push(...page.slice(0, size).map((g) => g.groupId));
    if (page.length <= size) return seen;
    after = through(page[size - 1]?.groupId as string);
  }
  throw new Error(`paging did not end: ${JSON.stringify(seen)}`);
}

const sortedOnce = (ids: readonly string[]) => [...ids].sort(compareIds);

describe('cursor paging over surrogates, U+FFFD and astral ids', () => {
  for (const size of [1, 2, 3]) {
    it(`pages of ${size} over the brokers' rows: every id once, in byte order`, () => {
      const ids = asBrokerHolds(FIXED);
      expect(pagedRows(ids, size)).toEqual(sortedOnce(ids));
      fc.assert(
        fc.property(idsArb, (raw) => {
          const held = asBrokerHolds(raw);
          expect(pagedRows(held, size)).toEqual(sortedOnce(held));
        }),
        { numRuns: 200 },
      );
    });

    it(`pages of ${size} over listings as objects, lone surrogates kept: every id once`, () => {
      expect(new Set(pagedObjects(FIXED, size))).toEqual(new Set(FIXED));
      expect(pagedObjects(FIXED, size)).toHaveLength(FIXED.length);
      fc.assert(
        fc.property(idsArb, (ids) => {
          const seen = pagedObjects(ids, size);
          expect(seen).toHaveLength(ids.length);
          expect(new Set(seen)).toEqual(new Set(ids));
        }),
        { numRuns: 200 },
      );
    });
  }
});

describe('the cursor codec', () => {
  const cursorOf = (bytes: number[]) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const g1 = [...'g1:'].map((c) => c.charCodeAt(0));

  it('gives back every id as it was, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), (id) => {
        expect(decodePageCursor(encodeCursor(id))?.after).toBe(id);
        expect(decodePageCursor(encodeCursor(id, 'c2VlZA'))).toEqual({ after: id, snapshot: 'c2VlZA' });
      }),
    );
  });

  it('keeps the cursors of well-formed ids as UTF-8, as earlier versions made them', () => {
    expect(encodeCursor('é\u{1F600}')).toBe(cursorOf([...g1, ...new TextEncoder().encode('é\u{1F600}')]));
  });

  it.each([
    ['an overlong form', [0xc0, 0xaf]],
    ['a surrogate pair written as two surrogates', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
    ['a cut sequence', [0x61, 0xe2, 0x82]],
    ['a byte no sequence starts with', [0x61, 0xff]],
  ])('refuses %s', (_name, bytes) => {
    expect(decodePageCursor(cursorOf([...g1, ...bytes]))).toBeUndefined();
  });
});
