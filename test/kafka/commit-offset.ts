/**
 * Commits offsets with Kafka's own Admin client (test/kafka/CommitOffset.java), uncapped: for offsets
 * no test topic reaches by producing, such as values above 2^31. A group nobody joins becomes Empty.
 */

import { spawnJavaClient } from './java-client.js';

export async function commitOffsets(options: {
  bootstrap: string;
  groupId: string;
  offsets: { topic: string; partition: number; offset: number }[];
  timeoutMs?: number;
}): Promise<void> {
  const args = ['--bootstrap', options.bootstrap, '--group', options.groupId];
  for (const o of options.offsets) args.push('--offset', o.topic, String(o.partition), String(o.offset));
  const { child, logFile } = await spawnJavaClient('CommitOffset.java', args, {
    logPrefix: 'commit-offset',
    stdin: 'ignore',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const timeoutMs = options.timeoutMs ?? 90_000;
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
  if (code !== 0 || !output.includes('COMMITTED')) {
    throw new Error(
      `CommitOffset for group ${JSON.stringify(options.groupId)}: ${code === 'timeout' ? `no answer within ${timeoutMs} ms` : `exit code ${code}`}\nclient log: ${logFile}\n${output}`,
    );
  }
}
