/**
 * The NDJSON listing of every group beside Kafka's Java Admin `listGroups`, alternately in one run,
 * against a broker that bench/broker.ts holds:
 *
 *   BENCH_KAFKA_BROKERS=127.0.0.1:PORT npx tsx bench/listing.ts [rounds=9] [other/server.mjs]
 *
 * Builds dist/node/server.mjs, starts it (and, given another server bundle, an earlier build, that
 * one too), then per round: Admin's listGroups once, then one `GET /groups.ndjson` and one `GET
 * /groups` with `Accept: application/x-ndjson` from each server, read to the end. Prints the load
 * average, each side's median and the ratios; on a shared machine only the ratios compare.
 */

import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildNode } from '../scripts/build.js';
import { startServerProcess } from '../test/support/server-process.js';
import { startAdminBench } from './admin-bench.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const bootstrap = process.env.BENCH_KAFKA_BROKERS;
if (!bootstrap) throw new Error('BENCH_KAFKA_BROKERS: the broker bench/broker.ts prints');
const rounds = Number(process.argv[2] ?? 9);
const other = process.argv[3] ? resolve(process.argv[3]) : undefined;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Reads the whole answer as bytes (no decoding: the client's cost stays out of the figure); counts lines. */
async function timedGet(url: string, accept: string): Promise<{ ms: number; lines: number }> {
  const start = performance.now();
  const res = await fetch(url, { headers: { accept } });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return { ms: performance.now() - start, lines };
}

console.log(`load average ${load()} (start)`);
await buildNode();
const env = { KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' };
const servers = [{ name: 'product', file: join(ROOT, 'dist/node/server.mjs') }];
if (other) servers.push({ name: 'other', file: other });
const running = await Promise.all(servers.map((s) => startServerProcess([s.file], { env })));
const admin = await startAdminBench(bootstrap);
const samples = new Map<string, number[]>();
const add = (key: string, ms: number) => samples.set(key, [...(samples.get(key) ?? []), ms]);
try {
  // Warm every side once.
  const warm = await admin.command<{ count: number }>('list 1');
  for (const server of running) await timedGet(`${server.url}/groups.ndjson`, 'application/x-ndjson');
  for (let round = 0; round < rounds; round++) {
    const java = await admin.command<{ count: number; ms: number[] }>('list 1');
    add('admin listGroups', java.ms[0] as number);
    for (const [i, server] of running.entries()) {
      const name = servers[i]?.name as string;
      for (const path of ['/groups.ndjson', '/groups']) {
        const got = await timedGet(`${server.url}${path}`, 'application/x-ndjson');
        // One line per group and the end line.
        if (got.lines !== warm.count + 1)
          throw new Error(`${path}: ${got.lines} lines, not ${warm.count + 1}`);
        add(`${name} ${path}`, got.ms);
      }
    }
  }
  const admin50 = median(samples.get('admin listGroups') as number[]);
  console.log(`${warm.count} groups, ${rounds} rounds, load average ${load()} (end)`);
  for (const [key, xs] of samples) {
    const m = median(xs);
    console.log(
      `${key.padEnd(26)} median ${m.toFixed(0).padStart(5)} ms  ${(m / admin50).toFixed(2)}× Admin  [${xs.map((x) => x.toFixed(0)).join(' ')}]`,
    );
  }
} finally {
  await admin.close();
  for (const server of running) server.child.kill('SIGTERM');
}
