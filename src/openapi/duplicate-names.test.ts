/**
 * duplicateNames against a reference built from the tree that wrote the text: for random bodies
 * whose objects may repeat names (written as lists of entries, so the repeats reach the text),
 * spelled with random whitespace and escapes, it finds exactly the repeated names, in order.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DuplicatePath, duplicateNames } from './duplicate-names.js';

type Tree = null | number | string | Tree[] | { entries: [string, Tree][] };

const NAMES = ['a', 'type', 'b', 'ty"pe', 'c\\d', 'é', '{', ',', ':'];

const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((self) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, 1, -2.5e3, 'x', 'a "quoted", {braced} [text]', ''),
    fc.array(self('node'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.constantFrom(...NAMES), self('node')), { maxLength: 5 })
      .map((entries) => ({ entries })),
  ),
})).node;

/** The text of a tree, with whitespace from `space` and each name escaped when `escapeNames` says so. */
function write(node: Tree, space: string, escapeNames: boolean): string {
  if (node === null || typeof node !== 'object') return JSON.stringify(node);
  if (Array.isArray(node))
    return `[${space}${node.map((n) => write(n, space, escapeNames)).join(`${space},`)}]`;
  const name = (k: string) =>
    escapeNames
      ? `"${[...k].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`
      : JSON.stringify(k);
  return `{${space}${node.entries.map(([k, v]) => `${name(k)}${space}:${space}${write(v, space, escapeNames)}`).join(`,${space}`)}${space}}`;
}

/** The repeated names of a tree, in the order its text has them. */
function reference(node: Tree, path: (string | number)[] = [], out: DuplicatePath[] = []): DuplicatePath[] {
  if (node === null || typeof node !== 'object') return out;
  if (Array.isArray(node)) {
    for (const [i, n] of node.entries()) reference(n, [...path, i], out);
    return out;
  }
  const seen = new Set<string>();
  for (const [k, v] of node.entries) {
    if (seen.has(k)) out.push([...path, k]);
    seen.add(k);
    reference(v, [...path, k], out);
  }
  return out;
}

describe('duplicateNames', () => {
  it('finds exactly the repeated names of random bodies, in their order, whatever the spacing and escapes', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom('', ' ', '\n\t '), fc.boolean(), (t, space, escapeNames) => {
        const text = write(t, space, escapeNames);
        JSON.parse(text); // the scan's input is valid JSON
        const expected = reference(t);
        const found = duplicateNames(text, 1_000);
        expect(found.paths).toEqual(expected);
        expect(found.total).toBe(expected.length);
      }),
      { numRuns: 2_000 },
    );
  });

  it('names the path of a repeat at depth, and counts beyond the first it names', () => {
    const text = '{"resets":[{"type":"classic","type":"consumer"}],"a":1,"a":2,"a":3}';
    expect(duplicateNames(text, 2)).toEqual({
      paths: [['resets', 0, 'type'], ['a']],
      total: 3,
    });
  });

  it('scans a body nested 200,000 deep in one pass, without a set per level', () => {
    const depth = 200_000;
    const text = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expect(duplicateNames(text, 20)).toEqual({ paths: [], total: 0 });
    const arrays = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(duplicateNames(arrays, 20)).toEqual({ paths: [], total: 0 });
  });
});
