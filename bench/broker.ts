/**
 * A broker holding the bench's groups, kept running so `npm run bench` (and profiling) can reuse it
 * instead of creating 100,000 groups anew each run:
 *
 *   npx tsx bench/broker.ts 100000        # prints BENCH_KAFKA_BROKERS=…, runs until Ctrl-C / SIGTERM
 *   BENCH_KAFKA_BROKERS=127.0.0.1:PORT npm run bench -- 1000 10000 100000
 *
 * The groups are those bench/groups.ts makes (bench-%07d, one offset commit each).
 */

import { startBroker } from '../test/broker-harness/broker.js';
import { startAdminBench } from './admin-bench.js';

const size = Number(process.argv[2] ?? 100_000);
if (!Number.isInteger(size) || size < 0) throw new Error('usage: bench/broker.ts GROUPS');

const broker = await startBroker({ readyTimeoutMs: 300_000 });
const admin = await startAdminBench(broker.bootstrap);
const stop = async () => {
  await admin.close().catch(() => undefined);
  await broker.stop();
  process.exit(0);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
const created = await admin.command<{ ms: number }>(`create bench- 0 ${size} bench-offsets`);
console.log(`# ${size} groups in ${(created.ms / 1000).toFixed(1)} s`);
console.log(`BENCH_KAFKA_BROKERS=${broker.bootstrap}`);
await admin.close();
// The broker lives as long as this process (its lifeline is our pipe): stay until told to stop.
setInterval(() => undefined, 60_000);
