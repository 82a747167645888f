/**
 * What the transport needs to reach one cluster: addresses, TLS, SASL, timeouts. The transport's
 * own settings, so that it knows nothing of how they were found; config.ts builds them from the
 * environment (KAFKA_* variables), tests and benchmarks write them out.
 */

export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer' | 'aws-msk-iam';

/** An OAuth client of a token endpoint (OIDC client credentials grant). */
export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  /** Secret. */
  clientSecret: string;
  scope?: string;
  /** Some issuers (Auth0 and the like) need the API named this way. */
  audience?: string;
  /** client_secret_basic (default, as Kafka's Java client) or client_secret_post. */
  clientAuth: 'basic' | 'post';
}

/** SASL: a user and password, an OAuth client (OIDC client credentials), or Amazon MSK IAM. */
export type SaslSettings =
  | { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string }
  | ({ mechanism: 'oauthbearer' } & ClientCredentials)
  | { mechanism: 'aws-msk-iam'; region: string };

export interface ClusterSettings {
  brokers: string[];
  clientId: string;
  /** `false`, or TLS options for kafkajs (`true` means system CAs). */
  ssl: false | { ca?: string; cert?: string; key?: string; rejectUnauthorized: boolean; servername?: string };
  sasl?: SaslSettings;
  connectionTimeoutMs: number;
  requestTimeoutMs: number;
  /** The cluster's id (KAFKA_CLUSTER_ID): a broker of another cluster is refused; unset: the first seen. */
  clusterId?: string;
}

/**
 * Settings the transport cannot work with, named by their field. config.ts checks the environment
 * first and names the variable; this is what is left for the transport to find (a capability the
 * runtime did not pass in).
 */
export class TransportSettingsError extends Error {
  constructor(
    readonly setting: string,
    reason: string,
  ) {
    super(`${setting}: ${reason}`);
    this.name = 'TransportSettingsError';
  }
}
