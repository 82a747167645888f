import { describe, expect, it } from 'vitest';
import { UnsupportedVersionError } from '../decode-error.js';
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
  ShareGroupDescribe,
  type ShareGroupDescribeRequest,
  type ShareGroupDescribeResponse,
} from './share-group-describe.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01

const request = (): ShareGroupDescribeRequest => ({
  groupIds: ['share-a', 'ñ 🌍', ''],
  includeAuthorizedOperations: false,
});

const response = (): ShareGroupDescribeResponse => ({
  throttleTimeMs: 0,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'share-a',
      groupState: 'Stable',
      groupEpoch: 3,
      assignmentEpoch: 3,
      assignorName: 'simple',
      members: [
        {
          memberId: 'Jm2wYs1dQ3eUZp3e6kTj1g',
          rackId: 'rack-1',
          memberEpoch: 3,
          clientId: 'share-consumer-1',
          clientHost: '/127.0.0.1',
          subscribedTopicNames: ['orders'],
          assignment: {
            topicPartitions: [{ topicId: TOPIC_ID, topicName: 'orders', partitions: [0, 1, 2] }],
          },
        },
        {
          memberId: 'm2',
          rackId: null,
          memberEpoch: 1,
          clientId: '',
          clientHost: '',
          subscribedTopicNames: [],
          assignment: { topicPartitions: [] },
        },
      ],
      authorizedOperations: -2147483648,
    },
    {
      errorCode: 69,
      errorMessage: 'Group orders is not a share group.',
      groupId: 'orders',
      groupState: '',
      groupEpoch: 0,
      assignmentEpoch: 0,
      assignorName: '',
      members: [],
      authorizedOperations: -2147483648,
    },
  ],
});

// Golden bodies, derived by hand from ShareGroupDescribeRequest.json / ...Response.json.
const REQUEST_V1 = hex`
  03                            # GroupIds: 2 (compact: 2 + 1)
  03 73 31                      #   "s1"
  01                            #   ""
  00                            # IncludeAuthorizedOperations false
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 0a                   # ThrottleTimeMs 10
  02                            # Groups: 1
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  03 73 31                      #   GroupId "s1"
  07 53 74 61 62 6c 65          #   GroupState "Stable"
  00 00 00 02                   #   GroupEpoch 2
  00 00 00 02                   #   AssignmentEpoch 2
  07 73 69 6d 70 6c 65          #   AssignorName "simple"
  02                            #   Members: 1
  02 6d                         #     MemberId "m"
  00                            #     RackId null
  00 00 00 02                   #     MemberEpoch 2
  02 63                         #     ClientId "c"
  03 2f 68                      #     ClientHost "/h"
  02 02 74                      #     SubscribedTopicNames: 1, "t"
  02                            #     Assignment.TopicPartitions: 1
  00 00 00 00 00 00 00 00       #       TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #       TopicId (last 8 bytes)
  02 74                         #       TopicName "t"
  02 00 00 00 03                #       Partitions: 1, [3]
  00                            #       topic-partitions tagged fields
  00                            #     Assignment tagged fields
  00                            #     member tagged fields
  80 00 00 00                   #   AuthorizedOperations INT32_MIN (not requested)
  00                            #   group tagged fields
  00                            # tagged fields
`;
const GOLDEN_RESPONSE: ShareGroupDescribeResponse = {
  throttleTimeMs: 10,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 's1',
      groupState: 'Stable',
      groupEpoch: 2,
      assignmentEpoch: 2,
      assignorName: 'simple',
      members: [
        {
          memberId: 'm',
          rackId: null,
          memberEpoch: 2,
          clientId: 'c',
          clientHost: '/h',
          subscribedTopicNames: ['t'],
          assignment: { topicPartitions: [{ topicId: TOPIC_ID, topicName: 't', partitions: [3] }] },
        },
      ],
      authorizedOperations: -2147483648,
    },
  ],
};

describe('ShareGroupDescribe codec', () => {
  it('has the key and versions of the schema (v1 only: v0 was 4.0 early access)', () => {
    expect(ShareGroupDescribe).toMatchObject({
      apiKey: 77,
      name: 'ShareGroupDescribe',
      minVersion: 1,
      maxVersion: 1,
      flexibleFrom: 0,
    });
  });

  it.each(versionsOf(ShareGroupDescribe))('round-trips request and response v%i', (v) => {
    expectRoundTrip(ShareGroupDescribe, v, request(), response());
  });

  it('matches golden bytes', () => {
    const req = { groupIds: ['s1', ''], includeAuthorizedOperations: false };
    expect(toHex(ShareGroupDescribe.encodeRequest(1, req))).toBe(toHex(REQUEST_V1));
    expect(ShareGroupDescribe.decodeRequest(1, REQUEST_V1)).toStrictEqual(req);
    expect(toHex(ShareGroupDescribe.encodeResponse(1, GOLDEN_RESPONSE))).toBe(toHex(RESPONSE_V1));
    expect(ShareGroupDescribe.decodeResponse(1, RESPONSE_V1)).toStrictEqual(GOLDEN_RESPONSE);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => ShareGroupDescribe.decodeRequest(1, b), REQUEST_V1);
    expectTruncationsFail((b) => ShareGroupDescribe.decodeResponse(1, b), RESPONSE_V1);
    expect(
      decodeFailure(() => ShareGroupDescribe.decodeResponse(1, RESPONSE_V1.subarray(0, 20))),
    ).toMatchObject({ apiKey: 77, apiVersion: 1 });
  });

  it('refuses v0 and v2', () => {
    expect(() => ShareGroupDescribe.encodeRequest(0, request())).toThrow(UnsupportedVersionError);
    expect(() => ShareGroupDescribe.decodeResponse(0, RESPONSE_V1)).toThrow(UnsupportedVersionError);
    expect(() => ShareGroupDescribe.decodeResponse(2, RESPONSE_V1)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      00 00 00 00                 # ThrottleTimeMs 0
      01                          # Groups: 0
      02 00 01 ff 07 00           # tags: 2; tag 0, 1 byte ff; tag 7, 0 bytes
    `;
    const decoded = ShareGroupDescribe.decodeResponse(1, body);
    expect(decoded.unknownTaggedFields).toStrictEqual([
      { tag: 0, data: hex`ff` },
      { tag: 7, data: hex`` },
    ]);
    expect(toHex(ShareGroupDescribe.encodeResponse(1, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(ShareGroupDescribe, [
      {
        version: 1,
        request: ShareGroupDescribe.encodeRequest(1, request()),
        response: ShareGroupDescribe.encodeResponse(1, response()),
      },
    ]);
  });
});
