/**
 * Describe latency, measured side by side in one run against a real broker on loopback:
 *   warm   — the coordinator and the group's type are known: one RPC per describe;
 *   typed  — ?type= given, coordinator known: one RPC;
 *   cold   — a fresh admin each time: ApiVersions, FindCoordinator, four describes at once.
 * And listing: GET /groups?limit=1000 over the broker's groups.
 *
 *   npx tsx bench/describe.ts [iterations]      (KAFKA_BROKERS=… to use a running broker)
 *
 * Not part of `npm test`: figures on a shared machine are only meaningful as ratios of one run.
 */

import { performance } from 'node:perf_hooks';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { securityFrom } from '../src/http/security.js';
import { createService } from '../src/wiring.js';
import { startBroker } from '../test/broker-harness/broker.js';
import { startFixtures, uniqueName } from '../test/broker-harness/fixtures.js';
import { stopAll } from './stop-all.js';

const iterations = Number(process.argv[2] ?? 300);

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
  const total = samples.reduce((a, b) => a + b, 0);
  return { opsPerSec: (samples.length / total) * 1000, p50: at(0.5), p99: at(0.99) };
}

async function time(n: number, run: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return samples;
}

async function main() {
  const broker = process.env.KAFKA_BROKERS ? undefined : await startBroker();
  const bootstrap = process.env.KAFKA_BROKERS ?? (broker?.bootstrap as string);
  const run = uniqueName('bench');
  const fixtures = await startFixtures({
    bootstrap,
    topics: [{ name: `${run}-t`, partitions: 3, records: 10 }],
    groups: [
      { type: 'classic', groupId: `${run}-classic`, topics: [`${run}-t`] },
      { type: 'consumer', groupId: `${run}-consumer`, topics: [`${run}-t`] },
      { type: 'share', groupId: `${run}-share`, topics: [`${run}-t`] },
      ...Array.from({ length: 1000 }, (_, i) => ({
        type: 'empty' as const,
        groupId: `${run}-e${i}`,
        topics: [`${run}-t`],
      })),
    ],
    readyTimeoutMs: 300_000,
  });
  // In-process and unthrottled: the benchmark measures describes, not the rate limit.
  const config = loadConfig({ KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
  const newApp = () => {
    const service = createService(config);
    return { app: createApp({ service: service.groups, security: securityFrom(config) }), service };
  };
  const { app, service } = newApp();
  const expectOk = async (path: string, a = app) => {
    const res = await a.request(path);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };
  try {
    const rows: Record<string, ReturnType<typeof stats>> = {};
    for (const type of ['classic', 'consumer', 'share']) {
      const path = `/groups/${run}-${type}`;
      await expectOk(path);
      rows[`warm ${type}`] = stats(await time(iterations, () => expectOk(path)));
      rows[`typed ${type}`] = stats(await time(iterations, () => expectOk(`${path}?type=${type}`)));
      rows[`cold ${type}`] = stats(
        await time(Math.max(20, iterations / 10), async () => {
          const fresh = newApp();
          await expectOk(path, fresh.app);
          await fresh.service.close();
        }),
      );
    }
    rows['list 1000'] = stats(
      await time(Math.max(20, iterations / 10), () => expectOk(`/groups?prefix=${run}&limit=1000`)),
    );
    rows['list 100 +details'] = stats(
      await time(Math.max(20, iterations / 10), () =>
        expectOk(`/groups?prefix=${run}&limit=100&include=details`),
      ),
    );
    rows['list 100 +lag'] = stats(
      await time(Math.max(20, iterations / 10), () =>
        expectOk(`/groups?prefix=${run}&limit=100&include=lag`),
      ),
    );
    const base = rows['warm classic']?.opsPerSec ?? 1;
    console.log(
      `describe and list against Kafka on ${bootstrap}, ${iterations} iterations (cold/list: fewer)`,
    );
    console.log('case                     ops/s     p50 ms   p99 ms   vs warm classic');
    for (const [name, s] of Object.entries(rows)) {
      console.log(
        `${name.padEnd(22)} ${s.opsPerSec.toFixed(0).padStart(7)} ${s.p50.toFixed(2).padStart(9)} ${s.p99.toFixed(2).padStart(8)}   ${(s.opsPerSec / base).toFixed(2)}x`,
      );
    }
  } finally {
    await service.close();
    await stopAll([], fixtures, broker);
  }
}

void main();
