import { describe, expect, it } from 'vitest';
import { ListGroupsTable } from '../broker/protocol/list-groups-table.js';
import { type ListedGroup, ListGroups } from '../broker/protocol/messages/list-groups.js';
import { listingAt, selectRows, sortRows } from '../groups/listed-rows.js';
import type { BrokerFailure } from '../groups/model.js';
import { ndjsonRows } from './listing-lines.js';

const listedOf = (groups: ListedGroup[], version = 5) => {
  const table = ListGroupsTable.decodeResponse(
    version,
    ListGroups.encodeResponse(version, { errorCode: 0, groups }),
  );
  const listed = { table, rows: selectRows(table, {}) };
  sortRows(listed);
  return listed;
};
const failure: BrokerFailure = {
  broker: { nodeId: 2, host: '127.0.0.1', port: 9093 },
  error: { name: 'BrokerUnavailableError', message: 'cannot connect' },
};

describe('ndjsonRows', () => {
  it('writes failures first, then each group byte for byte as JSON.stringify would, then the end line', async () => {
    for (const version of [0, 3, 4, 5]) {
      const listed = listedOf(
        [
          {
            groupId: 'a "quoted" \\ id\n\u0001',
            protocolType: 'con"nect',
            groupState: 'Stable',
            groupType: 'classic',
          },
          { groupId: 'b', protocolType: 'consumer', groupState: 'STABLE', groupType: 'Consumer' },
          { groupId: 'ü 漢字 🎉', protocolType: '', groupState: 'Empty', groupType: 'future' },
          { groupId: '\u2028', protocolType: '', groupState: 'NOT_READY', groupType: 'streams' },
        ].map((g) => ({
          groupId: g.groupId,
          protocolType: g.protocolType,
          ...(version >= 4 && { groupState: g.groupState }),
          ...(version >= 5 && { groupType: g.groupType }),
        })),
        version,
      );
      const res = ndjsonRows(listed, [failure], undefined);
      expect(res.headers.get('content-type')).toBe('application/x-ndjson');
      const listings = [...listed.rows].map((row) => listingAt(listed.table, row));
      expect(listings.map((g) => g.state)).toEqual(
        version >= 4 ? ['Stable', 'Stable', 'Empty', 'NotReady'] : [null, null, null, null],
      );
      const expected = [{ failure }, ...listings, { end: { groups: 4, failures: 1 } }]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join('');
      expect(await res.text()).toBe(expected);
    }
  });

  it('opens the first group line once when the failures alone fill a chunk', async () => {
    const listed = listedOf([
      { groupId: 'a', protocolType: 'consumer', groupState: 'Stable', groupType: 'classic' },
      { groupId: 'b', protocolType: 'consumer', groupState: 'Empty', groupType: 'classic' },
    ]);
    // Some 1,000 failed brokers with long messages: more than one chunk before the first group.
    const failures = Array.from({ length: 1_000 }, (_, i) => ({
      broker: { nodeId: i, host: `broker-${i}.example`, port: 9092 },
      error: { name: 'BrokerUnavailableError', message: `cannot connect: ${'x'.repeat(200)}` },
    }));
    const text = await ndjsonRows(listed, failures, undefined).text();
    expect(text.length).toBeGreaterThan(256 * 1024);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.slice(1_000, -1).map((g) => g.groupId)).toEqual(['a', 'b']);
    expect(lines.at(-1)).toEqual({ end: { groups: 2, failures: 1_000 } });
  });

  it('copies long ids and short ones alike', async () => {
    // In UTF-8 byte order already.
    const ids = ['s', 'x'.repeat(33), 'y'.repeat(32_000), `${'ü'.repeat(20)}-long`];
    const listed = listedOf(
      ids.map((groupId) => ({ groupId, protocolType: 'consumer', groupState: 'Empty', groupType: 'share' })),
    );
    const lines = (await ndjsonRows(listed, [], undefined).text()).trimEnd().split('\n');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line).groupId)).toEqual(ids);
  });

  it('starts after the cursor, streams many chunks whole, and ends an empty listing', async () => {
    const groups = Array.from({ length: 5_000 }, (_, i) => ({
      groupId: `g${String(i).padStart(5, '0')}`,
      protocolType: 'consumer',
      groupState: i % 2 ? 'Stable' : 'Empty',
      groupType: 'classic',
    }));
    const listed = listedOf(groups);
    const res = ndjsonRows(listed, [], 'g00099');
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      chunks++;
      text += decoder.decode(chunk, { stream: true });
    }
    expect(chunks).toBeGreaterThan(2);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4_900 + 1);
    expect(lines[0]).toBe(
      JSON.stringify({ groupId: 'g00100', type: 'classic', protocolType: 'consumer', state: 'Empty' }),
    );
    expect(lines.at(-1)).toBe(JSON.stringify({ end: { groups: 4_900, failures: 0 } }));
    expect(await ndjsonRows(undefined, [failure], undefined).text()).toBe(
      `${JSON.stringify({ failure })}\n${JSON.stringify({ end: { groups: 0, failures: 1 } })}\n`,
    );
  });
});
