/**
 * One caller describing one group, end to end through the built Node server, two builds side by
 * side in one run: rounds alternate between them, so both see the same machine load.
 *
 *   npx tsx bench/one-caller.ts <other>/server.mjs [rounds=5] [requests=400] [--cpu-prof]
 *
 * Starts its own broker on free ports (or uses KAFKA_BROKERS), makes one classic group with
 * Kafka's Java clients, starts both servers (AUTH=none, RATE_LIMIT_PER_MINUTE=0), and per round
 * sends `requests` sequential `GET /groups/{id}` to each (after a warm-up). Prints each round, the
 * medians of the rounds' rates and p50s, their ratio, and the load average; `--cpu-prof` writes
 * a CPU profile of this build's server to <tmpdir>/kgr-profiles/ (Node's --cpu-prof, read in
 * Chrome's DevTools). On a shared machine only the ratio compares.
 */

import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildNode } from '../scripts/build.js';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.js';
import { oneClassicGroup } from './one-group.js';
import { stopAll } from './stop-all.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const cpuProf = process.argv.includes('--cpu-prof');
if (!args[0]) throw new Error('usage: npx tsx bench/one-caller.ts <other>/server.mjs [rounds] [requests]');
const other = resolve(args[0]);
const rounds = Number(args[1] ?? 5);
const requests = Number(args[2] ?? 400);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function oneCaller(url: string, n: number): Promise<{ rate: number; p50: number }> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    samples.push(performance.now() - t);
  }
  return { rate: (n / (performance.now() - started)) * 1000, p50: median(samples) };
}

async function main(): Promise<void> {
  console.log(`load average ${load()}`);
  await buildNode();
  const { bootstrap, groupId, fixtures, broker } = await oneClassicGroup('one');
  const env = { KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' };
  const servers: { name: string; server: ServerProcess }[] = [];
  try {
    const mine = join(ROOT, 'dist/node/server.mjs');
    const profiles = join(tmpdir(), 'kgr-profiles');
    servers.push({
      name: 'this build',
      server: await startServerProcess(
        [...(cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : []), mine],
        {
          env,
        },
      ),
    });
    servers.push({ name: other, server: await startServerProcess([other], { env }) });
    const path = `/groups/${encodeURIComponent(groupId)}`;
    for (const { server } of servers) await oneCaller(`${server.url}${path}`, 100); // warm-up
    const results = servers.map(() => ({ rates: [] as number[], p50s: [] as number[] }));
    for (let round = 1; round <= rounds; round++) {
      for (const [k, { name, server }] of servers.entries()) {
        const r = await oneCaller(`${server.url}${path}`, requests);
        results[k]?.rates.push(r.rate);
        results[k]?.p50s.push(r.p50);
        console.log(
          `round ${round} ${name}: ${r.rate.toFixed(0)}/s, p50 ${r.p50.toFixed(3)} ms; load average ${load()}`,
        );
      }
    }
    const [a, b] = results.map((r) => ({ rate: median(r.rates), p50: median(r.p50s) }));
    if (a && b) {
      console.log(`this build, median of ${rounds}: ${a.rate.toFixed(0)}/s, p50 ${a.p50.toFixed(3)} ms`);
      console.log(`${other}, median of ${rounds}: ${b.rate.toFixed(0)}/s, p50 ${b.p50.toFixed(3)} ms`);
      console.log(
        `this build / ${other}: rate ${(a.rate / b.rate).toFixed(2)}×, p50 ${(a.p50 / b.p50).toFixed(2)}×`,
      );
    }
    console.log(`load average ${load()}`);
  } finally {
    await stopAll(servers, fixtures, broker);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
