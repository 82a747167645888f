/**
 * The build takes its dependencies as published: a plugin that rewrites a file under node_modules
 * is caught by the check each bundle's metafile goes through (scripts/build.ts), here planted.
 */

import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { rewrittenDependencies } from '../../scripts/build.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A rewrite by exact string, as the plugins that once patched kafkajs and zod did. */
const plantedRewrite: Plugin = {
  name: 'planted-rewrite',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]quick-lru[\\/]index\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const source = await readFile(args.path, 'utf8');
      return { contents: source.replace('class QuickLRU', '/* patched */ class QuickLRU'), loader: 'js' };
    });
  },
};

async function metafileOf(plugins: Plugin[]) {
  const result = await build({
    absWorkingDir: ROOT,
    stdin: { contents: "export { default } from 'quick-lru';", resolveDir: ROOT },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins,
  });
  return result.metafile;
}

describe('dependencies as published', () => {
  it('finds nothing changed in a plain build', async () => {
    const meta = await metafileOf([]);
    expect(Object.keys(meta.inputs).some((input) => input.includes('node_modules/quick-lru/'))).toBe(true);
    expect(await rewrittenDependencies(meta, ROOT)).toEqual([]);
  });

  it('names the file a plugin rewrote', async () => {
    const rewritten = await rewrittenDependencies(await metafileOf([plantedRewrite]), ROOT);
    expect(rewritten).toEqual([expect.stringMatching(/node_modules\/quick-lru\/index\.js$/)]);
  });
});
