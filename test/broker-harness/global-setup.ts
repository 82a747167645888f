/**
 * vitest global setup: one Kafka broker for the whole run.
 *
 * KAFKA_BROKERS set (e.g. from `npm run kafka:start`): use it as it is. Otherwise start a broker of
 * KAFKA_VERSION (default: the pinned version) and stop it in teardown. Tests read
 * `inject('kafkaBrokers')` ('host:port[,host:port]') and `inject('kafkaVersion')` (the version, or
 * KAFKA_VERSION / 'external' for a broker given by KAFKA_BROKERS). A broker started here also
 * provides `kafkaSasl` (its SASL_PLAINTEXT listener and test user) and `kafkaTls` (its SSL listener
 * and CA), `kafkaMtls` (its MTLS listener, a client certificate it accepts and one it refuses) and
 * `kafkaOauth` (its OAUTHBEARER listener, validating against a JWKS served from this process, and
 * the issuer's signing key); with KAFKA_BROKERS they are absent and the tests that need them skip.
 *
 * The broker's JVM exits when this process does (its stdin is a pipe from here), so a crashed or
 * interrupted vitest leaves no broker behind even when teardown never runs.
 */
import type { JWK } from 'jose';
import type { TestProject } from 'vitest/node';
import { type PemPair, type RunningBroker, startBroker } from './broker.js';
import { startTestIssuer } from './oauth-issuer.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap servers of the test broker, 'host:port[,host:port...]'. */
    kafkaBrokers: string;
    /** Kafka version of the test broker ('external' when KAFKA_BROKERS gave no KAFKA_VERSION). */
    kafkaVersion: string;
    /**
     * The started broker's SASL_PLAINTEXT listener: one user for PLAIN, SCRAM-SHA-256 and
     * SCRAM-SHA-512, its password random per run (test-only). Absent with KAFKA_BROKERS.
     */
    kafkaSasl?: { bootstrap: string; username: string; password: string };
    /** The started broker's SSL listener and the PEM of the CA that signed its certificate. Absent with KAFKA_BROKERS. */
    kafkaTls?: { bootstrap: string; caPem: string };
    /** The MTLS listener (client certificate required): the CA, a client pair it accepts, a self-signed one it refuses. */
    kafkaMtls?: { bootstrap: string; caPem: string; client: PemPair; rogue: PemPair };
    /** The OAUTH listener (SASL OAUTHBEARER) and the issuer whose JWKS it trusts (its private key: test-only). */
    kafkaOauth?: { bootstrap: string; issuer: string; audience: string; privateJwk: JWK };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.KAFKA_BROKERS?.trim();
  if (external) {
    project.provide('kafkaBrokers', external);
    project.provide('kafkaVersion', process.env.KAFKA_VERSION || 'external');
    return async () => {};
  }

  const started = Date.now();
  // Served before the broker starts: its OAUTH listener fetches the key set while starting.
  const issuer = await startTestIssuer();
  let broker: RunningBroker;
  try {
    broker = await startBroker({
      oauth: { jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: issuer.audience },
    });
  } catch (error) {
    await issuer.close();
    throw error;
  }
  process.stderr.write(
    `[kafka-test] Kafka ${broker.version} ready on ${broker.bootstrap} ` +
      `(SASL_PLAINTEXT ${broker.sasl.bootstrap}, SSL ${broker.tls.bootstrap}) in ${Date.now() - started} ms ` +
      `(log: ${broker.logFile})\n`,
  );
  project.provide('kafkaBrokers', broker.bootstrap);
  project.provide('kafkaVersion', broker.version);
  const { sasl, tls } = broker;
  project.provide('kafkaSasl', {
    bootstrap: sasl.bootstrap,
    username: sasl.username,
    password: sasl.password,
  });
  project.provide('kafkaTls', { bootstrap: tls.bootstrap, caPem: tls.caPem });
  const { mtls } = broker;
  project.provide('kafkaMtls', {
    bootstrap: mtls.bootstrap,
    caPem: mtls.caPem,
    client: mtls.client,
    rogue: mtls.rogue,
  });
  if (broker.oauth) {
    project.provide('kafkaOauth', {
      bootstrap: broker.oauth.bootstrap,
      issuer: issuer.issuer,
      audience: issuer.audience,
      privateJwk: issuer.privateJwk,
    });
  }

  // No signal handlers here (they would change how vitest reacts to Ctrl-C): if vitest exits
  // without teardown, the broker sees its stdin close and stops itself.
  return async () => {
    await broker.stop();
    await issuer.close();
  };
}
