import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex } from '../test-utils.js';
import {
  AlterShareGroupOffsets,
  type AlterShareGroupOffsetsRequest,
  type AlterShareGroupOffsetsResponse,
} from './alter-share-group-offsets.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01

const request: AlterShareGroupOffsetsRequest = {
  groupId: 'share-ñ',
  topics: [
    {
      topicName: 'orders',
      partitions: [
        { partitionIndex: 0, startOffset: 9_007_199_254_740_993n },
        { partitionIndex: 1, startOffset: 0n },
      ],
    },
    { topicName: 'payments', partitions: [] },
  ],
};

const response: AlterShareGroupOffsetsResponse = {
  throttleTimeMs: 5,
  errorCode: 0,
  errorMessage: null,
  responses: [
    {
      topicName: 'orders',
      topicId: TOPIC_ID,
      partitions: [
        { partitionIndex: 0, errorCode: 0, errorMessage: null },
        { partitionIndex: 1, errorCode: 3, errorMessage: 'This server does not host this topic-partition.' },
      ],
    },
  ],
};

// Golden bodies, derived by hand from AlterShareGroupOffsetsRequest.json / ...Response.json.
const REQUEST_V0 = hex`
  03 73 31                      # GroupId "s1" (compact: length 2 + 1)
  02                            # Topics: 1 (compact: 1 + 1)
  02 74                         #   TopicName "t"
  02                            #   Partitions: 1
  00 00 00 01                   #     PartitionIndex 1
  00 00 00 00 00 00 00 64       #     StartOffset 100
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
`;
const RESPONSE_V0 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00                            # ErrorMessage null
  02                            # Responses: 1
  02 74                         #   TopicName "t"
  00 00 00 00 00 00 00 00       #   TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #   TopicId (last 8 bytes)
  02                            #   Partitions: 1
  00 00 00 01                   #     PartitionIndex 1
  00 00                         #     ErrorCode 0
  00                            #     ErrorMessage null
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
`;
const RESPONSE_NON_EMPTY = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 44                         # ErrorCode 68 (NON_EMPTY_GROUP)
  02 78                         # ErrorMessage "x"
  01                            # Responses: 0
  00                            # tagged fields
`;

describe('AlterShareGroupOffsets codec', () => {
  it('has the key and the one version of the schema', () => {
    expect(AlterShareGroupOffsets).toMatchObject({
      apiKey: 91,
      name: 'AlterShareGroupOffsets',
      minVersion: 0,
      maxVersion: 0,
      flexibleFrom: 0,
    });
  });

  it('round-trips request and response v0', () => {
    expectRoundTrip(AlterShareGroupOffsets, 0, request, response);
  });

  it('matches golden bytes', () => {
    const req = {
      groupId: 's1',
      topics: [{ topicName: 't', partitions: [{ partitionIndex: 1, startOffset: 100n }] }],
    };
    expect(toHex(AlterShareGroupOffsets.encodeRequest(0, req))).toBe(toHex(REQUEST_V0));
    expect(AlterShareGroupOffsets.decodeRequest(0, REQUEST_V0)).toStrictEqual(req);
    const res = {
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      responses: [
        {
          topicName: 't',
          topicId: TOPIC_ID,
          partitions: [{ partitionIndex: 1, errorCode: 0, errorMessage: null }],
        },
      ],
    };
    expect(toHex(AlterShareGroupOffsets.encodeResponse(0, res))).toBe(toHex(RESPONSE_V0));
    expect(AlterShareGroupOffsets.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res);
    const nonEmpty = { throttleTimeMs: 0, errorCode: 68, errorMessage: 'x', responses: [] };
    expect(toHex(AlterShareGroupOffsets.encodeResponse(0, nonEmpty))).toBe(toHex(RESPONSE_NON_EMPTY));
    expect(AlterShareGroupOffsets.decodeResponse(0, RESPONSE_NON_EMPTY)).toStrictEqual(nonEmpty);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => AlterShareGroupOffsets.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => AlterShareGroupOffsets.decodeResponse(0, b), RESPONSE_V0);
    expectTruncationsFail((b) => AlterShareGroupOffsets.decodeResponse(0, b), RESPONSE_NON_EMPTY);
  });

  it('refuses versions it does not implement', () => {
    expect(() => AlterShareGroupOffsets.encodeRequest(1, request)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      03 73 31 01                 # GroupId "s1", Topics: 0
      01 07 01 00                 # tags: 1, tag 7, 1 byte 00
    `;
    const decoded = AlterShareGroupOffsets.decodeRequest(0, body);
    expect(decoded).toStrictEqual({
      groupId: 's1',
      topics: [],
      unknownTaggedFields: [{ tag: 7, data: hex`00` }],
    });
    expect(toHex(AlterShareGroupOffsets.encodeRequest(0, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(AlterShareGroupOffsets, [
      {
        version: 0,
        request: AlterShareGroupOffsets.encodeRequest(0, request),
        response: AlterShareGroupOffsets.encodeResponse(0, response),
      },
    ]);
  });
});
