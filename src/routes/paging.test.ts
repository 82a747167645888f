import { describe, expect, it } from 'vitest';
import { decodePageCursor, encodeCursor } from './paging.js';

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
