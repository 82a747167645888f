/**
 * The build's checking plugins fail the build, not only report: a dependency that moved the file or
 * import they replace must stop `npm run build`, or a bundle ships without the stand-in (or with
 * kafkajs's start-time requires back) and nothing says so.
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkajsLazyBuiltins } from '../../scripts/kafkajs-lazy-builtins.js';
import { standIns } from '../../scripts/stand-ins.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe("the build's checking plugins", () => {
  let dir: string;
  let entry: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'build-plugins-'));
    entry = join(dir, 'entry.js');
    // An entry that imports none of the files the plugins expect, as after a dependency's change.
    await writeFile(entry, 'export const answer = 42;\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const bundle = (plugin: Plugin) =>
    build({ entryPoints: [entry], bundle: true, write: false, logLevel: 'silent', plugins: [plugin] });

  it('the stand-ins fail a build that imports none of what they replace', async () => {
    await expect(bundle(standIns(ROOT))).rejects.toThrow(/no import of .*the dependency changed/);
  });

  it("kafkajs's lazy builtins fail a build where no kafkajs file matched", async () => {
    await expect(bundle(kafkajsLazyBuiltins)).rejects.toThrow(/no kafkajs file matched/);
  });
});
