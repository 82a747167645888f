/**
 * The two forms the Lambda build's lazy-chunks-join-start plugin cannot take (its header says why):
 * a module of the sources loaded with `import()` has no `export default` (the wrapper re-exports
 * with `export *`, which leaves it out), and no module awaits an `import()` at its top level (the
 * lazy module would wait for the entry, which waits for it: the Lambda would never start).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

const SOURCES = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
  .map((f) => join(SRC, f));

/** Each module of the sources some other one loads with `import('./…')`. */
function lazyModules(): string[] {
  const found = new Set<string>();
  for (const file of SOURCES) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(
      /\bimport\(\s*'(\.{1,2}\/[^']+)'\s*\)/g,
    )) {
      found.add(resolve(dirname(file), (specifier as string).replace(/\.js$/, '.ts')));
    }
  }
  return [...found].sort();
}

describe('modules loaded on first use', () => {
  const lazy = lazyModules();

  it('are found', () => {
    expect(lazy.length).toBeGreaterThan(10);
  });

  it('have no default export', () => {
    const withDefault = lazy.filter((file) => /^export default\b/m.test(readFileSync(file, 'utf8')));
    expect(withDefault.map((file) => relative(ROOT, file))).toEqual([]);
  });

  it('are never awaited at the top level of a module', () => {
    const awaited = SOURCES.filter((file) =>
      /^(?:export\s+)?(?:(?:const|let|var)\s+[^=]+=\s*)?await\s+import\(/m.test(readFileSync(file, 'utf8')),
    );
    expect(awaited.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
