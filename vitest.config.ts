import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing but Node (codecs, config, pure logic: seconds), `kafka` runs
// against a real broker that its global setup starts. `npm test` runs both; `npm run test:unit` the loop.
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: '.cache/vitest-report.json' }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/tree/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'kafka',
          include: [
            'test/integration/**/*.test.ts',
            'test/runtime/**/*.test.ts',
            'test/broker-harness/**/*.test.ts',
            'test/cluster/**/*.test.ts',
          ],
          // One real broker for the whole run, unless KAFKA_BROKERS points at a running cluster.
          globalSetup: ['test/broker-harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          pool: 'forks',
        },
      },
    ],
  },
});
