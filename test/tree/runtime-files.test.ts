/**
 * Each runtime entry (a file of src/runtime/ that `npm run build` or wrangler.toml bundles) has its
 * test against the real broker in test/runtime/ and its section in docs/deploy.md.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const ENTRIES = [
  ...new Set(
    [...`${read('scripts/build.ts')}\n${read('wrangler.toml')}`.matchAll(/src\/runtime\/([\w-]+)\.ts/g)].map(
      (m) => m[1] as string,
    ),
  ),
];

it('finds the runtime entries', () => {
  expect(ENTRIES).toEqual(expect.arrayContaining(['node', 'lambda', 'worker']));
});

it.each(ENTRIES)('%s has a runtime test and a deploy section', (entry) => {
  expect(existsSync(join(ROOT, `test/runtime/${entry}.test.ts`))).toBe(true);
  expect(read('docs/deploy.md')).toContain(`${entry}.ts`);
});
