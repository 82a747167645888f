/**
 * The one wiring of configuration → Kafka connections → group service, used by every runtime
 * entry, the tests and the benchmarks, so they differ only in what they pass as runtime options.
 */

import { type ClusterOptions, KafkaCluster } from './broker/transport/cluster.js';
import type { Config } from './config.js';
import type { RetryPolicy } from './groups/coordinators.js';
import { KafkaGroupService } from './groups/service.js';
import { type Logger, silentLogger } from './logger.js';

export interface RuntimeOptions extends Partial<Omit<ClusterOptions, 'logger'>> {
  logger?: Logger;
  /** Coordinator retries (tests shorten them). */
  retry?: RetryPolicy;
}

export interface Service {
  /** What the routes call. */
  readonly groups: KafkaGroupService;
  /** The connections behind it: their counts, for the Worker's header and the tests. */
  readonly cluster: KafkaCluster;
  readonly logger: Logger;
  /** Closes every connection. */
  close(): Promise<void>;
}

export function createService(config: Config, options: RuntimeOptions = {}): Service {
  const { logger = silentLogger, retry, ...cluster } = options;
  const kafka = new KafkaCluster(config.kafka, { ...cluster, logger });
  const groups = new KafkaGroupService(kafka, retry ? { retry } : {});
  return { groups, cluster: kafka, logger, close: () => groups.close() };
}
