/**
 * vitest global setup: one Kafka broker for the whole run.
 *
 * KAFKA_BROKERS set (e.g. from `npm run kafka:start`): use it as it is. Otherwise start a broker of
 * KAFKA_VERSION (default: the pinned version) and stop it in teardown. Tests read
 * `inject('kafkaBrokers')` ('host:port[,host:port]') and `inject('kafkaVersion')` (the version, or
 * KAFKA_VERSION / 'external' for a broker given by KAFKA_BROKERS).
 *
 * The broker's JVM exits when this process does (its stdin is a pipe from here), so a crashed or
 * interrupted vitest leaves no broker behind even when teardown never runs.
 */
import type { TestProject } from 'vitest/node';
import { type RunningBroker, startBroker } from './broker.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap servers of the test broker, 'host:port[,host:port...]'. */
    kafkaBrokers: string;
    /** Kafka version of the test broker ('external' when KAFKA_BROKERS gave no KAFKA_VERSION). */
    kafkaVersion: string;
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
  const broker: RunningBroker = await startBroker();
  process.stderr.write(
    `[kafka-test] Kafka ${broker.version} ready on ${broker.bootstrap} in ${Date.now() - started} ms ` +
      `(log: ${broker.logFile})\n`,
  );
  project.provide('kafkaBrokers', broker.bootstrap);
  project.provide('kafkaVersion', broker.version);

  // No signal handlers here (they would change how vitest reacts to Ctrl-C): if vitest exits
  // without teardown, the broker sees its stdin close and stops itself.
  return () => broker.stop();
}
