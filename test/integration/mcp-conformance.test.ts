/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp of the Node
 * server as `npm run demo` runs it (AUTH=none), in front of the real broker: every scenario that
 * 2026-07-28 and 2025-11-25 require, each check read from the suite's own results. A check that
 * fails must be one this server cannot have, named below with the reason; every other passes.
 */

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type Check,
  CONFORMANCE_RUNS_HERE,
  conformanceRequirements,
  type RunRequirements,
} from '../support/mcp-conformance.js';
import { startServerProcess, stopServerProcess } from '../support/server-process.js';

const FIXTURE_TOOLS =
  "calls a tool of the suite's reference server (its fixtures), which this server does not have";

/**
 * What does not apply to a server whose only capability is tools, each with its reason: by
 * scenario, or by scenario and check.
 */
const NOT_APPLICABLE: [RegExp, string][] = [
  [/^(tools-call-|json-schema-2020-12|elicitation-sep)/, FIXTURE_TOOLS],
  [/^input-required-result-/, `${FIXTURE_TOOLS}: no tool here asks its caller for input`],
  [/^(resources-|sep-2164-resource-)/, 'tests resources; this server declares none'],
  [/^prompts-/, 'tests prompts; this server declares none'],
  [/^completion-/, 'tests completions; this server declares none'],
  [/^logging-/, 'tests logging/setLevel; this server declares no logging capability'],
  [/^tasks-/, 'tests the tasks extension, which this server does not offer'],
  [
    /^http-custom-header-server-validation$/,
    'tests tools whose parameters are declared as x-mcp-header; no tool here declares one',
  ],
  [
    /^server-sse-(polling|multiple-streams)\/server-sse-(polling|multiple-streams)-session$/,
    'expects an Mcp-Session-Id; this endpoint serves 2025 requests without sessions (stateless, as 2026-07-28 is)',
  ],
  [/^caching\/sep-2549-(prompts|resources)-/, 'asks prompts or resources lists; this server declares none'],
  [
    /^server-stateless\/sep-2575-(server-rejects-undeclared-capability|missing-capability-http-400|http-server-no-independent-requests-on-stream|server-no-log-without-loglevel)$/,
    FIXTURE_TOOLS,
  ],
];

/** The scenarios that test what this server is: each must run and pass at least one check. */
const APPLIES: Record<string, string[]> = {
  '2026-07-28': [
    'server-stateless',
    'tools-list',
    'caching',
    'http-header-validation',
    'dns-rebinding-protection',
    'server-sse-multiple-streams',
  ],
  '2025-11-25': ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
};

const failed = (check: Check) => check.status === 'FAILURE' || check.status === 'WARNING';

function reasonFor(scenario: string, check: Check): string | undefined {
  return NOT_APPLICABLE.find(
    ([pattern]) => pattern.test(scenario) || pattern.test(`${scenario}/${check.id}`),
  )?.[1];
}

let server: ChildProcess | undefined;
let url: string;

beforeAll(async () => {
  const started = await startServerProcess(['--import', 'tsx', 'src/runtime/node.ts'], {
    env: { KAFKA_BROKERS: inject('kafkaBrokers'), AUTH: 'none', RATE_LIMIT_PER_MINUTE: '0' },
  });
  server = started.child;
  url = new URL('/mcp', started.url).href;
});

afterAll(() => stopServerProcess(server));

describe.skipIf(!CONFORMANCE_RUNS_HERE)('the official MCP conformance suite against /mcp', () => {
  let requirements: RunRequirements;
  beforeAll(async () => {
    requirements = await conformanceRequirements();
  }, 300_000);

  it.each(Object.keys(APPLIES))(
    'passes every check %s requires, except those naming what this server does not have',
    async (revision) => {
      const { checks, output } = await requirements(url, revision);
      for (const scenario of APPLIES[revision] ?? []) {
        const ran = checks.get(scenario) ?? [];
        expect(ran.filter((c) => c.status === 'SUCCESS').length, `${scenario}\n${output}`).toBeGreaterThan(0);
      }
      const unexplained = [...checks].flatMap(([scenario, ran]) =>
        ran
          .filter((check) => failed(check) && !reasonFor(scenario, check))
          .map((check) => `${scenario}/${check.id}: ${check.status} ${check.errorMessage ?? ''}`),
      );
      expect(unexplained).toEqual([]);
      // What this server is cannot be excused as a whole: only single checks of it, named above.
      for (const scenario of APPLIES[revision] ?? [])
        expect(
          NOT_APPLICABLE.filter(([pattern]) => pattern.test(scenario)),
          scenario,
        ).toEqual([]);
    },
    180_000,
  );
});
