/**
 * Modules the bundles replace by a smaller stand-in: parts of dependencies this product never
 * runs. One table for every runtime: an esbuild plugin applies it to the Node and Lambda bundles,
 * and wrangler.toml's `[alias]` lists the same pairs for the Worker (wrangler bundles it, and takes
 * no plugin). Each entry replaces one import specifier as written in one dependency's files; the
 * build fails if a stand-in is never used (the dependency changed its layout: look again), if
 * wrangler.toml's aliases differ from the table, or if an alias, which wrangler applies to every
 * file, catches an import of another package.
 */

import { join, relative } from 'node:path';
import type { Metafile, Plugin } from 'esbuild';
import { KAFKAJS_STAND_INS } from '../src/broker/transport/kafkajs/bundle.js';

export interface StandIn {
  /** The import specifier, exactly as the dependency writes it. */
  specifier: string;
  /** The files that write it (their resolved paths). */
  importer: RegExp;
  /** The stand-in, from the repository's root. */
  file: string;
}

export const STAND_INS: readonly StandIn[] = [
  // zod re-exports every locale it has (some 260 KB minified); this product speaks English only.
  {
    specifier: '../locales/index.js',
    importer: /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic|mini|core)[\\/][^\\/]+\.js$/,
    file: 'scripts/stand-ins/zod-english.ts',
  },
  // zod's opt-in extras, never called here: `z.compile` (29 KB) and `z.fromJSONSchema` (12 KB).
  {
    specifier: './compile.js',
    importer: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]index\.js$/,
    file: 'scripts/stand-ins/zod-no-compile.ts',
  },
  {
    specifier: './from-json-schema.js',
    importer: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]classic[\\/]external\.js$/,
    file: 'scripts/stand-ins/zod-no-from-json-schema.ts',
  },
  ...KAFKAJS_STAND_INS,
];

const escapeRegExp = (s: string) => s.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const SPECIFIERS = new RegExp(`^(${STAND_INS.map((s) => escapeRegExp(s.specifier)).join('|')})$`);

/** The esbuild plugin of the table (Node and Lambda bundles). */
export function standIns(root: string): Plugin {
  return {
    name: 'stand-ins',
    setup(b) {
      const used = new Set<StandIn>();
      b.onStart(() => used.clear());
      b.onResolve({ filter: SPECIFIERS }, (args) => {
        const standIn = STAND_INS.find((s) => s.specifier === args.path && s.importer.test(args.importer));
        if (!standIn) return undefined;
        used.add(standIn);
        return { path: join(root, standIn.file) };
      });
      b.onEnd((result) => {
        if (result.errors.length > 0 || b.initialOptions.stdin) return;
        const unused = STAND_INS.filter((s) => !used.has(s));
        // A returned error fails the build; one pushed into `result.errors` is only reported.
        if (unused.length > 0)
          return {
            errors: [
              {
                text: `no import of ${unused.map((s) => `'${s.specifier}' (${s.file})`).join(', ')}: the dependency changed, see scripts/stand-ins.ts`,
              },
            ],
          };
        return undefined;
      });
    },
  };
}

/** wrangler.toml's `[alias]` table: specifier → path. */
export function wranglerAliases(toml: string): Record<string, string> {
  const section = /^\[alias\]\s*$([\s\S]*?)(?=^\[)/m.exec(toml)?.[1] ?? '';
  return Object.fromEntries(
    [...section.matchAll(/^"([^"]+)"\s*=\s*"([^"]+)"\s*$/gm)].map((m) => [m[1], m[2]] as [string, string]),
  );
}

/**
 * What is wrong with the Worker's stand-ins: the aliases against the table, and in wrangler's
 * metafile, each aliased import against the files the table expects it from. Empty when right.
 */
export function workerStandInProblems(toml: string, meta: Metafile, root: string): string[] {
  const problems: string[] = [];
  const aliases = wranglerAliases(toml);
  const expected = Object.fromEntries(STAND_INS.map((s) => [s.specifier, `./${s.file}`]));
  if (
    JSON.stringify(aliases, Object.keys(aliases).sort()) !==
    JSON.stringify(expected, Object.keys(expected).sort())
  )
    problems.push(
      `wrangler.toml's [alias] ${JSON.stringify(aliases)} is not the table ${JSON.stringify(expected)}`,
    );
  const used = new Set<string>();
  for (const [file, input] of Object.entries(meta.inputs)) {
    for (const i of input.imports) {
      const standIn = STAND_INS.find((s) => s.specifier === i.original);
      if (!standIn) continue;
      used.add(standIn.specifier);
      if (!standIn.importer.test(join(root, file)))
        problems.push(`${file} imports '${i.original}', which the alias replaces by ${standIn.file}`);
    }
  }
  for (const s of STAND_INS)
    if (!used.has(s.specifier))
      problems.push(`no import of '${s.specifier}' (${relative(root, join(root, s.file))})`);
  return problems;
}
