import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageAfter } from './paging.js';

const groups = (...ids: string[]) => ids.map((groupId) => ({ groupId }));

describe('cursors', () => {
  it('round-trip any group id, unicode and separators included', () => {
    for (const id of ['a', 'demo-classic', 'a b/c%d', 'ü 漢字 🎉', 'x'.repeat(32_767), 'g1:trick']) {
      const cursor = encodeCursor(id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toBe(id);
    }
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
    ]) {
      expect(decodeCursor(bad), bad).toBeUndefined();
    }
  });
});

describe('pageAfter', () => {
  const sorted = groups('a', 'b', 'c', 'd', 'e');

  it('pages from the start without a cursor', () => {
    expect(pageAfter(sorted, undefined, 2)).toEqual({ page: groups('a', 'b'), more: true });
    expect(pageAfter(sorted, undefined, 5)).toEqual({ page: sorted, more: false });
  });

  it('starts right after the cursor id, whether or not that id still exists', () => {
    expect(pageAfter(sorted, 'b', 2)).toEqual({ page: groups('c', 'd'), more: true });
    expect(pageAfter(sorted, 'bb', 2)).toEqual({ page: groups('c', 'd'), more: true });
    expect(pageAfter(sorted, 'd', 2)).toEqual({ page: groups('e'), more: false });
    expect(pageAfter(sorted, 'e', 2)).toEqual({ page: [], more: false });
    expect(pageAfter(sorted, '', 1)).toEqual({ page: groups('a'), more: true });
  });

  it('orders by UTF-8 bytes, as the list is sorted', () => {
    // U+FF5E sorts before U+1F389 in UTF-8 but after it in UTF-16 code units.
    const mixed = groups('～', '🎉');
    expect(pageAfter(mixed, '～', 1).page).toEqual(groups('🎉'));
  });
});
