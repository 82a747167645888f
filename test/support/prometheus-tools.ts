/**
 * Prometheus's own binaries (Debian's `prometheus` package; .ci/run installs it). A test that needs
 * one skips with a message on a machine without it, but under CI=true a missing binary fails it.
 */

import { execFileSync } from 'node:child_process';

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
