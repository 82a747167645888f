/**
 * The Worker listing every group in one streamed ndjson request, in the local Workers runtime
 * (workerd through Miniflare), against a broker that holds the groups already:
 *
 *   npx tsx bench/broker.ts 100000            # in another shell; prints BENCH_KAFKA_BROKERS=…
 *   BENCH_KAFKA_BROKERS=127.0.0.1:PORT npx tsx bench/worker-listing.ts [runs]
 *
 * Prints, per run, the groups streamed, the time to the last line and the peak resident memory of
 * the workerd process (the isolate, the runtime and everything else workerd holds: an upper bound
 * of what the isolate used; workerd run locally does not enforce the 128 MB limit itself).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Miniflare } from 'miniflare';
import { buildWorker } from '../scripts/build.js';

const brokers = process.env.BENCH_KAFKA_BROKERS ?? process.env.KAFKA_BROKERS;
if (!brokers) throw new Error('set BENCH_KAFKA_BROKERS to a broker that holds the groups (bench/broker.ts)');
const runs = Number(process.argv[2] ?? 3);

/** workerd processes started under this one: their pids. */
function workerdPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '';
      const parent = Number(/^PPid:\s+(\d+)$/m.exec(status)?.[1] ?? 0);
      if (name.startsWith('workerd') && parent === process.pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
process.env.WRANGLER_SEND_METRICS = 'false';
const outdir = await mkdtemp(join(tmpdir(), 'kgr-worker-bench-'));
const mf = await (async () => {
  await buildWorker(outdir);
  const scriptPath = join(outdir, 'index.js');
  const instance = new Miniflare({
    modules: true,
    scriptPath,
    modulesRoot: dirname(scriptPath),
    compatibilityDate: '2026-04-01',
    compatibilityFlags: ['nodejs_compat'],
    bindings: { KAFKA_BROKERS: brokers, LOG_LEVEL: 'warn', AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' },
  });
  await instance.ready;
  return instance;
})();
try {
  const [pid] = workerdPids();
  if (pid === undefined) throw new Error('no workerd process found');
  console.log(
    `workerd pid ${pid}, resident before the first listing: ${memoryMb(pid, 'VmRSS').toFixed(0)} MB`,
  );
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const res = await mf.dispatchFetch('http://localhost/groups', {
      headers: { accept: 'application/x-ndjson' },
    });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${(await res.text()).slice(0, 500)}`);
    let lines = 0;
    let bytes = 0;
    let last = '';
    let end = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      const text = last + decoder.decode(chunk, { stream: true });
      const parts = text.split('\n');
      last = parts.pop() ?? '';
      lines += parts.length;
      for (const line of parts) if (line.startsWith('{"end"')) end = line;
    }
    const ms = performance.now() - start;
    console.log(
      `run ${i + 1}: ${lines} lines (${end}), ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms; workerd peak RSS ${memoryMb(pid, 'VmHWM').toFixed(0)} MB, now ${memoryMb(pid, 'VmRSS').toFixed(0)} MB`,
    );
  }
} finally {
  await mf.dispose();
  await rm(outdir, { recursive: true, force: true });
}
