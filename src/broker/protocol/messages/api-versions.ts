/*
  ApiVersions (API key 18), versions 0-5, flexible from 3
  (ApiVersionsRequest.json / ApiVersionsResponse.json)

  Request =>
    ClientSoftwareName      string  v3+
    ClientSoftwareVersion   string  v3+
    ClusterId               string  v5+  (nullable, default null)
    NodeId                  int32   v5+  (default -1)
  Response =>
    ErrorCode               int16
    ApiKeys                 [ApiVersion]
      ApiKey                int16
      MinVersion            int16
      MaxVersion            int16
    ThrottleTimeMs          int32   v1+
    SupportedFeatures       [SupportedFeatureKey]  tag 0, v3+
      Name                  string
      MinVersion            int16
      MaxVersion            int16
    FinalizedFeaturesEpoch  int64   tag 1, v3+  (default -1)
    FinalizedFeatures       [FinalizedFeatureKey]  tag 2, v3+
      Name                  string
      MaxVersionLevel       int16   (max before min, unlike SupportedFeatures)
      MinVersionLevel       int16
    ZkMigrationReady        bool    tag 3, v3+  (default false)

  kafka-clients 4.4.0 prints (ApiVersionsResponseData.SCHEMA_4, tagged fields read from its
  TaggedFields; SCHEMA_3 and SCHEMA_5 are the same):
    {error_code:INT16,api_keys:COMPACT_ARRAY({api_key:INT16,min_version:INT16,max_version:INT16,
     _tagged_fields}),throttle_time_ms:INT32,_tagged_fields:{
     0 -> supported_features:COMPACT_ARRAY({name:COMPACT_STRING,min_version:INT16,max_version:INT16,_tagged_fields}),
     1 -> finalized_features_epoch:INT64,
     2 -> finalized_features:COMPACT_ARRAY({name:COMPACT_STRING,max_version_level:INT16,min_version_level:INT16,_tagged_fields}),
     3 -> zk_migration_ready:BOOLEAN}}
  Request v5 (KIP-1242, Kafka 4.4) names the cluster and the node the client means to reach: a broker
  of another cluster, or another node, answers REBOOTSTRAP_REQUIRED (129) instead of its versions.
  The v5 answer is v4's.

  The response header is always v0 (no tagged fields), even for the flexible versions: a client that
  does not yet know the broker's versions must be able to read the header of any answer.
  A broker that does not know the requested version answers in the v0 format with
  UNSUPPORTED_VERSION (35) and, since Kafka 2.4, its own ApiVersions range in ApiKeys; see
  decodeApiVersionsResponse.
*/

import { defineApi } from '../api.js';
import { type Decoder, defined, type Encoder, type Tagged } from '../codec.js';
import { ProtocolDecodeError } from '../decode-error.js';
import { ErrorCode } from '../errors.js';
import type { TaggedField } from '../reader.js';

export interface ApiVersionsRequest extends Tagged {
  clientSoftwareName?: string;
  clientSoftwareVersion?: string;
  /** v5+: the cluster the client means to reach; null (default): not checked. */
  clusterId?: string | null;
  /** v5+: the node the client means to reach; -1 (default): not checked. */
  nodeId?: number;
}

export interface ApiVersion extends Tagged {
  apiKey: number;
  minVersion: number;
  maxVersion: number;
}

export interface SupportedFeatureKey extends Tagged {
  name: string;
  minVersion: number;
  maxVersion: number;
}

export interface FinalizedFeatureKey extends Tagged {
  name: string;
  maxVersionLevel: number;
  minVersionLevel: number;
}

export interface ApiVersionsResponse extends Tagged {
  errorCode: number;
  apiKeys: ApiVersion[];
  throttleTimeMs?: number;
  /** v3+; [] when the broker sent none. */
  supportedFeatures?: SupportedFeatureKey[];
  /** v3+; -1n (unknown) when the broker sent none. */
  finalizedFeaturesEpoch?: bigint;
  /** v3+; [] when the broker sent none. */
  finalizedFeatures?: FinalizedFeatureKey[];
  /** v3+; false when the broker sent none. */
  zkMigrationReady?: boolean;
}

const TAG_SUPPORTED_FEATURES = 0;
const TAG_FINALIZED_FEATURES_EPOCH = 1;
const TAG_FINALIZED_FEATURES = 2;
const TAG_ZK_MIGRATION_READY = 3;

function writeApiVersion(e: Encoder, a: ApiVersion): void {
  e.int16(a.apiKey).int16(a.minVersion).int16(a.maxVersion).tags(a.unknownTaggedFields);
}

function readApiVersion(d: Decoder): ApiVersion {
  return defined({
    apiKey: d.int16(),
    minVersion: d.int16(),
    maxVersion: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

function writeSupportedFeature(e: Encoder, f: SupportedFeatureKey): void {
  e.string(f.name).int16(f.minVersion).int16(f.maxVersion).tags(f.unknownTaggedFields);
}

function readSupportedFeature(d: Decoder): SupportedFeatureKey {
  return defined({
    name: d.string('name'),
    minVersion: d.int16(),
    maxVersion: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

function writeFinalizedFeature(e: Encoder, f: FinalizedFeatureKey): void {
  e.string(f.name).int16(f.maxVersionLevel).int16(f.minVersionLevel).tags(f.unknownTaggedFields);
}

function readFinalizedFeature(d: Decoder): FinalizedFeatureKey {
  return defined({
    name: d.string('name'),
    maxVersionLevel: d.int16(),
    minVersionLevel: d.int16(),
    unknownTaggedFields: d.tags(),
  });
}

export const ApiVersions = defineApi<ApiVersionsRequest, ApiVersionsResponse>({
  apiKey: 18,
  name: 'ApiVersions',
  minVersion: 0,
  maxVersion: 5,
  flexibleFrom: 3,

  writeRequest(e, req) {
    if (e.version >= 3) {
      e.string(req.clientSoftwareName ?? '').string(req.clientSoftwareVersion ?? '');
    } else {
      e.absent('clientSoftwareName', req.clientSoftwareName, '');
      e.absent('clientSoftwareVersion', req.clientSoftwareVersion, '');
    }
    if (e.version >= 5) e.nullableString(req.clusterId ?? null).int32(req.nodeId ?? -1);
    else {
      e.absent('clusterId', req.clusterId, null);
      e.absent('nodeId', req.nodeId, -1);
    }
    e.tags(req.unknownTaggedFields);
  },

  readRequest(d) {
    return defined({
      clientSoftwareName: d.version >= 3 ? d.string('clientSoftwareName') : undefined,
      clientSoftwareVersion: d.version >= 3 ? d.string('clientSoftwareVersion') : undefined,
      clusterId: d.version >= 5 ? d.nullableString('clusterId') : undefined,
      nodeId: d.version >= 5 ? d.int32() : undefined,
      unknownTaggedFields: d.tags(),
    });
  },

  writeResponse(e, res) {
    e.int16(res.errorCode);
    e.array(res.apiKeys, writeApiVersion);
    if (e.version >= 1) e.int32(res.throttleTimeMs ?? 0);
    else e.absent('throttleTimeMs', res.throttleTimeMs, 0);
    const known: TaggedField[] = [];
    if (e.version >= 3) {
      // Kafka writes a tagged field only when it differs from its default; so does this.
      if (res.supportedFeatures?.length) {
        const features = res.supportedFeatures;
        known.push(e.tagged(TAG_SUPPORTED_FEATURES, (t) => t.array(features, writeSupportedFeature)));
      }
      const epoch = res.finalizedFeaturesEpoch;
      if (epoch !== undefined && epoch !== -1n) {
        known.push(e.tagged(TAG_FINALIZED_FEATURES_EPOCH, (t) => t.int64(epoch)));
      }
      if (res.finalizedFeatures?.length) {
        const features = res.finalizedFeatures;
        known.push(e.tagged(TAG_FINALIZED_FEATURES, (t) => t.array(features, writeFinalizedFeature)));
      }
      if (res.zkMigrationReady) known.push(e.tagged(TAG_ZK_MIGRATION_READY, (t) => t.boolean(true)));
    } else {
      e.absent('supportedFeatures', res.supportedFeatures, []);
      e.absent('finalizedFeaturesEpoch', res.finalizedFeaturesEpoch, -1n);
      e.absent('finalizedFeatures', res.finalizedFeatures, []);
      e.absent('zkMigrationReady', res.zkMigrationReady, false);
    }
    e.tags(res.unknownTaggedFields, known);
  },

  readResponse(d) {
    const errorCode = d.int16();
    const apiKeys = d.array(readApiVersion, 6, 'apiKeys');
    const throttleTimeMs = d.version >= 1 ? d.int32() : undefined;
    if (d.version < 3) return defined({ errorCode, apiKeys, throttleTimeMs });
    const res: ApiVersionsResponse = {
      errorCode,
      apiKeys,
      throttleTimeMs,
      supportedFeatures: [],
      finalizedFeaturesEpoch: -1n,
      finalizedFeatures: [],
      zkMigrationReady: false,
    };
    const unknown = d.tags((tag, reader) => {
      const t = d.sub(reader);
      switch (tag) {
        case TAG_SUPPORTED_FEATURES:
          res.supportedFeatures = t.array(readSupportedFeature, 6);
          return true;
        case TAG_FINALIZED_FEATURES_EPOCH:
          res.finalizedFeaturesEpoch = t.int64();
          return true;
        case TAG_FINALIZED_FEATURES:
          res.finalizedFeatures = t.array(readFinalizedFeature, 6);
          return true;
        case TAG_ZK_MIGRATION_READY:
          res.zkMigrationReady = t.boolean();
          return true;
        default:
          return false;
      }
    });
    if (unknown) res.unknownTaggedFields = unknown;
    return res;
  },
});

/**
 * Reads `body` as the v0 answer a broker gives to an ApiVersions version it does not know.
 * Undefined when the bytes are not that either, so the caller can report the original failure.
 */
export function decodeApiVersionsFallback(body: Uint8Array): ApiVersionsResponse | undefined {
  try {
    return ApiVersions.decodeResponse(0, body);
  } catch (error) {
    if (error instanceof ProtocolDecodeError) return undefined;
    throw error;
  }
}

/**
 * Reads an ApiVersions answer the way Kafka's client does (ApiVersionsResponse.parse): at the
 * requested version, and if that fails, as v0, which is how a broker answers a version it does not
 * know. `version` says which one it was. When it is 0 and errorCode is UNSUPPORTED_VERSION (35),
 * ask again with the highest version in `apiKeys` for key 18 (see apiVersionsRetryVersion).
 */
export function decodeApiVersionsResponse(
  version: number,
  body: Uint8Array,
): { version: number; response: ApiVersionsResponse } {
  try {
    return { version, response: ApiVersions.decodeResponse(version, body) };
  } catch (error) {
    if (version === 0 || !(error instanceof ProtocolDecodeError)) throw error;
    const fallback = decodeApiVersionsFallback(body);
    if (!fallback) throw error;
    return { version: 0, response: fallback };
  }
}

/**
 * The version to ask again with after an UNSUPPORTED_VERSION answer: the highest both sides speak,
 * below the one that failed. Undefined when there is none (or the broker named no range for 18).
 */
export function apiVersionsRetryVersion(
  response: ApiVersionsResponse,
  failedVersion: number,
): number | undefined {
  if (response.errorCode !== ErrorCode.UNSUPPORTED_VERSION) return undefined;
  const range = response.apiKeys.find((a) => a.apiKey === ApiVersions.apiKey);
  if (!range) return undefined;
  const next = Math.min(range.maxVersion, ApiVersions.maxVersion, failedVersion - 1);
  return next >= Math.max(range.minVersion, ApiVersions.minVersion) ? next : undefined;
}
