/**
 * zod's schemas each carry their conversion to JSON Schema (`toJSONSchema()`, and the processors
 * `z.toJSONSchema` calls through each schema: some 21 KB minified). This product converts only for
 * /mcp's tool list, where the MCP SDK calls `z.toJSONSchema`, in a chunk of its own. So in the Node
 * and Lambda bundles (esbuild plugin) zod's schemas import stand-ins that call the real ones once
 * loaded: the real processors' module, wherever it is loaded (with `toJSONSchema`, which lives in
 * it), hands itself to the stand-ins. Before, a conversion names what is missing. The build fails
 * if zod's files no longer have the shape this relies on (its version is pinned in package.json).
 */

import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

const NAMESPACE = 'zod-json-schema-apart';
const SLOT = "Symbol.for('kafka-groups-rest.zod-json-schema')";
const SCHEMAS = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;
const PROCESSORS = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]json-schema-processors\.js$/;
const METHODS = ['createToJSONSchemaMethod', 'createStandardJSONSchemaMethod'];

const REAL = `const real = (name) => {
  const loaded = globalThis[${SLOT}];
  if (!loaded) throw new Error("zod's JSON Schema conversion is not loaded: z.toJSONSchema loads it");
  return loaded[name];
};`;

/** The processors the real module exports (`export const fooProcessor = ...`). */
function processorNames(source: string): string[] {
  const names = [...source.matchAll(/^export const (\w+Processor) = /gm)].map((m) => m[1] as string);
  if (names.length < 20 || !/^export function toJSONSchema\(/m.test(source))
    throw new Error("zod's json-schema-processors.js is not as scripts/zod-json-schema-apart.ts expects");
  return names;
}

export const zodJsonSchemaApart: Plugin = {
  name: 'zod-json-schema-apart',
  setup(b) {
    let processorsFile: string | undefined;
    b.onResolve({ filter: /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/ }, (args) => {
      if (!SCHEMAS.test(args.importer)) return undefined;
      processorsFile = args.importer.replace(SCHEMAS, '/node_modules/zod/v4/core/json-schema-processors.js');
      return { path: args.path.includes('processors') ? 'processors' : 'methods', namespace: NAMESPACE };
    });
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
      if (args.path === 'methods')
        return {
          contents: `${REAL}\n${METHODS.map((m) => `export const ${m} = (...a) => (...b) => real('${m}')(...a)(...b);`).join('\n')}`,
          loader: 'js',
        };
      if (!processorsFile) throw new Error('zod-json-schema-apart: no processors file');
      const names = processorNames(await readFile(processorsFile, 'utf8'));
      return {
        contents: `${REAL}\n${names.map((n) => `export const ${n} = (...a) => real('${n}')(...a);`).join('\n')}`,
        loader: 'js',
      };
    });
    // The real module, where it loads: hands its processors and zod's two methods to the stand-ins.
    b.onLoad({ filter: PROCESSORS }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const names = processorNames(source);
      return {
        contents: `${source}
import { ${METHODS.join(', ')} } from './to-json-schema.js';
globalThis[${SLOT}] = { ${[...names, ...METHODS].join(', ')} };`,
        loader: 'js',
      };
    });
  },
};
