/** The Node server as a child process, resolved once it prints the URL it listens on. */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

export function startServerProcess(
  args: readonly string[],
  options: {
    env: Record<string, string>;
    cwd?: string;
    /** A command that execs Node with these arguments (e.g. setpriv, to run as another user). */
    wrap?: readonly [string, ...string[]];
  },
): Promise<ServerProcess> {
  const [command, ...before] = options.wrap ?? [process.execPath];
  const node = options.wrap ? [process.execPath] : [];
  const child = spawn(command, [...before, ...node, ...args], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd !== undefined && { cwd: options.cwd }),
  });
  let output = '';
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise<ServerProcess>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
      if (url) resolve({ child, url, output: () => output });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}

/**
 * SIGTERM, then SIGKILL if it has not exited within the grace: a server stuck in its shutdown must
 * not hold the test run open. Does nothing for a process that is gone or never started.
 */
export async function stopServerProcess(child: ChildProcess | undefined, graceMs = 15_000): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const stopped = await Promise.race([
    exited.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
  ]);
  if (!stopped) child.kill('SIGKILL');
}
