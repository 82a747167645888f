/**
 * ops/prometheus/alerts.yml as Prometheus reads it: `promtool check rules` (syntax, PromQL, templates)
 * and `promtool test rules` with the series fixtures of alerts.test.yml. Here, not in the broker
 * project: promtool evaluates the rules over synthetic series in a second, with no server.
 */

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { prometheusTool } from '../support/prometheus-tools.js';

const DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../ops/prometheus');
const promtool = prometheusTool('promtool');
const run = promisify(execFile);

interface RuleFile {
  groups: { name: string; rules: { alert?: string; annotations?: Record<string, string> }[] }[];
}
interface TestFile {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

describe.skipIf(!promtool)('alert rules (promtool)', () => {
  it('pass promtool check rules', async () => {
    const { stdout } = await run(promtool as string, ['check', 'rules', join(DIR, 'alerts.yml')]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it('pass their unit tests: promtool test rules alerts.test.yml', async () => {
    const { stdout } = await run(promtool as string, ['test', 'rules', join(DIR, 'alerts.test.yml')], {
      cwd: DIR,
    });
    expect(stdout).toContain('SUCCESS');
  });
});

describe('alert rules (file)', () => {
  it('each has a summary and a description, and a test where it fires and one where it does not yet', async () => {
    const rules = parse(await readFile(join(DIR, 'alerts.yml'), 'utf8')) as RuleFile;
    const tests = parse(await readFile(join(DIR, 'alerts.test.yml'), 'utf8')) as TestFile;
    const alerts = rules.groups.flatMap((g) => g.rules).filter((r) => r.alert);
    expect(alerts.length).toBeGreaterThanOrEqual(8);
    const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const rule of alerts) {
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      // Group alerts name the group; process-wide ones the instance.
      expect(`${rule.annotations?.summary} ${rule.annotations?.description}`).toMatch(
        /\{\{ \$labels\.(group|instance) \}\}/,
      );
      const mine = cases.filter((c) => c.alertname === rule.alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${rule.alert} fires in a test`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${rule.alert} is held back in a test`,
      ).toBe(true);
    }
  });
});
