import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ListGroupsTable } from '../broker/protocol/list-groups-table.js';
import { type ListedGroup, ListGroups } from '../broker/protocol/messages/list-groups.js';
import { groupIdAt, listingAt, mergeRows, rowsAfter, selectRows, sortRows } from './listed-rows.js';
import { compareIds, type ListFilter, listingMatches } from './listing.js';
import type { GroupListing } from './model.js';

const tableOf = (groups: ListedGroup[], version = 5) =>
  ListGroupsTable.decodeResponse(version, ListGroups.encodeResponse(version, { errorCode: 0, groups }));

const group = (groupId: string, over: Partial<ListedGroup> = {}): ListedGroup => ({
  groupId,
  protocolType: 'consumer',
  groupState: 'Stable',
  groupType: 'classic',
  ...over,
});

/** Ids that meet at every place UTF-8 and UTF-16 orders differ, and share long prefixes. */
const idArb = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({
    unit: fc.constantFrom('a', 'b', '\u{e000}', '\u{ffff}', '\u{10000}', '"', '\\', '\n', 'é', '\0'),
    maxLength: 40,
  }),
  fc.integer({ min: 0, max: 99_999 }).map((i) => `bench-${String(i).padStart(7, '0')}`),
);

describe('listed rows', () => {
  it('sort in UTF-8 byte order, as compareIds does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(idArb, { maxLength: 300 }), (ids) => {
        const table = tableOf(ids.map((id) => group(id)));
        const listed = { table, rows: selectRows(table, {}) };
        sortRows(listed);
        expect([...listed.rows].map((row) => groupIdAt(table, row))).toEqual([...ids].sort(compareIds));
      }),
    );
  });

  it('sort twenty thousand ids with a long shared prefix, equal to compareIds', () => {
    const ids = Array.from({ length: 20_000 }, (_, i) => `a-long-shared-prefix-${(i * 7919) % 20_000}`);
    const table = tableOf(ids.map((id) => group(id)));
    const listed = { table, rows: selectRows(table, {}) };
    sortRows(listed);
    expect([...listed.rows].map((row) => groupIdAt(table, row))).toEqual([...ids].sort(compareIds));
  });

  it('sort ids alike in their first bytes, that end there or go on with zero bytes, as compareIds does', () => {
    // Past the prefix every id shares, an id's end and a zero byte weigh the same in the first
    // pass: the runs they make (long ones too) are sorted again from their start.
    const tails = ['', '\0', '\0\0', 'a', 'a\0', 'a\0\0\0\0', '\0\0\0\0\0', '\0\0\0\0\0\0', 'abcde', 'abcd'];
    const ids = [
      ...tails.map((tail) => `p-${tail}`),
      ...Array.from({ length: 100 }, (_, i) => `p-abcde${(i * 37) % 100}`),
      ...Array.from(
        { length: 40 },
        (_, i) => `p-\0\0\0\0\0${'\0'.repeat(i % 3)}${String.fromCharCode(65 + i)}`,
      ),
    ];
    const shuffled = ids.map((id, i) => ({ id, key: (i * 7919) % ids.length })).sort((a, b) => a.key - b.key);
    const table = tableOf(shuffled.map(({ id }) => group(id)));
    const listed = { table, rows: selectRows(table, {}) };
    sortRows(listed);
    expect([...listed.rows].map((row) => groupIdAt(table, row))).toEqual([...ids].sort(compareIds));
  });

  it('keep what listingMatches keeps, and make the same listings', () => {
    const states = ['Stable', 'Empty', 'NOT_READY', 'Assigning', 'strange'];
    const types = ['classic', 'Consumer', 'share', 'streams', 'future'];
    const groupArb = fc.record({
      groupId: idArb,
      protocolType: fc.constantFrom('', 'consumer', 'connect'),
      groupState: fc.constantFrom(...states),
      groupType: fc.constantFrom(...types),
    });
    const filterArb = fc.record(
      {
        types: fc.subarray(['classic', 'consumer', 'share', 'streams'] as const),
        states: fc.subarray(['Stable', 'Empty', 'NotReady', 'Assigning'] as const),
        prefix: fc.constantFrom('', 'a', 'bench-00', 'é', '\u{d800}'),
        protocolType: fc.constantFrom('', 'consumer'),
        visible: fc.constant((g: GroupListing) => g.groupId.length % 2 === 0),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(groupArb, { maxLength: 50 }),
        filterArb,
        fc.integer({ min: 0, max: 5 }),
        (groups, filter, version) => {
          const wire = groups.map((g) => ({
            groupId: g.groupId,
            protocolType: g.protocolType,
            ...(version >= 4 && { groupState: g.groupState }),
            ...(version >= 5 && { groupType: g.groupType }),
          }));
          const table = tableOf(wire, version);
          const all = [...selectRows(table, {})].map((row) => listingAt(table, row));
          const expected = all.filter((listing) => listingMatches(listing, filter as ListFilter));
          const got = [...selectRows(table, filter as ListFilter)].map((row) => listingAt(table, row));
          expect(got).toEqual(expected);
          expect(all.map((l) => l.type)).toEqual(
            wire.map((g) => (version >= 5 && g.groupType !== 'future' ? g.groupType?.toLowerCase() : null)),
          );
        },
      ),
    );
  });

  it('merge brokers with the first answer standing for a group two of them list', () => {
    const a = tableOf([group('x', { groupState: 'Empty' }), group('y')]);
    const b = tableOf([
      group('x', { groupState: 'Stable', groupType: 'consumer' }),
      group('z', { protocolType: '' }),
    ]);
    const merged = mergeRows([
      { table: a, rows: selectRows(a, {}) },
      { table: b, rows: selectRows(b, {}) },
    ]);
    expect(merged && [...merged.rows].map((row) => listingAt(merged.table, row))).toEqual([
      { groupId: 'x', type: 'classic', protocolType: 'consumer', state: 'Empty' },
      { groupId: 'y', type: 'classic', protocolType: 'consumer', state: 'Stable' },
      { groupId: 'z', type: 'classic', protocolType: '', state: 'Stable' },
    ]);
    const empty = tableOf([]);
    const one = mergeRows([
      { table: empty, rows: selectRows(empty, {}) },
      { table: b, rows: selectRows(b, {}) },
    ]);
    expect(one?.table).toBe(b);
  });

  it('start after a cursor id, present or not', () => {
    const ids = ['a', 'b', 'b\u{e000}', 'b\u{10000}', 'c'];
    const table = tableOf(ids.map((id) => group(id)));
    const listed = { table, rows: selectRows(table, {}) };
    sortRows(listed);
    expect(rowsAfter(listed, undefined)).toBe(0);
    expect(rowsAfter(listed, 'a')).toBe(1);
    expect(rowsAfter(listed, 'b\u{e000}')).toBe(3);
    expect(rowsAfter(listed, 'bz')).toBe(2);
    expect(rowsAfter(listed, 'd')).toBe(5);
  });
});
