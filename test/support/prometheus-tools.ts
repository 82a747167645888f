/**
 * Prometheus's own binaries (Debian's `prometheus` package; .ci/run installs it). A test that needs
 * one skips with a message on a machine without it, but under CI=true a missing binary fails it.
 */

import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../broker-harness/wait.js';

export type PrometheusTool = 'prometheus' | 'promtool';

function which(tool: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The binary's path; undefined (the caller skips) when absent outside CI; throws when absent in CI. */
export function prometheusTool(tool: PrometheusTool): string | undefined {
  const path = which(tool);
  if (path) return path;
  const why = `${tool} is not installed (Debian: apt-get install prometheus)`;
  if (process.env.CI === 'true') throw new Error(`${why}; CI=true, so the tests that need it cannot skip`);
  console.warn(`skipping the tests that need ${tool}: ${why}`);
  return undefined;
}

/** A port free on 127.0.0.1 now (for a program that takes its port on the command line). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RunningPrometheus {
  url: string;
  /** An instant query over the HTTP API; throws on an error answer. */
  query(expr: string): Promise<PromSeries[]>;
  /** The alerts pending or firing now. */
  alerts(): Promise<{ labels: Record<string, string>; state: string; annotations: Record<string, string> }[]>;
  output(): string;
  /** SIGTERM, waits for the exit (SIGKILL after 10 s), removes its data directory. */
  stop(): Promise<void>;
}

export interface PromSeries {
  metric: Record<string, string>;
  value: [number, string];
}

/** A real Prometheus on 127.0.0.1 with `config` (YAML text), its data in a temp directory. */
export async function startPrometheus(binary: string, config: string): Promise<RunningPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'kgr-prometheus-'));
  await writeFile(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    binary,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (c) => {
    output += c;
  });
  child.stderr?.on('data', (c) => {
    output += c;
  });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(kill);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? res.status}`);
    return body.data;
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${output}`);
        return fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        );
      },
      { timeoutMs: 30_000, what: () => `prometheus ready (GET /-/ready); its output: ${output}` },
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    query: async (expr) =>
      (await api<{ result: PromSeries[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result,
    alerts: async () => (await api<{ alerts: never[] }>('/api/v1/alerts')).alerts,
    output: () => output,
    stop,
  };
}
