import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.js';

describe('TopK', () => {
  it('keeps the k best of any stream, best first, ties in arrival order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 }),
        fc.integer({ min: 0, max: 30 }),
        (xs, k) => {
          const top = new TopK<{ v: number; i: number }>(k, (a, b) => a.v > b.v);
          for (const [i, v] of xs.entries()) top.offer({ v, i });
          const expected = xs
            .map((v, i) => ({ v, i }))
            .sort((a, b) => b.v - a.v || a.i - b.i)
            .slice(0, k);
          expect(top.sorted()).toEqual(expected);
          expect(top.size).toBe(Math.min(k, xs.length));
        },
      ),
    );
  });

  it('holds no more than k, whatever it is offered', () => {
    const top = new TopK<number>(3, (a, b) => a < b);
    for (let i = 100_000; i > 0; i--) top.offer(i);
    expect(top.size).toBe(3);
    expect(top.sorted()).toEqual([1, 2, 3]);
  });
});
