import { describe, expect, it } from 'vitest';
import type { BrokerFailure, GroupListing } from '../groups/model.js';
import { decodePageCursor, encodeCursor, ndjsonListing } from './paging.js';

const b64 = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const _groups = (...ids: string[]) => ids.map((groupId) => ({ groupId }));

describe('cursors', () => {
  it('round-trip any group id, unicode and separators included', () => {
    for (const id of ['a', 'demo-classic', 'a b/c%d', 'ü 漢字 🎉', 'x'.repeat(32_767), 'g1:trick']) {
      const cursor = encodeCursor(id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodePageCursor(cursor)?.after).toBe(id);
    }
  });

  it('name the snapshot their page was cut from, beside the group id', () => {
    for (const id of ['a', 'g2:x:y', 'ü 漢字 🎉', 'a:b']) {
      const cursor = encodeCursor(id, 'Zm9vYmFyYmF6cXV4');
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodePageCursor(cursor)).toEqual({ after: id, snapshot: 'Zm9vYmFyYmF6cXV4' });
      expect(decodePageCursor(cursor)?.after).toBe(id);
    }
  });

  it('of earlier versions (the group id alone) still decode, without a snapshot', () => {
    // 'g1:demo-consumer', as every earlier version wrote it (the example of the document).
    expect(decodePageCursor('ZzE6ZGVtby1jb25zdW1lcg')).toEqual({ after: 'demo-consumer' });
    expect(decodePageCursor(encodeCursor('x'))).toEqual({ after: 'x' });
  });

  it('refuse anything that is not a cursor of ours', () => {
    for (const bad of [
      '',
      'not-a-cursor',
      '!!!',
      btoa('other:thing'),
      encodeCursor('x').slice(0, 3),
      '_w',
      'ZzE6',
      b64('g2:'),
      b64('g2:abc'),
      b64('g2:abc:'),
      b64('g2::x'),
      b64('g2:a+b:x'),
      b64('g3:abc:x'),
    ]) {
      expect(decodePageCursor(bad)?.after, bad).toBeUndefined();
    }
  });
});

describe('ndjsonListing', () => {
  const listing = (groupId: string, over: Partial<GroupListing> = {}): GroupListing => ({
    groupId,
    type: 'classic',
    protocolType: '',
    state: 'Empty',
    ...over,
  });
  const failure: BrokerFailure = {
    broker: { nodeId: 2, host: '127.0.0.1', port: 9093 },
    error: { name: 'BrokerUnavailableError', message: 'cannot connect' },
  };
  const read = async (res: Response) => {
    const text = await res.text();
    expect(text.endsWith('\n')).toBe(true);
    return text
      .slice(0, -1)
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
  };

  it('writes failures first, then each group as JSON.stringify would, then the end line', async () => {
    const groups = [
      listing('a "quoted" \\ id\n', { type: null, state: null }),
      listing('b', { protocolType: 'consumer', state: 'Stable', type: 'consumer' }),
      listing('ü 漢字 🎉'),
    ];
    const res = ndjsonListing(groups, [failure], undefined);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(await read(res)).toEqual([{ failure }, ...groups, { end: { groups: 3, failures: 1 } }]);
  });

  it('starts after the cursor, and streams past one chunk whole', async () => {
    const many = Array.from({ length: 2_500 }, (_, i) => listing(`g${String(i).padStart(5, '0')}`));
    const lines = await read(ndjsonListing(many, [], 'g00099'));
    expect(lines).toHaveLength(2_400 + 1);
    expect(lines[0]).toEqual(many[100]);
    expect(lines.at(-2)).toEqual(many.at(-1));
    expect(lines.at(-1)).toEqual({ end: { groups: 2_400, failures: 0 } });
  });
});
