/** The Node server as a child process, resolved once it prints the URL it listens on. */

import { type ChildProcess, spawn } from 'node:child_process';

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

export function startServerProcess(
  args: readonly string[],
  options: { env: Record<string, string>; cwd?: string },
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...args], {
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
