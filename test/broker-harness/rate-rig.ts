/**
 * Records produced and consumed at known rates by Kafka's own clients (ProducerRig.java): a topic with
 * a backlog, a producer at a set pace, and consumers that each read and commit at their own.
 */

import { createInterface } from 'node:readline';
import { spawnJavaClient } from './java-client.js';
import { within } from './wait.js';

export interface RateRigOptions {
  bootstrap: string;
  topic: string;
  partitions: number;
  retentionMs?: number;
  retentionBytes?: number;
  /** Records appended to every partition before the consumers start. */
  backlog: number;
  /** Records a second, spread over the partitions. */
  produce: number;
  consumers: { groupId: string; perSecond: number; protocol: 'classic' | 'consumer' }[];
}

export interface RunningRig {
  stop(): Promise<void>;
}

/** Starts the rig; resolves once every consumer has committed. */
export async function startRateRig(options: RateRigOptions, readyTimeoutMs = 120_000): Promise<RunningRig> {
  const args = ['--bootstrap', options.bootstrap, '--topic', options.topic, String(options.partitions)];
  if (options.retentionMs !== undefined) args.push('--retention-ms', String(options.retentionMs));
  if (options.retentionBytes !== undefined) args.push('--retention-bytes', String(options.retentionBytes));
  args.push('--backlog', String(options.backlog), '--produce', String(options.produce));
  for (const c of options.consumers) args.push('--consumer', c.groupId, String(c.perSecond), c.protocol);
  const { child, logFile } = await spawnJavaClient('ProducerRig.java', args, {
    logPrefix: 'rate-rig',
    stdin: 'pipe',
  });
  child.stdin?.on('error', () => {});
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = new Promise<void>((resolve) => lines.on('line', (line) => line === 'READY' && resolve()));
  const outcome = await Promise.race([
    ready.then(() => 'ready' as const),
    exited.then(() => 'exited' as const),
    new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), readyTimeoutMs).unref()),
  ]);
  const stop = async () => {
    child.stdin?.end();
    if (!(await within(exited, 20_000))) child.kill('SIGKILL');
  };
  if (outcome !== 'ready') {
    await stop();
    throw new Error(
      `RateRig not ready (${outcome}); log ${logFile}\n${stderr.split('\n').slice(-20).join('\n')}`,
    );
  }
  return { stop };
}
