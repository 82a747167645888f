import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from './decode-error.js';
import {
  ABSENT,
  ID_ESCAPED,
  ID_NON_ASCII,
  ID_STRIDE,
  ListGroupsTable,
  tableGroupId,
  tableResponse,
} from './list-groups-table.js';
import { ListGroups, type ListGroupsResponse } from './messages/list-groups.js';
import {
  decodeFailure,
  expectDecodesOrFails,
  expectTruncationsFail,
  hex,
  prng,
  versionsOf,
} from './test-utils.js';

const response = (v: number): ListGroupsResponse => ({
  ...(v >= 1 && { throttleTimeMs: 25 }),
  errorCode: 0,
  groups: [
    ['orders/eu west 🌍', 'consumer', 'Stable', 'classic'],
    ['', '', 'Empty', 'share'],
    ['a "quoted" \\ id\n', 'connect', 'Stable', 'classic'],
    ['g-3', 'consumer', 'PreparingRebalance', 'classic'],
  ].map(([groupId, protocolType, groupState, groupType]) => ({
    groupId: groupId as string,
    protocolType: protocolType as string,
    ...(v >= 4 && { groupState: groupState as string }),
    ...(v >= 5 && { groupType: groupType as string }),
  })),
});

describe('ListGroups read as a table', () => {
  it.each(versionsOf(ListGroups))('holds what the row decoder reads, v%i', (v) => {
    const body = ListGroups.encodeResponse(v, response(v));
    const table = ListGroupsTable.decodeResponse(v, body);
    expect(tableResponse(table)).toStrictEqual(ListGroups.decodeResponse(v, body));
    expect(table.count).toBe(4);
    // Each distinct word once, whatever the number of groups naming it.
    expect(new Set(table.words).size).toBe(table.words.length);
    expect([...table.state].every((s) => (s === ABSENT) === v < 4)).toBe(true);
    expect([...table.type].every((t) => (t === ABSENT) === v < 5)).toBe(true);
    expect([0, 1, 2, 3].map((i) => table.ids[i * ID_STRIDE + 2])).toEqual([ID_NON_ASCII, 0, ID_ESCAPED, 0]);
    // Groups 0 and 3 differ in their states only (v4+).
    const kind = (i: number) => table.ids[i * ID_STRIDE + 3] as number;
    expect(kind(0) === kind(3)).toBe(v < 4);
    expect(table.kinds[kind(1)]).toEqual({
      protocolType: table.words.indexOf(''),
      state: v >= 4 ? table.words.indexOf('Empty') : ABSENT,
      type: v >= 5 ? table.words.indexOf('share') : ABSENT,
    });
    // The id bytes are a copy: the network buffer may be reused once decoded.
    body.fill(0);
    expect(tableGroupId(table, 0)).toBe('orders/eu west 🌍');
    expect(toEncoded(v, table)).toStrictEqual(ListGroups.encodeResponse(v, response(v)));
  });

  it('skips unknown tagged fields, checking them', () => {
    const body = hex`
      00 00 00 00 00 00             # ThrottleTimeMs, ErrorCode
      02 03 67 31 01                # Groups: 1, GroupId "g1", ProtocolType ""
      01 05 01 ff                   #   group tags: 1, tag 5, 1 byte ff
      01 1f 02 ab cd                # tags: 1, tag 31, 2 bytes
    `;
    expect(tableResponse(ListGroupsTable.decodeResponse(3, body))).toStrictEqual({
      throttleTimeMs: 0,
      errorCode: 0,
      groups: [{ groupId: 'g1', protocolType: '' }],
    });
    expectTruncationsFail((b) => ListGroupsTable.decodeResponse(3, b), body);
  });

  it('fails cleanly on every truncation, on a broken UTF-8 id and on a huge count', () => {
    for (const v of versionsOf(ListGroups))
      expectTruncationsFail(
        (b) => ListGroupsTable.decodeResponse(v, b),
        ListGroups.encodeResponse(v, response(v)),
      );
    const broken = hex`00 00 00 00 00 00  02 03 67 ff 01 00 00`;
    const error = decodeFailure(() => ListGroupsTable.decodeResponse(3, broken));
    expect(error).toMatchObject({ apiKey: 16, apiVersion: 3 });
    expect(error.message).toMatch(/^ListGroups response v3: string 'groupId' is not valid UTF-8/);
    expect(
      decodeFailure(() => ListGroupsTable.decodeResponse(2, hex`00 00 00 00 00 00 7f ff ff ff 00 00`)).reason,
    ).toMatch(/2147483647/);
    expect(() => ListGroupsTable.decodeResponse(6, hex``)).toThrow(UnsupportedVersionError);
  });

  it('decodes or fails cleanly on corrupted answers', () => {
    const random = prng(23);
    for (const v of versionsOf(ListGroups)) {
      const body = ListGroups.encodeResponse(v, response(v));
      for (let i = 0; i < 300; i++) {
        const bytes = body.slice();
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
        expectDecodesOrFails((b) => ListGroupsTable.decodeResponse(v, b), bytes);
      }
    }
  });

  it('reads a hundred thousand groups into a handful of words', () => {
    const groups = Array.from({ length: 100_000 }, (_, i) => ({
      groupId: `bench-${i}`,
      protocolType: i % 2 ? 'consumer' : '',
      groupState: i % 3 ? 'Empty' : 'Stable',
      groupType: 'classic',
    }));
    const table = ListGroupsTable.decodeResponse(5, ListGroups.encodeResponse(5, { errorCode: 0, groups }));
    expect(table.count).toBe(100_000);
    expect([...table.words].sort()).toEqual(['', 'Empty', 'Stable', 'classic', 'consumer']);
    expect(tableGroupId(table, 99_999)).toBe('bench-99999');
  });
});

function toEncoded(v: number, table: ReturnType<typeof ListGroupsTable.decodeResponse>): Uint8Array {
  return ListGroupsTable.encodeResponse(v, table);
}
