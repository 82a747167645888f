/**
 * zod carries its conversion to JSON Schema into every start (each schema's processor and
 * `toJSONSchema()`, `z.toJSONSchema`, `z.core`'s helpers: some 22 KB minified). This product
 * converts only for /mcp's tool list, where the MCP SDK calls zod mini's `toJSONSchema`, in a chunk
 * of its own. So in the Node and Lambda bundles (esbuild plugin):
 *
 * - zod's json-schema-processors.js is cut in two where its processors begin: the head, which
 *   reads a schema's checks (`aggregateChecks`, behind getters such as `minLength` that anything
 *   may read), loads at start; the rest loads where `toJSONSchema` is imported (zod mini, the MCP
 *   chunk) and hands its functions, and to-json-schema.js's, to the stand-ins below;
 * - zod's classic schemas, its `z` and its core index import stand-ins for those functions, which
 *   call the real ones once handed over. Before, a conversion names what is missing. zod's legacy
 *   JSONSchemaGenerator class is left out.
 *
 * The build fails if zod's files no longer have the shape this relies on (its version is pinned).
 */

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'zod-json-schema-apart';
const SLOT = "Symbol.for('kafka-groups-rest.zod-json-schema')";
/** The files whose imports of the conversion get the stand-ins. */
const IMPORTERS = /[\\/]node_modules[\\/]zod[\\/]v4[\\/](classic[\\/](schemas|external)|core[\\/]index)\.js$/;
const SPECIFIER = /^(\.\.\/core\/|\.\/)(json-schema-processors|to-json-schema|json-schema-generator)\.js$/;
const PROCESSORS = /^(\.\.\/core\/|\.\/)json-schema-processors\.js$/;
/** Where the processors begin, after the checks' reading. */
const PROCESSORS_BEGIN = '\nconst formatMap = {';

const REAL = `const real = (name) => {
  const loaded = globalThis[${SLOT}];
  if (!loaded) throw new Error("zod's JSON Schema conversion is not loaded: zod mini's toJSONSchema loads it");
  return loaded[name];
};`;

const unexpected = (file: string) =>
  new Error(`zod's ${file} is not as scripts/zod-json-schema-apart.ts expects`);

/** The functions a module of zod exports (`export function f`, `export const f = (`, `export { f as g }`). */
function exportedFunctions(source: string, file: string): string[] {
  const names = [
    ...[...source.matchAll(/^export function (\w+)\(/gm)].map((m) => m[1] as string),
    ...[...source.matchAll(/^export const (\w+) = \(/gm)].map((m) => m[1] as string),
    ...[...source.matchAll(/^export \{ (\w+) as (\w+) \};$/gm)].map((m) => m[2] as string),
  ];
  if (names.length < 5) throw unexpected(file);
  return names;
}

interface Parts {
  head: string;
  rest: string;
  exported: string[];
}

function split(source: string, file: string): Parts {
  const at = source.indexOf(PROCESSORS_BEGIN);
  if (at < 0 || !/^export function aggregateChecks\(/m.test(source.slice(0, at))) throw unexpected(file);
  const imports = source.slice(0, at).match(/^import .*;$/gm) ?? [];
  const head = source.slice(0, at).replaceAll(/^export (function|const) /gm, '$1 ');
  const names = [...head.matchAll(/^(?:const|function) (\w+)/gm)].map((m) => m[1] as string);
  const exported = exportedFunctions(source, file);
  return {
    head: `${head}\nexport { ${names.join(', ')} };`,
    rest: `${imports.join('\n')}
import { ${names.join(', ')} } from '${NAMESPACE}:head';
import * as toJsonSchema from './to-json-schema.js';
${source.slice(at)}
export { aggregateChecks };
globalThis[${SLOT}] = { ...toJsonSchema, ${exported.join(', ')} };`,
    exported,
  };
}

export const zodJsonSchemaApart: Plugin = {
  name: 'zod-json-schema-apart',
  setup(b) {
    let parts: Promise<Parts> | undefined;
    let coreDir = '';
    const partsOf = (dir: string) => {
      coreDir = dir;
      const file = join(dir, 'json-schema-processors.js');
      parts ??= readFile(file, 'utf8').then((source) => split(source, file));
      return parts;
    };
    b.onStart(() => {
      parts = undefined;
    });
    b.onResolve({ filter: SPECIFIER }, (args) => {
      const dir = args.path.startsWith('./')
        ? dirname(args.importer)
        : join(dirname(args.importer), '../core');
      const name = args.path.replace(/^.*\//, '');
      if (IMPORTERS.test(args.importer)) return { path: join(dir, name), namespace: NAMESPACE };
      // The real processors, elsewhere (zod mini): the rest of the cut, kept for the hand-over.
      if (PROCESSORS.test(args.path) && /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer))
        return { path: join(dir, name), namespace: `${NAMESPACE}-rest`, sideEffects: true };
      return undefined;
    });
    b.onResolve({ filter: new RegExp(`^${NAMESPACE}:head$`) }, () => ({
      path: 'head',
      namespace: NAMESPACE,
    }));
    b.onLoad({ filter: /.*/, namespace: `${NAMESPACE}-rest` }, async (args) => ({
      contents: (await partsOf(dirname(args.path))).rest,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
      if (args.path === 'head')
        return { contents: (await partsOf(coreDir)).head, loader: 'js', resolveDir: coreDir };
      if (args.path.endsWith('json-schema-generator.js'))
        return {
          contents: `export class JSONSchemaGenerator { constructor() { throw new Error("zod's JSONSchemaGenerator is not in this bundle"); } }`,
          loader: 'js',
        };
      const processors = args.path.endsWith('json-schema-processors.js');
      const names = processors
        ? (await partsOf(dirname(args.path))).exported.filter((n) => n !== 'aggregateChecks')
        : exportedFunctions(await readFile(args.path, 'utf8'), args.path);
      // zod's create*Method build a method at a schema's first `~standard` read: only its call converts.
      const wrapped = names.map((n) =>
        /^create\w+Method$/.test(n)
          ? `export const ${n} = (...a) => (...b) => real('${n}')(...a)(...b);`
          : `export const ${n} = (...a) => real('${n}')(...a);`,
      );
      return {
        contents: `${REAL}\n${processors ? `export { aggregateChecks } from '${NAMESPACE}:head';\n` : ''}${wrapped.join('\n')}`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};
