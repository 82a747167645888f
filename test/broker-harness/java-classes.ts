/**
 * The harness's Java programs, compiled once and kept in the cache by the hash of their source.
 *
 * `java Fixture.java` (the source launcher) compiles the file in memory on every start: about 2 s
 * of CPU, paid by each of the hundreds of JVMs a run starts. Compiled once, a start costs the JVM
 * alone. The cache key is the source, the classpath it compiles against and the javac used, so an
 * edited program or another Kafka clients version compiles anew; concurrent runs (vitest workers,
 * the demo) each compile into a directory of their own and the first to finish is kept.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { javaCommand, KAFKA_TEST_DIR, kafkaCacheDir } from './fetch.js';

export interface JavaProgram {
  /** The directory of the compiled classes. */
  classes: string;
  /** The `-cp` value: the compiled classes, then the given classpath. */
  classpath: string;
  /** The class to run: the file's public class. */
  mainClass: string;
}

/** The javac beside the java command, or undefined when there is none (a JRE). */
function javacCommand(): string | undefined {
  const java = javaCommand();
  if (java === 'java') return 'javac';
  const javac = path.join(path.dirname(java), 'javac');
  return existsSync(javac) ? javac : undefined;
}

const compiled = new Map<string, Promise<JavaProgram>>();

/**
 * `source` (a path relative to test/broker-harness, or absolute) compiled against `classpath` ('' for
 * the JDK alone).
 * `javacArgs` are extra compiler options (e.g. `--add-exports` for a JDK-internal API).
 */
export function compiledJavaProgram(
  source: string,
  classpath: string,
  javacArgs: readonly string[] = [],
): Promise<JavaProgram> {
  const file = path.resolve(KAFKA_TEST_DIR, source);
  const key = JSON.stringify([file, classpath, javacArgs]);
  let program = compiled.get(key);
  if (!program) {
    program = compile(file, classpath, javacArgs);
    compiled.set(key, program);
    // A failed compile is not remembered: the next start says why again.
    program.catch(() => compiled.delete(key));
  }
  return program;
}

async function compile(file: string, classpath: string, javacArgs: readonly string[]): Promise<JavaProgram> {
  const javac = javacCommand();
  if (!javac) throw new Error(`no javac beside ${javaCommand()}: the test programs need a JDK`);
  const mainClass = path.basename(file, '.java');
  const hash = createHash('sha256')
    .update(await readFile(file))
    .update(JSON.stringify([classpath, javacArgs, javac]))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(kafkaCacheDir(), 'classes', `${mainClass}-${hash}`);
  const program = {
    classes: dir,
    classpath: classpath ? `${dir}${path.delimiter}${classpath}` : dir,
    mainClass,
  };
  if (existsSync(path.join(dir, `${mainClass}.class`))) return program;

  const tmp = `${dir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await mkdir(tmp, { recursive: true });
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        javac,
        [
          '-nowarn',
          '-encoding',
          'UTF-8',
          ...javacArgs,
          ...(classpath ? ['-cp', classpath] : []),
          '-d',
          tmp,
          file,
        ],
        { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
        (err, stdout, stderr) => {
          if (!err) return resolve();
          reject(new Error(`javac ${path.basename(file)} failed: ${`${stdout}\n${stderr}`.trim()}`));
        },
      );
    });
    try {
      await rename(tmp, dir);
    } catch (err) {
      // Another process compiled the same source meanwhile: its classes are as good as ours.
      if (!existsSync(path.join(dir, `${mainClass}.class`))) throw err;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return program;
}
