/**
 * What the bundles leave out must be what this product never calls: zod keeps English. (What they
 * leave out of kafkajs is checked beside its plugin, src/broker/transport/kafkajs/kafkajs.test.ts.)
 */

import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { BUNDLE_PLUGINS } from '../../scripts/build.js';

async function bundled(source: string): Promise<Record<string, unknown>> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    plugins: BUNDLE_PLUGINS,
    logLevel: 'silent',
  });
  const module = { exports: {} as Record<string, unknown> };
  new Function('module', 'exports', 'require', result.outputFiles[0]?.text ?? '')(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}

describe('bundle trimming', () => {
  it('zod keeps its English messages', async () => {
    // As the sources import it (ESM), which is what the bundles resolve.
    const out = await bundled(`
      import { z } from 'zod';
      export const locales = Object.keys(z.locales);
      export const message = z.number().safeParse('x').error.issues[0].message;
    `);
    expect(out.locales).toEqual(['en']);
    expect(out.message).toBe('Invalid input: expected number, received string');
  });
});
