import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  DescribeShareGroupOffsets,
  type DescribeShareGroupOffsetsRequest,
  type DescribeShareGroupOffsetsResponse,
  SHARE_LAG_UNKNOWN,
} from './describe-share-group-offsets.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01

const request = (): DescribeShareGroupOffsetsRequest => ({
  groups: [
    {
      groupId: 'share-a',
      topics: [
        { topicName: 'orders', partitions: [0, 1, 2] },
        { topicName: 'payments', partitions: [] },
      ],
    },
    { groupId: 'share b/ñ', topics: null },
  ],
});

const response = (v: number): DescribeShareGroupOffsetsResponse => ({
  throttleTimeMs: 2,
  groups: [
    {
      groupId: 'share-a',
      topics: [
        {
          topicName: 'orders',
          topicId: TOPIC_ID,
          partitions: [
            {
              partitionIndex: 0,
              startOffset: 9_007_199_254_740_993n,
              leaderEpoch: 4,
              ...(v >= 1 && { lag: 17n }),
              errorCode: 0,
              errorMessage: null,
            },
            {
              partitionIndex: 1,
              startOffset: -1n,
              leaderEpoch: -1,
              ...(v >= 1 && { lag: SHARE_LAG_UNKNOWN }),
              errorCode: 29,
              errorMessage: 'Topic authorization failed.',
            },
          ],
        },
      ],
      errorCode: 0,
      errorMessage: null,
    },
    { groupId: 'gone', topics: [], errorCode: 69, errorMessage: 'Group gone not found.' },
  ],
});

// Golden bodies, derived by hand from DescribeShareGroupOffsetsRequest.json / ...Response.json.
const REQUEST_V0 = hex`
  03                            # Groups: 2 (compact: 2 + 1)
  03 73 31                      #   GroupId "s1"
  00                            #   Topics: null (every topic-partition)
  00                            #   group tagged fields
  03 73 32                      #   GroupId "s2"
  02                            #   Topics: 1
  02 74                         #     TopicName "t"
  03 00 00 00 00 00 00 00 01    #     Partitions: 2, [0, 1]
  00                            #     topic tagged fields
  00                            #   group tagged fields
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Groups: 1
  03 73 31                      #   GroupId "s1"
  02                            #   Topics: 1
  02 74                         #     TopicName "t"
  00 00 00 00 00 00 00 00       #     TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #     TopicId (last 8 bytes)
  02                            #     Partitions: 1
  00 00 00 00                   #       PartitionIndex 0
  00 00 00 00 00 00 00 0a       #       StartOffset 10
  00 00 00 01                   #       LeaderEpoch 1
  00 00 00 00 00 00 00 05       #       Lag 5
  00 00                         #       ErrorCode 0
  00                            #       ErrorMessage null
  00                            #       partition tagged fields
  00                            #     topic tagged fields
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  00                            #   group tagged fields
  00                            # tagged fields
`;
const goldenResponse = (v: number): DescribeShareGroupOffsetsResponse => ({
  throttleTimeMs: 0,
  groups: [
    {
      groupId: 's1',
      topics: [
        {
          topicName: 't',
          topicId: TOPIC_ID,
          partitions: [
            {
              partitionIndex: 0,
              startOffset: 10n,
              leaderEpoch: 1,
              ...(v >= 1 && { lag: 5n }),
              errorCode: 0,
              errorMessage: null,
            },
          ],
        },
      ],
      errorCode: 0,
      errorMessage: null,
    },
  ],
});

describe('DescribeShareGroupOffsets codec', () => {
  it('has the key and versions of the schema', () => {
    expect(DescribeShareGroupOffsets).toMatchObject({
      apiKey: 90,
      name: 'DescribeShareGroupOffsets',
      minVersion: 0,
      maxVersion: 1,
      flexibleFrom: 0,
    });
  });

  it.each(versionsOf(DescribeShareGroupOffsets))('round-trips request and response v%i', (v) => {
    expectRoundTrip(DescribeShareGroupOffsets, v, request(), response(v));
  });

  it('matches golden bytes', () => {
    const req = {
      groups: [
        { groupId: 's1', topics: null },
        { groupId: 's2', topics: [{ topicName: 't', partitions: [0, 1] }] },
      ],
    };
    for (const v of [0, 1]) {
      expect(toHex(DescribeShareGroupOffsets.encodeRequest(v, req))).toBe(toHex(REQUEST_V0));
      expect(DescribeShareGroupOffsets.decodeRequest(v, REQUEST_V0)).toStrictEqual(req);
    }
    expect(toHex(DescribeShareGroupOffsets.encodeResponse(1, goldenResponse(1)))).toBe(toHex(RESPONSE_V1));
    expect(DescribeShareGroupOffsets.decodeResponse(1, RESPONSE_V1)).toStrictEqual(goldenResponse(1));
    // v0 is the same body without the 8 bytes of Lag.
    const v0 = DescribeShareGroupOffsets.encodeResponse(0, goldenResponse(0));
    expect(toHex(v0)).toBe(
      toHex(new Uint8Array([...RESPONSE_V1.subarray(0, 44), ...RESPONSE_V1.subarray(52)])),
    );
    expect(DescribeShareGroupOffsets.decodeResponse(0, v0)).toStrictEqual(goldenResponse(0));
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => DescribeShareGroupOffsets.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => DescribeShareGroupOffsets.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail(
      (b) => DescribeShareGroupOffsets.decodeResponse(0, b),
      DescribeShareGroupOffsets.encodeResponse(0, response(0)),
    );
  });

  it('refuses Lag in v0 unless it is the default', () => {
    expect(() => DescribeShareGroupOffsets.encodeResponse(0, goldenResponse(1))).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() => DescribeShareGroupOffsets.encodeResponse(0, goldenResponse(1))).toThrow(
      /groups\[\]\.topics\[\]\.partitions\[\]\.lag/,
    );
    const unknownLag = goldenResponse(0);
    const partition = unknownLag.groups[0]?.topics[0]?.partitions[0];
    if (partition) partition.lag = SHARE_LAG_UNKNOWN;
    expect(DescribeShareGroupOffsets.encodeResponse(0, unknownLag)).toEqual(
      DescribeShareGroupOffsets.encodeResponse(0, goldenResponse(0)),
    );
  });

  it('refuses versions it does not implement', () => {
    expect(() => DescribeShareGroupOffsets.encodeRequest(2, request())).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      02 03 73 31 00              # Groups: 1, "s1", Topics null
      01 03 02 aa bb              #   group tags: 1, tag 3, 2 bytes aa bb
      00                          # tags: none
    `;
    const decoded = DescribeShareGroupOffsets.decodeRequest(0, body);
    expect(decoded).toStrictEqual({
      groups: [{ groupId: 's1', topics: null, unknownTaggedFields: [{ tag: 3, data: hex`aa bb` }] }],
    });
    expect(toHex(DescribeShareGroupOffsets.encodeRequest(0, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      DescribeShareGroupOffsets,
      versionsOf(DescribeShareGroupOffsets).map((v) => ({
        version: v,
        request: DescribeShareGroupOffsets.encodeRequest(v, request()),
        response: DescribeShareGroupOffsets.encodeResponse(v, response(v)),
      })),
    );
  });
});
