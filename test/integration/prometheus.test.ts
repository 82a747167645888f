/**
 * The operator's stack on a real Prometheus: it scrapes the server's /metrics (the Node server on a
 * loopback port, the real broker behind it) where Kafka's own clients made groups in four verdicts,
 * with the alert rules of ops/prometheus/alerts.yml loaded. Then every query of every panel of
 * ops/grafana/dashboard.json, template variables substituted, is evaluated over Prometheus's HTTP
 * API and must return the series the groups call for; and the alerts that fire at once have fired.
 */

import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { type RunningServer, startServer } from '../../src/runtime/node.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../broker-harness/fixtures.js';
import { javaAdminDeleteRecords } from '../broker-harness/java-admin.js';
import { waitFor } from '../broker-harness/wait.js';
import {
  type PromSeries,
  prometheusTool,
  type RunningPrometheus,
  startPrometheus,
} from '../support/prometheus-tools.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const bootstrap = inject('kafkaBrokers');
const binary = prometheusTool('prometheus');
const run = uniqueName('prom');
const RECORDS = 10;
const CLUSTER = 'it';
const ids = {
  lagging: `${run}-lagging`,
  stopped: `${run}-stopped`,
  idle: `${run}-idle`,
  loss: `${run}-loss`,
};
/** Lag of each group: RECORDS minus its commit (the loss group's log start moves past its commit). */
const LAG = { lagging: RECORDS - 4, stopped: RECORDS - 3, idle: 0, loss: RECORDS - 2 };
const VERDICT = { lagging: 'LAGGING', stopped: 'STOPPED', idle: 'IDLE', loss: 'DATA_LOSS' };

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource?: { uid: string };
  targets?: { expr: string; refId: string; datasource?: { uid: string } }[];
}

let fixtures: RunningFixtures | undefined;
let server: RunningServer | undefined;
let prometheus: RunningPrometheus | undefined;
let dashboard: { panels: Panel[]; templating: { list: { name: string }[] } };

beforeAll(async () => {
  dashboard = JSON.parse(await readFile(join(ROOT, 'ops/grafana/dashboard.json'), 'utf8'));
  if (!binary) return;
  fixtures = await startFixtures({
    bootstrap,
    groups: [
      // A live member that committed 4 of 10 and never again: above maxLag=5, LAGGING.
      {
        type: 'classic',
        groupId: ids.lagging,
        topics: [{ name: ids.lagging, partitions: 1, records: RECORDS }],
        commit: 4,
      },
      {
        type: 'empty',
        groupId: ids.stopped,
        topics: [{ name: ids.stopped, partitions: 1, records: RECORDS }],
        commit: 3,
      },
      {
        type: 'empty',
        groupId: ids.idle,
        topics: [{ name: ids.idle, partitions: 1, records: RECORDS }],
        commit: RECORDS,
      },
      {
        type: 'empty',
        groupId: ids.loss,
        topics: [{ name: ids.loss, partitions: 1, records: RECORDS }],
        commit: 2,
      },
    ],
  });
  // Retention as Admin.deleteRecords: the log starts at 6, past the commit at 2.
  await javaAdminDeleteRecords(bootstrap, ids.loss, 0, 6);
  server = await startServer(
    loadConfig({ KAFKA_BROKERS: bootstrap, AUTH: 'none', PORT: '0', RATE_LIMIT_PER_MINUTE: '0' }),
    silentLogger,
  );
  const target = new URL(server.url).host;
  // Short intervals keep the test short; each scrape of four groups takes a few tens of ms.
  prometheus = await startPrometheus(
    binary,
    `global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files:
  - ${join(ROOT, 'ops/prometheus/alerts.yml')}
scrape_configs:
  - job_name: kafka-groups-rest
    metrics_path: /metrics
    params:
      allow: ['${run}-.*']
      granularity: [partition]
      maxLag: ['5']
      maxTimeLagSeconds: ['3600']
      idleAfterSeconds: ['1']
    static_configs:
      - targets: ['${target}']
        labels:
          cluster: ${CLUSTER}
`,
  );
  // Until a scrape has every group in its verdict.
  const p = prometheus;
  let seen: Record<string, string | undefined> = {};
  await waitFor(
    async () => {
      const verdicts = await p.query(`kafka_group_verdict{cluster="${CLUSTER}"}`);
      seen = Object.fromEntries(verdicts.map((s) => [s.metric.group, s.metric.verdict]));
      return Object.entries(ids).every(([k, id]) => seen[id] === VERDICT[k as keyof typeof ids]);
    },
    {
      timeoutMs: 60_000,
      what: () => `every group in its verdict; verdicts: ${JSON.stringify(seen)}\n${p.output()}`,
    },
  );
}, 240_000);

afterAll(async () => {
  await prometheus?.stop();
  await server?.close();
  await fixtures?.stop();
});

/** A panel query as Grafana sends it: the template variables replaced by the values chosen. */
function substitute(expr: string, group: string): string {
  return expr
    .replaceAll('$job', 'kafka-groups-rest')
    .replaceAll('$cluster', CLUSTER)
    .replaceAll('$group', group);
}

const byLabel = (series: PromSeries[], label: string) =>
  Object.fromEntries(series.map((s) => [s.metric[label], Number(s.value[1])]));

/** What each panel's queries return, by panel title and refId, with $group = the LAGGING group. */
const EXPECTED: Record<string, Record<string, (series: PromSeries[]) => void>> = {
  'Groups by type': { A: (s) => expect(byLabel(s, 'type')).toEqual({ classic: 4 }) },
  'Groups by state': { A: (s) => expect(byLabel(s, 'state')).toEqual({ Stable: 1, Empty: 3 }) },
  'Groups by verdict': {
    A: (s) => expect(byLabel(s, 'verdict')).toEqual({ LAGGING: 1, STOPPED: 1, IDLE: 1, DATA_LOSS: 1 }),
  },
  'Verdicts over time': {
    A: (s) => expect(byLabel(s, 'verdict')).toEqual({ LAGGING: 1, STOPPED: 1, IDLE: 1, DATA_LOSS: 1 }),
  },
  'Top 10 groups by lag': {
    A: (s) =>
      expect(byLabel(s, 'group')).toEqual({
        [ids.lagging]: LAG.lagging,
        [ids.stopped]: LAG.stopped,
        [ids.idle]: LAG.idle,
        [ids.loss]: LAG.loss,
      }),
  },
  'Top 10 groups by time lag': {
    A: (s) => {
      const lags = byLabel(s, 'group');
      // The records behind were written when the fixture started: seconds ago, not hours.
      for (const id of [ids.lagging, ids.stopped]) {
        expect(lags[id], id).toBeGreaterThan(0);
        expect(lags[id], id).toBeLessThan(600);
      }
      // Below the log start there is no record to date: no time lag.
      expect(lags[ids.loss]).toBeUndefined();
    },
  },
  Lag: { A: (s) => expect(byLabel(s, 'group')).toEqual({ [ids.lagging]: LAG.lagging }) },
  'Partition lag': {
    A: (s) => {
      expect(s.map((x) => [x.metric.group, x.metric.topic, x.metric.partition, Number(x.value[1])])).toEqual([
        [ids.lagging, ids.lagging, '0', LAG.lagging],
      ]);
    },
  },
  'Time lag': {
    A: (s) => {
      expect(s.map((x) => x.metric.group)).toEqual([ids.lagging]);
      expect(Number(s[0]?.value[1])).toBeGreaterThan(0);
    },
    B: (s) => {
      expect(s.map((x) => x.metric.group)).toEqual([ids.lagging]);
      expect(Number(s[0]?.value[1])).toBeGreaterThan(0);
    },
  },
  Members: { A: (s) => expect(byLabel(s, 'group')).toEqual({ [ids.lagging]: 1 }) },
  'Verdict over time': { A: (s) => expect(byLabel(s, 'verdict')).toEqual({ LAGGING: 1 }) },
  'State over time': { A: (s) => expect(byLabel(s, 'state')).toEqual({ Stable: 1 }) },
  'Scrape duration': {
    A: (s) => {
      expect(s).toHaveLength(1);
      expect(Number(s[0]?.value[1])).toBeGreaterThan(0);
      expect(Number(s[0]?.value[1])).toBeLessThan(1);
    },
  },
  'Scrape up': { A: (s) => expect(s.map((x) => Number(x.value[1]))).toEqual([1]) },
  'Series cap': {
    A: (s) => expect(s.map((x) => Number(x.value[1]))).toEqual([0]),
    B: (s) => expect(s.map((x) => Number(x.value[1]))).toEqual([0]),
  },
  'Broker failures': {
    A: (s) => expect(s.map((x) => Number(x.value[1]))).toEqual([0]),
    B: (s) => expect(s.map((x) => Number(x.value[1]))).toEqual([0]),
  },
};

describe('the Grafana dashboard (file)', () => {
  it('has the variables its queries use, and an expectation here for every query', () => {
    expect(dashboard.templating.list.map((v) => v.name)).toEqual(['datasource', 'job', 'cluster', 'group']);
    const queries = dashboard.panels
      .filter((p) => p.type !== 'row')
      .flatMap((p) => (p.targets ?? []).map((t) => `${p.title}/${t.refId}`));
    const expected = Object.entries(EXPECTED).flatMap(([title, refs]) =>
      Object.keys(refs).map((r) => `${title}/${r}`),
    );
    expect(queries.sort()).toEqual(expected.sort());
  });

  it('lays its panels out on the 24-column grid without overlap, each query on the chosen data source', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const cells = new Set<string>();
    for (const p of dashboard.panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row++) {
        for (let col = x; col < x + w; col++) {
          const cell = `${row}:${col}`;
          expect(cells.has(cell), `${p.title} overlaps at ${cell}`).toBe(false);
          cells.add(cell);
        }
      }
      if (p.type === 'row') continue;
      expect(p.datasource?.uid, p.title).toBe('${datasource}');
      for (const t of p.targets ?? [])
        expect(t.datasource?.uid, `${p.title}/${t.refId}`).toBe('${datasource}');
    }
  });
});

describe.skipIf(!binary)('the dashboard and the alert rules on a real Prometheus', () => {
  it('every panel query returns the series of the groups in their verdicts', async () => {
    const failures: string[] = [];
    for (const panel of dashboard.panels) {
      for (const target of panel.targets ?? []) {
        const expr = substitute(target.expr, ids.lagging);
        expect(expr, 'every variable substituted').not.toMatch(/\$\w/);
        const series = await (prometheus as RunningPrometheus).query(expr);
        try {
          EXPECTED[panel.title]?.[target.refId]?.(series);
        } catch (error) {
          failures.push(`${panel.title}/${target.refId}: ${expr}\n${(error as Error).message}`);
        }
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  });

  it('the variables list the job, the cluster and the groups', async () => {
    const p = prometheus as RunningPrometheus;
    const values = async (label: string, selector: string) => {
      const res = await fetch(
        `${p.url}/api/v1/label/${label}/values?match[]=${encodeURIComponent(selector)}`,
      );
      return ((await res.json()) as { data: string[] }).data;
    };
    expect(await values('job', 'kafka_group_listing_failures')).toContain('kafka-groups-rest');
    expect(await values('cluster', 'kafka_group_listing_failures{job=~"kafka-groups-rest"}')).toEqual([
      CLUSTER,
    ]);
    expect(
      await values('group', `kafka_group_members{job=~"kafka-groups-rest", cluster=~"${CLUSTER}"}`),
    ).toEqual(Object.values(ids).sort());
  });

  it('the alert rules load: DATA_LOSS fires at once, STOPPED, LAGGING and STALLED wait (pending)', async () => {
    const p = prometheus as RunningPrometheus;
    let mine: Awaited<ReturnType<RunningPrometheus['alerts']>> = [];
    await waitFor(
      async () => {
        mine = (await p.alerts()).filter((a) => a.labels.group?.startsWith(`${run}-`));
        return mine.length >= 4;
      },
      {
        timeoutMs: 15_000,
        what: () =>
          `4 alerts of this run; got ${JSON.stringify(mine.map((a) => [a.labels.alertname, a.labels.group, a.state]))}`,
      },
    );
    const states = Object.fromEntries(mine.map((a) => [`${a.labels.alertname} ${a.labels.group}`, a.state]));
    expect(states).toEqual({
      [`KafkaGroupDataLoss ${ids.loss}`]: 'firing',
      [`KafkaGroupStopped ${ids.stopped}`]: 'pending',
      [`KafkaGroupLagging ${ids.lagging}`]: 'pending',
      // Its member is there and its lag does not fall: a stuck consumer.
      [`KafkaGroupStalled ${ids.lagging}`]: 'pending',
    });
    const loss = mine.find((a) => a.labels.alertname === 'KafkaGroupDataLoss');
    expect(loss?.annotations.summary).toBe(`Kafka group ${ids.loss} lost records (DATA_LOSS)`);
  });
});
