/**
 * Commits offsets with Kafka's own Admin client (test/broker-harness/CommitOffset.java), uncapped: for offsets
 * no test topic reaches by producing, such as values above 2^31. A group nobody joins becomes Empty.
 */

import { runJavaClient } from './java-client.js';

export async function commitOffsets(options: {
  bootstrap: string;
  groupId: string;
  offsets: { topic: string; partition: number; offset: number }[];
  timeoutMs?: number;
}): Promise<void> {
  const args = ['--bootstrap', options.bootstrap, '--group', options.groupId];
  for (const o of options.offsets) args.push('--offset', o.topic, String(o.partition), String(o.offset));
  const { stdout, failure } = await runJavaClient(
    'CommitOffset.java',
    args,
    'commit-offset',
    `CommitOffset for group ${JSON.stringify(options.groupId)}`,
    options.timeoutMs ?? 90_000,
  );
  if (!stdout.includes('COMMITTED'))
    throw failure(`output does not say COMMITTED\n--- stdout ---\n${stdout}`);
}
