/**
 * Rates and forecasts of /groups/{groupId}/health against the real broker: Kafka's own producer
 * appends at a known pace while two classic consumers read at their own (one faster than the
 * producer, one slower), on a topic with a short retention.ms. Two answers, the second with the
 * first's snapshot as since=, give rates near the set paces and forecasts consistent with them; an
 * idle group (records an hour old, committed to the end) gives catchUpSeconds null for `idle`.
 */

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { securityFrom } from '../../src/http/security.js';
import type { GroupHealth } from '../../src/openapi/health-schemas.js';
import { tokenSigner } from '../../src/tokens/signed.js';
import { createService, type Service } from '../../src/wiring.js';
import { commitOffsets } from '../broker-harness/commit-offset.js';
import { uniqueName } from '../broker-harness/fixtures.js';
import { produceAt } from '../broker-harness/produce-at.js';
import { type RunningRig, startRateRig } from '../broker-harness/rate-rig.js';
import { sleep } from '../broker-harness/wait.js';
import { OpenApiChecker } from '../support/openapi.js';

const bootstrap = inject('kafkaBrokers');
const run = uniqueName('fc');
const topic = `${run}-live`;
const idleTopic = `${run}-idle`;
const fast = `${run}-fast`;
const slow = `${run}-slow`;
const idle = `${run}-idle`;
const skewed = `${run}-skewed`;
const bytesTopic = `${run}-bytes`;
const bytesGroup = `${run}-bytes`;
const RETENTION_BYTES = 500;
const PRODUCE = 8;
const RETENTION_MS = 600_000;

let service: Service;
let app: ReturnType<typeof createApp>;
let rig: RunningRig | undefined;
let bytesRig: RunningRig | undefined;
let checker: OpenApiChecker;

async function health(groupId: string, since?: string): Promise<GroupHealth> {
  const query = since ? `?since=${since}` : '';
  const res = await app.request(`/groups/${encodeURIComponent(groupId)}/health${query}`);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await checker.check('get', '/groups/{groupId}/health', res)) as GroupHealth;
}

beforeAll(async () => {
  const config = loadConfig({ KAFKA_BROKERS: bootstrap, AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' });
  service = createService(config);
  app = createApp({
    service: service.groups,
    security: securityFrom(config),
    tokens: tokenSigner(config.tokenKeys),
  });
  checker = await OpenApiChecker.load(async (path) => app.request(path));
  const old = Date.now() - 3_600_000;
  await produceAt({ bootstrap, topic: idleTopic, partitions: 2, batches: [{ timestamp: old, count: 5 }] });
  await commitOffsets({
    bootstrap,
    groupId: idle,
    offsets: [
      { topic: idleTopic, partition: 0, offset: 5 },
      { topic: idleTopic, partition: 1, offset: 5 },
    ],
  });
  await commitOffsets({
    bootstrap,
    groupId: skewed,
    offsets: [
      { topic: idleTopic, partition: 0, offset: 5 },
      { topic: idleTopic, partition: 1, offset: 1 },
    ],
  });
  // 100 small records (a few bytes each, batched) on a partition that keeps 500 bytes: a group at
  // offset 0 is further behind than the log holds.
  bytesRig = await startRateRig({
    bootstrap,
    topic: bytesTopic,
    partitions: 1,
    retentionBytes: RETENTION_BYTES,
    backlog: 100,
    produce: 0,
    consumers: [],
  });
  await commitOffsets({
    bootstrap,
    groupId: bytesGroup,
    offsets: [{ topic: bytesTopic, partition: 0, offset: 0 }],
  });
  rig = await startRateRig({
    bootstrap,
    topic,
    partitions: 2,
    retentionMs: RETENTION_MS,
    backlog: 150,
    produce: PRODUCE,
    consumers: [
      { groupId: fast, perSecond: 40, protocol: 'classic' },
      { groupId: slow, perSecond: 3, protocol: 'classic' },
    ],
  });
}, 180_000);

afterAll(async () => {
  await rig?.stop();
  await bytesRig?.stop();
  await service?.close();
});

describe('health forecasts (real broker, Kafka clients at known rates)', () => {
  it('without since: the production rate over the window, and no consumption rate yet', async () => {
    const h = await health(slow);
    expect(h.forecast.rateSource).toBe('window');
    expect(h.forecast.windowSeconds).toBe(300);
    // Every record on the topic was written within the window: the rate is their count over it.
    const records = h.partitions.reduce((sum, p) => sum + (p.endOffset ?? 0), 0);
    expect(h.forecast.productionRate).toBeCloseTo(records / 300, 1);
    expect(h.forecast.consumptionRate).toBeNull();
    expect(h.forecast.catchUpSeconds).toBeNull();
    expect(h.forecast.catchUpReason).toBe('no-rate-yet');
    expect(h.forecast.retention.retentionMs).toBe(RETENTION_MS);
    expect(h.forecast.skew.maxLag).toBe(Math.max(...h.partitions.map((p) => p.lag ?? 0)));
  });

  it('with since: rates from the two readings, and catchUpSeconds from them for the faster consumer', async () => {
    const first = await health(fast);
    expect(first.snapshot).toEqual(expect.any(String));
    // Clock wait: the rates are measured over the interval between the two readings.
    await sleep(5_000);
    const second = await health(fast, first.snapshot as string);
    const f = second.forecast;
    expect(f.rateSource).toBe('since');
    // The producer keeps its pace or falls behind it on a loaded machine, never ahead.
    expect(f.productionRate).toBeGreaterThan(0);
    expect(f.productionRate).toBeLessThan(PRODUCE * 1.5);
    // The records appended between the two answers, over the interval the token measured.
    const ends = (h: GroupHealth) => h.partitions.reduce((sum, p) => sum + (p.endOffset ?? 0), 0);
    const intervalMs = second.since?.intervalMs as number;
    expect(f.windowSeconds).toBe(Math.round(intervalMs / 1000));
    expect(f.productionRate).toBeCloseTo(((ends(second) - ends(first)) * 1000) / intervalMs, 2);
    expect(f.consumptionRate).toBeGreaterThan(f.productionRate as number);
    expect(second.totals.lag).toBeGreaterThan(0);
    expect(f.catchUpReason).toBeNull();
    const net = (f.consumptionRate as number) - (f.productionRate as number);
    expect(f.catchUpSeconds).toBeCloseTo(second.totals.lag / net, 2);
    expect(f.skew.top[0]?.lag).toBe(f.skew.maxLag);
  });

  it('with since: a consumer slower than the producer is not catching up, with a retention runway', async () => {
    const first = await health(slow);
    // Clock wait: the rates are measured over the interval between the two readings.
    await sleep(5_000);
    const second = await health(slow, first.snapshot as string);
    const f = second.forecast;
    expect(f.consumptionRate).toBeGreaterThan(0);
    expect(f.consumptionRate).toBeLessThan(f.productionRate as number);
    expect(f.catchUpSeconds).toBeNull();
    expect(f.catchUpReason).toBe('not-catching-up');
    expect(f.retention.limit).toBe('retention.ms');
    expect(f.retention.runwaySeconds).toBeGreaterThan(0);
    // The record at the committed offset is minutes young: at most retention.ms / (1 - c/p) away.
    const p = second.partitions.find(
      (x) => x.topic === f.retention.topic && x.partition === f.retention.partition,
    );
    expect(p?.runwaySeconds).toBe(f.retention.runwaySeconds);
    expect(p?.timeLagMs).not.toBeNull();
    if (p?.consumptionRate != null && p.productionRate != null && p.productionRate > 0 && p.timeLagMs) {
      const drift = 1 - Math.max(0, p.consumptionRate) / p.productionRate;
      expect(p.runwaySeconds).toBeCloseTo((RETENTION_MS - p.timeLagMs.max) / 1000 / drift, 0);
    }
  });

  it('an idle group (nothing to consume, nothing produced in the window): catchUpSeconds null for idle', async () => {
    const h = await health(idle);
    expect(h.verdict).toBe('IDLE');
    expect(h.forecast.productionRate).toBe(0);
    expect(h.forecast.catchUpSeconds).toBeNull();
    expect(h.forecast.catchUpReason).toBe('idle');
    expect(h.forecast.retention.runwaySeconds).toBeNull();
    expect(h.forecast.retention.runwayReason).toBe('no-lag');
    const again = await health(idle, h.snapshot as string);
    expect(again.forecast.catchUpReason).toBe('idle');
  });

  it('skew names the partition holding the lag, in the JSON answer and in /metrics', async () => {
    const h = await health(skewed);
    expect(h.forecast.skew).toEqual({
      maxLag: 4,
      medianLag: 2,
      top: [{ topic: idleTopic, partition: 1, lag: 4, share: 1 }],
    });
    const text = await (await app.request(`/metrics?allow=${encodeURIComponent(skewed)}`)).text();
    const labels = `{group="${skewed}",type="classic"}`;
    expect(text).toContain(`kafka_group_partition_lag_max_records${labels} 4\n`);
    expect(text).toContain(`kafka_group_partition_lag_median_records${labels} 2\n`);
  });

  it('retention.bytes: lag beyond what the log keeps gives a runway of 0, before any DATA_LOSS', async () => {
    const h = await health(bytesGroup);
    expect(h.partitions[0]?.lag).toBe(100);
    expect(h.verdict).not.toBe('DATA_LOSS');
    expect(h.forecast.retention).toMatchObject({
      runwaySeconds: 0,
      runwayReason: null,
      limit: 'retention.bytes',
      topic: bytesTopic,
      partition: 0,
      retentionBytes: RETENTION_BYTES,
    });
  });
});
