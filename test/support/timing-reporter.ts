/**
 * A vitest reporter that says where a run's time went, so the work on the loop is aimed: the
 * slowest files, each split into time in its tests and time outside them (imports, beforeAll and
 * afterAll: broker clusters, fixture JVMs, builds), and the run's totals. It prints after the run and
 * writes every file's row to .cache/test-times.json (docs/testing.md keeps the table).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export interface FileTime {
  file: string;
  project: string;
  /** Import and collection, then every test and hook: the file's time in its worker. */
  totalMs: number;
  /** Inside the tests themselves. */
  testsMs: number;
  /** Imports, beforeAll/afterAll and the worker's own set-up. */
  outsideMs: number;
  tests: number;
}

const SHOWN = 12;

export function fileTime(module: TestModule, root: string): FileTime {
  const d = module.diagnostic();
  let testsMs = 0;
  let tests = 0;
  for (const test of module.children.allTests()) {
    testsMs += test.diagnostic()?.duration ?? 0;
    tests += 1;
  }
  const totalMs =
    d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration;
  return {
    file: path.relative(root, module.moduleId),
    project: module.project.name,
    totalMs,
    testsMs,
    outsideMs: Math.max(0, totalMs - testsMs),
    tests,
  };
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class TimingReporter implements Reporter {
  private started = Date.now();
  private root = process.cwd();

  onInit(): void {
    this.started = Date.now();
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((m) => fileTime(m, this.root)).sort((a, b) => b.totalMs - a.totalMs);
    if (rows.length === 0) return;
    const wallMs = Date.now() - this.started;
    const sum = (pick: (r: FileTime) => number) => rows.reduce((n, r) => n + pick(r), 0);
    mkdirSync(path.join(this.root, '.cache'), { recursive: true });
    writeFileSync(
      path.join(this.root, '.cache', 'test-times.json'),
      `${JSON.stringify({ wallMs, files: rows }, null, 2)}\n`,
    );
    const lines = [
      '',
      `where the time went (${rows.length} files; wall ${s(wallMs)}, the files' own ${s(sum((r) => r.totalMs))}: ` +
        `${s(sum((r) => r.testsMs))} in tests, ${s(sum((r) => r.outsideMs))} outside them)`,
      ...rows
        .slice(0, SHOWN)
        .map(
          (r) =>
            `  ${s(r.totalMs).padStart(8)}  ${r.file} [${r.project}]: ${s(r.testsMs)} in ${r.tests} tests, ` +
            `${s(r.outsideMs)} outside`,
        ),
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
