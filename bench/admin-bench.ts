/**
 * Drives bench/AdminBench.java (Kafka's Java Admin client) over its standard input: one command,
 * one JSON line back. One JVM for the whole run, so its figures are warm like the server's.
 */

import { relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { KAFKA_TEST_DIR } from '../test/broker-harness/fetch.js';
import { spawnJavaClient } from '../test/broker-harness/java-client.js';

export interface AdminBench {
  command<T>(line: string): Promise<T>;
  close(): Promise<void>;
}

// spawnJavaClient names sources relative to test/broker-harness.
const SOURCE = relative(KAFKA_TEST_DIR, fileURLToPath(new URL('./AdminBench.java', import.meta.url)));

export async function startAdminBench(bootstrap: string): Promise<AdminBench> {
  const { child, logFile } = await spawnJavaClient(SOURCE, ['--bootstrap', bootstrap], {
    logPrefix: 'admin-bench',
    stdin: 'pipe',
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const waiting: Array<(line: string) => void> = [];
  const queued: string[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queued.push(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const line = queued.shift();
      if (line !== undefined) return resolve(line);
      waiting.push(resolve);
      void exited.then(() => reject(new Error(`AdminBench exited (log ${logFile}):\n${stderr}`)));
    });
  const ready = JSON.parse(await nextLine()) as { ready?: boolean };
  if (!ready.ready) throw new Error(`AdminBench did not start: ${stderr}`);
  return {
    async command<T>(line: string): Promise<T> {
      child.stdin?.write(`${line}\n`);
      const answer = JSON.parse(await nextLine()) as T & { error?: string };
      if (answer.error) throw new Error(`AdminBench ${line.split(' ')[0]}: ${answer.error}`);
      return answer;
    },
    async close() {
      child.stdin?.end('quit\n');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
