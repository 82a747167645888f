/**
 * The one wiring of configuration → Kafka connections → group service, used by every runtime
 * entry, the tests and the benchmarks, so they differ only in what they pass as runtime options.
 * Every cluster of the configuration gets its own connections, timeouts and credentials: one that
 * is down or slow costs the others nothing.
 */

import { type ClusterOptions, KafkaCluster } from './broker/transport/cluster.js';
import type { ClusterSettings } from './broker/transport/settings.js';
import type { RetryPolicy } from './groups/coordinators.js';
import { KafkaGroupService } from './groups/service.js';
import { type Logger, silentLogger } from './logger.js';

export interface RuntimeOptions extends Partial<Omit<ClusterOptions, 'logger'>> {
  logger?: Logger;
  /** Coordinator retries (tests shorten them). */
  retry?: RetryPolicy;
}

/** One cluster behind the API. */
export interface ClusterEntry {
  readonly alias: string;
  readonly groups: KafkaGroupService;
  readonly cluster: KafkaCluster;
  /** Its settings, for `GET /clusters` (which shows what is not secret). */
  readonly kafka: ClusterSettings;
}

/**
 * What the wiring takes of the configuration (config.ts's Config is one): the clusters' transport
 * settings, the default one under `kafka`.
 */
export interface ServiceSettings {
  /** The default cluster's: a caller that sets it alone (tests, benchmarks) is heard. */
  kafka: ClusterSettings;
  /** Every cluster, the default first. */
  clusters?: readonly { alias: string; kafka: ClusterSettings }[];
  defaultCluster?: string;
}

export interface Service {
  /** What the routes call: the default cluster's. */
  readonly groups: KafkaGroupService;
  /** The connections behind it: their counts, for the Worker's header and the tests. */
  readonly cluster: KafkaCluster;
  /** Every cluster, the default first. */
  readonly clusters: readonly ClusterEntry[];
  readonly logger: Logger;
  /** Closes every connection of every cluster. */
  close(): Promise<void>;
}

export function createService(config: ServiceSettings, options: RuntimeOptions = {}): Service {
  const { logger = silentLogger, retry, ...cluster } = options;
  // config.kafka is the default cluster's: a caller that sets it alone (tests, benchmarks) is heard.
  const configured = config.clusters ?? [];
  const entries = [
    { alias: configured[0]?.alias ?? config.defaultCluster ?? 'default', kafka: config.kafka },
    ...configured.slice(1),
  ];
  const clusters = entries.map(({ alias, kafka }) => {
    const connections = new KafkaCluster(kafka, { ...cluster, logger: aliased(logger, alias, config) });
    const groups = new KafkaGroupService(connections, retry ? { retry } : {});
    return { alias, groups, cluster: connections, kafka };
  });
  const first = clusters[0] as ClusterEntry;
  return {
    groups: first.groups,
    cluster: first.cluster,
    clusters,
    logger,
    close: async () => {
      await Promise.all(clusters.map((c) => c.groups.close()));
    },
  };
}

/** With several clusters, each log line says which one it is about. */
function aliased(logger: Logger, alias: string, config: ServiceSettings): Logger {
  if ((config.clusters?.length ?? 1) <= 1) return logger;
  const add = (fields?: Record<string, unknown>) => ({ cluster: alias, ...fields });
  return {
    debug: (message, fields) => logger.debug(message, add(fields)),
    info: (message, fields) => logger.info(message, add(fields)),
    warn: (message, fields) => logger.warn(message, add(fields)),
    error: (message, fields) => logger.error(message, add(fields)),
  };
}

/** The clusters as the app takes them (createApp's `clusters`), with what may be shown of each. */
export function clustersOf(service: Service, defaultAlias = service.clusters[0]?.alias ?? 'default') {
  return {
    defaultAlias,
    list: service.clusters.map((k) => ({
      alias: k.alias,
      service: k.groups,
      settings: {
        brokers: k.kafka.brokers,
        tls: k.kafka.ssl !== false,
        sasl: k.kafka.sasl?.mechanism ?? null,
      },
    })),
  };
}
