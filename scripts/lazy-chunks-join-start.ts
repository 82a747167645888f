/**
 * esbuild puts each module in the chunk of the set of entries that reach it: with the Lambda entry
 * and some 25 modules of the sources loaded on first use, the modules of a start were cut into 31
 * files by which lazy modules also import them (one chunk instead took a third off the import's
 * CPU, about 20 ms here: docs/BENCHMARKS.md). This plugin
 * (Lambda bundle) has each dynamic import of the sources load the module through a wrapper that
 * first imports the entry: every lazy module then reaches the whole start, so the start's modules
 * share one set of entries and one chunk, and what only lazy modules use stays in their chunks.
 *
 * Nothing runs differently: a lazy module loads after the start, whose modules are evaluated by
 * then, and the wrapper re-exports the module's own exports. Dynamic imports of packages (RE2, the
 * MSK signer) are left alone: they share nothing with the start.
 *
 * Two forms the sources must not take, as the wrapper is `export * from` the module after importing
 * the entry: a top-level `await import()` of a lazy module in a start module (the module would
 * wait for the entry, which waits for it: the Lambda would never start; bundle.test.ts's child
 * would print nothing), and a lazy module's `export default` (`export *` leaves it out).
 */

import { relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'lazy-joins-start';

/** `entry`: the bundle's entry; `sources`: the folder whose dynamic imports are wrapped. */
export function lazyChunksJoinStart(entry: string, sources: string): Plugin {
  return {
    name: NAMESPACE,
    setup(b) {
      const root = b.initialOptions.absWorkingDir ?? process.cwd();
      const entryPath = resolve(root, entry);
      const sourceDir = resolve(root, sources);
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData?.[NAMESPACE]) return undefined;
        if (args.namespace !== 'file' || relative(sourceDir, args.importer).startsWith('..'))
          return undefined;
        const target = await b.resolve(args.path, {
          kind: 'dynamic-import',
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: { [NAMESPACE]: true },
        });
        if (target.errors.length > 0 || target.external || target.namespace !== 'file') return undefined;
        if (relative(sourceDir, target.path).startsWith('..')) return undefined;
        return { path: target.path, namespace: NAMESPACE };
      });
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `import ${JSON.stringify(entryPath)};\nexport * from ${JSON.stringify(args.path)};\n`,
        loader: 'js',
        resolveDir: sourceDir,
      }));
    },
  };
}
