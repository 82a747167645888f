/** The cluster's feature levels, read from an ApiVersions v3+ answer. */

import type { ApiVersionsResponse } from '../protocol/messages/api-versions.js';

/**
 * Feature levels as one broker reports them in ApiVersions v3+: the finalized level of each
 * feature the cluster runs at (`group.version`, `share.version`, `streams.version`, …) and the
 * range this broker could run. Null when the broker answers ApiVersions below v3.
 */
export interface ClusterFeatures {
  /** Epoch of the finalized levels; null when the broker has none yet (-1 on the wire). */
  finalizedEpoch: number | null;
  finalized: { name: string; level: number; minLevel: number }[];
  supported: { name: string; minVersion: number; maxVersion: number }[];
}

export const CLIENT_SOFTWARE = { clientSoftwareName: 'kafka-groups-rest', clientSoftwareVersion: '0.1.0' };

export function featuresOf(version: number, response: ApiVersionsResponse): ClusterFeatures | null {
  if (version < 3) return null;
  const epoch = response.finalizedFeaturesEpoch ?? -1n;
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  return {
    finalizedEpoch: epoch < 0n ? null : Number(epoch),
    finalized: (response.finalizedFeatures ?? [])
      .map((f) => ({ name: f.name, level: f.maxVersionLevel, minLevel: f.minVersionLevel }))
      .sort(byName),
    supported: (response.supportedFeatures ?? [])
      .map((f) => ({ name: f.name, minVersion: f.minVersion, maxVersion: f.maxVersion }))
      .sort(byName),
  };
}
