/**
 * What a change to the OpenAPI document breaks for clients generated from a released one, judged
 * by OpenAPITools' openapi-diff (Maven Central, fetched with the machine's `mvn` like the generator)
 * through test/clients/java/DocumentCompat.java.
 *
 *   <cache>/openapi-diff-<version>/   openapi-diff-core and its dependencies
 *
 * The released documents are kept in sdk/releases/<version>.json; `newestRelease` is the one today's
 * document is held to.
 */

import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classpathOf, javaCommand, kafkaCacheDir } from '../broker-harness/fetch.js';
import { compiledJavaProgram } from '../broker-harness/java-classes.js';
import { JAVA_CLIENT_DIR, MARKER, mvn, publish, run } from './generated-java-client.js';

export const OPENAPI_DIFF_VERSION = '2.1.7';
export const RELEASES_DIR = fileURLToPath(new URL('../../sdk/releases/', import.meta.url));

/** openapi-diff's jars, downloaded on first use; the lib directory. */
export async function ensureOpenApiDiff(): Promise<string> {
  const dir = path.join(kafkaCacheDir(), `openapi-diff-${OPENAPI_DIFF_VERSION}`);
  if (existsSync(path.join(dir, MARKER))) return dir;
  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    await mvn(
      [
        '-f',
        path.join(JAVA_CLIENT_DIR, 'openapi-diff.xml'),
        'dependency:copy-dependencies',
        `-DoutputDirectory=${tmp}`,
      ],
      `fetching openapi-diff ${OPENAPI_DIFF_VERSION}`,
    );
    await writeFile(path.join(tmp, MARKER), OPENAPI_DIFF_VERSION);
  } catch (error) {
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
  await publish(tmp, dir);
  return dir;
}

export interface Compatibility {
  /** One line per breaking change: `removed GET /x` or `breaks GET /x: parameters, response`. */
  breaking: string[];
  /** The tool's own account of the breaking operations (Markdown), for an assertion's message. */
  report: string;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const REF = '#/components/schemas/';

/** Every value under `root` (depth first), for the scans below. */
function* values(root: unknown): Generator<unknown> {
  yield root;
  if (Array.isArray(root)) for (const v of root) yield* values(v);
  else if (isRecord(root)) for (const v of Object.values(root)) yield* values(v);
}

/** The component schemas `roots` reach through `$ref`, transitively. */
function reached(doc: Json, roots: unknown[]): Set<string> {
  const schemas = isRecord(doc.components) && isRecord(doc.components.schemas) ? doc.components.schemas : {};
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    for (const v of values(queue.pop())) {
      if (!isRecord(v) || typeof v.$ref !== 'string' || !v.$ref.startsWith(REF)) continue;
      const name = v.$ref.slice(REF.length);
      if (!seen.has(name)) {
        seen.add(name);
        queue.push(schemas[name]);
      }
    }
  }
  return seen;
}

/**
 * `doc` with each schema that is a member of a `oneOf` or `anyOf` also given an operation of its own
 * (`GET /x-variant/<Name>` answering it where answers reach it, `POST` taking it where requests do):
 * openapi-diff does not compare the members of a composed schema, so a field removed from one group
 * type would pass unseen; answered or taken directly, each member is compared as any schema is.
 */
export function withVariantsExposed(given: unknown): Json {
  const doc = structuredClone(given) as Json;
  const members = new Set<string>();
  for (const v of values(doc))
    if (isRecord(v))
      for (const key of ['oneOf', 'anyOf'])
        for (const m of Array.isArray(v[key]) ? v[key] : [])
          if (isRecord(m) && typeof m.$ref === 'string' && m.$ref.startsWith(REF))
            members.add(m.$ref.slice(REF.length));
  const operations = Object.values(isRecord(doc.paths) ? doc.paths : {}).flatMap((item) =>
    isRecord(item) ? Object.values(item).filter(isRecord) : [],
  );
  const answered = reached(
    doc,
    operations.map((op) => op.responses),
  );
  const taken = reached(
    doc,
    operations.flatMap((op) => [op.requestBody, op.parameters]),
  );
  const paths = (doc.paths ?? {}) as Json;
  for (const name of [...members].sort()) {
    const schema = { $ref: `${REF}${name}` };
    const content = { 'application/json': { schema } };
    const item: Json = {};
    if (answered.has(name))
      item.get = { operationId: `xVariantAnswer${name}`, responses: { 200: { description: name, content } } };
    if (taken.has(name))
      item.post = {
        operationId: `xVariantRequest${name}`,
        requestBody: { required: true, content },
        responses: { 204: { description: name } },
      };
    paths[`/x-variant/${name}`] = item;
  }
  doc.paths = paths;
  return doc;
}

/**
 * What `current` breaks for clients of `released` (both documents as objects). A line
 * `breaks GET /x-variant/<Name>: response` is a change inside that member of a union.
 */
export async function compatibility(released: unknown, current: unknown): Promise<Compatibility> {
  const [only] = await compatibilities(released, [current]);
  if (!only) throw new Error('openapi-diff judged nothing');
  return only;
}

/** As `compatibility`, for several documents against one release, in one JVM. */
export async function compatibilities(released: unknown, currents: unknown[]): Promise<Compatibility[]> {
  const lib = await ensureOpenApiDiff();
  const program = await compiledJavaProgram(
    path.join(JAVA_CLIENT_DIR, 'DocumentCompat.java'),
    classpathOf(lib),
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'document-compat-'));
  try {
    const base = path.join(dir, 'released.json');
    await writeFile(base, JSON.stringify(withVariantsExposed(released)));
    const heads = currents.map((_, i) => path.join(dir, `current-${i}.json`));
    await Promise.all(
      currents.map((doc, i) => writeFile(heads[i] ?? '', JSON.stringify(withVariantsExposed(doc)))),
    );
    const out = await run(
      javaCommand(),
      ['-Xmx768m', '-XX:+UseSerialGC', '-cp', program.classpath, program.mainClass, base, ...heads],
      'openapi-diff',
      300_000,
    );
    const sections = heads.length > 1 ? out.split(/^== .*$/m).slice(1) : [out];
    if (sections.length !== heads.length)
      throw new Error(`openapi-diff judged ${sections.length} of ${heads.length}:\n${out.slice(0, 2000)}`);
    return sections.map((section) => {
      const lines = section.split('\n').filter((line, i) => i > 0 || line !== '');
      const end = lines.findIndex((line) => line.startsWith('breaking: '));
      if (end < 0) throw new Error(`openapi-diff printed no verdict:\n${section.slice(0, 2000)}`);
      return { breaking: lines.slice(0, end), report: lines.slice(end + 1).join('\n') };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The released documents' versions, oldest first. */
export async function releases(): Promise<string[]> {
  const names = (await readdir(RELEASES_DIR)).filter((name) => /^\d+\.\d+\.\d+\.json$/.test(name));
  const versions = names.map((name) => name.slice(0, -'.json'.length));
  const key = (v: string) => v.split('.').map(Number) as [number, number, number];
  return versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

export async function releasedDocument(version: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(RELEASES_DIR, `${version}.json`), 'utf8'));
}
