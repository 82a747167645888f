import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex } from '../test-utils.js';
import {
  DeleteShareGroupOffsets,
  type DeleteShareGroupOffsetsRequest,
  type DeleteShareGroupOffsetsResponse,
} from './delete-share-group-offsets.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01
const OTHER_TOPIC_ID = 'q83vEjRWeJCrze8SNFZ4kA';

const request: DeleteShareGroupOffsetsRequest = {
  groupId: 'share-ñ',
  topics: [{ topicName: 'orders' }, { topicName: 'payments' }],
};

const response: DeleteShareGroupOffsetsResponse = {
  throttleTimeMs: 5,
  errorCode: 0,
  errorMessage: null,
  responses: [
    { topicName: 'orders', topicId: TOPIC_ID, errorCode: 0, errorMessage: null },
    {
      topicName: 'payments',
      topicId: OTHER_TOPIC_ID,
      errorCode: 3,
      errorMessage: 'This server does not host this topic-partition.',
    },
  ],
};

// Golden bodies, derived by hand from DeleteShareGroupOffsetsRequest.json / ...Response.json.
const REQUEST_V0 = hex`
  03 73 31                      # GroupId "s1" (compact: length 2 + 1)
  03                            # Topics: 2 (compact: 2 + 1)
  02 74                         #   TopicName "t"
  00                            #   topic tagged fields
  02 75                         #   TopicName "u"
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
  00 03                         #   ErrorCode 3 (UNKNOWN_TOPIC_OR_PARTITION)
  02 78                         #   ErrorMessage "x"
  00                            #   topic tagged fields
  00                            # tagged fields
`;

describe('DeleteShareGroupOffsets codec', () => {
  it('has the key and the one version of the schema', () => {
    expect(DeleteShareGroupOffsets).toMatchObject({
      apiKey: 92,
      name: 'DeleteShareGroupOffsets',
      minVersion: 0,
      maxVersion: 0,
      flexibleFrom: 0,
    });
  });

  it('round-trips request and response v0', () => {
    expectRoundTrip(DeleteShareGroupOffsets, 0, request, response);
  });

  it('matches golden bytes', () => {
    const req = { groupId: 's1', topics: [{ topicName: 't' }, { topicName: 'u' }] };
    expect(toHex(DeleteShareGroupOffsets.encodeRequest(0, req))).toBe(toHex(REQUEST_V0));
    expect(DeleteShareGroupOffsets.decodeRequest(0, REQUEST_V0)).toStrictEqual(req);
    const res = {
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      responses: [{ topicName: 't', topicId: TOPIC_ID, errorCode: 3, errorMessage: 'x' }],
    };
    expect(toHex(DeleteShareGroupOffsets.encodeResponse(0, res))).toBe(toHex(RESPONSE_V0));
    expect(DeleteShareGroupOffsets.decodeResponse(0, RESPONSE_V0)).toStrictEqual(res);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => DeleteShareGroupOffsets.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => DeleteShareGroupOffsets.decodeResponse(0, b), RESPONSE_V0);
  });

  it('refuses versions it does not implement', () => {
    expect(() => DeleteShareGroupOffsets.encodeRequest(1, request)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      03 73 31 02 02 74           # GroupId "s1", Topics: 1, TopicName "t"
      01 00 02 ab cd              #   topic tags: 1, tag 0, 2 bytes ab cd
      00                          # tags: none
    `;
    const decoded = DeleteShareGroupOffsets.decodeRequest(0, body);
    expect(decoded.topics[0]?.unknownTaggedFields).toStrictEqual([{ tag: 0, data: hex`ab cd` }]);
    expect(toHex(DeleteShareGroupOffsets.encodeRequest(0, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(DeleteShareGroupOffsets, [
      {
        version: 0,
        request: DeleteShareGroupOffsets.encodeRequest(0, request),
        response: DeleteShareGroupOffsets.encodeResponse(0, response),
      },
    ]);
  });
});
