/**
 * Group health against the real broker, with groups, records and offset changes made by Kafka's own
 * Java clients: time lag bounds that grow with the wall clock, each verdict from the state that
 * should produce it (STOPPED, DATA_LOSS after Admin.deleteRecords, STALLED across two snapshots of
 * a live consumer that does not move, REWOUND after Admin.alterConsumerGroupOffsets), snapshot
 * tokens refused from another deployment key, and /metrics parsed by a Prometheus text parser
 * with the same values as the JSON answers.
 */

import { createHash } from 'node:crypto';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { GroupOffsets } from '../../src/groups/model.js';
import type { GroupHealth } from '../../src/openapi/health-schemas.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import {
  javaAdminAlterOffsets,
  javaAdminDeleteRecords,
  javaAdminOffsets,
  javaProduce,
} from '../broker-harness/java-admin.js';
import { type BrokerApps, brokerApps } from '../support/broker-apps.js';
import { OpenApiChecker } from '../support/openapi.js';

const bootstrap = inject('kafkaBrokers');
const run = uniqueName('hl');
const topics = {
  live: `${run}-live`,
  stopped: `${run}-stopped`,
  loss: `${run}-loss`,
  rewind: `${run}-rewind`,
  single: `${run}-single`,
  idle: `${run}-idle`,
};
/** Each group is named after the one topic it reads. */
const ids = topics;
const RECORDS = 10;
const KEY_A = `${'a'.repeat(20)}-deployment-key-one`;
const KEY_B = `${'b'.repeat(20)}-deployment-key-two`;

const apps = brokerApps();
let fixtures: RunningFixtures;
let app: ReturnType<BrokerApps['app']>;
let other: ReturnType<BrokerApps['app']>;
let checker: OpenApiChecker;
/** Wall-clock bounds of when the fixture's records were written. */
let producedFrom = 0;
let producedTo = 0;
let singleFrom = 0;
let singleTo = 0;

/** An app signing with `keys`, open unless `env` says otherwise. */
const appWith = (keys: string[], env: Record<string, string> = { AUTH: 'none' }) =>
  apps.app({ TOKEN_SIGNING_KEYS: keys.join(','), ...env });

async function get<T>(path: string, template: string, target = app): Promise<{ status: number; body: T }> {
  const res = await target.request(path);
  const status = res.status;
  return { status, body: (await checker.check('get', template, res)) as T };
}

const healthPath = (id: string, query = '') => `/groups/${encodeURIComponent(id)}/health${query}`;
async function health(id: string, query = '', target = app): Promise<GroupHealth> {
  const { status, body } = await get<GroupHealth>(healthPath(id, query), '/groups/{groupId}/health', target);
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  app = appWith([KEY_A]);
  other = appWith([KEY_B]);
  checker = await OpenApiChecker.load(async (path) => app.request(path));
  producedFrom = Date.now();
  fixtures = await startFixtures({
    bootstrap,
    topics: [
      { name: topics.live, partitions: 1, records: RECORDS },
      { name: topics.stopped, partitions: 1, records: RECORDS },
      { name: topics.loss, partitions: 1, records: RECORDS },
      { name: topics.rewind, partitions: 1, records: RECORDS },
      { name: topics.single, partitions: 1, records: 0 },
      { name: topics.idle, partitions: 1, records: RECORDS },
    ],
    groups: [
      // A live member that committed 4 once and never again: a consumer that does not move.
      { type: 'classic', groupId: ids.live, topics: [topics.live], commit: 4, clientId: `${run}-live` },
      { type: 'empty', groupId: ids.stopped, topics: [topics.stopped], commit: 3 },
      { type: 'empty', groupId: ids.loss, topics: [topics.loss], commit: 2 },
      { type: 'empty', groupId: ids.rewind, topics: [topics.rewind], commit: 8 },
      { type: 'empty', groupId: ids.single, topics: [topics.single], commit: 0 },
      { type: 'empty', groupId: ids.idle, topics: [topics.idle], commit: RECORDS },
    ],
  });
  producedTo = Date.now();
  singleFrom = Date.now();
  await javaProduce(bootstrap, topics.single, 0, 3);
  singleTo = Date.now();
}, 240_000);

afterAll(async () => {
  await fixtures?.stop();
  await apps.close();
});

describe('time lag', () => {
  it('of a stopped consumer lies within the bounds of when its records were written, and grows with the wall clock', async () => {
    const before = Date.now();
    const first = await health(ids.stopped);
    const after = Date.now();
    const p = first.partitions[0];
    expect(p?.lag).toBe(RECORDS - 3);
    const bounds = p?.timeLagMs;
    expect(bounds).toBeTruthy();
    if (!bounds) return;
    // The record at offset 3 was written between producedFrom and producedTo.
    expect(bounds.min).toBeLessThanOrEqual(bounds.max);
    expect(bounds.min).toBeGreaterThanOrEqual(before - producedTo - 5);
    expect(bounds.max).toBeLessThanOrEqual(after - producedFrom + 5);

    // Clock wait: the time lag must grow by the wall-clock time between the readings.
    await sleep(3_000);
    const second = await health(ids.stopped);
    const later = second.partitions[0]?.timeLagMs;
    expect(later).toBeTruthy();
    const elapsed = Date.parse(second.checkedAt) - Date.parse(first.checkedAt);
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    // The same batch both times: both bounds move by the time between the readings.
    expect(later?.min).toBe(bounds.min + elapsed);
    expect(later?.max).toBe(bounds.max + elapsed);
  }, 60_000);

  it('is exact when the batch at the committed offset holds one record', async () => {
    const before = Date.now();
    const h = await health(ids.single);
    const after = Date.now();
    const p = h.partitions[0];
    expect(p?.lag).toBe(3);
    expect(p?.timeLagMs?.min).toBe(p?.timeLagMs?.max);
    expect(p?.timeLagMs?.min).toBeGreaterThanOrEqual(before - singleTo - 5);
    expect(p?.timeLagMs?.max).toBeLessThanOrEqual(after - singleFrom + 5);
  });

  it('is 0 with nothing behind, and the head age tells an idle producer (IDLE past idleAfterSeconds)', async () => {
    const ok = await health(ids.idle);
    expect(ok.partitions[0]?.lag).toBe(0);
    expect(ok.partitions[0]?.timeLagMs).toEqual({ min: 0, max: 0 });
    const head = ok.partitions[0]?.headAgeMs ?? -1;
    expect(head).toBeGreaterThanOrEqual(Date.parse(ok.checkedAt) - producedTo - 5);
    expect(head).toBeLessThanOrEqual(Date.parse(ok.checkedAt) - producedFrom + 5);
    expect(ok.verdict).toBe('OK');
    const idle = await health(ids.idle, '?idleAfterSeconds=0');
    expect(idle.verdict).toBe('IDLE');
  });

  it('is in /offsets?include=timeLag and, as the group maximum, in /groups?include=timeLag', async () => {
    const { body: offsets } = await get<GroupOffsets>(
      `/groups/${encodeURIComponent(ids.stopped)}/offsets?include=timeLag`,
      '/groups/{groupId}/offsets',
    );
    const row = offsets.topics[0]?.partitions[0];
    expect(row?.logStartOffset).toBe(0);
    expect(row?.timeLagReason).toBeNull();
    expect(offsets.totals.maxTimeLagMs).toEqual(row?.timeLagMs);
    const { body: page } = await get<{ groups: { groupId: string; lag?: GroupOffsets['totals'] }[] }>(
      `/groups?prefix=${encodeURIComponent(ids.stopped)}&include=timeLag`,
      '/groups',
    );
    const listed = page.groups.find((g) => g.groupId === ids.stopped)?.lag;
    expect(listed?.lag).toBe(offsets.totals.lag);
    const fromOffsets = offsets.totals.maxTimeLagMs?.min ?? 0;
    // Read moments apart: the same batch, later.
    expect(listed?.maxTimeLagMs?.min).toBeGreaterThanOrEqual(fromOffsets);
    expect(listed?.maxTimeLagMs?.min).toBeLessThan(fromOffsets + 5_000);
    // Without include=timeLag nothing of it is sent.
    const { body: plain } = await get<GroupOffsets>(
      `/groups/${encodeURIComponent(ids.stopped)}/offsets`,
      '/groups/{groupId}/offsets',
    );
    expect(plain.totals.maxTimeLagMs).toBeUndefined();
  });
});

describe('verdicts', () => {
  it('a group with no members and lag is STOPPED', async () => {
    const h = await health(ids.stopped);
    expect(h.members).toBe(0);
    expect(h.partitions[0]?.verdict).toBe('STOPPED');
    expect(h.verdict).toBe('STOPPED');
  });

  it('a live group above maxLag is LAGGING, and OK under a higher threshold', async () => {
    const lagging = await health(ids.live, '?maxLag=1');
    expect(lagging.members).toBe(1);
    expect(lagging.verdict).toBe('LAGGING');
    const ok = await health(ids.live, '?maxLag=100&maxTimeLagSeconds=3600');
    expect(ok.verdict).toBe('OK');
    const byTime = await health(ids.live, '?maxLag=100&maxTimeLagSeconds=0');
    expect(byTime.verdict).toBe('LAGGING');
  });

  it('a committed offset below the log start (Admin.deleteRecords) is DATA_LOSS', async () => {
    await javaAdminDeleteRecords(bootstrap, topics.loss, 0, 6);
    const h = await health(ids.loss);
    const p = h.partitions[0];
    expect(p?.offset).toBe(2);
    expect(p?.logStartOffset).toBe(6);
    expect(p?.timeLagMs).toBeNull();
    expect(p?.timeLagReason).toBe('below-log-start');
    expect(h.verdict).toBe('DATA_LOSS');
    // Kafka's own client reads the same commit.
    const java = await javaAdminOffsets({ bootstrap, groupId: ids.loss });
    expect(java.committed.get(`${topics.loss}:0`)?.offset).toBe(2);
  }, 90_000);

  it('two snapshots around a live consumer that does not move give STALLED, with the production rate', async () => {
    const first = await health(ids.live);
    expect(first.snapshot).toBeTruthy();
    const produced = await javaProduce(bootstrap, topics.live, 0, 4);
    expect(produced).toHaveLength(4);
    const second = await health(ids.live, `?since=${encodeURIComponent(first.snapshot ?? '')}`);
    const p = second.partitions[0];
    expect(p?.previousOffset).toBe(4);
    expect(p?.offset).toBe(4);
    expect(p?.verdict).toBe('STALLED');
    expect(second.verdict).toBe('STALLED');
    expect(second.since?.partitionsCompared).toBe(1);
    expect(second.since?.consumptionRate).toBe(0);
    const interval = second.since?.intervalMs ?? 0;
    expect(interval).toBeGreaterThan(0);
    expect(second.since?.productionRate).toBeCloseTo((4 * 1000) / interval, 2);
  }, 90_000);

  it('an offset reset backwards (Admin.alterConsumerGroupOffsets) gives REWOUND', async () => {
    const first = await health(ids.rewind);
    expect(first.partitions[0]?.offset).toBe(8);
    await javaAdminAlterOffsets(bootstrap, ids.rewind, topics.rewind, 0, 3);
    const java = await javaAdminOffsets({ bootstrap, groupId: ids.rewind });
    expect(java.committed.get(`${topics.rewind}:0`)?.offset).toBe(3);
    const second = await health(ids.rewind, `?since=${encodeURIComponent(first.snapshot ?? '')}`);
    expect(second.partitions[0]?.previousOffset).toBe(8);
    expect(second.partitions[0]?.offset).toBe(3);
    expect(second.verdict).toBe('REWOUND');
    expect(second.since?.consumptionRate).toBeLessThan(0);
    // Without the snapshot the same group is only STOPPED: rewinding needs history.
    expect((await health(ids.rewind)).verdict).toBe('STOPPED');
  }, 90_000);
});

describe('snapshot tokens', () => {
  it('are refused from another deployment key, altered, or for another group: 400 naming since', async () => {
    const mine = await health(ids.stopped);
    const token = mine.snapshot ?? '';
    const foreign = await get<{ errors: { name: string; message: string }[]; detail: string }>(
      healthPath(ids.stopped, `?since=${encodeURIComponent(token)}`),
      '/groups/{groupId}/health',
      other,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0]?.name).toBe('since');
    expect(foreign.body.detail).toContain('another deployment');
    expect(JSON.stringify(foreign.body)).not.toContain(token);

    const [body = '', mac = ''] = token.split('.');
    const altered = `${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}${body.slice(-1)}.${mac}`;
    const tampered = await get<{ errors: { name: string }[] }>(
      healthPath(ids.stopped, `?since=${encodeURIComponent(altered)}`),
      '/groups/{groupId}/health',
    );
    expect(tampered.status).toBe(400);
    expect(tampered.body.errors[0]?.name).toBe('since');

    const elsewhere = await get<{ detail: string }>(
      healthPath(ids.idle, `?since=${encodeURIComponent(token)}`),
      '/groups/{groupId}/health',
    );
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.detail).toContain('another group');

    // The deployment that issued it takes it back.
    expect((await health(ids.stopped, `?since=${encodeURIComponent(token)}`)).since).not.toBeNull();
  });
});

describe('/metrics', () => {
  let lastText = '';
  const metricsOf = async (query: string) => {
    const res = await app.request(`/metrics${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    lastText = text;
    return parsePrometheusTextFormat(text);
  };
  const sample = (
    families: ReturnType<typeof parsePrometheusTextFormat>,
    name: string,
    labels: Record<string, string>,
  ) => {
    const family = families.find((f) => f.name === name);
    const found = family?.metrics.filter((m) =>
      Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
    );
    return found;
  };

  it('parses as Prometheus text and agrees with the JSON answers, per group and per partition', async () => {
    const allow = encodeURIComponent(`${run}-.*`);
    const before = await Promise.all(Object.values(ids).map((id) => health(id)));
    const families = await metricsOf(`?allow=${allow}`);
    for (const h of before) {
      const labels = { group: h.groupId, type: h.type };
      expect(sample(families, 'kafka_group_lag_records', labels)?.map((m) => Number(m.value))).toEqual([
        h.totals.lag,
      ]);
      expect(sample(families, 'kafka_group_members', labels)?.map((m) => Number(m.value))).toEqual([
        h.members,
      ]);
      expect(sample(families, 'kafka_group_verdict', labels)?.map((m) => m.labels?.verdict)).toEqual([
        h.verdict,
      ]);
      expect(sample(families, 'kafka_group_state', labels)?.map((m) => m.labels?.state)).toEqual([h.state]);
      const min = sample(families, 'kafka_group_time_lag_min_seconds', labels)?.map((m) => Number(m.value));
      if (h.totals.maxTimeLagMs) {
        // Read moments apart: the same records, a little later.
        expect(min, `${h.groupId}\n${lastText}`).toHaveLength(1);
        expect(min?.[0]).toBeGreaterThanOrEqual(h.totals.maxTimeLagMs.min / 1000);
        expect(min?.[0]).toBeLessThan(h.totals.maxTimeLagMs.min / 1000 + 10);
      } else {
        expect(min).toEqual([]);
      }
    }
    const other = sample(families, 'kafka_group_members', {}) ?? [];
    expect(other.every((m) => m.labels?.group?.startsWith(`${run}-`))).toBe(true);
    expect(sample(families, 'kafka_group_series_limit_reached', {})?.[0]?.value).toBe('0');

    const perPartition = await metricsOf(`?allow=${allow}&granularity=partition`);
    const stopped = sample(perPartition, 'kafka_group_lag_records', {
      group: ids.stopped,
      topic: topics.stopped,
      partition: '0',
    });
    expect(stopped?.map((m) => Number(m.value))).toEqual([RECORDS - 3]);
  }, 60_000);

  it('denies by regex, caps the series and says so, and refuses a bad regex with a 400', async () => {
    const allow = encodeURIComponent(`${run}-.*`);
    const denied = await metricsOf(`?allow=${allow}&deny=${encodeURIComponent('.*-(live|idle)')}`);
    const groups = new Set(sample(denied, 'kafka_group_members', {})?.map((m) => m.labels?.group));
    expect(groups.has(ids.stopped)).toBe(true);
    expect(groups.has(ids.live)).toBe(false);
    expect(groups.has(ids.idle)).toBe(false);

    const capped = await metricsOf(`?allow=${allow}&maxSeries=6`);
    expect(sample(capped, 'kafka_group_series_limit_reached', {})?.[0]?.value).toBe('1');
    expect(Number(sample(capped, 'kafka_group_series_dropped', {})?.[0]?.value)).toBeGreaterThan(0);
    // Each group has 6 series at group granularity when its time lag is known: one group fits.
    expect(
      new Set(sample(capped, 'kafka_group_members', {})?.map((m) => m.labels?.group)).size,
    ).toBeLessThanOrEqual(1);

    const bad = await app.request('/metrics?allow=%28unclosed');
    expect(bad.status).toBe(400);
    const problem = (await checker.check('get', '/metrics', bad)) as { errors: { name: string }[] };
    expect(problem.errors[0]?.name).toBe('allow');
  }, 60_000);
});

describe('access control', () => {
  const TEAM_KEY = 'team-key-0123456789abcdef0123456789';
  const READER_KEY = 'reader-key-0123456789abcdef01234567';
  const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');
  const as = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  let guarded: ReturnType<BrokerApps['app']>;

  beforeAll(() => {
    guarded = appWith([KEY_A], {
      AUTH_API_KEYS: `team:${hashOf(TEAM_KEY)},reader:${hashOf(READER_KEY)}`,
      AUTH_GRANTS: JSON.stringify({
        team: { groups: [ids.stopped, `${run}-l*`], actions: ['offsets'] },
        reader: { groups: '*', actions: ['read'] },
      }),
    });
  });

  it('/metrics lists only the groups whose offsets the caller may read; a read-only caller gets 403', async () => {
    const res = await guarded.request(`/metrics?allow=${encodeURIComponent(`${run}-.*`)}`, as(TEAM_KEY));
    expect(res.status).toBe(200);
    const families = parsePrometheusTextFormat(await res.text());
    const groups = families
      .find((f) => f.name === 'kafka_group_members')
      ?.metrics.map((m) => m.labels?.group)
      .sort();
    expect(groups).toEqual([ids.live, ids.loss, ids.stopped].sort());
    const refused = await guarded.request('/metrics', as(READER_KEY));
    expect(refused.status).toBe(403);
    expect((await guarded.request('/metrics')).status).toBe(401);
  });

  it('/groups/{groupId}/health answers a group outside the grants like a missing one', async () => {
    const seen = await guarded.request(healthPath(ids.stopped), as(TEAM_KEY));
    expect(seen.status).toBe(200);
    const hidden = await guarded.request(healthPath(ids.idle), as(TEAM_KEY));
    const missing = await guarded.request(healthPath(`${run}-nobody`), as(TEAM_KEY));
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    const body = (r: unknown) =>
      JSON.stringify(r).replaceAll(ids.idle, '<id>').replaceAll(`${run}-nobody`, '<id>');
    expect(body(await hidden.json())).toBe(body(await missing.json()));
  });
});
