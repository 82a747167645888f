/**
 * Tokens handed back by callers (reset plans, lag snapshots) name the cluster they were made on:
 * its alias here and the id Kafka gives it. A token is refused on another cluster, or on the same
 * alias once it points at another cluster (its id changed), so a plan made on one cluster cannot
 * be applied through /clusters/{other}, nor a snapshot compared with another cluster's offsets.
 */

/** The cluster a request is served by. */
export interface TokenCluster {
  alias: string;
  /** Kafka's cluster id; '' when the broker gives none. */
  id: string;
}

/** `data` with the cluster it was made on, under the key `k`. */
export function bindCluster<T extends object>(data: T, cluster: TokenCluster): T & { k: [string, string] } {
  return { ...data, k: [cluster.alias, cluster.id] };
}

/** Why a verified token's data may not be used on `cluster`; undefined when it may. */
export function clusterMismatch(data: unknown, cluster: TokenCluster): string | undefined {
  const k =
    data !== null && typeof data === 'object' && Object.hasOwn(data, 'k')
      ? (data as { k: unknown }).k
      : undefined;
  if (!Array.isArray(k) || k.length !== 2 || !k.every((v) => typeof v === 'string')) {
    return 'the token names no cluster (it was made by an earlier version)';
  }
  const [alias, id] = k as [string, string];
  if (alias !== cluster.alias) {
    return `the token was made on the cluster '${alias}', not on '${cluster.alias}'`;
  }
  if (id !== cluster.id) {
    return `the token was made on another cluster behind the alias '${alias}' (its cluster id differs)`;
  }
  return undefined;
}
