/**
 * This process's ProgramServer (ProgramServer.java): one JVM, started on first use, that runs the
 * one-shot Admin programs side by side, so each read-back costs Kafka's round trips rather than a
 * JVM start. It exits when this process does (its standard input is a pipe from here), and a server
 * that died is started again by the next call.
 */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { JavaClientProgram } from './java-client.js';

/** The programs the server runs: each has `public static int run(String[], PrintStream, PrintStream)`. */
export const SERVED = ['Offsets.java', 'AdminOps.java', 'CommitOffset.java', 'GroupAdmin.java'] as const;

export function isServed(source: string): boolean {
  return (SERVED as readonly string[]).includes(source);
}

export interface ServedRun {
  code: number | 'timeout';
  stdout: string;
  stderr: string;
  /** The server's log, where the program's Kafka client logged. */
  logFile: string;
}

interface Server {
  child: ChildProcess;
  logFile: string;
  pending: Map<string, (answer: { code: number; stdout: string; stderr: string }) => void>;
}

let starting: Promise<Server> | undefined;
let nextId = 0;

function start(spawn: () => Promise<JavaClientProgram>): Promise<Server> {
  starting ??= (async () => {
    const { child, logFile } = await spawn();
    const server: Server = { child, logFile, pending: new Map() };
    child.stdin?.on('error', () => {}); // EPIPE once the JVM is gone
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-20_000);
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const [word, id = '', code = '', out = '', err = ''] = line.split(' ');
      const resolve = server.pending.get(id);
      if (word !== 'DONE' || !resolve) return;
      server.pending.delete(id);
      resolve({
        code: Number(code),
        stdout: Buffer.from(out, 'base64').toString('utf8'),
        stderr: Buffer.from(err, 'base64').toString('utf8'),
      });
    });
    const gone = (why: string) => {
      if (starting === current) starting = undefined;
      for (const resolve of server.pending.values()) {
        resolve({ code: 1, stdout: '', stderr: `the ProgramServer JVM ${why}\n${stderr}` });
      }
      server.pending.clear();
    };
    child.once('exit', (code, signal) => gone(`exited (code ${code}, signal ${signal})`));
    child.once('error', (err) => gone(`failed: ${err.message}`));
    // Nothing of the server keeps this process alive; when it exits, the JVM follows.
    child.unref();
    for (const s of [child.stdin, child.stdout, child.stderr]) {
      (s as unknown as { unref?: () => void } | null)?.unref?.();
    }
    return server;
  })();
  const current = starting;
  current.catch(() => {
    if (starting === current) starting = undefined;
  });
  return current;
}

/**
 * Runs `source` (one of SERVED) with `args` in the server, which `spawn` starts when none runs;
 * 'timeout' when no answer came in time.
 */
export async function runServed(
  spawn: () => Promise<JavaClientProgram>,
  source: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<ServedRun> {
  const server = await start(spawn);
  const id = String(nextId++);
  const program = path.basename(source, '.java');
  const line = ['RUN', id, program, ...args.map((a) => Buffer.from(a, 'utf8').toString('base64'))].join(' ');
  let timer: NodeJS.Timeout | undefined;
  const answer = await new Promise<{ code: number | 'timeout'; stdout: string; stderr: string }>(
    (resolve) => {
      server.pending.set(id, resolve);
      timer = setTimeout(() => {
        server.pending.delete(id);
        resolve({ code: 'timeout', stdout: '', stderr: '' });
      }, timeoutMs);
      server.child.stdin?.write(`${line}\n`);
    },
  );
  clearTimeout(timer);
  return { ...answer, logFile: server.logFile };
}
