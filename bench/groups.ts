/**
 * `npm run bench`: this product's built Node server and Kafka's Java Admin client, side by side in
 * one run, on the same single broker, at growing numbers of groups.
 *
 *   npm run bench                         sizes 1,000, 10,000 and 100,000
 *   npm run bench -- 1000 10000           chosen sizes (ascending)
 *
 * It starts its own broker (or, with BENCH_KAFKA_BROKERS, uses one that bench/broker.ts holds, and
 * creates only the groups it lacks), creates the groups cheaply (one Admin offset commit each makes an
 * Empty classic group), builds dist/node/server.mjs, then for each size starts a fresh server and
 * measures both on the same work. HTTP load comes from autocannon. Prints a table per size and
 * appends them all, dated, to docs/benchmarks-log.md; docs/BENCHMARKS.md, the newest figure of each
 * measurement, is edited by hand from it, since its figures come from several benches. Not part of
 * `npm test`: on a shared machine the figures are only meaningful as ratios within one run.
 */

import { type ChildProcess, spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildNode } from '../scripts/build.js';
import { encodeCursor } from '../src/routes/paging.js';
import { startBroker } from '../test/broker-harness/broker.js';
import { javaCommand, resolveKafkaVersion } from '../test/broker-harness/fetch.js';
import { startServerProcess } from '../test/support/server-process.js';
import { type AdminBench, startAdminBench } from './admin-bench.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOG = 'docs/benchmarks-log.md';
const sizes = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(1_000, 10_000, 100_000);
if (sizes.some((n, i) => !Number.isInteger(n) || n < 1_000 || (i > 0 && n <= (sizes[i - 1] as number))))
  throw new Error('sizes: ascending integers of at least 1000');

const PREFIX = 'bench-';
const TOPIC = 'bench-offsets';
/** Groups that read READERS_TOPIC (and nothing else does): the consumers-of-a-topic rows. */
const READERS = 100;
const READERS_TOPIC = 'bench-readers';
const id = (i: number) => `${PREFIX}${String(i).padStart(7, '0')}`;
/** Seconds of load for each concurrent describe case. */
const LOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

interface Row {
  work: string;
  java: string;
  product: string;
  ratio: string;
}

/**
 * The highest 1-minute load average at which one-caller figures are published. Above it the
 * machine is busy with other work, which sets a lone request's latency more than this product does.
 * docs/BENCHMARKS.md ("Reading the rows") names it.
 */
const QUIET_LOAD = 2;
/** How long the one-caller rows wait for the load of the run's own earlier work to settle. */
const SETTLE_MS = 60_000;

const oneMinuteLoad = () => os.loadavg()[0] as number;

/** The 1-minute load average once it is at most QUIET_LOAD, or after SETTLE_MS, whichever first. */
async function settledLoad(): Promise<number> {
  const until = Date.now() + SETTLE_MS;
  while (oneMinuteLoad() > QUIET_LOAD && Date.now() < until) await new Promise((r) => setTimeout(r, 5_000));
  return oneMinuteLoad();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const ms = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
const fmtRate = (x: number) => `${Math.round(x).toLocaleString('en-US')}/s`;

async function timed(times: number, run: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** Peak resident set of a process (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function load(
  url: string,
  connections: number,
  path: () => string,
): Promise<{ rate: number; p50: number; p99: number }> {
  const result = await autocannon({
    url,
    connections,
    duration: LOAD_SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rate: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * The HTTP exchange alone, on the same server: `GET /healthz` from one caller asks no broker, so
 * its rate is what a one-caller describe would reach if the broker answered at once. What the
 * describe row takes beyond it is the broker round trip and the describe itself.
 */
async function httpHop(url: string, describeRate: number): Promise<Row> {
  const work = 'HTTP hop alone: GET /healthz, 1 caller (rate, p50 ms)';
  const loadBefore = await settledLoad();
  const hop = await load(url, 1, () => '/healthz');
  const loadDuring = Math.max(loadBefore, oneMinuteLoad());
  const product = `${fmtRate(hop.rate)}, ${ms(hop.p50)}`;
  console.log(`${work}: product ${product}; load average ${loadDuring.toFixed(2)}`);
  if (loadDuring > QUIET_LOAD) {
    console.log(`  not published: the load average (${loadDuring.toFixed(1)}) is above ${QUIET_LOAD}`);
    return { work, java: '–', product: '–', ratio: `not published: load average ${loadDuring.toFixed(1)}` };
  }
  return {
    work,
    java: '–',
    product,
    // Autocannon's latencies are whole milliseconds: the share is taken from the rates.
    ratio: `${((describeRate / hop.rate) * 100).toFixed(0)}% of a describe's time`,
  };
}

async function getOk(url: string, accept = 'application/json'): Promise<string> {
  const res = await fetch(url, { headers: { accept } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 500)}`);
  return text;
}

async function measure(size: number, admin: AdminBench, server: { url: string; child: ChildProcess }) {
  const rows: Row[] = [];
  const repeat = size >= 100_000 ? 3 : 5;
  const { url } = server;

  // Warm both sides once.
  await admin.command('list 1');
  await getOk(`${url}/groups`, 'application/x-ndjson');

  const javaList = await admin.command<{ count: number; ms: number[] }>(`list ${repeat}`);
  if (javaList.count !== size + READERS)
    throw new Error(`Java Admin lists ${javaList.count} groups, not ${size + READERS}`);
  let lines = 0;
  const ndjson = await timed(repeat, async () => {
    const text = await getOk(`${url}/groups`, 'application/x-ndjson');
    lines = text.split('\n').length - 2; // minus the end line and the final newline
  });
  if (lines !== size + READERS) throw new Error(`ndjson streamed ${lines} groups, not ${size + READERS}`);
  const javaListMs = median(javaList.ms);
  rows.push({
    work: `list all ${size.toLocaleString('en-US')} groups (median ms)`,
    java: `${ms(javaListMs)} (listGroups)`,
    product: `${ms(median(ndjson))} (one ndjson request)`,
    ratio: `${(median(ndjson) / javaListMs).toFixed(2)}×`,
  });

  const middle = encodeCursor(id(Math.floor(size / 2)));
  const page = await timed(repeat * 2, async () => {
    await getOk(`${url}/groups?limit=1000&cursor=${middle}`);
  });
  rows.push({
    work: 'one page of 1,000 from the middle (median ms)',
    java: '–',
    product: ms(median(page)),
    ratio: `${(median(page) / javaListMs).toFixed(2)}× Java's whole listing`,
  });

  let pages = 0;
  const [follow] = await timed(1, async () => {
    let cursor: string | null = null;
    do {
      const body = JSON.parse(
        await getOk(`${url}/groups?limit=1000${cursor ? `&cursor=${cursor}` : ''}`),
      ) as { nextCursor: string | null };
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
  });
  rows.push({
    work: `follow all ${pages} pages of 1,000 (ms)`,
    java: '–',
    product: ms(follow as number),
    ratio: `${((follow as number) / javaListMs).toFixed(2)}× Java's whole listing`,
  });

  const one = id(0);
  for (const callers of [1, 64]) {
    const work = `describe one group, ${callers} caller${callers > 1 ? 's' : ''} (rate, p50 ms)`;
    // One caller measures the latency of a request, which anything else running on the machine
    // sets: its figures are published from a quiet machine only.
    const loadBefore = callers === 1 ? await settledLoad() : oneMinuteLoad();
    const java = await admin.command<{ perSec: number; p50: number }>(
      `describe classic ${callers} ${LOAD_SECONDS} ${one} 0`,
    );
    const product = await load(url, callers, () => `/groups/${one}`);
    const loadDuring = Math.max(loadBefore, oneMinuteLoad());
    const row = {
      work,
      java: `${fmtRate(java.perSec)}, ${ms(java.p50)}`,
      product: `${fmtRate(product.rate)}, ${ms(product.p50)}`,
      ratio: `${(product.rate / java.perSec).toFixed(2)}×`,
    };
    console.log(
      `${work}: Java ${row.java}, product ${row.product}, ${row.ratio}; load average ${loadDuring.toFixed(2)}`,
    );
    if (callers === 1 && loadDuring > QUIET_LOAD) {
      console.log(`  not published: the load average (${loadDuring.toFixed(1)}) is above ${QUIET_LOAD}`);
      rows.push({
        work,
        java: '–',
        product: '–',
        ratio: `not published: load average ${loadDuring.toFixed(1)}`,
      });
    } else rows.push(row);
    if (callers === 1) rows.push(await httpHop(url, product.rate));
  }

  const pool = Math.min(size, 10_000);
  const java = await admin.command<{ perSec: number; p50: number }>(
    `describe classic 64 ${LOAD_SECONDS} ${PREFIX} ${pool}`,
  );
  // describeClassicGroups names the type; the product is measured without (a group's first describe
  // asks the classic type first, so one RPC here too) and with ?type=classic. A group's first touch
  // costs a coordinator lookup, which the server then remembers: each row draws from groups of its
  // own where there are enough, so that the second row does not find the first row's lookups made.
  const typedFrom = size >= 2 * pool ? pool : 0;
  for (const typed of [false, true]) {
    const from = typed ? typedFrom : 0;
    const random = await load(
      url,
      64,
      () => `/groups/${id(from + Math.floor(Math.random() * pool))}${typed ? '?type=classic' : ''}`,
    );
    rows.push({
      work: `describe random groups of ${pool.toLocaleString('en-US')}, 64 callers${typed ? ', type named' : ''} (rate, p50 ms)`,
      java: `${fmtRate(java.perSec)}, ${ms(java.p50)}`,
      product: `${fmtRate(random.rate)}, ${ms(random.p50)}`,
      ratio: `${(random.rate / java.perSec).toFixed(2)}×`,
    });
  }

  const lagFrom = Math.floor(size / 2);
  const javaLag = await admin.command<{ ms: number[] }>(
    `lag ${repeat} ${PREFIX} ${lagFrom} ${lagFrom + 100}`,
  );
  const lagCursor = encodeCursor(id(lagFrom - 1));
  const productLag = await timed(repeat, async () => {
    await getOk(`${url}/groups?limit=100&include=lag&cursor=${lagCursor}`);
  });
  rows.push({
    work: 'lag of a page of 100 groups (median ms)',
    java: `${ms(median(javaLag.ms))} (listConsumerGroupOffsets + listOffsets)`,
    product: ms(median(productLag)),
    ratio: `${(median(productLag) / median(javaLag.ms)).toFixed(2)}×`,
  });

  rows.push(...(await measureEstate(size, admin, server)));
  const rss = peakRssMb(server.child.pid as number);
  rows.push({ work: 'peak RSS of the server (MB)', java: '–', product: rss.toFixed(0), ratio: '' });
  return { rows, listMs: { java: javaListMs, product: median(ndjson) }, pageMs: median(page), rss };
}

/**
 * The estate rows: lag of every group in one request, a /metrics scrape over every group, and the
 * consumers of one topic that only READERS groups read; the server's peak RSS after each.
 */
async function measureEstate(
  size: number,
  admin: AdminBench,
  server: { url: string; child: ChildProcess },
): Promise<Row[]> {
  const { url } = server;
  const rows: Row[] = [];
  const rss = () => peakRssMb(server.child.pid as number).toFixed(0);
  const times = size >= 100_000 ? 1 : 3;
  const total = size + READERS;

  const javaLag = await admin.command<{ groups: number; ms: number[] }>(`estate ${times}`);
  let lines = 0;
  const lag = await timed(times, async () => {
    const text = await getOk(`${url}/groups.ndjson?include=lag`, 'application/x-ndjson');
    lines = text.split('\n').filter((l) => l.startsWith('{"groupId"')).length;
  });
  if (lines !== total || javaLag.groups !== total)
    throw new Error(`lag of every group: ${lines} lines, Java ${javaLag.groups}, expected ${total}`);
  rows.push({
    work: `lag of every group, one request (median ms; ndjson include=lag; peak RSS ${rss()} MB)`,
    java: `${ms(median(javaLag.ms))} (listGroups + listConsumerGroupOffsets + listOffsets)`,
    product: ms(median(lag)),
    ratio: `${(median(lag) / median(javaLag.ms)).toFixed(2)}×`,
  });

  let series = 0;
  const scrape = await timed(times, async () => {
    const text = await getOk(`${url}/metrics?maxSeries=1000000`, 'text/plain');
    series = text.split('\n').filter((l) => l.startsWith('kafka_group_lag_records{')).length;
  });
  if (series !== total) throw new Error(`/metrics: ${series} lag series, expected ${total}`);
  rows.push({
    work: `GET /metrics over every group (median ms; peak RSS ${rss()} MB)`,
    java: '–',
    product: ms(median(scrape)),
    ratio: '',
  });

  const javaTopic = await admin.command<{ groups: number; ms: number[] }>(`estate ${times} ${READERS_TOPIC}`);
  let readers = 0;
  const topic = await timed(times, async () => {
    const text = await getOk(`${url}/topics/${READERS_TOPIC}/groups?limit=1000`);
    readers = (JSON.parse(text) as { groups: unknown[] }).groups.length;
  });
  if (readers !== READERS || javaTopic.groups !== READERS)
    throw new Error(
      `consumers of ${READERS_TOPIC}: ${readers}, Java ${javaTopic.groups}, expected ${READERS}`,
    );
  rows.push({
    work: `consumers of one topic (${READERS} of ${total.toLocaleString('en-US')} groups, median ms; peak RSS ${rss()} MB)`,
    java: `${ms(median(javaTopic.ms))} (the same three calls, filtered)`,
    product: ms(median(topic)),
    ratio: `${(median(topic) / median(javaTopic.ms)).toFixed(2)}×`,
  });
  return rows;
}

function table(rows: Row[]): string {
  return [
    '| work | Java Admin client | this product | product ÷ Java |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.work} | ${r.java} | ${r.product} | ${r.ratio} |`),
  ].join('\n');
}

function machine(): string {
  const cpus = os.cpus();
  // java -version writes to standard error.
  const version = spawnSync(javaCommand(), ['-version'], { encoding: 'utf8' });
  const java = `${version.stderr ?? ''}${version.stdout ?? ''}` || 'Java: unknown';
  const javaLine = java.split('\n').find((l) => l.trim()) ?? java;
  return [
    `- ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB memory, ${os.type()} ${os.release()}`,
    `- load average at the start: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} (the machine is shared)`,
    `- Node ${process.version}; ${javaLine.trim()}`,
  ].join('\n');
}

async function main() {
  const started = new Date();
  const about = machine();
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; one-caller figures are published at a load average of ${QUIET_LOAD} or less`,
  );
  // The machine may be shared: what else ran shows in the load average, sampled through the run.
  const loads: number[] = [];
  const sampler = setInterval(() => loads.push(os.loadavg()[0] as number), 5_000);
  sampler.unref();
  console.log('building dist/node/server.mjs …');
  await buildNode();
  const reused = process.env.BENCH_KAFKA_BROKERS;
  const broker = reused
    ? { bootstrap: reused, version: resolveKafkaVersion(), stop: async () => undefined }
    : await startBroker({ readyTimeoutMs: 300_000 });
  const admin = await startAdminBench(broker.bootstrap);
  const sections: string[] = [];
  const summary: { size: number; java: number; product: number; page: number; rss: number }[] = [];
  try {
    // A reused broker holds the groups of an earlier run: bench-0000000 up, so only the rest are made.
    // Idempotent (an offset commit each): made once, counted out of the groups below.
    await admin.command(`create reader- 0 ${READERS} ${READERS_TOPIC}`);
    let made = reused ? (await admin.command<{ count: number }>('list 1')).count - READERS : 0;
    if (made > (sizes[0] as number))
      throw new Error(`the broker holds ${made} groups, more than the first size ${sizes[0]}`);
    for (const size of sizes) {
      if (size > made) {
        console.log(`creating groups ${made}..${size - 1} …`);
        const created = await admin.command<{ ms: number }>(`create ${PREFIX} ${made} ${size} ${TOPIC}`);
        console.log(`  ${size - made} groups in ${(created.ms / 1000).toFixed(1)} s`);
        made = size;
      }
      const server = await startServerProcess([join(ROOT, 'dist/node/server.mjs')], {
        // The open routes' own limit off too: the HTTP-hop row loads /healthz.
        env: {
          KAFKA_BROKERS: broker.bootstrap,
          AUTH: 'none',
          RATE_LIMIT_PER_MINUTE: '0',
          RATE_LIMIT_OPEN_PER_MINUTE: '0',
        },
      });
      try {
        const result = await measure(size, admin, server);
        const text = `### ${size.toLocaleString('en-US')} groups\n\n${table(result.rows)}\n`;
        console.log(`\n${text}`);
        sections.push(text);
        summary.push({ size, ...result.listMs, page: result.pageMs, rss: result.rss });
      } finally {
        server.child.kill('SIGTERM');
        await new Promise((resolve) => server.child.once('exit', resolve));
      }
    }
  } finally {
    await admin.close();
    await broker.stop();
  }

  clearInterval(sampler);
  const loadLine =
    loads.length > 0
      ? `- load average (1 min) during the run: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}, mean ${(loads.reduce((a, b) => a + b, 0) / loads.length).toFixed(1)}, on ${os.cpus().length} cores`
      : '';
  const first = summary[0];
  const growth = summary
    .map(
      (s) =>
        `| ${s.size.toLocaleString('en-US')} | ${ms(s.java)} | ${ms(s.product)} | ${ms(s.page)} | ${s.rss.toFixed(0)} |` +
        (first && s !== first
          ? ` ×${(s.size / first.size).toFixed(0)} groups: Java ×${(s.java / first.java).toFixed(1)}, ndjson ×${(s.product / first.product).toFixed(1)}, page ×${(s.page / first.page).toFixed(1)} |`
          : ' |'),
    )
    .join('\n');
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const at = `${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const run = `

## \`${command}\`, ${at}

Measured by \`${command}\` (bench/groups.ts), ${at}:
one Kafka ${broker.version} broker on loopback, the built server (\`node dist/node/server.mjs\`, a fresh
process per size) and Kafka's own Java Admin client (bench/AdminBench.java, one warm JVM) doing the
same work in the same run. Groups are Empty classic groups, each made by one Admin offset commit.
HTTP load: autocannon, ${LOAD_SECONDS} s per concurrent case; the Java side runs the same number of
threads on one Admin. Ratios are this product ÷ Java (rates: above 1 is faster; times: below 1 is faster).
Every product row includes an HTTP exchange the Java client does not make (it talks to the broker
directly); the _HTTP hop alone_ row (\`GET /healthz\`, one caller) measures that exchange by itself.

Machine:

${about}
${loadLine}

### How cost grows

| groups | Java listGroups (ms) | ndjson listing (ms) | one page of 1,000 (ms) | server peak RSS (MB) | growth from the first size |
|---|---|---|---|---|---|
${growth}

${sections.join('\n')}
What each row measures: [reading the rows](BENCHMARKS.md#reading-the-rows).
`;
  // The log is oldest first: a run goes at its end.
  appendFileSync(join(ROOT, LOG), run);
  // Laid out as the linter wants it (aligned tables), so the file can be committed as written.
  spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', LOG], { cwd: ROOT });
  console.log(`appended to ${LOG}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
