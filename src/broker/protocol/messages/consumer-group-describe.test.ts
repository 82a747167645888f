import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  ConsumerGroupDescribe,
  type ConsumerGroupDescribeRequest,
  type ConsumerGroupDescribeResponse,
  ConsumerGroupMemberType,
} from './consumer-group-describe.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01
const OTHER_TOPIC_ID = 'q83vEjRWeJCrze8SNFZ4kA'; // ab cd ef 12 34 56 78 90 ab cd ef 12 34 56 78 90

const request = (): ConsumerGroupDescribeRequest => ({
  groupIds: ['orders', 'grupo ñ/2', ''],
  includeAuthorizedOperations: true,
});

const response = (v: number): ConsumerGroupDescribeResponse => ({
  throttleTimeMs: 7,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'orders',
      groupState: 'Reconciling',
      groupEpoch: 12,
      assignmentEpoch: 11,
      assignorName: 'uniform',
      members: [
        {
          memberId: 'XdFPEhkdSUCnk7kYoNTYaw',
          instanceId: 'instance-a',
          rackId: null,
          memberEpoch: 11,
          clientId: 'consumer-1',
          clientHost: '/10.0.0.1',
          subscribedTopicNames: ['orders', 'payments'],
          subscribedTopicRegex: null,
          assignment: {
            topicPartitions: [{ topicId: TOPIC_ID, topicName: 'orders', partitions: [0, 2] }],
          },
          targetAssignment: {
            topicPartitions: [
              { topicId: TOPIC_ID, topicName: 'orders', partitions: [0, 1, 2] },
              { topicId: OTHER_TOPIC_ID, topicName: 'payments', partitions: [] },
            ],
          },
          ...(v >= 1 && { memberType: ConsumerGroupMemberType.Consumer }),
        },
        {
          memberId: 'm2',
          instanceId: null,
          rackId: 'eu-west-1a',
          memberEpoch: 0,
          clientId: '',
          clientHost: '',
          subscribedTopicNames: [],
          subscribedTopicRegex: 'orders-.*',
          assignment: { topicPartitions: [] },
          targetAssignment: { topicPartitions: [] },
          ...(v >= 1 && { memberType: ConsumerGroupMemberType.Classic }),
        },
      ],
      authorizedOperations: 0b1000_0000_1000,
    },
    {
      errorCode: 69,
      errorMessage: 'Group missing is not a consumer group.',
      groupId: 'missing',
      groupState: '',
      groupEpoch: 0,
      assignmentEpoch: 0,
      assignorName: '',
      members: [],
      authorizedOperations: -2147483648,
    },
  ],
});

// Golden bodies, derived by hand from ConsumerGroupDescribeRequest.json / ...Response.json.
const REQUEST_V0 = hex`
  02                            # GroupIds: 1 (compact: 1 + 1)
  03 67 31                      #   "g1"
  01                            # IncludeAuthorizedOperations true
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Groups: 1
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  03 67 31                      #   GroupId "g1"
  07 53 74 61 62 6c 65          #   GroupState "Stable"
  00 00 00 05                   #   GroupEpoch 5
  00 00 00 04                   #   AssignmentEpoch 4
  08 75 6e 69 66 6f 72 6d       #   AssignorName "uniform"
  02                            #   Members: 1
  02 6d                         #     MemberId "m"
  00                            #     InstanceId null
  03 72 31                      #     RackId "r1"
  00 00 00 05                   #     MemberEpoch 5
  02 63                         #     ClientId "c"
  03 2f 68                      #     ClientHost "/h"
  02 02 74                      #     SubscribedTopicNames: 1, "t"
  00                            #     SubscribedTopicRegex null
  02                            #     Assignment.TopicPartitions: 1
  00 00 00 00 00 00 00 00       #       TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #       TopicId (last 8 bytes)
  02 74                         #       TopicName "t"
  03 00 00 00 00 00 00 00 01    #       Partitions: 2, [0, 1]
  00                            #       topic-partitions tagged fields
  00                            #     Assignment tagged fields
  01                            #     TargetAssignment.TopicPartitions: 0
  00                            #     TargetAssignment tagged fields
  01                            #     MemberType 1 (consumer)
  00                            #     member tagged fields
  80 00 00 00                   #   AuthorizedOperations INT32_MIN (not requested)
  00                            #   group tagged fields
  00                            # tagged fields
`;
const goldenResponse = (v: number): ConsumerGroupDescribeResponse => ({
  throttleTimeMs: 0,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'g1',
      groupState: 'Stable',
      groupEpoch: 5,
      assignmentEpoch: 4,
      assignorName: 'uniform',
      members: [
        {
          memberId: 'm',
          instanceId: null,
          rackId: 'r1',
          memberEpoch: 5,
          clientId: 'c',
          clientHost: '/h',
          subscribedTopicNames: ['t'],
          subscribedTopicRegex: null,
          assignment: { topicPartitions: [{ topicId: TOPIC_ID, topicName: 't', partitions: [0, 1] }] },
          targetAssignment: { topicPartitions: [] },
          ...(v >= 1 && { memberType: 1 }),
        },
      ],
      authorizedOperations: -2147483648,
    },
  ],
});

describe('ConsumerGroupDescribe codec', () => {
  it('has the key and versions of the schema', () => {
    expect(ConsumerGroupDescribe).toMatchObject({
      apiKey: 69,
      name: 'ConsumerGroupDescribe',
      minVersion: 0,
      maxVersion: 1,
      flexibleFrom: 0,
    });
  });

  it.each(versionsOf(ConsumerGroupDescribe))('round-trips request and response v%i', (v) => {
    expectRoundTrip(ConsumerGroupDescribe, v, request(), response(v));
  });

  it('matches golden bytes', () => {
    const req = { groupIds: ['g1'], includeAuthorizedOperations: true };
    for (const v of [0, 1]) {
      expect(toHex(ConsumerGroupDescribe.encodeRequest(v, req))).toBe(toHex(REQUEST_V0));
      expect(ConsumerGroupDescribe.decodeRequest(v, REQUEST_V0)).toStrictEqual(req);
    }
    expect(toHex(ConsumerGroupDescribe.encodeResponse(1, goldenResponse(1)))).toBe(toHex(RESPONSE_V1));
    expect(ConsumerGroupDescribe.decodeResponse(1, RESPONSE_V1)).toStrictEqual(goldenResponse(1));
    // v0 is the same body without the MemberType byte.
    const v0 = ConsumerGroupDescribe.encodeResponse(0, goldenResponse(0));
    expect(v0.length).toBe(RESPONSE_V1.length - 1);
    expect(ConsumerGroupDescribe.decodeResponse(0, v0)).toStrictEqual(goldenResponse(0));
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => ConsumerGroupDescribe.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => ConsumerGroupDescribe.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail(
      (b) => ConsumerGroupDescribe.decodeResponse(0, b),
      ConsumerGroupDescribe.encodeResponse(0, response(0)),
    );
  });

  it('refuses MemberType in v0 unless it is the default', () => {
    expect(() => ConsumerGroupDescribe.encodeResponse(0, response(1))).toThrow(UnsupportedFieldVersionError);
    expect(() => ConsumerGroupDescribe.encodeResponse(0, response(1))).toThrow(/members\[\]\.memberType/);
    const unknownType = goldenResponse(0);
    const member = unknownType.groups[0]?.members[0];
    if (member) member.memberType = ConsumerGroupMemberType.Unknown;
    expect(ConsumerGroupDescribe.encodeResponse(0, unknownType)).toEqual(
      ConsumerGroupDescribe.encodeResponse(0, goldenResponse(0)),
    );
  });

  it('refuses versions it does not implement', () => {
    expect(() => ConsumerGroupDescribe.encodeRequest(2, request())).toThrow(UnsupportedVersionError);
    expect(() => ConsumerGroupDescribe.decodeResponse(-1, RESPONSE_V1)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      01                          # GroupIds: 0
      00                          # IncludeAuthorizedOperations false
      01 02 03 61 62 63           # tags: 1, tag 2, 3 bytes "abc"
    `;
    const decoded = ConsumerGroupDescribe.decodeRequest(1, body);
    expect(decoded).toStrictEqual({
      groupIds: [],
      includeAuthorizedOperations: false,
      unknownTaggedFields: [{ tag: 2, data: hex`61 62 63` }],
    });
    expect(toHex(ConsumerGroupDescribe.encodeRequest(1, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      ConsumerGroupDescribe,
      versionsOf(ConsumerGroupDescribe).map((v) => ({
        version: v,
        request: ConsumerGroupDescribe.encodeRequest(v, request()),
        response: ConsumerGroupDescribe.encodeResponse(v, response(v)),
      })),
    );
  });
});
