/**
 * kafkajs loads two of Node's modules a plain TCP connection never uses, on every start of the Node
 * and Lambda bundles (esbuild plugin; the Worker brings its own sockets and is left alone):
 *
 * - `crypto` (3-4 ms on a cold start): its SASL authenticator requires every mechanism when its
 *   connection module loads, and the SCRAM ones require `crypto`. Here each mechanism is required
 *   when a connection first authenticates with it.
 * - `tls` (about 3 ms on the first connection): its default socket factory requires it when the
 *   factory is made. Here it is required by the first TLS connection.
 *
 * Same code otherwise: kafkajs's own files, each with these requires moved into the call that needs
 * them. The build fails if a file no longer reads as expected (kafkajs's version is pinned).
 */

import { readFile } from 'node:fs/promises';
import type { Plugin } from 'esbuild';

interface Edit {
  /** The kafkajs file, by its path's end. */
  file: RegExp;
  /** Each text, as kafkajs writes it exactly once, and what it becomes. */
  replace: [string, string][];
}

const MECHANISMS = ['plain', 'scram256', 'scram512', 'awsIam', 'oauthBearer'];

export const KAFKAJS_LAZY_EDITS: readonly Edit[] = [
  {
    file: /[\\/]kafkajs[\\/]src[\\/]broker[\\/]saslAuthenticator[\\/]index\.js$/,
    replace: MECHANISMS.map((m) => [
      `AuthenticatorProvider = require('./${m}')\n`,
      `AuthenticatorProvider = (...args) => require('./${m}')(...args)\n`,
    ]),
  },
  {
    file: /[\\/]kafkajs[\\/]src[\\/]network[\\/]socketFactory\.js$/,
    replace: [
      ["  const tls = require('tls')\n", ''],
      ['? tls.connect(', "? require('tls').connect("],
    ],
  },
];

/** `source` with `edit` applied; throws naming the text when kafkajs's file is not as expected. */
export function applyLazyEdit(source: string, edit: Edit, path: string): string {
  let out = source;
  for (const [from, to] of edit.replace) {
    const at = out.indexOf(from);
    if (at < 0 || out.indexOf(from, at + 1) >= 0)
      throw new Error(
        `${path} does not contain ${JSON.stringify(from)} once: see scripts/kafkajs-lazy-builtins.ts`,
      );
    out = out.slice(0, at) + to + out.slice(at + from.length);
  }
  return out;
}

export const kafkajsLazyBuiltins: Plugin = {
  name: 'kafkajs-lazy-builtins',
  setup(b) {
    const used = new Set<Edit>();
    b.onStart(() => used.clear());
    for (const edit of KAFKAJS_LAZY_EDITS) {
      b.onLoad({ filter: edit.file }, async (args) => {
        used.add(edit);
        return { contents: applyLazyEdit(await readFile(args.path, 'utf8'), edit, args.path), loader: 'js' };
      });
    }
    b.onEnd((result) => {
      if (result.errors.length > 0 || b.initialOptions.stdin) return;
      const unused = KAFKAJS_LAZY_EDITS.filter((e) => !used.has(e));
      // A returned error fails the build; one pushed into `result.errors` is only reported.
      if (unused.length > 0)
        return {
          errors: [
            {
              text: `no kafkajs file matched ${unused.map((e) => e.file.source).join(', ')}: see scripts/kafkajs-lazy-builtins.ts`,
            },
          ],
        };
      return undefined;
    });
  },
};
