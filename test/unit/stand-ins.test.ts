/**
 * The stand-ins' one table (scripts/stand-ins.ts) and the Worker's copy of it in wrangler.toml's
 * `[alias]`: the same pairs, and an alias that would catch another package's import is named.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { STAND_INS, workerStandInProblems, wranglerAliases } from '../../scripts/stand-ins.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');

/** A metafile whose inputs import `imports` (importer → specifiers). */
function metafile(imports: Record<string, string[]>): Metafile {
  return {
    inputs: Object.fromEntries(
      Object.entries(imports).map(([file, specifiers]) => [
        file,
        {
          bytes: 1,
          imports: specifiers.map((original) => ({
            path: 'x.js',
            kind: 'import-statement' as const,
            original,
          })),
        },
      ]),
    ),
    outputs: {},
  };
}

const EVERY_IMPORT = {
  'node_modules/zod/v4/classic/external.js': ['../locales/index.js', './from-json-schema.js'],
  'node_modules/zod/v4/core/index.js': ['./compile.js'],
  'node_modules/kafkajs/src/broker/saslAuthenticator/index.js': [
    '../../protocol/requests',
    './awsIam',
    './oauthBearer',
  ],
  'node_modules/kafkajs/src/errors.js': ['../package.json'],
  'node_modules/kafkajs/src/protocol/requests/saslHandshake/v0/response.js': ['../../../error'],
};

describe('the stand-ins', () => {
  it("wrangler.toml's [alias] is the table, and every stand-in exists", () => {
    expect(wranglerAliases(toml)).toEqual(
      Object.fromEntries(STAND_INS.map((s) => [s.specifier, `./${s.file}`])),
    );
    for (const s of STAND_INS) expect(existsSync(join(ROOT, s.file)), s.file).toBe(true);
  });

  it('a Worker whose imports are the ones the table expects has nothing wrong', () => {
    expect(workerStandInProblems(toml, metafile(EVERY_IMPORT), ROOT)).toEqual([]);
  });

  it('an alias catching another package, a stand-in no file imports, or an alias off the table is named', () => {
    const problems = workerStandInProblems(
      toml.replace('"./compile.js" =', '"./compiled.js" ='),
      metafile({
        ...EVERY_IMPORT,
        'node_modules/zod/v4/core/index.js': [],
        'node_modules/other/index.js': ['../package.json'],
      }),
      ROOT,
    );
    expect(problems).toEqual([
      expect.stringContaining("wrangler.toml's [alias]"),
      "node_modules/other/index.js imports '../package.json', which the alias replaces by src/broker/transport/kafkajs/package-fields.json",
      "no import of './compile.js' (scripts/stand-ins/zod-no-compile.ts)",
    ]);
  });
});
