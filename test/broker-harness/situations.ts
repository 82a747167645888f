/**
 * Groups in trouble for the diagnosis tests, made by Kafka's own clients (Situations.java): a
 * consumer that stops polling, a static member to kill, a mixed classic/consumer group.
 */

import { createInterface } from 'node:readline';
import { spawnJavaClient } from './java-client.js';
import { within } from './wait.js';

export type Situation = 'stall-classic' | 'stall-consumer' | 'static' | 'mixed';

export interface RunningSituation {
  /** Resolves when the program printed `line`; rejects when it exits first or after `timeoutMs`. */
  waitFor(line: string, timeoutMs?: number): Promise<void>;
  /** SIGKILL: the clients vanish without leaving their group. */
  kill(): Promise<void>;
  /** Closes its clients and waits for it to exit (bounded). */
  stop(): Promise<void>;
}

export async function startSituation(
  bootstrap: string,
  situation: Situation,
  group: string,
  topic: { name: string; partitions: number; records: number },
): Promise<RunningSituation> {
  const { child, logFile } = await spawnJavaClient(
    'Situations.java',
    [bootstrap, situation, group, topic.name, String(topic.partitions), String(topic.records)],
    { logPrefix: 'situation', stdin: 'pipe' },
  );
  child.stdin?.on('error', () => {});
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const seen = new Set<string>();
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    seen.add(line.trim());
    for (const w of waiters) w();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const failure = (why: string) =>
    new Error(`situation ${situation}: ${why}\nclient log: ${logFile}\n${stderr}`);
  return {
    waitFor(line, timeoutMs = 90_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(failure(`no ${line} within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (seen.has(line)) {
            clearTimeout(timer);
            resolve();
          }
        };
        waiters.push(check);
        check();
        void exited.then(() => {
          clearTimeout(timer);
          if (!seen.has(line)) reject(failure(`exited before ${line}`));
        });
      });
    },
    async kill() {
      child.kill('SIGKILL');
      await within(exited, 10_000);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end('stop\n');
      if (await within(exited, 20_000)) return;
      child.kill('SIGKILL');
      await within(exited, 10_000);
    },
  };
}
