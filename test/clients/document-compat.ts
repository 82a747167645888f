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

/** What `current` breaks for clients of `released` (both documents as objects). */
export async function compatibility(released: unknown, current: unknown): Promise<Compatibility> {
  const lib = await ensureOpenApiDiff();
  const program = await compiledJavaProgram(
    path.join(JAVA_CLIENT_DIR, 'DocumentCompat.java'),
    classpathOf(lib),
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'document-compat-'));
  try {
    const [base, head] = [path.join(dir, 'released.json'), path.join(dir, 'current.json')];
    await writeFile(base, JSON.stringify(released));
    await writeFile(head, JSON.stringify(current));
    const out = await run(
      javaCommand(),
      ['-Xmx512m', '-XX:+UseSerialGC', '-cp', program.classpath, program.mainClass, base, head],
      'openapi-diff',
      180_000,
    );
    const lines = out.split('\n');
    const end = lines.findIndex((line) => line.startsWith('breaking: '));
    if (end < 0) throw new Error(`openapi-diff printed no verdict:\n${out.slice(0, 2000)}`);
    return { breaking: lines.slice(0, end), report: lines.slice(end + 1).join('\n') };
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
