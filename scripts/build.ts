/**
 * `npm run build`: one bundle per runtime, and their sizes.
 *
 *   dist/node/server.mjs    the Node server (ESM), Swagger UI's two assets beside it in swagger-ui/
 *   dist/lambda/index.mjs   the Lambda handler (`index.handler`), minified
 *   .../chunks/*.mjs        code used only when configured or by a rare request (AWS's MSK IAM
 *                           signer and its SDK, RE2, the routes other than describe, the probes
 *                           and /cluster(s), the document's generator), loaded on first use, so a
 *                           cold start neither parses nor evaluates it
 *   dist/worker/index.js    the Cloudflare Worker, as `wrangler deploy` bundles it (--dry-run)
 *
 * swagger-ui-dist is never inside a bundle: the Node server serves its files from disk, the Lambda
 * and the Worker point the docs page at a public copy. The build fails if it finds it in one.
 */

import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';
import { lazyChunksJoinStart } from './lazy-chunks-join-start.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// kafkajs is CommonJS and requires Node's built-ins; an ESM bundle needs a real `require` for them.
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);";

/**
 * Dependencies go in as published: a plugin or alias that rewrites a file under node_modules makes
 * every `npm update` a chance of a broken build. So each bundle's metafile is held against the
 * disk: every input under node_modules must be the file's own bytes, and the Worker has no aliases.
 * Exported for the check's own test, which plants a rewrite.
 */
export async function rewrittenDependencies(meta: Metafile, root = ROOT): Promise<string[]> {
  const rewritten: string[] = [];
  for (const [input, { bytes }] of Object.entries(meta.inputs)) {
    const path = input.replace(/^[\w-]+:/, '');
    if (!path.includes('node_modules/')) continue;
    const onDisk = await stat(isAbsolute(path) ? path : join(root, path)).catch(() => undefined);
    if (!onDisk || onDisk.size !== bytes || path !== input) rewritten.push(input);
  }
  return rewritten;
}

async function checkDependenciesAsPublished(name: string, meta: Metafile): Promise<void> {
  const rewritten = await rewrittenDependencies(meta);
  if (rewritten.length > 0)
    throw new Error(`${name}: the build changed files of dependencies: ${rewritten.slice(0, 5).join(', ')}`);
}

export interface Bundle {
  name: string;
  file: string;
  bytes: number;
  gzipBytes: number;
}

function checkNoSwaggerUi(name: string, inputs: Iterable<string>): void {
  const found = [...inputs].filter((path) => path.includes('node_modules/swagger-ui-dist/'));
  if (found.length > 0) throw new Error(`${name}: swagger-ui-dist is in the bundle (${found.join(', ')})`);
}

async function measure(name: string, file: string): Promise<Bundle> {
  const bytes = await readFile(file);
  return { name, file: relative(ROOT, file), bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
}

/** The entry file, and its metafile, in which `outputs` names every chunk it may load. */
export interface Built {
  entry: string;
  meta: Metafile;
}

async function esbuild(
  entry: string,
  outdir: string,
  name: string,
  minify: boolean,
  plugins: Plugin[] = [],
): Promise<Built> {
  // A chunk left by an earlier build would ship in the Lambda zip for nothing.
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { [name]: entry },
    outdir,
    // Dynamic imports become chunks of their own: what only a configuration needs stays out of
    // what every start loads.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify,
    legalComments: 'none',
    banner: { js: REQUIRE_BANNER },
    metafile: true,
    logLevel: 'warning',
    plugins,
  });
  await dropUnusedRequireBanners(Object.keys(result.metafile.outputs));
  await checkDependenciesAsPublished(name, result.metafile);
  return { entry: join(outdir, `${name}.mjs`), meta: result.metafile };
}

/**
 * esbuild writes the banner into every file; only the few that call `require` (kafkajs's chunk,
 * esbuild's helper) need it. Each other start file made a `require` it never called (about 1.5 ms
 * over a Lambda start's 31 files).
 */
async function dropUnusedRequireBanners(outputs: string[]): Promise<void> {
  for (const output of outputs) {
    if (!output.endsWith('.mjs')) continue;
    const file = join(ROOT, output);
    const code = await readFile(file, 'utf8');
    if (code.startsWith(`${REQUIRE_BANNER}\n`) && !/\brequire\b/.test(code.slice(REQUIRE_BANNER.length)))
      await writeFile(file, code.slice(REQUIRE_BANNER.length + 1));
  }
}

/**
 * The bytes of `entry` and of every chunk it imports statically, transitively: what a start parses
 * and evaluates before its first line runs. Dynamic imports are left out (they load on first use).
 */
export function staticClosure(
  meta: Metafile,
  entry: string,
): { files: string[]; bytes: number; inputs: string[] } {
  const key = relative(ROOT, entry);
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    const output = meta.outputs[file];
    if (!output) throw new Error(`${file} is not in the metafile`);
    seen.add(file);
    for (const i of output.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(key);
  const files = [...seen];
  const outputs = files.map((f) => meta.outputs[f] as Metafile['outputs'][string]);
  return {
    files,
    bytes: outputs.reduce((n, o) => n + o.bytes, 0),
    inputs: outputs.flatMap((o) => Object.keys(o.inputs)),
  };
}

export async function buildNode(outdir = join(ROOT, 'dist/node')): Promise<Bundle & Built> {
  const { entry: outfile, meta } = await esbuild('src/runtime/node.ts', outdir, 'server', false);
  checkNoSwaggerUi('node', Object.keys(meta.inputs));
  // The docs page's scripts, beside the bundle, so dist/node runs without node_modules.
  const assets = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  await mkdir(join(outdir, 'swagger-ui'), { recursive: true });
  for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js'])
    await copyFile(join(assets, file), join(outdir, 'swagger-ui', file));
  return { ...(await measure('node', outfile)), entry: outfile, meta };
}

export async function buildLambda(outdir = join(ROOT, 'dist/lambda')): Promise<Bundle & Built> {
  const entry = 'src/runtime/lambda.ts';
  // The start in few files: the entry's exports and one chunk of all it imports.
  const plugins = [lazyChunksJoinStart(entry, 'src')];
  const { entry: outfile, meta } = await esbuild(entry, outdir, 'index', true, plugins);
  checkNoSwaggerUi('lambda', Object.keys(meta.inputs));
  return { ...(await measure('lambda', outfile)), entry: outfile, meta };
}

/** Bundles the Worker with wrangler itself (what `wrangler deploy` uploads), offline. */
export async function buildWorker(outdir = join(ROOT, 'dist/worker')): Promise<Bundle> {
  await rm(outdir, { recursive: true, force: true });
  const metafile = join(outdir, 'meta.json');
  const wrangler = join(ROOT, 'node_modules/.bin/wrangler');
  await promisify(execFile)(
    wrangler,
    [
      'deploy',
      '--dry-run',
      '--outdir',
      outdir,
      '--metafile',
      metafile,
      '--config',
      join(ROOT, 'wrangler.toml'),
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        WRANGLER_SEND_METRICS: 'false',
        NO_COLOR: '1',
      },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const meta = JSON.parse(await readFile(metafile, 'utf8')) as Metafile;
  checkNoSwaggerUi('worker', Object.keys(meta.inputs));
  if (/^\[alias\]/m.test(await readFile(join(ROOT, 'wrangler.toml'), 'utf8')))
    throw new Error('worker: wrangler.toml has an [alias]: dependencies go in as published');
  await checkDependenciesAsPublished('worker', meta);
  await rm(metafile);
  const file = join(outdir, 'index.js');
  if (!(await stat(file).catch(() => undefined))) await rename(join(outdir, 'worker.js'), file);
  return measure('worker', file);
}

/**
 * What a start loads, by source: each package (zod split by its folders) or source folder, largest
 * first, in output bytes. `npm run build -- --start-inputs` prints the Lambda's: where to look when
 * the cold start grows.
 */
export function startInputsBySource(built: Built): [string, number][] {
  const sizes = new Map<string, number>();
  for (const file of staticClosure(built.meta, built.entry).files) {
    for (const [input, { bytesInOutput }] of Object.entries(built.meta.outputs[file]?.inputs ?? {})) {
      const source = input
        .replace(`${ROOT}/`, '')
        .replace(/^(node_modules\/(@[^/]+\/)?[^/]+(\/v4\/(core|classic|locales|mini))?)\/.*/, '$1')
        .replace(/^src\/([^/]+)\/.*/, 'src/$1/');
      sizes.set(source, (sizes.get(source) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function main(): Promise<void> {
  const node = await buildNode();
  const lambda = await buildLambda();
  const bundles = [node, lambda, await buildWorker()];
  for (const b of bundles) {
    console.log(
      `${b.name.padEnd(7)} ${b.file.padEnd(24)} ${kib(b.bytes).padStart(10)}  gzip ${kib(b.gzipBytes).padStart(9)}`,
    );
  }
  for (const b of [node, lambda]) {
    const all = Object.values(b.meta.outputs).reduce((n, o) => n + o.bytes, 0);
    console.log(
      `${b.name.padEnd(7)} loaded at start ${kib(staticClosure(b.meta, b.entry).bytes)}, all chunks ${kib(all)}`,
    );
  }
  if (process.argv.includes('--start-inputs')) {
    console.log('lambda  loaded at start, by source:');
    for (const [source, bytes] of startInputsBySource(lambda))
      console.log(`${kib(bytes).padStart(10)}  ${source}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
