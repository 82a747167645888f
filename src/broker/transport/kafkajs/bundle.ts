/**
 * The one build-time change to kafkajs, an esbuild plugin the Node and Lambda bundles use
 * (scripts/build.ts). kafkajs registers every request it implements (produce, fetch, join group,
 * ... ~100 KB) for its own client; this project sends its own codec's requests through kafkajs's
 * connection, which builds only SASL's two and ApiVersions itself. The others are left out of the
 * bundles: less to parse at a cold start. Calling one throws, naming it.
 *
 * It lives here because it knows kafkajs's file layout (src/protocol/requests/<name>/index.js);
 * kafkajs.test.ts checks that layout and what the trimmed bundle still builds. The Worker bundle
 * (wrangler) is not trimmed.
 */

import { basename, dirname } from 'node:path';
import type { Plugin } from 'esbuild';

const KEPT = new Set(['apiVersions', 'saslHandshake', 'saslAuthenticate']);

/** Where kafkajs keeps one request's versions (a file the plugin replaces unless kept). */
export const KAFKAJS_REQUEST_INDEX =
  /[\\/]kafkajs[\\/]src[\\/]protocol[\\/]requests[\\/][^\\/]+[\\/]index\.js$/;

export const onlyKafkajsSaslRequests: Plugin = {
  name: 'only-kafkajs-sasl-requests',
  setup(b) {
    b.onLoad({ filter: KAFKAJS_REQUEST_INDEX }, (args) => {
      const name = basename(dirname(args.path));
      if (KEPT.has(name)) return undefined;
      return {
        contents: `module.exports = { versions: [], protocol: () => { throw new Error('kafkajs request ${name} is not bundled'); } };`,
        loader: 'js',
      };
    });
  },
};
