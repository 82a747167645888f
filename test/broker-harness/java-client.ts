/**
 * Runs one of the test's Java programs (Fixture.java, Offsets.java) on Kafka's own clients: compiled
 * once (java-classes.ts), the pinned clients classpath, a small heap, logs to a file of their own,
 * and a UTF-8 locale so group ids with any characters travel intact as arguments.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { classpathOf, ensureClientsLib, javaCommand, KAFKA_TEST_DIR, logsDir, pruneLogs } from './fetch.js';
import { compiledJavaProgram } from './java-classes.js';
import { isServed, runServed, SERVED } from './program-server.js';

export interface JavaClientProgram {
  child: ChildProcess;
  logFile: string;
}

/** Starts `source` (a file in test/broker-harness) with `args`; `logPrefix` names its log file. */
export async function spawnJavaClient(
  source: string,
  args: readonly string[],
  options: {
    logPrefix: string;
    logFile?: string;
    stdin: 'pipe' | 'ignore';
    /** Other programs whose classes this one loads (ProgramServer runs them). */
    loads?: readonly string[];
  },
): Promise<JavaClientProgram> {
  const lib = await ensureClientsLib();
  const loaded = await Promise.all(
    (options.loads ?? []).map((s) => compiledJavaProgram(s, classpathOf(lib))),
  );
  const program = await compiledJavaProgram(source, classpathOf(lib));
  const classpath = [...loaded.map((l) => l.classes), program.classpath].join(path.delimiter);
  await mkdir(logsDir(), { recursive: true });
  await pruneLogs(`${options.logPrefix}-`, 40);
  const logFile =
    options.logFile ??
    path.join(
      logsDir(),
      `${options.logPrefix}-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(2).toString('hex')}.log`,
    );
  const child = spawn(
    javaCommand(),
    [
      '-Xms32m',
      '-Xmx256m',
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${path.join(KAFKA_TEST_DIR, 'log4j2-fixture.properties')}`,
      `-Dkafka.test.log.file=${logFile}`,
      `-Dkafka.test.log.level=${process.env.KAFKA_LOG_LEVEL ?? 'INFO'}`,
      '-cp',
      classpath,
      program.mainClass,
      ...args,
    ],
    { stdio: [options.stdin, 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C.UTF-8', LANG: 'C.UTF-8' } },
  );
  return { child, logFile };
}

/**
 * Runs one of the Java programs (Offsets.java, AdminOps.java, CommitOffset.java, ProducerRig.java --once) to
 * its end; its standard output, or an error carrying its log file and the end of its standard error.
 * The Admin programs run in this process's ProgramServer JVM (program-server.ts), the others in a JVM
 * of their own.
 */
export async function runJavaClient(
  source: string,
  args: readonly string[],
  logPrefix: string,
  what: string,
  timeoutMs: number,
): Promise<{ stdout: string; failure: (why: string) => Error }> {
  if (isServed(source)) {
    const spawnServer = () =>
      spawnJavaClient('ProgramServer.java', [], {
        logPrefix: 'program-server',
        stdin: 'pipe',
        loads: SERVED,
      });
    const run = await runServed(spawnServer, source, args, timeoutMs);
    const failure = (why: string) =>
      new Error(
        `${what}: ${why}\nclient log: ${run.logFile}\n--- stderr ---\n` +
          run.stderr.trim().split('\n').slice(-40).join('\n'),
      );
    if (run.code === 'timeout') throw failure(`no answer within ${timeoutMs} ms`);
    if (run.code !== 0) throw failure(`exit code ${run.code}`);
    return { stdout: run.stdout, failure };
  }
  const { child, logFile } = await spawnJavaClient(source, args, {
    logPrefix,
    stdin: 'ignore',
  });

  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });

  const failure = (why: string) =>
    new Error(
      `${what}: ${why}\nclient log: ${logFile}\n--- stderr ---\n` +
        stderr.trim().split('\n').slice(-40).join('\n'),
    );

  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'timeout'>(
    (resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('timeout');
      }, timeoutMs);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(failure(`could not start ${javaCommand()}: ${err.message}`));
      });
      // 'close', not 'exit': all of stdout and stderr has arrived.
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal });
      });
    },
  );
  if (outcome === 'timeout') throw failure(`no answer within ${timeoutMs} ms (killed)`);
  if (outcome.code !== 0) throw failure(`exit code ${outcome.code}, signal ${outcome.signal}`);
  return { stdout, failure };
}
