import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// `unit` needs nothing but Node (codecs, config, pure logic, the tree's checks: `npm run test:unit`,
// the inner loop). `kafka` runs against the real broker that its global setup starts, its files side
// by side: each names its groups and topics for itself (uniqueName), and much of a broker test is
// waiting on the broker, so two files a core keep it busy. `kafka-alone` holds the files that must
// have the machine to themselves, run after the others (this list is the one place that says so):
// the three-node cluster suites, which start three more brokers and hang and kill them on a clock.
// `npm test` runs them all; `npm run test:unit` the two unit projects, `npm run test:kafka` the
// three broker projects.
const ALONE = ['test/cluster/**/*.test.ts'];
// The unit files share their worker's module graph (isolate: false): importing `src/` once per
// worker rather than once per file halves the unit loop. These are the files that read process-wide
// state another file may have changed (which modules a start loaded, a module registry reset), so
// `unit-fresh` gives each its own.
const FRESH = ['test/unit/start-app.test.ts', 'test/unit/lazy-routes.test.ts'];
const UNIT = ['src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/tree/**/*.test.ts'];
// The broker files share their worker's modules too, but for the runtimes' own: they set the
// globals a runtime finds (Lambda's `awslambda`, fetch classes) and build its app once per module.
const KAFKA = ['test/integration/**/*.test.ts', 'test/broker-harness/**/*.test.ts'];
const KAFKA_FRESH = ['test/runtime/**/*.test.ts'];

// vitest's own default is one worker fewer than the cores: one worker on the 2-core machines the
// suite runs on, which left a core idle through every wait on the broker.
const cores = Math.max(1, availableParallelism());
const SIDE_BY_SIDE = Number(process.env.TEST_WORKERS) || cores * 2;

export default defineConfig({
  test: {
    // The JSON report feeds .ci/run's summary line; the timing reporter prints where the time went.
    reporters: [
      'default',
      ['json', { outputFile: '.cache/vitest-report.json' }],
      './test/support/timing-reporter.ts',
    ],
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...configDefaults.exclude, ...FRESH],
          isolate: false,
          testTimeout: 20_000,
          // Beside the broker files: their waits on the broker leave the cores to these.
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-fresh',
          include: FRESH,
          testTimeout: 20_000,
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'kafka',
          include: KAFKA,
          // One real broker for the whole run, unless KAFKA_BROKERS points at a running cluster.
          globalSetup: ['test/broker-harness/global-setup.ts'],
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'kafka-fresh',
          include: KAFKA_FRESH,
          globalSetup: ['test/broker-harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: SIDE_BY_SIDE,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'kafka-alone',
          include: ALONE,
          // The same broker as `kafka` (the setup shares it between the two projects).
          globalSetup: ['test/broker-harness/global-setup.ts'],
          // One worker process for every file: they share one three-node cluster (shared-cluster.ts).
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 300_000,
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
