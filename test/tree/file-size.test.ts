/**
 * One job per file: no file under src/ is over MAX_LINES lines, except the codec's message files
 * (one RPC, every version, with its wire grammar beside it).
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAX_LINES = 450;
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const EXEMPT = 'broker/protocol/messages/';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('file sizes under src/', () => {
  it(`keeps every file at ${MAX_LINES} lines or fewer (but the codec's messages)`, () => {
    const long = files(SRC)
      .map((path) => ({ file: relative(SRC, path).split('\\').join('/'), path }))
      .filter(({ file }) => /\.ts$/.test(file) && !file.startsWith(EXEMPT))
      .map(({ file, path }) => ({ file, lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
