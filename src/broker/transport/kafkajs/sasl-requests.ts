/**
 * kafkajs's request registry (src/protocol/requests/index.js) as the bundles see it. kafkajs
 * registers every request it implements (produce, fetch, join group, ... some 100 KB minified) for
 * its own client; this project sends its own codec's requests through kafkajs's connection, whose
 * SASL authenticator is the registry's only reader and takes two requests from it: SaslHandshake
 * and SaslAuthenticate. So the bundles resolve the authenticator's import of the registry here
 * (bundle.ts), and the other requests are never parsed. kafkajs.test.ts checks the authenticator
 * still builds both from it.
 */

import { KafkaJSServerDoesNotSupportApiKey } from 'kafkajs/src/errors.js';
import SaslAuthenticate from 'kafkajs/src/protocol/requests/saslAuthenticate/index.js';
import SaslHandshake from 'kafkajs/src/protocol/requests/saslHandshake/index.js';

interface Definition {
  versions: string[];
  protocol(options: { version: number }): (...args: never[]) => unknown;
}

export const requests: Record<'SaslHandshake' | 'SaslAuthenticate', Definition> = {
  SaslHandshake,
  SaslAuthenticate,
};

/** The newest version both kafkajs and the broker speak, as kafkajs's own registry picks it. */
export const lookup =
  (versions: Record<number, { maxVersion?: number | null } | undefined>) =>
  (apiKey: number, definition: Definition) => {
    const brokerMax = versions[apiKey]?.maxVersion;
    if (brokerMax == null) {
      throw new KafkaJSServerDoesNotSupportApiKey(
        'The Kafka server does not support the requested API version',
        { apiKey },
      );
    }
    const implemented = Math.max(...definition.versions.map(Number));
    return definition.protocol({ version: Math.min(implemented, brokerMax) });
  };
