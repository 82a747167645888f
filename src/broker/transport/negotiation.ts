/**
 * A connection's first exchange: ApiVersions at the highest version both sides know (asking again
 * within the broker's range when it answers UNSUPPORTED_VERSION), then the SASL sign-in, then proof
 * of the cluster reached (cluster-pin.ts): ApiVersions v5 names the cluster and node expected, and
 * a broker of another cluster answers REBOOTSTRAP_REQUIRED; otherwise Metadata names the cluster.
 * Either way no request of a caller's goes out on a connection to another cluster.
 */

import { ClusterMismatchError, KafkaResponseError, UnsupportedApiError } from '../errors.js';
import { ErrorCode } from '../protocol/errors.js';
import { ApiVersions } from '../protocol/messages/api-versions.js';
import { type ClusterPin, type ClusterProbe, seenClusterId } from './cluster-pin.js';
import { CLIENT_SOFTWARE } from './features.js';
import { pickVersion } from './framing.js';
import type { VersionRange } from './link.js';

/** The connection being negotiated: its exchanges, its sign-in, and how to drop its socket. */
export interface Negotiating extends ClusterProbe {
  readonly label: string;
  readonly pin: ClusterPin | undefined;
  /** Drops the connection's socket (it reached another cluster): the next call opens a new one. */
  drop(): void;
}

/** The broker's version range per API key, once the connection has proved its cluster. */
export async function negotiateVersions(c: Negotiating): Promise<Map<number, VersionRange>> {
  const { label, pin } = c;
  const claim = pin?.claim(label);
  let version = ApiVersions.maxVersion;
  for (;;) {
    const request =
      version >= 5 && claim ? { ...CLIENT_SOFTWARE, ...claim } : version >= 3 ? CLIENT_SOFTWARE : {};
    const response = await c.exchange(ApiVersions, version, request);
    if (response.errorCode === ErrorCode.REBOOTSTRAP_REQUIRED && claim) {
      const seen = await seenClusterId(c, CLIENT_SOFTWARE).catch(() => undefined);
      // The cluster's own, with another node at this address now (a broker replaced): served.
      if (seen?.clusterId === claim.clusterId) return seen.versions;
      c.drop();
      throw new ClusterMismatchError(label, claim.clusterId, seen?.clusterId ?? null);
    }
    const ranges = new Map<number, VersionRange>();
    for (const key of response.apiKeys) ranges.set(key.apiKey, { min: key.minVersion, max: key.maxVersion });
    if (response.errorCode === ErrorCode.UNSUPPORTED_VERSION) {
      // The broker answered in v0 with its own range of ApiVersions: ask again within it.
      const next = pickVersion({ min: ApiVersions.minVersion, max: ApiVersions.maxVersion }, ranges.get(18));
      if (next === undefined || next >= version)
        throw new UnsupportedApiError(label, 'ApiVersions', ranges.get(18), {
          min: 0,
          max: ApiVersions.maxVersion,
        });
      version = next;
      continue;
    }
    if (response.errorCode !== ErrorCode.NONE)
      throw new KafkaResponseError(label, 'ApiVersions', response.errorCode);
    // Brokers answer ApiVersions before SASL: authenticate now, so wrong credentials fail the
    // negotiation (and readiness), not only the next call.
    await c.authenticate(ranges);
    // Unless a v5 answer to the claim proved it, Metadata names the cluster.
    if (pin && !(claim && version >= 5)) {
      const { clusterId: seen } = await seenClusterId(c, CLIENT_SOFTWARE, ranges);
      if (seen !== null && !pin.admit(seen)) {
        c.drop();
        throw new ClusterMismatchError(label, pin.expected as string, seen);
      }
    }
    return ranges;
  }
}
