/**
 * The integration suite (vitest projects `kafka` and `kafka-fresh`, without the three-node fault suite) against every
 * supported Kafka minor, one after the other, each with its own test broker:
 *
 *   npm run test:versions                         # every version below
 *   KAFKA_VERSIONS=3.9.2,4.4.0 npm run test:versions
 *
 * Prints one line per version (passed, failed, skipped, duration) and writes them to
 * .cache/test-versions.json; exits non-zero when a version failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';

/** The newest patch of every minor from 3.9 on that Maven serves. */
export const SUPPORTED_KAFKA_VERSIONS = ['3.9.2', '4.0.2', '4.1.2', '4.2.2', '4.3.1', '4.4.0'];

const versions = (process.env.KAFKA_VERSIONS?.split(',') ?? SUPPORTED_KAFKA_VERSIONS).map((v) => v.trim());
const results: Array<{
  version: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  date: string;
}> = [];
for (const version of versions) {
  const started = Date.now();
  process.stderr.write(`\n=== Kafka ${version} ===\n`);
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'kafka', '--project', 'kafka-fresh'], {
    stdio: 'inherit',
    env: { ...process.env, KAFKA_VERSION: version, KAFKA_BROKERS: '' },
  });
  let counts = { passed: 0, failed: run.status === 0 ? 0 : 1, skipped: 0 };
  try {
    const r = JSON.parse(readFileSync('.cache/vitest-report.json', 'utf8'));
    counts = {
      passed: r.numPassedTests,
      failed: r.numFailedTests + (run.status === 0 ? 0 : r.numFailedTests === 0 ? 1 : 0),
      skipped: r.numPendingTests + r.numTodoTests,
    };
  } catch {
    // no report: counted as a failure above
  }
  results.push({
    version,
    ...counts,
    seconds: Math.round((Date.now() - started) / 1000),
    date: new Date().toISOString().slice(0, 10),
  });
}
mkdirSync('.cache', { recursive: true });
writeFileSync('.cache/test-versions.json', `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write('\nversion  passed  failed  skipped  seconds\n');
for (const r of results) {
  process.stdout.write(
    `${r.version.padEnd(8)} ${String(r.passed).padStart(6)} ${String(r.failed).padStart(7)} ${String(r.skipped).padStart(8)} ${String(r.seconds).padStart(8)}\n`,
  );
}

/** Group types per minor, and how the test broker (test/broker-harness/broker.ts) turns them on. */
function groupTypes(version: string): string {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major < 4) return 'classic, consumer (opt-in)';
  if (minor === 0) return 'classic, consumer, share (early access)';
  if (minor === 1) return 'classic, consumer, share (feature), streams (unstable)';
  return 'classic, consumer, share, streams';
}

// Rows for the README's version table.
process.stdout.write('\n');
for (const r of results) {
  let ranges: Record<string, string | null> = {};
  try {
    ranges = JSON.parse(readFileSync(`.cache/api-versions-${r.version}.json`, 'utf8')).ranges;
  } catch {
    // the api-versions test did not run
  }
  const cell = (name: string) => ranges[name] ?? '—';
  const outcome = `${r.failed === 0 ? 'pass' : 'FAIL'} ${r.passed}/${r.passed + r.failed} (${r.skipped} skipped), ${r.date}`;
  process.stdout.write(
    `| ${r.version} | ${groupTypes(r.version)} | ${cell('ListGroups')} | ${cell('DescribeGroups')} | ${cell('ConsumerGroupDescribe')} | ${cell('ShareGroupDescribe')} | ${cell('StreamsGroupDescribe')} | ${cell('OffsetFetch')} | ${cell('DescribeShareGroupOffsets')} | ${outcome} |\n`,
  );
}
process.exit(results.some((r) => r.failed > 0) ? 1 : 0);
