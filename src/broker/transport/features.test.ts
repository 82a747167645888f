import { describe, expect, it } from 'vitest';
import { ApiVersions } from '../protocol/messages/api-versions.js';
import { hex } from '../protocol/test-utils.js';
import { featuresOf } from './features.js';

// An ApiVersions v4 answer as Kafka 4.4.0 writes the tagged fields (kafka-clients 4.4.0,
// ApiVersionsResponseData.SCHEMA_4 tags: 1 -> finalized_features_epoch:INT64,
// 2 -> finalized_features:COMPACT_ARRAY({name:COMPACT_STRING,max_version_level:INT16,
// min_version_level:INT16,_tagged_fields})), levels unsorted as the broker may send them.
const RESPONSE_V4 = hex`
  00 00                                           # ErrorCode 0
  01                                              # ApiKeys: 0 (compact)
  00 00 00 00                                     # ThrottleTimeMs 0
  02                                              # tagged fields: 2
  01 08  00 00 00 00 00 00 00 2a                  #   tag 1 FinalizedFeaturesEpoch: 42
  02 3c                                           #   tag 2 FinalizedFeatures, 60 bytes:
  04                                              #     3 features
  10 73 74 72 65 61 6d 73 2e 76 65 72 73 69 6f 6e #     "streams.version"
  00 01 00 01 00                                  #       MaxVersionLevel 1, MinVersionLevel 1, tags
  0e 67 72 6f 75 70 2e 76 65 72 73 69 6f 6e       #     "group.version"
  00 01 00 01 00                                  #       1, 1, tags
  0e 73 68 61 72 65 2e 76 65 72 73 69 6f 6e       #     "share.version"
  00 01 00 00 00                                  #       MaxVersionLevel 1, MinVersionLevel 0, tags
`;

describe('feature levels from ApiVersions', () => {
  it('lists the finalized levels by name, max level first on the wire', () => {
    expect(featuresOf(4, ApiVersions.decodeResponse(4, RESPONSE_V4))).toStrictEqual({
      finalizedEpoch: 42,
      finalized: [
        { name: 'group.version', level: 1, minLevel: 1 },
        { name: 'share.version', level: 1, minLevel: 0 },
        { name: 'streams.version', level: 1, minLevel: 1 },
      ],
      supported: [],
    });
  });

  it('says null for an epoch the broker did not send, and for answers below v3', () => {
    const bare = ApiVersions.decodeResponse(3, hex`00 00  01  00 00 00 00  00`);
    expect(featuresOf(3, bare)).toStrictEqual({ finalizedEpoch: null, finalized: [], supported: [] });
    expect(featuresOf(2, { errorCode: 0, apiKeys: [], throttleTimeMs: 0 })).toBeNull();
  });
});
