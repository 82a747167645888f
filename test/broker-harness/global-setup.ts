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
import type { ProvidedContext } from 'vitest';
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

type Provided = { [K in keyof ProvidedContext]?: ProvidedContext[K] };

interface SharedBroker {
  /** What the projects are given; settles once the broker is up. */
  provided: Promise<Provided>;
  stop: () => Promise<void>;
  users: number;
}

// Two projects use this setup (the files that run side by side, and those that run alone after
// them); vitest calls it once per project, in one process, and both must reach the same broker.
// Each project's setup loads this module anew, so the one broker is kept on globalThis.
const SHARED = Symbol.for('kafka-groups-rest.test-broker');
const holder = globalThis as { [SHARED]?: SharedBroker };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let shared = holder[SHARED];
  if (!shared) {
    let stop: () => Promise<void> = async () => {};
    const provided = start((s) => {
      stop = s;
    });
    shared = { provided, stop: () => stop(), users: 0 };
    holder[SHARED] = shared;
    provided.catch(() => {
      if (holder[SHARED] === shared) delete holder[SHARED];
    });
  }
  shared.users += 1;
  const provided = await shared.provided;
  for (const [key, value] of Object.entries(provided) as Array<[keyof ProvidedContext, never]>) {
    if (value !== undefined) project.provide(key, value);
  }
  const mine = shared;
  return async () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    if (holder[SHARED] === mine) delete holder[SHARED];
    await mine.stop();
  };
}

async function start(onStop: (stop: () => Promise<void>) => void): Promise<Provided> {
  const external = process.env.KAFKA_BROKERS?.trim();
  if (external) {
    return { kafkaBrokers: external, kafkaVersion: process.env.KAFKA_VERSION || 'external' };
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
  // No signal handlers here (they would change how vitest reacts to Ctrl-C): if vitest exits
  // without teardown, the broker sees its stdin close and stops itself.
  onStop(async () => {
    await broker.stop();
    await issuer.close();
  });
  const { sasl, tls, mtls } = broker;
  return {
    kafkaBrokers: broker.bootstrap,
    kafkaVersion: broker.version,
    kafkaSasl: { bootstrap: sasl.bootstrap, username: sasl.username, password: sasl.password },
    kafkaTls: { bootstrap: tls.bootstrap, caPem: tls.caPem },
    kafkaMtls: { bootstrap: mtls.bootstrap, caPem: mtls.caPem, client: mtls.client, rogue: mtls.rogue },
    ...(broker.oauth && {
      kafkaOauth: {
        bootstrap: broker.oauth.bootstrap,
        issuer: issuer.issuer,
        audience: issuer.audience,
        privateJwk: issuer.privateJwk,
      },
    }),
  };
}
