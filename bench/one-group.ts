/**
 * The set-up the one-group benches share: the broker (KAFKA_BROKERS, or one started on free ports)
 * and one classic group of Kafka's Java consumer on a topic of its own, both named after the run.
 * `stop` leaves a broker the bench was given running.
 */

import { type RunningBroker, startBroker } from '../test/broker-harness/broker.js';
import { type RunningFixtures, startFixtures, uniqueName } from '../test/broker-harness/fixtures.js';

export interface OneGroup {
  bootstrap: string;
  groupId: string;
  fixtures: RunningFixtures;
  /** The broker this bench started, if it started one. */
  broker: RunningBroker | undefined;
}

/** The broker a bench runs against: the one KAFKA_BROKERS names, or one it starts itself. */
export async function benchBroker(): Promise<{ bootstrap: string; broker: RunningBroker | undefined }> {
  const given = process.env.KAFKA_BROKERS?.trim();
  if (given) return { bootstrap: given, broker: undefined };
  const broker = await startBroker();
  return { bootstrap: broker.bootstrap, broker };
}

export async function oneClassicGroup(prefix: string): Promise<OneGroup> {
  const { bootstrap, broker } = await benchBroker();
  const run = uniqueName(prefix);
  const groupId = `${run}-classic`;
  const fixtures = await startFixtures({
    bootstrap,
    topics: [{ name: `${run}-events`, partitions: 3, records: 10 }],
    groups: [{ type: 'classic', groupId, topics: [`${run}-events`] }],
  });
  return { bootstrap, groupId, fixtures, broker };
}
