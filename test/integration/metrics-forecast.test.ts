/**
 * /metrics at every granularity and with forecasts against the real broker: Kafka's own producer
 * appends at a known pace while a classic consumer reads slower (lag grows), beside a group that has
 * read everything produced within the window and a group further behind than retention.bytes keeps.
 * Every answer passes `promtool check metrics` (Debian's Prometheus tools) and names each family
 * once, its samples together; the forecast series agree with /groups/{groupId}/health.
 */

import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GroupHealth } from '../../src/openapi/health-schemas.js';
import { commitOffsets } from '../broker-harness/commit-offset.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { produceAt } from '../broker-harness/produce-at.js';
import { type RunningRig, startRateRig } from '../broker-harness/rate-rig.js';
import { brokerApps } from '../support/broker-apps.js';
import { prometheusTool } from '../support/prometheus-tools.js';

const bootstrap = inject('kafkaBrokers');
const promtool = prometheusTool('promtool');
const run = uniqueName('mfc');
const live = `${run}-live`;
const slow = `${run}-slow`;
const caughtUp = `${run}-caught-up`;
const bytesGroup = `${run}-bytes`;
const RETENTION_MS = 600_000;
const RECENT = 30;

let rig: RunningRig | undefined;
let bytesRig: RunningRig | undefined;

const made = brokerApps();
const appWith = (names = 'native') => made.app({ AUTH: 'none', METRICS_NAMES: names });

const app = appWith();

async function scrape(query: string, on = app): Promise<string> {
  const res = await on.request(`/metrics?allow=${encodeURIComponent(`${run}-.*`)}${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return res.text();
}

/** Each sample line of `name` as [labels, value]. */
function samples(text: string, name: string): [string, number][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .map((l) => {
      const at = l.lastIndexOf(' ');
      return [l.slice(name.length, at), Number(l.slice(at + 1))];
    });
}

const one = (text: string, name: string, group: string) =>
  samples(text, name).find(([labels]) => labels === `{group="${group}",type="classic"}`)?.[1];

function promtoolCheck(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(promtool as string, ['check', 'metrics'], (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
    child.stdin?.end(text);
  });
}

/** Every family once, its HELP and TYPE before its samples, its samples together. */
function expectContiguous(text: string): string[] {
  const lines = text.trimEnd().split('\n');
  const names: string[] = [];
  let current = '';
  for (const line of lines) {
    if (line.startsWith('# TYPE ')) {
      current = line.split(' ')[2] as string;
      names.push(current);
    } else if (!line.startsWith('#')) {
      const name = line.slice(0, line.search(/[{ ]/));
      expect(name, line).toBe(current);
    }
  }
  expect(new Set(names).size).toBe(names.length);
  return names;
}

beforeAll(async () => {
  // Records written now on both partitions, read to the end: nothing to consume, records in the window.
  await produceAt({
    bootstrap,
    topic: caughtUp,
    partitions: 2,
    batches: [{ timestamp: Date.now(), count: RECENT }],
  });
  await commitOffsets({
    bootstrap,
    groupId: caughtUp,
    offsets: [
      { topic: caughtUp, partition: 0, offset: RECENT },
      { topic: caughtUp, partition: 1, offset: RECENT },
    ],
  });
  bytesRig = await startRateRig({
    bootstrap,
    topic: bytesGroup,
    partitions: 1,
    retentionBytes: 500,
    backlog: 100,
    produce: 0,
    consumers: [],
  });
  await commitOffsets({
    bootstrap,
    groupId: bytesGroup,
    offsets: [{ topic: bytesGroup, partition: 0, offset: 0 }],
  });
  rig = await startRateRig({
    bootstrap,
    topic: live,
    partitions: 2,
    retentionMs: RETENTION_MS,
    backlog: 150,
    produce: 8,
    consumers: [{ groupId: slow, perSecond: 3, protocol: 'classic' }],
  });
}, 180_000);

afterAll(async () => {
  await rig?.stop();
  await bytesRig?.stop();
  await made.close();
});

describe('/metrics forecasts (real broker, Kafka clients at known rates)', () => {
  it('forecast=true: production rate and runway of a lagging group as its health says, catch-up where it can be said', async () => {
    const text = await scrape('&forecast=true');
    const health = (await (await app.request(`/groups/${slow}/health`)).json()) as GroupHealth;
    const rate = one(text, 'kafka_group_production_rate_records_per_second', slow) as number;
    expect(rate).toBeGreaterThan(0);
    // The same window over the same partitions, a moment apart: 8 records a second more at most.
    expect(Math.abs(rate - (health.forecast.productionRate as number))).toBeLessThan(0.3);
    expect(one(text, 'kafka_group_lag_records', slow)).toBeGreaterThan(0);
    // No consumption rate from one reading: no catch-up series for a group with lag.
    expect(one(text, 'kafka_group_catch_up_seconds', slow)).toBeUndefined();
    expect(health.forecast.catchUpReason).toBe('no-rate-yet');
    const runway = one(text, 'kafka_group_retention_runway_seconds', slow) as number;
    expect(runway).toBeGreaterThan(0);
    expect(runway).toBeLessThanOrEqual(RETENTION_MS / 1000);
    // Nothing left to read while records were produced within the window: caught up, 0 s.
    expect(one(text, 'kafka_group_lag_records', caughtUp)).toBe(0);
    expect(one(text, 'kafka_group_production_rate_records_per_second', caughtUp)).toBeCloseTo(
      (2 * RECENT) / 300,
      2,
    );
    expect(one(text, 'kafka_group_catch_up_seconds', caughtUp)).toBe(0);
    expect(one(text, 'kafka_group_retention_runway_seconds', caughtUp)).toBeUndefined();
    // Further behind than retention.bytes keeps (bytes per record from the time lag's read): 0 s left.
    expect(one(text, 'kafka_group_retention_runway_seconds', bytesGroup)).toBe(0);
  });

  it('forecast=true at partition granularity: a series per partition, summing to the group', async () => {
    const text = await scrape('&forecast=true&granularity=partition');
    const rates = samples(text, 'kafka_group_production_rate_records_per_second').filter(([l]) =>
      l.startsWith(`{group="${caughtUp}",`),
    );
    expect(rates.map(([l]) => l).sort()).toEqual([
      `{group="${caughtUp}",type="classic",topic="${caughtUp}",partition="0"}`,
      `{group="${caughtUp}",type="classic",topic="${caughtUp}",partition="1"}`,
    ]);
    expect(rates.reduce((s, [, v]) => s + v, 0)).toBeCloseTo((2 * RECENT) / 300, 2);
    const runways = samples(text, 'kafka_group_retention_runway_seconds').filter(([l]) =>
      l.startsWith(`{group="${slow}",`),
    );
    expect(runways.length).toBeGreaterThan(0);
    for (const [, v] of runways) expect(v).toBeGreaterThan(0);
  });

  it('without forecast=true, no forecast series; a forecast that is not true or false is a 400', async () => {
    const text = await scrape('');
    expect(text).not.toContain('kafka_group_production_rate_records_per_second');
    expect(one(text, 'kafka_group_lag_records', slow)).toBeGreaterThan(0);
    const res = await app.request('/metrics?forecast=yes');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { name: string }[] }).errors[0]?.name).toBe('forecast');
  });

  it.skipIf(!promtool)(
    'promtool check metrics accepts every granularity and naming, each family once and together',
    async () => {
      const answers: [string, string][] = [];
      for (const granularity of ['group', 'topic', 'partition'])
        for (const forecast of ['', '&forecast=true'])
          answers.push([`${granularity}${forecast}`, await scrape(`&granularity=${granularity}${forecast}`)]);
      answers.push(['kafka-lag-exporter', await scrape('', appWith('kafka-lag-exporter'))]);
      answers.push(['kafka-exporter', await scrape('', appWith('kafka-exporter'))]);
      // kafka_exporter's own names end in _sum on gauges; they are kept so its dashboards work, and
      // that is the only thing the linter may say (exit 3: lint problems; a parse error is exit 1).
      const kept = [
        'kafka_consumergroup_current_offset_sum non-histogram and non-summary metrics should not have "_sum" suffix',
        'kafka_consumergroup_lag_sum non-histogram and non-summary metrics should not have "_sum" suffix',
      ];
      for (const [what, text] of answers) {
        const checked = await promtoolCheck(text);
        if (what === 'kafka-exporter')
          expect(checked, what).toEqual({ code: 3, output: `${kept.join('\n')}\n` });
        else expect(checked, what).toEqual({ code: 0, output: '' });
        const names = expectContiguous(text);
        expect(names.length, what).toBeGreaterThan(4);
      }
      expect(expectContiguous(answers[5]?.[1] as string)).toContain('kafka_group_retention_runway_seconds');
    },
  );
});
