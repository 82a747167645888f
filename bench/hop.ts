/**
 * The HTTP hop at one caller, as a ladder from Node's own HTTP server up to a describe:
 *
 *   1. a bare `node:http` server answering a fixed JSON,
 *   2. a bare Hono app with one route on @hono/node-server,
 *   3. the built server's `GET /healthz` (every middleware, no Kafka),
 *   4. the built server's `GET /groups/{id}` of one classic group (one broker round trip).
 *
 *   KAFKA_BROKERS=host:port npx tsx bench/hop.ts [<other>/server.mjs …] [--seconds=5] [--rounds=3]
 *
 * One autocannon connection, pipelining 1, `seconds` per case (its latencies are whole
 * milliseconds, so the time per request is read from the rate); the cases alternate within each
 * round, so every case sees the same machine. Each server runs in its own process; its CPU per
 * request comes from /proc/<pid>/stat (user + system, 10 ms ticks) around each case, which moves
 * less with the load than the rate. With other builds (e.g. a copy of dist/node from before a
 * change) their rungs 3 and 4 run beside this build's. Starts its own broker without
 * KAFKA_BROKERS. Linux only (/proc). Prints the load average beside every figure.
 */

import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildNode } from '../scripts/build.js';
import { type ServerProcess, startServerProcess } from '../test/support/server-process.js';
import { oneClassicGroup } from './one-group.js';
import { stopAll } from './stop-all.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const seconds = flag('seconds', 5);
const rounds = flag('rounds', 3);
const others = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => resolve(a));

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** The process's CPU time so far (ms): user + system ticks, at 100 a second. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const BODY = JSON.stringify({ status: 'ok' });
const BARE_NODE = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': ${Buffer.byteLength(BODY)} });
  res.end(${JSON.stringify(BODY)});
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.once('SIGINT', () => server.close(() => process.exit(0)));
`;
const BARE_HONO = `
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok' }));
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  console.log('listening on http://127.0.0.1:' + info.port));
process.once('SIGINT', () => server.close(() => process.exit(0)));
`;

interface Case {
  name: string;
  server: ServerProcess;
  path: string;
}
interface Sample {
  rate: number;
  cpuUs: number;
}

async function measure({ server, path }: Case): Promise<Sample> {
  const pid = server.child.pid as number;
  const before = cpuMs(pid);
  const result = await autocannon({ url: `${server.url}${path}`, connections: 1, duration: seconds });
  const cpu = cpuMs(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${path}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  const total = result.requests.average * seconds;
  return { rate: result.requests.average, cpuUs: (cpu * 1000) / total };
}

async function main(): Promise<void> {
  console.log(`load average ${load()}`);
  await buildNode();
  const { bootstrap, groupId, fixtures, broker } = await oneClassicGroup('hop');
  const env = {
    KAFKA_BROKERS: bootstrap,
    AUTH: 'none',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_OPEN_PER_MINUTE: '0',
  };
  const servers: { name: string; server: ServerProcess }[] = [];
  const start = async (name: string, args: string[]) => {
    const server = await startServerProcess(args, { env, cwd: ROOT });
    servers.push({ name, server });
    return server;
  };
  try {
    const cases: Case[] = [
      {
        name: 'bare node:http',
        server: await start('node', ['--input-type=module', '-e', BARE_NODE]),
        path: '/',
      },
      {
        name: 'bare Hono',
        server: await start('hono', ['--input-type=module', '-e', BARE_HONO]),
        path: '/healthz',
      },
    ];
    const describe = `/groups/${encodeURIComponent(groupId)}`;
    for (const [label, build] of [
      ['this build', join(ROOT, 'dist/node/server.mjs')],
      ...others.map((o) => [o, o]),
    ] as const) {
      const server = await start(label, [build]);
      cases.push({ name: `${label} /healthz`, server, path: '/healthz' });
      cases.push({ name: `${label} describe`, server, path: describe });
    }
    for (const c of cases) await autocannon({ url: `${c.server.url}${c.path}`, connections: 1, amount: 500 });
    const samples = cases.map(() => [] as Sample[]);
    for (let r = 1; r <= rounds; r++) {
      for (const [k, c] of cases.entries()) {
        const s = await measure(c);
        samples[k]?.push(s);
        console.log(
          `round ${r} ${c.name}: ${s.rate.toFixed(0)}/s, CPU ${s.cpuUs.toFixed(0)} µs/request; load average ${load()}`,
        );
      }
    }
    console.log(`\nmedians of ${rounds} rounds of ${seconds} s, 1 connection:`);
    const base = median(samples[0]?.map((s) => 1e6 / s.rate) ?? []);
    for (const [k, c] of cases.entries()) {
      const rate = median(samples[k]?.map((s) => s.rate) ?? []);
      const cpu = median(samples[k]?.map((s) => s.cpuUs) ?? []);
      console.log(
        `${c.name.padEnd(40)} ${rate.toFixed(0).padStart(6)}/s  ${(1e6 / rate).toFixed(0).padStart(5)} µs/request (+${(1e6 / rate - base).toFixed(0)} over bare node)  server CPU ${cpu.toFixed(0)} µs/request`,
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
