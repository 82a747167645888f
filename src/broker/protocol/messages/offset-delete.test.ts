import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex } from '../test-utils.js';
import { OffsetDelete, type OffsetDeleteRequest, type OffsetDeleteResponse } from './offset-delete.js';

const request: OffsetDeleteRequest = {
  groupId: 'orders-app',
  topics: [
    { name: 'orders', partitions: [{ partitionIndex: 0 }, { partitionIndex: 2 }] },
    { name: 'ñ-topic', partitions: [] },
  ],
};

const response: OffsetDeleteResponse = {
  errorCode: 0,
  throttleTimeMs: 3,
  topics: [
    {
      name: 'orders',
      partitions: [
        { partitionIndex: 0, errorCode: 0 },
        { partitionIndex: 2, errorCode: 86 },
      ],
    },
  ],
};

// Golden bodies, derived by hand from OffsetDeleteRequest.json / OffsetDeleteResponse.json.
const REQUEST_V0 = hex`
  00 02 67 31                   # GroupId "g1" (int16 length)
  00 00 00 01                   # Topics: 1 (int32 count)
  00 01 74                      #   Name "t"
  00 00 00 02                   #   Partitions: 2
  00 00 00 00                   #     PartitionIndex 0
  00 00 00 01                   #     PartitionIndex 1
`;
const RESPONSE_V0 = hex`
  00 00                         # ErrorCode 0 (before ThrottleTimeMs in this RPC)
  00 00 00 00                   # ThrottleTimeMs 0
  00 00 00 01                   # Topics: 1
  00 01 74                      #   Name "t"
  00 00 00 02                   #   Partitions: 2
  00 00 00 00                   #     PartitionIndex 0
  00 00                         #     ErrorCode 0
  00 00 00 01                   #     PartitionIndex 1
  00 56                         #     ErrorCode 86 (GROUP_SUBSCRIBED_TO_TOPIC)
`;

describe('OffsetDelete codec', () => {
  it('has the key and the one version of the schema, never flexible', () => {
    expect(OffsetDelete).toMatchObject({
      apiKey: 47,
      name: 'OffsetDelete',
      minVersion: 0,
      maxVersion: 0,
      flexibleFrom: Number.POSITIVE_INFINITY,
    });
  });

  it('round-trips request and response v0', () => {
    expectRoundTrip(OffsetDelete, 0, request, response);
  });

  it('matches golden bytes', () => {
    const req = {
      groupId: 'g1',
      topics: [{ name: 't', partitions: [{ partitionIndex: 0 }, { partitionIndex: 1 }] }],
    };
    expect(toHex(OffsetDelete.encodeRequest(0, req))).toBe(toHex(REQUEST_V0));
    expect(OffsetDelete.decodeRequest(0, REQUEST_V0)).toStrictEqual(req);
    const res: OffsetDeleteResponse = {
      errorCode: 0,
      throttleTimeMs: 0,
      topics: [
        {
          name: 't',
          partitions: [
            { partitionIndex: 0, errorCode: 0 },
            { partitionIndex: 1, errorCode: 86 },
          ],
        },
      ],
    };
    expect(toHex(OffsetDelete.encodeResponse(0, res))).toBe(toHex(RESPONSE_V0));
    expect(OffsetDelete.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => OffsetDelete.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => OffsetDelete.decodeResponse(0, b), RESPONSE_V0);
  });

  it('refuses versions it does not implement', () => {
    expect(() => OffsetDelete.encodeRequest(1, request)).toThrow(UnsupportedVersionError);
    expect(() => OffsetDelete.decodeResponse(1, RESPONSE_V0)).toThrow(UnsupportedVersionError);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(OffsetDelete, [
      {
        version: 0,
        request: OffsetDelete.encodeRequest(0, request),
        response: OffsetDelete.encodeResponse(0, response),
      },
    ]);
  });
});
