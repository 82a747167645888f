/**
 * One request to a fresh built server, with what it cost the server: wall time, the server's CPU
 * time (utime + stime from /proc/<pid>/stat, so a shared machine's other work is not counted) and
 * its peak RSS (VmHWM) after the request, beside the load average. Linux only.
 *
 *   KAFKA_BROKERS=127.0.0.1:PORT npx tsx bench/scrape-once.ts '/metrics?maxSeries=1000000' \
 *     [dist/node/server.mjs] [out.txt] [-- node options, e.g. --cpu-prof --cpu-prof-dir=prof]
 *
 * With `out.txt`, the answer is written there (to compare two builds' answers).
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServerProcess } from '../test/support/server-process.js';

const split = process.argv.indexOf('--');
const args = split === -1 ? process.argv.slice(2) : process.argv.slice(2, split);
const nodeOptions = split === -1 ? [] : process.argv.slice(split + 1);
const [path = '/metrics?maxSeries=1000000', bundle = 'dist/node/server.mjs', out] = args;
const brokers = process.env.KAFKA_BROKERS;
if (!brokers) throw new Error('KAFKA_BROKERS=host:port of a broker holding the groups');

/** CPU seconds the process has used (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function peakRssMb(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 1024);
}

const server = await startServerProcess([...nodeOptions, resolve(bundle)], {
  env: {
    KAFKA_BROKERS: brokers,
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    STREAM_TIMEOUT_MS: '600000',
  },
});
const pid = server.child.pid as number;
try {
  const cpuBefore = cpuSeconds(pid);
  const rssBefore = peakRssMb(pid);
  const load = loadavg();
  const start = performance.now();
  const res = await fetch(`${server.url}${path}`);
  const text = await res.text();
  const ms = performance.now() - start;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const after = loadavg();
  if (out) writeFileSync(out, text);
  console.log(
    JSON.stringify({
      path,
      bundle,
      status: res.status,
      bytes: text.length,
      lines: text.split('\n').length - 1,
      wallMs: Math.round(ms),
      serverCpuS: Number(cpu.toFixed(2)),
      peakRssMbBefore: rssBefore,
      peakRssMb: peakRssMb(pid),
      loadavg: [load[0] ?? 0, after[0] ?? 0].map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  // SIGINT: the server's own shutdown, so --cpu-prof writes its profile.
  server.child.kill('SIGINT');
  await new Promise((done) => server.child.once('exit', done));
}
