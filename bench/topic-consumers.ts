/**
 * Consumers of one topic among many groups, beside Kafka's Java Admin client: a broker holding
 * GROUPS groups with a commit on bench-offsets and 100 groups that alone commit on bench-readers
 * (as bench/groups.ts makes them), then Admin's `estate REPEAT bench-readers` (listGroups, every
 * group's offsets, end offsets, filtered to the topic) and `GET /topics/bench-readers/groups?limit=1000`
 * REPEAT times on a fresh built server, with the server's CPU time and peak RSS (Linux).
 *
 *   npm run build && npx tsx bench/topic-consumers.ts 15000 [REPEAT=3]
 *
 * With BENCH_KAFKA_BROKERS, uses that broker (its groups already made) instead of starting one.
 */

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startBroker } from '../test/broker-harness/broker.js';
import { startServerProcess } from '../test/support/server-process.js';
import { startAdminBench } from './admin-bench.js';

const size = Number(process.argv[2] ?? 15_000);
const repeat = Number(process.argv[3] ?? 3);
const READERS = 100;
const TOPIC = 'bench-readers';
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const stat = (pid: number) => {
  const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const hwm = (pid: number) =>
  Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const load = () => Number((loadavg()[0] ?? 0).toFixed(2));

const reused = process.env.BENCH_KAFKA_BROKERS;
const broker = reused ? undefined : await startBroker({ readyTimeoutMs: 300_000 });
const bootstrap = reused ?? (broker?.bootstrap as string);
const admin = await startAdminBench(bootstrap);
try {
  if (!reused) {
    await admin.command(`create bench- 0 ${size} bench-offsets`);
    await admin.command(`create reader- 0 ${READERS} ${TOPIC}`);
  }
  const loadBefore = load();
  const java = await admin.command<{ groups: number; ms: number[] }>(`estate ${repeat} ${TOPIC}`);
  const server = await startServerProcess([join(ROOT, 'dist/node/server.mjs')], {
    env: { KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' },
  });
  const pid = server.child.pid as number;
  const times: number[] = [];
  const cpu: number[] = [];
  let readers = 0;
  let peak = 0;
  try {
    for (let i = 0; i < repeat; i++) {
      const before = stat(pid);
      const start = performance.now();
      const res = await fetch(`${server.url}/topics/${TOPIC}/groups?limit=1000`);
      const body = (await res.json()) as { groups: unknown[] };
      times.push(Math.round(performance.now() - start));
      cpu.push(Number((stat(pid) - before).toFixed(2)));
      readers = body.groups.length;
    }
    peak = hwm(pid);
  } finally {
    server.child.kill('SIGTERM');
  }
  if (readers !== READERS || java.groups !== READERS)
    throw new Error(`consumers of ${TOPIC}: ${readers}, Java ${java.groups}, expected ${READERS}`);
  console.log(
    JSON.stringify({
      groups: size + READERS,
      readers,
      javaMs: java.ms,
      productMs: times,
      productServerCpuS: cpu,
      productPeakRssMb: peak,
      ratioOfMedians: Number((median(times) / median(java.ms)).toFixed(2)),
      loadavg: [loadBefore, load()],
    }),
  );
} finally {
  await admin.close();
  await broker?.stop();
}
