import type { ApiMessage } from '../protocol/api.js';
import { ApiVersions } from '../protocol/messages/api-versions.js';
import { Metadata } from '../protocol/messages/metadata.js';
import { pickVersion } from './framing.js';
import type { VersionRange } from './link.js';

/**
 * The cluster a cluster's connections must reach. Several clusters can sit behind one deployment,
 * and a DNS, VIP or NAT mix-up can put a broker of cluster B behind an address configured for A:
 * every new connection proves which cluster it reached before it carries a request (connection.ts),
 * so no answer of another cluster is ever read as this one's.
 */

export class ClusterPin {
  #id: string | undefined;

  /**
   * `id`: the configured cluster id (KAFKA_CLUSTER_ID); undefined: the first one seen is kept.
   * `nodes`: the node id of each address Metadata named (`host:port`), which ApiVersions v5 needs
   * beside the cluster id (a broker refuses one without the other).
   */
  constructor(
    id: string | undefined,
    private readonly nodes: ReadonlyMap<string, number>,
  ) {
    this.#id = id;
  }

  /**
   * What ApiVersions v5 names for a connection to `address`: the cluster and its node, both or
   * neither (a broker refuses one alone). Undefined before an id is known and Metadata named the
   * address's node: Metadata checks the cluster then (`seenClusterId`).
   */
  claim(address: string): { clusterId: string; nodeId: number } | undefined {
    const nodeId = this.nodes.get(address);
    return this.#id === undefined || nodeId === undefined ? undefined : { clusterId: this.#id, nodeId };
  }

  /** The id connections must find; undefined until configured or first seen. */
  get expected(): string | undefined {
    return this.#id;
  }

  /** Whether `seen` is this cluster's id; the first id seen becomes it when none was configured. */
  admit(seen: string): boolean {
    this.#id ??= seen;
    return seen === this.#id;
  }
}

/** What a connection lends the check: an exchange on its socket, and its SASL sign-in. */
export interface ClusterProbe {
  exchange<Req, Res>(api: ApiMessage<Req, Res>, version: number, request: Req): Promise<Res>;
  authenticate(versions: Map<number, VersionRange>): Promise<void>;
}

/**
 * The cluster id the broker's Metadata names (null before Metadata v2, which has none), and the
 * versions it was asked with. Without `versions` (after a REBOOTSTRAP_REQUIRED, which carries
 * none) ApiVersions is asked first, without a claim, and the sign-in made, as Metadata needs.
 */
export async function seenClusterId(
  probe: ClusterProbe,
  clientSoftware: { clientSoftwareName: string; clientSoftwareVersion: string },
  versions?: Map<number, VersionRange>,
): Promise<{ clusterId: string | null; versions: Map<number, VersionRange> }> {
  let known = versions;
  if (!known) {
    const answer = await probe.exchange(ApiVersions, 4, clientSoftware);
    known = new Map(answer.apiKeys.map((k) => [k.apiKey, { min: k.minVersion, max: k.maxVersion }]));
    await probe.authenticate(known);
  }
  const version = pickVersion({ min: Metadata.minVersion, max: Metadata.maxVersion }, known.get(3), {
    min: 1,
  });
  if (version === undefined || version < 2) return { clusterId: null, versions: known };
  const metadata = await probe.exchange(Metadata, version, {
    // v1+ reads an empty list as no topic.
    topics: [],
    ...(version >= 4 && { allowAutoTopicCreation: false }),
  });
  return { clusterId: metadata.clusterId ?? null, versions: known };
}
