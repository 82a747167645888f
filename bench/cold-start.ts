/**
 * Cold start of the Lambda bundle: a new Node process per run imports dist/lambda/index.mjs and
 * answers `GET /groups/{id}` (an API Gateway v2 event) for a real group on a loopback broker.
 *
 *   npx tsx bench/cold-start.ts [runs=9] [other/index.mjs] [--rtt=ms]   # KAFKA_BROKERS=host:port to use a running broker
 *
 * With another bundle (an earlier build), runs alternate between the two and both medians print,
 * with their ratio: on a busy machine only the side-by-side figures compare.
 *
 * Per run, as the child measures it from its time origin (the process's start): `boot`, Node's
 * own start until the first line of the child runs (`node -e 0` costs as much); `import`, loading
 * the bundle; `answer`, the first invocation (client and app built, connect, ApiVersions,
 * FindCoordinator, describe); `sinceStart`, all three. `wall` is spawn to answer as this process
 * sees it (adds process creation); `cpu`, the child's CPU time (user + system, boot included),
 * which a busy machine inflates far less than the clock. Prints each run and the medians.
 *
 * `--rtt=2` puts a network between the function and the broker: every connection the child opens
 * to the broker crosses a loopback relay that delays each direction by half of it and holds a new
 * connection's first bytes one more round trip for its handshake (bench/delay-relay.ts). Without
 * it the broker is on loopback, a network no Lambda has; `--rtt=0` crosses the relay undelayed.
 */

import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildLambda } from '../scripts/build.js';
import { type DelayRelay, REDIRECT_PRELOAD, startDelayRelay } from './delay-relay.js';
import { oneClassicGroup } from './one-group.js';
import { stopAll } from './stop-all.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const runs = Number(positional[0] ?? 9);
const other = positional[1] ? resolve(positional[1]) : undefined;
const rttFlag = flags.find((f) => f.startsWith('--rtt='));
/** The round trip between the function and the broker, in ms; undefined: straight to loopback. */
const rttMs = rttFlag === undefined ? undefined : Number(rttFlag.slice('--rtt='.length));
if (rttMs !== undefined && !(rttMs >= 0)) throw new Error(`--rtt wants milliseconds, got ${rttFlag}`);

/** The child: everything timed from its own origin; prints one JSON line and exits. */
const CHILD = `
const ms = (c) => (c.user + c.system) / 1000;
const t0 = performance.now();
const cpu0 = ms(process.cpuUsage());
const { handler } = await import(process.env.BUNDLE_URL);
const imported = performance.now();
const cpu1 = ms(process.cpuUsage());
const path = '/groups/' + encodeURIComponent(process.env.GROUP_ID);
const res = await handler({
  version: '2.0', routeKey: '$default', rawPath: path, rawQueryString: '', headers: { host: 'bench.lambda-url.eu-west-1.on.aws' },
  requestContext: { domainName: 'bench.lambda-url.eu-west-1.on.aws', http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.1', userAgent: 'bench' } },
  body: null, isBase64Encoded: false,
});
const done = performance.now();
const cpu = ms(process.cpuUsage());
console.log(JSON.stringify({ status: res.statusCode, start: t0, import: imported - t0, sinceStart: done, cpu, cpuBoot: cpu0, cpuImport: cpu1 - cpu0, cpuAnswer: cpu - cpu1 }));
process.exit(0);
`;

interface Run {
  status: number;
  start: number;
  import: number;
  sinceStart: number;
  /** CPU time of the child, boot included (user + system): what another process's load inflates least. */
  cpu: number;
  /** The same CPU time by phase: to the child's first line, the import, the first answer. */
  cpuBoot: number;
  cpuImport: number;
  cpuAnswer: number;
  wall: number;
}

function once(env: NodeJS.ProcessEnv): Promise<Run> {
  const spawned = performance.now();
  return new Promise((resolvePromise, reject) => {
    const preload = env.REDIRECT_TO ? ['--import', REDIRECT_PRELOAD] : [];
    execFile(
      process.execPath,
      [...preload, '--input-type=module', '-e', CHILD],
      { env },
      (error, stdout, stderr) => {
        const wall = performance.now() - spawned;
        if (error) return reject(new Error(`${error.message}\n${stderr}`));
        const line = stdout.trim().split('\n').pop() ?? '';
        resolvePromise({ ...(JSON.parse(line) as Omit<Run, 'wall'>), wall });
      },
    );
  });
}

function format(r: Run): string {
  const answer = r.sinceStart - r.start - r.import;
  return (
    `sinceStart ${r.sinceStart.toFixed(1)} ms = boot ${r.start.toFixed(1)} + import ${r.import.toFixed(1)} + ` +
    `answer ${answer.toFixed(1)}; wall ${r.wall.toFixed(1)} ms; ` +
    `cpu ${r.cpu.toFixed(1)} ms = ${r.cpuBoot.toFixed(1)} + ${r.cpuImport.toFixed(1)} + ${r.cpuAnswer.toFixed(1)}`
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

async function main(): Promise<void> {
  const bundle = await buildLambda();
  console.log(
    `bundle: ${bundle.file}, ${(bundle.bytes / 1024).toFixed(1)} KiB; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const { bootstrap, groupId, fixtures, broker } = await oneClassicGroup('bench');
  const relay: DelayRelay | undefined =
    rttMs === undefined ? undefined : await startDelayRelay(bootstrap.split(',')[0] as string, rttMs);
  try {
    const env = {
      ...process.env,
      KAFKA_BROKERS: bootstrap,
      AUTH: 'none',
      LOG_LEVEL: 'warn',
      GROUP_ID: groupId,
      BUNDLE_URL: pathToFileURL(join(ROOT, bundle.file)).href,
      ...(relay ? { REDIRECT_FROM: bootstrap.split(',')[0], REDIRECT_TO: relay.address } : {}),
    };
    console.log(
      rttMs === undefined
        ? 'network: none (the broker on loopback)'
        : `network: ${rttMs} ms round trip to the broker (relay ${relay?.address})`,
    );
    const bundles = [{ name: 'this build', url: env.BUNDLE_URL }];
    if (other) bundles.push({ name: other, url: pathToFileURL(other).href });
    for (const b of bundles) await once({ ...env, BUNDLE_URL: b.url }); // warms the OS file cache, as a provisioned Lambda image would be
    const results: Run[][] = bundles.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [k, b] of bundles.entries()) {
        const r = await once({ ...env, BUNDLE_URL: b.url });
        if (r.status !== 200) throw new Error(`${b.name} run ${i + 1}: status ${r.status}`);
        results[k]?.push(r);
        console.log(`${b.name} run ${String(i + 1).padStart(2)}: ${format(r)}`);
      }
    }
    // Each figure is the median of its own per-run values: answer and import + answer are medians
    // of each run's, not differences of other medians (which a few slow runs pull apart).
    const medians = results.map((rs) => {
      const m = (of: (r: Run) => number) => median(rs.map(of));
      return {
        boot: m((r) => r.start),
        import: m((r) => r.import),
        answer: m((r) => r.sinceStart - r.start - r.import),
        cold: m((r) => r.sinceStart - r.start),
        sinceStart: m((r) => r.sinceStart),
        cpu: m((r) => r.cpu),
        cpuBoot: m((r) => r.cpuBoot),
        cpuImport: m((r) => r.cpuImport),
        cpuAnswer: m((r) => r.cpuAnswer),
        wall: m((r) => r.wall),
      };
    });
    const f = (ms: number) => `${ms.toFixed(1)} ms`;
    for (const [k, b] of bundles.entries()) {
      const r = medians[k] as (typeof medians)[number];
      console.log(
        `${b.name}, medians of ${runs}: boot ${f(r.boot)}, import ${f(r.import)}, answer ${f(r.answer)}, ` +
          `import + answer ${f(r.cold)}, sinceStart ${f(r.sinceStart)}; wall ${f(r.wall)}; cpu ${f(r.cpu)} ` +
          `(boot ${f(r.cpuBoot)}, import ${f(r.cpuImport)}, answer ${f(r.cpuAnswer)})`,
      );
    }
    const [mine, theirs] = medians;
    if (mine && theirs) {
      const ratio = (a: number, b: number) => (a / b).toFixed(2);
      console.log(
        `this build / ${other}: import ${ratio(mine.import, theirs.import)}×, answer ${ratio(mine.answer, theirs.answer)}×, import + answer ${ratio(mine.cold, theirs.cold)}×, sinceStart ${ratio(mine.sinceStart, theirs.sinceStart)}×, cpu ${ratio(mine.cpu, theirs.cpu)}× (import ${ratio(mine.cpuImport, theirs.cpuImport)}×, answer ${ratio(mine.cpuAnswer, theirs.cpuAnswer)}×)`,
      );
    }
    if (relay)
      console.log(`relay: ${relay.connections()} connections from ${(runs + 1) * bundles.length} processes`);
    console.log(
      `load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await relay?.close();
    await stopAll([], fixtures, broker);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
