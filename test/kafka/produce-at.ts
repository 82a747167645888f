/**
 * Creates a topic and fills each partition with records of known timestamps, with Kafka's own Admin
 * client and producer (test/kafka/ProduceAt.java): for resets by time.
 */

import { spawnJavaClient } from './java-client.js';

export async function produceAt(options: {
  bootstrap: string;
  topic: string;
  partitions: number;
  /** In order: `count` records of time `timestamp` (epoch ms) appended to every partition. */
  batches: { timestamp: number; count: number }[];
  timeoutMs?: number;
}): Promise<void> {
  const args = ['--bootstrap', options.bootstrap, '--topic', options.topic, String(options.partitions)];
  for (const b of options.batches) args.push('--batch', String(b.timestamp), String(b.count));
  const { child, logFile } = await spawnJavaClient('ProduceAt.java', args, {
    logPrefix: 'produce-at',
    stdin: 'ignore',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const timeoutMs = options.timeoutMs ?? 120_000;
  const code = await new Promise<number | null | 'timeout'>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve('timeout');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exit) => {
      clearTimeout(timer);
      resolve(exit);
    });
  });
  if (code !== 0 || !output.includes('DONE')) {
    throw new Error(
      `ProduceAt ${options.topic}: ${code === 'timeout' ? `no answer within ${timeoutMs} ms` : `exit code ${code}`}\nclient log: ${logFile}\n${output}`,
    );
  }
}
