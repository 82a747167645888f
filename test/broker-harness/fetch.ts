/**
 * Where the test broker's jars come from: Maven Central through the machine's `mvn`, run on
 * test/broker-harness/pom.xml, copied into a cache directory that later runs reuse.
 *
 *   <cache>/kafka-<version>/broker-lib    kafka_2.13 (broker + storage tool) + Log4j 2 binding
 *   <cache>/kafka-<version>/clients-lib   kafka-clients + kafka-streams + Log4j 2 binding (fixtures)
 *   <cache>/logs/                         broker and fixture logs
 *
 * A lib dir counts as complete when its `.complete` marker names the same version, profile and pom.
 * Environment: KAFKA_VERSION (broker version), KAFKA_CACHE_DIR, KAFKA_MVN (the mvn command),
 * KAFKA_MVN_ARGS (extra arguments, e.g. `-s settings.xml -o`), KAFKA_JAVA (the java command).
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The broker version used when KAFKA_VERSION is not set; the fixtures' clients always use it. */
export const PINNED_KAFKA_VERSION = '4.4.0';

/** This directory (test/broker-harness), where pom.xml, Launcher.java, Fixture.java and the Log4j configs live. */
export const KAFKA_TEST_DIR = path.dirname(fileURLToPath(import.meta.url));

const POM = path.join(KAFKA_TEST_DIR, 'pom.xml');
const MARKER = '.complete';

export function resolveKafkaVersion(version?: string): string {
  const v = version || process.env.KAFKA_VERSION || PINNED_KAFKA_VERSION;
  if (!/^\d+\.\d+\.\d+([.-][0-9A-Za-z.-]+)?$/.test(v)) {
    throw new Error(`not a Kafka version: ${JSON.stringify(v)}`);
  }
  return v;
}

export interface ParsedVersion {
  major: number;
  minor: number;
  patch: number;
}

export function parseKafkaVersion(version: string): ParsedVersion {
  const [major = 0, minor = 0, patch = 0] = version.split(/[.-]/).map((p) => Number.parseInt(p, 10));
  return { major, minor, patch };
}

/** True when `version` is at least `major.minor`. */
export function versionAtLeast(version: string, major: number, minor: number): boolean {
  const v = parseKafkaVersion(version);
  return v.major > major || (v.major === major && v.minor >= minor);
}

export function kafkaCacheDir(): string {
  return process.env.KAFKA_CACHE_DIR || path.join(os.homedir(), '.cache', 'kafka-groups-rest');
}

export function logsDir(): string {
  return path.join(kafkaCacheDir(), 'logs');
}

export function javaCommand(): string {
  if (process.env.KAFKA_JAVA) return process.env.KAFKA_JAVA;
  if (process.env.JAVA_HOME) return path.join(process.env.JAVA_HOME, 'bin', 'java');
  return 'java';
}

/** A `-cp` value for java: every jar of a lib dir (java expands the `*` itself). */
export function classpathOf(libDir: string): string {
  return `${libDir}${path.sep}*`;
}

type Log = (line: string) => void;
const defaultLog: Log = (line) => process.stderr.write(`[kafka-test] ${line}\n`);

/** The broker's jars for `version`, downloaded on first use. Returns the lib directory. */
export function ensureBrokerLib(version?: string, log: Log = defaultLog): Promise<string> {
  const v = resolveKafkaVersion(version);
  return ensureLib(path.join(kafkaCacheDir(), `kafka-${v}`, 'broker-lib'), 'broker', v, log);
}

/** The fixtures' client jars, always at the pinned version (they talk to older brokers too). */
export function ensureClientsLib(log: Log = defaultLog): Promise<string> {
  const v = PINNED_KAFKA_VERSION;
  return ensureLib(path.join(kafkaCacheDir(), `kafka-${v}`, 'clients-lib'), 'clients', v, log);
}

async function ensureLib(dir: string, profile: string, version: string, log: Log): Promise<string> {
  const pomHash = createHash('sha256')
    .update(await readFile(POM))
    .digest('hex');
  const marker = JSON.stringify({ version, profile, pomHash });
  if (await markerMatches(dir, marker)) return dir;

  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  const started = Date.now();
  log(`fetching Kafka ${version} (${profile}) with Maven into ${dir} ...`);
  try {
    await runMaven(profile, version, tmp);
    const jars = (await readdir(tmp)).filter((f) => f.endsWith('.jar'));
    if (jars.length === 0) throw new Error(`Maven copied no jar into ${tmp}`);
    await writeFile(path.join(tmp, MARKER), marker);
    // Another process may have finished the same download meanwhile: keep whichever is complete.
    if (await markerMatches(dir, marker)) {
      await rm(tmp, { recursive: true, force: true });
      return dir;
    }
    await rm(dir, { recursive: true, force: true });
    try {
      await rename(tmp, dir);
    } catch (err) {
      if (!(await markerMatches(dir, marker))) throw err;
      await rm(tmp, { recursive: true, force: true });
    }
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
  log(`fetched Kafka ${version} (${profile}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}

async function markerMatches(dir: string, marker: string): Promise<boolean> {
  try {
    return (await readFile(path.join(dir, MARKER), 'utf8')) === marker;
  } catch {
    return false;
  }
}

function runMaven(profile: string, version: string, outputDir: string): Promise<void> {
  const mvn = process.env.KAFKA_MVN || 'mvn';
  const extra = (process.env.KAFKA_MVN_ARGS ?? '').split(/\s+/).filter(Boolean);
  const args = [
    '-B',
    '-q',
    '-Dstyle.color=never',
    ...extra,
    '-f',
    POM,
    'dependency:copy-dependencies',
    `-P${profile}`,
    `-Dkafka.version=${version}`,
    `-DoutputDirectory=${outputDir}`,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      mvn,
      args,
      { timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024, cwd: KAFKA_TEST_DIR },
      (err, stdout, stderr) => {
        if (!err) return resolve();
        const out = `${stdout}\n${stderr}`.trim().split('\n').slice(-40).join('\n');
        reject(
          new Error(
            `Maven could not fetch Kafka ${version} (${profile}): ${mvn} ${args.join(' ')}\n` +
              `${err.message}\n${out}\n` +
              'Check the version exists on Maven Central; set KAFKA_MVN / KAFKA_MVN_ARGS for another Maven set-up.',
          ),
        );
      },
    );
  });
}

/** Keeps the newest `keep` files of the logs directory whose names start with `prefix`. */
export async function pruneLogs(prefix: string, keep = 20): Promise<void> {
  const dir = logsDir();
  if (!existsSync(dir)) return;
  const files = (await readdir(dir)).filter((f) => f.startsWith(prefix));
  const withTime = await Promise.all(
    files.map(async (f) => {
      try {
        return { f, t: (await stat(path.join(dir, f))).mtimeMs };
      } catch {
        return { f, t: 0 };
      }
    }),
  );
  withTime.sort((a, b) => b.t - a.t);
  await Promise.all(withTime.slice(keep).map(({ f }) => rm(path.join(dir, f), { force: true })));
}
