import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One real broker for the whole run, unless KAFKA_BROKERS points at a running cluster.
    globalSetup: ['test/kafka/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: 'forks',
    reporters: ['default', ['json', { outputFile: '.cache/vitest-report.json' }]],
  },
});
