import { describe, expect, it } from 'vitest';
import { ProtocolDecodeError, UnsupportedFieldVersionError } from '../decode-error.js';
import {
  decodeFailure,
  expectRoundTrip,
  expectTruncationsFail,
  fuzz,
  hex,
  toHex,
  versionsOf,
} from '../test-utils.js';
import {
  ApiVersions,
  type ApiVersionsRequest,
  type ApiVersionsResponse,
  apiVersionsRetryVersion,
  decodeApiVersionsFallback,
  decodeApiVersionsResponse,
} from './api-versions.js';

const request = (v: number): ApiVersionsRequest => ({
  ...(v >= 3 && { clientSoftwareName: 'kafka-groups-rest', clientSoftwareVersion: '0.1.0' }),
  ...(v >= 5 && { clusterId: 'MkU3OEVBNTcwNTJENDM2Qg', nodeId: 3 }),
});

const response = (v: number): ApiVersionsResponse => ({
  errorCode: 0,
  apiKeys: [
    { apiKey: 18, minVersion: 0, maxVersion: 4 },
    { apiKey: 3, minVersion: 0, maxVersion: 13 },
    { apiKey: 16, minVersion: 0, maxVersion: 5 },
  ],
  ...(v >= 1 && { throttleTimeMs: 0 }),
  ...(v >= 3 && {
    supportedFeatures: [
      { name: 'metadata.version', minVersion: 7, maxVersion: 27 },
      { name: 'group.version', minVersion: 0, maxVersion: 1 },
    ],
    finalizedFeaturesEpoch: 1234567890123n,
    finalizedFeatures: [{ name: 'metadata.version', maxVersionLevel: 27, minVersionLevel: 27 }],
    zkMigrationReady: v === 4,
  }),
});

// Golden bodies, derived by hand from ApiVersionsRequest.json / ApiVersionsResponse.json.
const REQUEST_V3 = hex`
  02 6b                         # ClientSoftwareName "k" (compact)
  02 31                         # ClientSoftwareVersion "1"
  00                            # tagged fields
`;
const REQUEST_V5 = hex`
  02 6b                         # ClientSoftwareName "k" (compact)
  02 31                         # ClientSoftwareVersion "1"
  03 63 31                      # ClusterId "c1" (compact nullable)
  00 00 00 02                   # NodeId 2
  00                            # tagged fields
`;
const REQUEST_V5_UNCHECKED = hex`
  02 6b                         # ClientSoftwareName "k"
  02 31                         # ClientSoftwareVersion "1"
  00                            # ClusterId null
  ff ff ff ff                   # NodeId -1
  00                            # tagged fields
`;
const RESPONSE_V0 = hex`
  00 00                         # ErrorCode 0
  00 00 00 01                   # ApiKeys: 1
  00 12 00 00 00 04             #   ApiKey 18, MinVersion 0, MaxVersion 4
`;
const RESPONSE_V3 = hex`
  00 00                         # ErrorCode 0
  03                            # ApiKeys: 2 (compact)
  00 12 00 00 00 04 00          #   ApiKey 18, 0-4, tagged fields
  00 03 00 00 00 0d 00          #   ApiKey 3, 0-13, tagged fields
  00 00 00 00                   # ThrottleTimeMs 0
  03                            # tagged fields: 3
  00 09                         #   tag 0 SupportedFeatures, 9 bytes:
  02 03 6d 76 00 01 00 1b 00    #     1 feature: "mv", MinVersion 1, MaxVersion 27, tags
  01 08                         #   tag 1 FinalizedFeaturesEpoch, 8 bytes:
  00 00 00 00 00 00 00 05       #     5
  02 09                         #   tag 2 FinalizedFeatures, 9 bytes:
  02 03 6d 76 00 1b 00 1a 00    #     1 feature: "mv", MaxVersionLevel 27, MinVersionLevel 26, tags
`;
// What a broker that knows ApiVersions only up to v3 answers to a v4 request: the v0 layout.
const FALLBACK = hex`
  00 23                         # ErrorCode 35 (UNSUPPORTED_VERSION)
  00 00 00 01                   # ApiKeys: 1 (int32 count: v0 is not flexible)
  00 12 00 00 00 03             #   ApiKey 18, MinVersion 0, MaxVersion 3
`;

describe('ApiVersions codec', () => {
  it('has the key and versions of the schema', () => {
    expect(ApiVersions).toMatchObject({ apiKey: 18, minVersion: 0, maxVersion: 5, flexibleFrom: 3 });
  });

  it.each(versionsOf(ApiVersions))('round-trips request and response v%i', (v) => {
    expectRoundTrip(ApiVersions, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    expect(ApiVersions.encodeRequest(0, {})).toEqual(hex``);
    const req3 = { clientSoftwareName: 'k', clientSoftwareVersion: '1' };
    expect(toHex(ApiVersions.encodeRequest(3, req3))).toBe(toHex(REQUEST_V3));
    expect(ApiVersions.decodeRequest(3, REQUEST_V3)).toStrictEqual(req3);
    const req5 = { ...req3, clusterId: 'c1', nodeId: 2 };
    expect(toHex(ApiVersions.encodeRequest(5, req5))).toBe(toHex(REQUEST_V5));
    expect(ApiVersions.decodeRequest(5, REQUEST_V5)).toStrictEqual(req5);
    expect(toHex(ApiVersions.encodeRequest(5, req3))).toBe(toHex(REQUEST_V5_UNCHECKED));

    const res0 = { errorCode: 0, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 4 }] };
    expect(toHex(ApiVersions.encodeResponse(0, res0))).toBe(toHex(RESPONSE_V0));
    expect(ApiVersions.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res0);

    const res3: ApiVersionsResponse = {
      errorCode: 0,
      apiKeys: [
        { apiKey: 18, minVersion: 0, maxVersion: 4 },
        { apiKey: 3, minVersion: 0, maxVersion: 13 },
      ],
      throttleTimeMs: 0,
      supportedFeatures: [{ name: 'mv', minVersion: 1, maxVersion: 27 }],
      finalizedFeaturesEpoch: 5n,
      finalizedFeatures: [{ name: 'mv', maxVersionLevel: 27, minVersionLevel: 26 }],
      zkMigrationReady: false,
    };
    expect(toHex(ApiVersions.encodeResponse(3, res3))).toBe(toHex(RESPONSE_V3));
    expect(ApiVersions.decodeResponse(3, RESPONSE_V3)).toStrictEqual(res3);
  });

  it('fills the defaults of tagged fields the broker left out', () => {
    const body = hex`00 00  01  00 00 00 00  00`; // no keys, throttle 0, no tags
    expect(ApiVersions.decodeResponse(4, body)).toStrictEqual({
      errorCode: 0,
      apiKeys: [],
      throttleTimeMs: 0,
      supportedFeatures: [],
      finalizedFeaturesEpoch: -1n,
      finalizedFeatures: [],
      zkMigrationReady: false,
    });
    // And writes nothing for them, as Kafka does.
    expect(ApiVersions.encodeResponse(4, ApiVersions.decodeResponse(4, body))).toEqual(body);
  });

  it('reads ZkMigrationReady and keeps unknown response tags', () => {
    const body = hex`
      00 00 01 00 00 00 00          # ErrorCode, ApiKeys: 0, ThrottleTimeMs
      02                            # tags: 2
      03 01 01                      #   tag 3 ZkMigrationReady, 1 byte: true
      09 02 be ef                   #   tag 9 (unknown), 2 bytes
    `;
    const decoded = ApiVersions.decodeResponse(3, body);
    expect(decoded.zkMigrationReady).toBe(true);
    expect(decoded.unknownTaggedFields).toEqual([{ tag: 9, data: hex`be ef` }]);
    expect(toHex(ApiVersions.encodeResponse(3, decoded))).toBe(toHex(body));
  });

  it('refuses a known tag whose size does not match its type', () => {
    const body = hex`00 00 01 00 00 00 00  01  01 04 00 00 00 05`; // epoch (int64) in 4 bytes
    expect(decodeFailure(() => ApiVersions.decodeResponse(3, body)).reason).toMatch(/truncated/);
  });

  it('fails cleanly on every truncation of the golden bodies', () => {
    expectTruncationsFail((b) => ApiVersions.decodeResponse(0, b), RESPONSE_V0);
    expectTruncationsFail((b) => ApiVersions.decodeResponse(3, b), RESPONSE_V3);
    expectTruncationsFail((b) => ApiVersions.decodeRequest(3, b), REQUEST_V3);
    for (let cut = 0; cut < FALLBACK.length; cut++) {
      expect(decodeApiVersionsFallback(FALLBACK.subarray(0, cut))).toBeUndefined();
    }
  });

  it('refuses the v5 cluster and node in older versions', () => {
    expect(() => ApiVersions.encodeRequest(4, { clusterId: 'c1' })).toThrow(/clusterId/);
    expect(() => ApiVersions.encodeRequest(4, { nodeId: 2 })).toThrow(/nodeId/);
    expect(ApiVersions.encodeRequest(4, { clusterId: null, nodeId: -1 })).toEqual(hex`01 01 00`);
  });

  it('refuses v3+ fields in older versions', () => {
    expect(() => ApiVersions.encodeRequest(2, { clientSoftwareName: 'x' })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(ApiVersions.encodeRequest(2, { clientSoftwareName: '', clientSoftwareVersion: '' })).toEqual(
      hex``,
    );
    expect(() => ApiVersions.encodeResponse(2, { ...response(2), zkMigrationReady: true })).toThrow(
      /zkMigration/,
    );
    expect(() => ApiVersions.encodeResponse(2, { ...response(2), finalizedFeaturesEpoch: 3n })).toThrow(
      /Epoch/,
    );
  });

  describe('the UNSUPPORTED_VERSION fallback', () => {
    it('reads the v0-format answer to a version the broker does not know', () => {
      const expected = { errorCode: 35, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 3 }] };
      expect(decodeApiVersionsFallback(FALLBACK)).toStrictEqual(expected);
      // Read as v4 it is not valid (the int32 count's first byte reads as a null compact array).
      expect(() => ApiVersions.decodeResponse(4, FALLBACK)).toThrow(ProtocolDecodeError);
      expect(decodeApiVersionsResponse(4, FALLBACK)).toStrictEqual({ version: 0, response: expected });
      expect(apiVersionsRetryVersion(expected, 4)).toBe(3);
    });

    it('prefers the requested version when the body is valid in it', () => {
      const body = ApiVersions.encodeResponse(4, response(4));
      expect(decodeApiVersionsResponse(4, body)).toStrictEqual({ version: 4, response: response(4) });
      expect(apiVersionsRetryVersion(response(4), 4)).toBeUndefined();
    });

    it('says undefined (fallback) or throws the original error (full decode) for garbage', () => {
      expect(decodeApiVersionsFallback(hex`00`)).toBeUndefined();
      const error = decodeFailure(() => decodeApiVersionsResponse(3, hex`00 23 ff`));
      expect(error.apiVersion).toBe(3);
    });

    it('finds no retry version when the broker names none or none is lower', () => {
      expect(apiVersionsRetryVersion({ errorCode: 35, apiKeys: [] }, 4)).toBeUndefined();
      const only4 = { errorCode: 35, apiKeys: [{ apiKey: 18, minVersion: 4, maxVersion: 9 }] };
      expect(apiVersionsRetryVersion(only4, 4)).toBeUndefined();
      const newer = { errorCode: 35, apiKeys: [{ apiKey: 18, minVersion: 0, maxVersion: 9 }] };
      expect(apiVersionsRetryVersion(newer, 4)).toBe(3);
    });
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      ApiVersions,
      versionsOf(ApiVersions).map((v) => ({
        version: v,
        request: ApiVersions.encodeRequest(v, request(v)),
        response: ApiVersions.encodeResponse(v, response(v)),
      })),
    );
  });
});
