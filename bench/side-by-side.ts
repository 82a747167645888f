/**
 * Describes through two (or more) built Node servers side by side, rounds alternating between
 * them, with each server's CPU per request (from /proc/<pid>/stat, user + system, before and after
 * each round): on a shared machine the CPU a request costs moves less with the load than its rate.
 *
 *   npx tsx bench/side-by-side.ts <a>/server.mjs <b>/server.mjs [--callers=1] [--requests=1000]
 *     [--rounds=3] [--path=/groups/<id>]… [--random=10000] [--random-typed=10000]
 *
 * Starts its own broker (or uses KAFKA_BROKERS; the groups are made only if missing: a run on a
 * reused broker skips their set-up) with one group of each type (`side-classic`, `side-consumer`,
 * `side-share`, `side-streams`, made by Kafka's Java clients) and, with --random, that many Empty
 * classic groups `side-r-0000000`…; then per path, per round, `requests` GETs from `callers`
 * keep-alive callers. Without --path: the four groups by id. --random=N: random groups of N, no
 * type named (a group's first describe finds its type); --random-typed=N: the same with
 * ?type=classic. AUTH=none, no rate limit (the open paths' either: --path=/healthz works). Linux only (/proc).
 */

import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type GroupSpec, type RunningFixtures, startFixtures } from '../test/broker-harness/fixtures.js';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.js';
import { getStatus } from './get-status.js';
import { benchBroker } from './one-group.js';
import { stopAll } from './stop-all.js';

const flags = new Map<string, string[]>();
const builds: string[] = [];
for (const arg of process.argv.slice(2)) {
  const flag = /^--([\w-]+)=(.*)$/.exec(arg);
  if (flag) flags.set(flag[1] as string, [...(flags.get(flag[1] as string) ?? []), flag[2] as string]);
  else builds.push(resolve(arg));
}
const one = (name: string, fallback: number) => Number(flags.get(name)?.[0] ?? fallback);
const callers = one('callers', 1);
const requests = one('requests', 1000);
const rounds = one('rounds', 3);
const random = one('random', 0);
const randomTyped = one('random-typed', 0);
if (builds.length < 2)
  throw new Error('usage: npx tsx bench/side-by-side.ts <a>/server.mjs <b>/server.mjs …');

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const randomId = (i: number) => `side-r-${String(i).padStart(7, '0')}`;

/** The process's CPU time so far (ms): user + system ticks, at 100 a second. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Round {
  rate: number;
  p50: number;
  p99: number;
  cpuUs: number;
}

async function round(server: ServerProcess, n: number, path: () => string): Promise<Round> {
  const agent = new Agent({ keepAlive: true, maxSockets: callers });
  const samples: number[] = [];
  let next = 0;
  const pid = server.child.pid as number;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < n) {
        next++;
        const t = performance.now();
        const target = path();
        const status = await getStatus(`${server.url}${target}`, agent);
        if (status !== 200) throw new Error(`${target}: ${status}`);
        samples.push(performance.now() - t);
      }
    }),
  );
  const ms = performance.now() - started;
  const cpu = cpuMs(pid) - cpuBefore;
  agent.destroy();
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number;
  return { rate: (n / ms) * 1000, p50: at(0.5), p99: at(0.99), cpuUs: (cpu / n) * 1000 };
}

async function main(): Promise<void> {
  console.log(`load average ${load()}`);
  const { bootstrap, broker } = await benchBroker();
  const types = ['classic', 'consumer', 'share', 'streams'] as const;
  const groups: GroupSpec[] = types.map((type) => ({ type, groupId: `side-${type}`, topics: ['side-t'] }));
  for (let i = 0; i < Math.max(random, randomTyped); i++)
    groups.push({ type: 'empty', groupId: randomId(i), topics: ['side-t'] });
  const fixtures: RunningFixtures = await startFixtures({
    bootstrap,
    topics: [{ name: 'side-t', partitions: 3, records: 10 }],
    groups,
    readyTimeoutMs: 900_000,
  });
  const paths: { name: string; path: () => string }[] = (
    flags.get('path') ?? types.map((t) => `/groups/side-${t}`)
  ).map((p) => ({ name: p, path: () => p }));
  const pick = (n: number) => randomId(Math.floor(Math.random() * n));
  if (random > 0) paths.push({ name: `random of ${random}`, path: () => `/groups/${pick(random)}` });
  if (randomTyped > 0)
    paths.push({
      name: `random of ${randomTyped}, ?type=classic`,
      path: () => `/groups/${pick(randomTyped)}?type=classic`,
    });
  const env = {
    KAFKA_BROKERS: bootstrap,
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_OPEN_PER_MINUTE: '0',
  };
  const servers: { build: string; server: ServerProcess }[] = [];
  try {
    for (const build of builds) servers.push({ build, server: await startServerProcess([build], { env }) });
    for (const { name, path } of paths) {
      for (const { server } of servers) await round(server, Math.min(requests, 200), path); // warm-up
      const results = servers.map(() => [] as Round[]);
      for (let r = 0; r < rounds; r++)
        for (const [k, { server }] of servers.entries())
          results[k]?.push(await round(server, requests, path));
      for (const [k, { build }] of servers.entries()) {
        const rs = results[k] as Round[];
        const m = (key: keyof Round) => median(rs.map((x) => x[key]));
        console.log(
          `${name}, ${callers} caller(s), ${build}: ${m('rate').toFixed(0)}/s, p50 ${m('p50').toFixed(2)} ms, ` +
            `p99 ${m('p99').toFixed(2)} ms, server CPU ${m('cpuUs').toFixed(0)} µs/request (medians of ${rounds}); load average ${load()}`,
        );
      }
    }
  } finally {
    await stopAll(servers, fixtures, broker);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
