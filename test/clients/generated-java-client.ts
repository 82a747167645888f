/**
 * A Java client of the API, generated from an OpenAPI document the way a user would: OpenAPI
 * Generator's CLI (Maven Central, fetched with the machine's `mvn` like the test broker), its `java`
 * generator with the default okhttp-gson library or the native one, the generated pom's
 * dependencies fetched by Maven, the sources compiled by javac.
 *
 *   <cache>/openapi-generator-<version>/              the generator jar
 *   <cache>/java-client/<hash of document+options>/   generated sources, lib/ (jars), classes/
 *
 * A client dir is complete when its `.complete` marker exists; a document that changes gets a new
 * dir, so repeated runs on the same document skip generation and compilation. Environment as in
 * test/broker-harness/fetch.ts: KAFKA_CACHE_DIR, KAFKA_MVN, KAFKA_MVN_ARGS, KAFKA_JAVA.
 */

import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { javaCommand, kafkaCacheDir } from '../broker-harness/fetch.js';

export const OPENAPI_GENERATOR_VERSION = '7.17.0';
export const JAVA_CLIENT_DIR = fileURLToPath(new URL('./java/', import.meta.url));

/**
 * The generator's Java libraries the suite builds a client with: okhttp-gson (its default) and
 * native (java.net.http with Jackson), each driven by its own check program in test/clients/java.
 */
export type JavaLibrary = 'okhttp-gson' | 'native';
const CHECK_PROGRAMS: Record<JavaLibrary, string> = {
  'okhttp-gson': 'ClientCheck.java',
  native: 'NativeClientCheck.java',
};

/** What a user would pass: the library, their own packages, no docs or test stubs. */
const generateOptions = (library: JavaLibrary) => [
  '-g',
  'java',
  '--library',
  library,
  '--api-package',
  'org.kgr.client.api',
  '--model-package',
  'org.kgr.client.model',
  '--invoker-package',
  'org.kgr.client',
  '--group-id',
  'org.kgr',
  '--artifact-id',
  'kafka-groups-client',
  '--global-property',
  'apiTests=false,modelTests=false,apiDocs=false,modelDocs=false',
  '--additional-properties',
  'hideGenerationTimestamp=true,useJakartaEe=true',
];

export const MARKER = '.complete';

export interface JavaClient {
  /** A java `-cp` value: the compiled client and its dependencies. */
  classpath: string;
  dir: string;
  library: JavaLibrary;
}

/** Runs a command to its end; rejects with the tail of its output. */
export function run(command: string, args: readonly string[], what: string, timeoutMs: number, cwd?: string) {
  return new Promise<string>((resolve, reject) => {
    execFile(
      command,
      [...args],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, ...(cwd !== undefined && { cwd }) },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const out = `${stdout}\n${stderr}`.trim().split('\n').slice(-60).join('\n');
        reject(new Error(`${what} failed: ${command} ${args.join(' ')}\n${error.message}\n${out}`));
      },
    );
  });
}

/** Runs the machine's Maven (KAFKA_MVN, KAFKA_MVN_ARGS), quiet and in batch mode. */
export function mvn(args: readonly string[], what: string): Promise<string> {
  const extra = (process.env.KAFKA_MVN_ARGS ?? '').split(/\s+/).filter(Boolean);
  return run(
    process.env.KAFKA_MVN || 'mvn',
    ['-B', '-q', '-Dstyle.color=never', ...extra, ...args],
    what,
    15 * 60_000,
  );
}

/** Moves a finished temp dir into place; another process may have finished the same one meanwhile. */
export async function publish(tmp: string, dir: string): Promise<void> {
  if (existsSync(path.join(dir, MARKER))) {
    await rm(tmp, { recursive: true, force: true });
    return;
  }
  await rm(dir, { recursive: true, force: true });
  try {
    await rename(tmp, dir);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    if (!existsSync(path.join(dir, MARKER))) throw error;
  }
}

/** The generator's jar, downloaded on first use. */
export async function ensureGenerator(): Promise<string> {
  const dir = path.join(kafkaCacheDir(), `openapi-generator-${OPENAPI_GENERATOR_VERSION}`);
  const jar = path.join(dir, `openapi-generator-cli-${OPENAPI_GENERATOR_VERSION}.jar`);
  if (existsSync(path.join(dir, MARKER)) && existsSync(jar)) return jar;
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    await mvn(
      [
        '-f',
        path.join(JAVA_CLIENT_DIR, 'generator.xml'),
        'dependency:copy-dependencies',
        `-DoutputDirectory=${tmp}`,
      ],
      `fetching OpenAPI Generator ${OPENAPI_GENERATOR_VERSION}`,
    );
    await writeFile(path.join(tmp, MARKER), OPENAPI_GENERATOR_VERSION);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await publish(tmp, dir);
  return jar;
}

/** The Java client of `document` (the JSON text of an OpenAPI document), generated and compiled. */
export async function ensureJavaClient(
  document: string,
  library: JavaLibrary = 'okhttp-gson',
): Promise<JavaClient> {
  const options = generateOptions(library);
  // `servers` names the port of the server that served the document, new on every run; the client
  // is given its base URL anyway, so one client serves every run of the same API.
  const { servers: _servers, ...api } = JSON.parse(document) as Record<string, unknown>;
  const hash = createHash('sha256')
    .update(OPENAPI_GENERATOR_VERSION)
    .update(JSON.stringify(options))
    .update(JSON.stringify(api))
    .digest('hex')
    .slice(0, 20);
  const root = path.join(kafkaCacheDir(), 'java-client');
  const dir = path.join(root, hash);
  const client = {
    dir,
    library,
    classpath: [path.join(dir, 'classes'), path.join(dir, 'lib', '*')].join(path.delimiter),
  };
  if (existsSync(path.join(dir, MARKER))) return client;

  const jar = await ensureGenerator();
  await mkdir(root, { recursive: true });
  await prune(root, 4);
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    const spec = path.join(tmp, 'openapi.json');
    await writeFile(spec, document);
    const src = path.join(tmp, 'generated');
    await run(
      javaCommand(),
      ['-jar', jar, 'generate', '-i', spec, '-o', src, ...options],
      'OpenAPI Generator',
      10 * 60_000,
    );
    await mvn(
      [
        '-f',
        path.join(src, 'pom.xml'),
        'dependency:copy-dependencies',
        '-DincludeScope=compile',
        `-DoutputDirectory=${path.join(tmp, 'lib')}`,
      ],
      "fetching the generated client's dependencies",
    );
    const sources = await javaSources(path.join(src, 'src', 'main', 'java'));
    await run(
      javacCommand(),
      [
        '-nowarn',
        '-encoding',
        'UTF-8',
        '-d',
        path.join(tmp, 'classes'),
        '-cp',
        path.join(tmp, 'lib', '*'),
        ...sources,
      ],
      'compiling the generated Java client',
      10 * 60_000,
    );
    await writeFile(path.join(tmp, MARKER), hash);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await publish(tmp, dir);
  return client;
}

function javacCommand(): string {
  const java = javaCommand();
  // `java` from KAFKA_JAVA or JAVA_HOME: its javac sits beside it.
  return java.endsWith(`${path.sep}java`) ? `${java}c` : 'javac';
}

async function javaSources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await javaSources(full)));
    else if (entry.name.endsWith('.java')) out.push(full);
  }
  return out;
}

/** Keeps the newest `keep` clients: each document version leaves one behind. */
export async function prune(root: string, keep: number): Promise<void> {
  const entries = await readdir(root);
  const dated = await Promise.all(
    entries.map(async (name) => ({
      name,
      t: (await stat(path.join(root, name)).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  dated.sort((a, b) => b.t - a.t);
  await Promise.all(
    dated.slice(keep).map(({ name }) => rm(path.join(root, name), { recursive: true, force: true })),
  );
}

/** Runs the check program of the client's library on it with `args`; resolves with its standard output. */
export function runClientCheck(client: JavaClient, args: readonly string[]): Promise<string> {
  return run(
    javaCommand(),
    [
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-cp',
      client.classpath,
      path.join(JAVA_CLIENT_DIR, CHECK_PROGRAMS[client.library]),
      ...args,
    ],
    'the Java client check',
    180_000,
  );
}
