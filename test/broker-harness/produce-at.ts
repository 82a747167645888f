/**
 * Creates a topic and fills each partition with records of known timestamps, with Kafka's own Admin
 * client and producer (test/broker-harness/ProducerRig.java, run --once): for resets by time.
 */

import { runJavaClient } from './java-client.js';

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
  args.push('--once');
  const { stdout, failure } = await runJavaClient(
    'ProducerRig.java',
    args,
    'produce-at',
    `ProduceAt ${options.topic}`,
    options.timeoutMs ?? 120_000,
  );
  if (!stdout.includes('DONE')) throw failure(`output does not say DONE\n--- stdout ---\n${stdout}`);
}
