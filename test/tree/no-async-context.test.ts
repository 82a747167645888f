/**
 * The request's deadline travels as an argument, route to socket (src/broker/deadline.ts): no file
 * under src/ reaches for an async context to carry it, or anything else, instead. A context read
 * where it was not passed is what a shared call would take from whichever caller started it, and on
 * Node 20 the first one entered costs every promise of the process a hook.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const FORBIDDEN = /AsyncLocalStorage|(?:node:)?async_hooks/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('no async context under src/', () => {
  const all = files(SRC);

  it('reads the files of src/', () => {
    expect(all.some((path) => path.endsWith('deadline.ts'))).toBe(true);
  });

  it('names neither AsyncLocalStorage nor node:async_hooks in any file', () => {
    const found = all
      .map((path) => ({ file: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
      .flatMap(({ file, text }) =>
        text
          .split('\n')
          .flatMap((line, i) => (FORBIDDEN.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });
});
