/**
 * The end of a bench run: each server asked to stop (SIGINT) and waited for, then the fixtures'
 * clients, then the broker the bench started itself (none when it was given KAFKA_BROKERS).
 */

import type { ServerProcess } from '../test/support/server-process.js';

export async function stopAll(
  servers: readonly { server: ServerProcess }[],
  fixtures: { stop(): Promise<void> },
  broker: { stop(): Promise<void> } | undefined,
): Promise<void> {
  for (const { server } of servers) {
    server.child.kill('SIGINT');
    await new Promise((r) => server.child.once('exit', r));
  }
  await fixtures.stop();
  await broker?.stop();
}
