/**
 * A few lines of source bundled as the Lambda's build bundles (esbuild, CommonJS for Node) and
 * evaluated in this process: what the bundle does to a library (plugins, injected classes) is seen
 * from its exports.
 */

import { createRequire } from 'node:module';
import { type BuildOptions, build } from 'esbuild';

export async function bundled<T = Record<string, unknown>>(
  source: string,
  options: Pick<BuildOptions, 'plugins' | 'inject'> = {},
): Promise<T> {
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    ...options,
  });
  const module = { exports: {} as T };
  new Function('module', 'exports', 'require', result.outputFiles[0]?.text ?? '')(
    module,
    module.exports,
    createRequire(import.meta.url),
  );
  return module.exports;
}
