/**
 * What the bundles leave out must be what this product never calls: kafkajs keeps the requests its
 * connection sends on its own (SASL handshake and authenticate), zod keeps English.
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
  it('kafkajs still builds its SASL requests; the requests it never sends for us are gone', async () => {
    const out = await bundled(`
      const { requests, lookup } = require('kafkajs/src/protocol/requests');
      const find = lookup({ 17: { minVersion: 0, maxVersion: 1 }, 36: { minVersion: 0, maxVersion: 2 } });
      const handshake = find(17, requests.SaslHandshake)({ mechanism: 'SCRAM-SHA-512' });
      const authenticate = find(36, requests.SaslAuthenticate)({ authBytes: Buffer.from('n,,n=user,r=abc') });
      let produce;
      try { requests.Produce.protocol({ version: 3 }); } catch (e) { produce = e.message; }
      module.exports = { handshake: handshake.request, authenticate: authenticate.request, produce };
    `);
    expect(out.handshake).toMatchObject({ apiKey: 17, apiVersion: 1 });
    expect(out.authenticate).toMatchObject({ apiKey: 36, apiVersion: 1 }); // kafkajs's newest
    expect(out.produce).toBe('kafkajs request produce is not bundled');
  });

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
