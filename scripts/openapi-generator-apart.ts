/**
 * zod-to-openapi, as @hono/zod-openapi imports it, is one file: what registers routes and reads
 * schemas' metadata (every start needs it), and the generator that turns them into the document
 * (some 20 KB minified, needed only by /openapi.json and /mcp). This esbuild plugin (Node and
 * Lambda bundles) cuts the file in two where its generator begins:
 *
 *   head       the registry and metadata, loaded at start;
 *   generator  the rest, which imports the head (one registry of metadata for both), in the chunk
 *              of src/openapi/document.ts, the module that builds the document on its first need;
 *
 * and gives @hono/zod-openapi a facade of the head whose generator classes build the generator's
 * own, once src/openapi/document.ts has imported the package. Should anything build a document
 * before, the facade names what is missing. The build fails if the file no longer has the shape
 * this relies on (its version is pinned in package.json).
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

const PACKAGE = '@asteasolutions/zod-to-openapi';
/** The first declaration of the generator's part of the file. */
const GENERATOR_BEGINS = '\nclass ZodToOpenAPIError {';
/** What @hono/zod-openapi imports from the package. */
const HEAD_EXPORTS = ['OpenAPIRegistry', 'extendZodWithOpenApi', 'getOpenApiMetadata'];
const GENERATORS = ['OpenApiGeneratorV3', 'OpenApiGeneratorV31'];
const NAMESPACE = 'zod-to-openapi-apart';

function split(source: string): { head: string; generator: string } {
  const at = source.indexOf(GENERATOR_BEGINS);
  if (at < 0 || source.indexOf(GENERATOR_BEGINS, at + 1) >= 0 || /^import /m.test(source))
    throw new Error(
      `${PACKAGE}: its generator no longer begins where scripts/openapi-generator-apart.ts cuts`,
    );
  const head = source.slice(0, at);
  const names = [...head.matchAll(/^(?:class|function|const|let|var)\s+([\w$]+)/gm)].map((m) => m[1]);
  for (const name of [...HEAD_EXPORTS])
    if (!names.includes(name)) throw new Error(`${PACKAGE}: ${name} is not where it was`);
  return {
    head: `${head}
let generators;
export const setGenerators = (g) => { generators = g; };
export const generator = (name) => {
  if (!generators) throw new Error("${PACKAGE}'s generator is not loaded: src/openapi/document.ts loads it");
  return generators[name];
};
export { ${names.join(', ')} };`,
    generator: `import { setGenerators, ${names.join(', ')} } from '${NAMESPACE}:head';
${source.slice(at)}
setGenerators({ ${GENERATORS.join(', ')} });`,
  };
}

const FACADE = `export { ${HEAD_EXPORTS.join(', ')} } from '${NAMESPACE}:head';
import { generator } from '${NAMESPACE}:head';
${GENERATORS.map(
  (name) => `export class ${name} { constructor(...args) { return new (generator('${name}'))(...args); } }`,
).join('\n')}`;

export const openApiGeneratorApart: Plugin = {
  name: 'openapi-generator-apart',
  setup(b) {
    const file = join(
      dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`)),
      'dist/index.mjs',
    );
    let parts: Promise<{ head: string; generator: string }> | undefined;
    b.onStart(() => {
      parts = undefined;
    });
    b.onResolve({ filter: /^@asteasolutions\/zod-to-openapi$/ }, (args) => ({
      path: /[\\/]node_modules[\\/]@hono[\\/]zod-openapi[\\/]/.test(args.importer) ? 'facade' : 'generator',
      namespace: NAMESPACE,
    }));
    b.onResolve({ filter: new RegExp(`^${NAMESPACE}:head$`) }, () => ({
      path: 'head',
      namespace: NAMESPACE,
    }));
    b.onLoad({ filter: /.*/, namespace: NAMESPACE }, async (args) => {
      if (args.path === 'facade') return { contents: FACADE, loader: 'js', resolveDir: dirname(file) };
      parts ??= readFile(file, 'utf8').then(split);
      const { head, generator } = await parts;
      return { contents: args.path === 'head' ? head : generator, loader: 'js', resolveDir: dirname(file) };
    });
  },
};
