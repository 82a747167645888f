/**
 * The document through an OpenAPI linter (Redocly CLI, rules in redocly.yaml): no error, and no
 * warning but those redocly.yaml justifies, so a new warning is a decision rather than noise.
 */

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/generate-sdk.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

/** The rules redocly.yaml turns down to warnings, each with its reason written there. */
const JUSTIFIED_WARNINGS = ['security-defined', 'no-server-example.com', 'operation-4xx-response'];
/** Warned only where redocly.yaml says why: answers to requests that match no operation. */
const justifiedUnused = (p: LintProblem) =>
  p.ruleId === 'no-unused-components' &&
  (p.location?.[0]?.pointer ?? '').startsWith('#/components/responses/');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}

async function lint(document: string): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, document);
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        [REDOCLY, 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
        {
          cwd: ROOT,
          timeout: 120_000,
          maxBuffer: 16 * 1024 * 1024,
          // Offline and quiet: no usage report, no update check.
          env: {
            ...process.env,
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
            CI: 'true',
          },
        },
        // Exit code 1 means "problems found": the JSON says which.
        (error, out, err) => (out.trim().startsWith('{') ? resolve(out) : reject(error ?? new Error(err))),
      );
    });
    return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const where = (p: LintProblem) => `${p.ruleId} ${p.location?.[0]?.pointer ?? ''}: ${p.message}`;

/** No error, and no warning but those redocly.yaml justifies. */
function expectOnlyJustified(problems: LintProblem[]): void {
  expect(problems.filter((p) => p.severity === 'error').map(where)).toEqual([]);
  expect(
    problems
      .filter((p) => p.severity !== 'error' && !JUSTIFIED_WARNINGS.includes(p.ruleId) && !justifiedUnused(p))
      .map(where),
  ).toEqual([]);
}

describe('the OpenAPI document, linted', () => {
  it('has no error and only the warnings redocly.yaml justifies', { timeout: 150_000 }, async () => {
    const problems = await lint(await openApiDocument());
    expectOnlyJustified(problems);
  });

  it('reports an operation without operationId and an invalid example as errors', {
    timeout: 150_000,
  }, async () => {
    const doc = JSON.parse(await openApiDocument());
    // One path is enough to show the rules bite, and lints in a fraction of the whole document's time.
    doc.paths = { '/cluster': doc.paths['/cluster'] };
    delete doc.paths['/cluster'].get.operationId;
    delete doc.components.schemas.ClusterBroker.example.rack;
    const errors = (await lint(JSON.stringify(doc)))
      .filter((p) => p.severity === 'error')
      .map((p) => p.ruleId);
    expect(errors).toEqual(expect.arrayContaining(['operation-operationId', 'no-invalid-schema-examples']));
  });
});

describe('the OpenAPI 3.2 view (/openapi-3.2.json), linted as 3.2', () => {
  it('has no error and only the warnings redocly.yaml justifies', { timeout: 150_000 }, async () => {
    const problems = await lint(await openApiDocument('/openapi-3.2.json'));
    expectOnlyJustified(problems);
  });

  it('is read by its version: the same itemSchema under openapi 3.1.0 is an error', {
    timeout: 150_000,
  }, async () => {
    const doc = JSON.parse(await openApiDocument('/openapi-3.2.json'));
    doc.openapi = '3.1.0';
    doc.paths = { '/groups.ndjson': doc.paths['/groups.ndjson'] };
    const errors = (await lint(JSON.stringify(doc))).filter((p) => p.severity === 'error').map(where);
    expect(
      errors.some((e) => e.startsWith('struct') && e.includes('itemSchema')),
      errors.join('\n'),
    ).toBe(true);
  });
});
