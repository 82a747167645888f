import { describe, expect, it } from 'vitest';
import {
  ProtocolEncodeError,
  UnsupportedFieldVersionError,
  UnsupportedVersionError,
} from '../decode-error.js';
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
  NO_COMMITTED_OFFSET,
  OffsetFetch,
  type OffsetFetchRequest,
  type OffsetFetchResponse,
} from './offset-fetch.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01
const OTHER_TOPIC_ID = 'q83vEjRWeJCrze8SNFZ4kA';

/** A topic in the v8+ layout: by name up to v9, by id from v10. */
const byNameOrId = (v: number, name: string, topicId: string) => (v >= 10 ? { topicId } : { name });

const request = (v: number): OffsetFetchRequest =>
  v <= 7
    ? {
        groupId: 'orders-app',
        topics: [
          { name: 'orders', partitionIndexes: [0, 1, 2] },
          { name: 'payments', partitionIndexes: [] },
        ],
        ...(v >= 7 && { requireStable: true }),
      }
    : {
        groups: [
          {
            groupId: 'orders-app',
            ...(v >= 9 && { memberId: 'XdFPEhkdSUCnk7kYoNTYaw', memberEpoch: 4 }),
            topics: [{ ...byNameOrId(v, 'orders', TOPIC_ID), partitionIndexes: [0, 1, 2] }],
          },
          { groupId: 'all-topics', ...(v >= 9 && { memberId: null, memberEpoch: -1 }), topics: null },
        ],
        requireStable: false,
      };

const response = (v: number): OffsetFetchResponse =>
  v <= 7
    ? {
        ...(v >= 3 && { throttleTimeMs: 12 }),
        topics: [
          {
            name: 'orders',
            partitions: [
              {
                partitionIndex: 0,
                committedOffset: 9_007_199_254_740_993n,
                ...(v >= 5 && { committedLeaderEpoch: 7 }),
                metadata: 'ñ',
                errorCode: 0,
              },
              {
                partitionIndex: 1,
                committedOffset: NO_COMMITTED_OFFSET,
                ...(v >= 5 && { committedLeaderEpoch: -1 }),
                metadata: null,
                errorCode: 0,
              },
              {
                partitionIndex: 2,
                committedOffset: NO_COMMITTED_OFFSET,
                ...(v >= 5 && { committedLeaderEpoch: -1 }),
                metadata: '',
                errorCode: 3,
              },
            ],
          },
        ],
        ...(v >= 2 && { errorCode: 0 }),
      }
    : {
        throttleTimeMs: 12,
        groups: [
          {
            groupId: 'orders-app',
            topics: [
              {
                ...byNameOrId(v, 'orders', TOPIC_ID),
                partitions: [
                  {
                    partitionIndex: 0,
                    committedOffset: 42n,
                    committedLeaderEpoch: 7,
                    metadata: null,
                    errorCode: 0,
                  },
                ],
              },
              { ...byNameOrId(v, 'payments', OTHER_TOPIC_ID), partitions: [] },
            ],
            errorCode: 0,
          },
          { groupId: 'elsewhere', topics: [], errorCode: 16 },
        ],
      };

// Golden bodies, derived by hand from OffsetFetchRequest.json / OffsetFetchResponse.json.
const REQUEST_V1 = hex`
  00 02 67 31                   # GroupId "g1" (int16 length)
  00 00 00 01                   # Topics: 1 (int32 count)
  00 01 74                      #   Name "t"
  00 00 00 02                   #   PartitionIndexes: 2
  00 00 00 00                   #     0
  00 00 00 01                   #     1
`;
const REQUEST_V7 = hex`
  03 67 31                      # GroupId "g1" (compact)
  00                            # Topics: null (every topic)
  01                            # RequireStable true
  00                            # tagged fields
`;
const REQUEST_V10 = hex`
  02                            # Groups: 1
  03 67 31                      #   GroupId "g1"
  02 6d                         #   MemberId "m"
  00 00 00 07                   #   MemberEpoch 7
  02                            #   Topics: 1
  00 00 00 00 00 00 00 00       #     TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #     TopicId (last 8 bytes)
  02 00 00 00 00                #     PartitionIndexes: 1, [0]
  00                            #     topic tagged fields
  00                            #   group tagged fields
  00                            # RequireStable false
  00                            # tagged fields
`;
const RESPONSE_V5 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00 00 01                   # Topics: 1
  00 01 74                      #   Name "t"
  00 00 00 02                   #   Partitions: 2
  00 00 00 00                   #     PartitionIndex 0
  00 00 00 00 00 00 00 64       #     CommittedOffset 100
  00 00 00 03                   #     CommittedLeaderEpoch 3
  00 00                         #     Metadata ""
  00 00                         #     ErrorCode 0
  00 00 00 01                   #     PartitionIndex 1
  ff ff ff ff ff ff ff ff       #     CommittedOffset -1 (nothing committed)
  ff ff ff ff                   #     CommittedLeaderEpoch -1
  ff ff                         #     Metadata null
  00 00                         #     ErrorCode 0
  00 00                         # ErrorCode 0
`;
const RESPONSE_V10 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  03                            # Groups: 2
  03 67 31                      #   GroupId "g1"
  02                            #   Topics: 1
  00 00 00 00 00 00 00 00       #     TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #     TopicId (last 8 bytes)
  02                            #     Partitions: 1
  00 00 00 00                   #       PartitionIndex 0
  00 00 00 00 00 00 00 64       #       CommittedOffset 100
  ff ff ff ff                   #       CommittedLeaderEpoch -1
  01                            #       Metadata ""
  00 00                         #       ErrorCode 0
  00                            #       partition tagged fields
  00                            #     topic tagged fields
  00 00                         #   ErrorCode 0
  00                            #   group tagged fields
  03 67 32                      #   GroupId "g2"
  01                            #   Topics: 0
  00 10                         #   ErrorCode 16 (NOT_COORDINATOR)
  00                            #   group tagged fields
  00                            # tagged fields
`;

describe('OffsetFetch codec', () => {
  it('has the key and versions of the schema (v0 removed in Kafka 4.0)', () => {
    expect(OffsetFetch).toMatchObject({
      apiKey: 9,
      name: 'OffsetFetch',
      minVersion: 1,
      maxVersion: 10,
      flexibleFrom: 6,
    });
  });

  it.each(versionsOf(OffsetFetch))('round-trips request and response v%i', (v) => {
    expectRoundTrip(OffsetFetch, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req1 = { groupId: 'g1', topics: [{ name: 't', partitionIndexes: [0, 1] }] };
    expect(toHex(OffsetFetch.encodeRequest(1, req1))).toBe(toHex(REQUEST_V1));
    expect(OffsetFetch.decodeRequest(1, REQUEST_V1)).toStrictEqual(req1);
    const req7 = { groupId: 'g1', topics: null, requireStable: true };
    expect(toHex(OffsetFetch.encodeRequest(7, req7))).toBe(toHex(REQUEST_V7));
    expect(OffsetFetch.decodeRequest(7, REQUEST_V7)).toStrictEqual(req7);
    const req10: OffsetFetchRequest = {
      groups: [
        {
          groupId: 'g1',
          memberId: 'm',
          memberEpoch: 7,
          topics: [{ topicId: TOPIC_ID, partitionIndexes: [0] }],
        },
      ],
      requireStable: false,
    };
    expect(toHex(OffsetFetch.encodeRequest(10, req10))).toBe(toHex(REQUEST_V10));
    expect(OffsetFetch.decodeRequest(10, REQUEST_V10)).toStrictEqual(req10);

    const res5: OffsetFetchResponse = {
      throttleTimeMs: 0,
      topics: [
        {
          name: 't',
          partitions: [
            { partitionIndex: 0, committedOffset: 100n, committedLeaderEpoch: 3, metadata: '', errorCode: 0 },
            {
              partitionIndex: 1,
              committedOffset: -1n,
              committedLeaderEpoch: -1,
              metadata: null,
              errorCode: 0,
            },
          ],
        },
      ],
      errorCode: 0,
    };
    expect(toHex(OffsetFetch.encodeResponse(5, res5))).toBe(toHex(RESPONSE_V5));
    expect(OffsetFetch.decodeResponse(5, RESPONSE_V5)).toStrictEqual(res5);
    const res10: OffsetFetchResponse = {
      throttleTimeMs: 0,
      groups: [
        {
          groupId: 'g1',
          topics: [
            {
              topicId: TOPIC_ID,
              partitions: [
                {
                  partitionIndex: 0,
                  committedOffset: 100n,
                  committedLeaderEpoch: -1,
                  metadata: '',
                  errorCode: 0,
                },
              ],
            },
          ],
          errorCode: 0,
        },
        { groupId: 'g2', topics: [], errorCode: 16 },
      ],
    };
    expect(toHex(OffsetFetch.encodeResponse(10, res10))).toBe(toHex(RESPONSE_V10));
    expect(OffsetFetch.decodeResponse(10, RESPONSE_V10)).toStrictEqual(res10);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => OffsetFetch.decodeRequest(1, b), REQUEST_V1);
    expectTruncationsFail((b) => OffsetFetch.decodeRequest(7, b), REQUEST_V7);
    expectTruncationsFail((b) => OffsetFetch.decodeRequest(10, b), REQUEST_V10);
    expectTruncationsFail((b) => OffsetFetch.decodeResponse(5, b), RESPONSE_V5);
    expectTruncationsFail((b) => OffsetFetch.decodeResponse(10, b), RESPONSE_V10);
  });

  it('keeps the two layouts apart', () => {
    expect(() => OffsetFetch.encodeRequest(7, { ...request(7), groups: request(8).groups })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() => OffsetFetch.encodeRequest(8, { ...request(8), groupId: 'g' })).toThrow(/'groupId'/);
    expect(() => OffsetFetch.encodeRequest(8, { ...request(8), topics: null })).toThrow(/'topics'/);
    // An empty groupId / topics is what the v8+ layout implies, so it is accepted.
    expect(OffsetFetch.encodeRequest(8, { ...request(8), groupId: '', topics: [] })).toEqual(
      OffsetFetch.encodeRequest(8, request(8)),
    );
    expect(() => OffsetFetch.encodeResponse(7, { ...response(7), groups: response(8).groups })).toThrow(
      /'groups'/,
    );
    expect(() => OffsetFetch.encodeResponse(8, { ...response(8), errorCode: 15 })).toThrow(/'errorCode'/);
  });

  it('refuses null topics in v1, which has no way to ask for every topic', () => {
    expect(() => OffsetFetch.encodeRequest(1, { groupId: 'g', topics: null })).toThrow(ProtocolEncodeError);
    expect(() => OffsetFetch.encodeRequest(1, { groupId: 'g', topics: null })).toThrow(/v2/);
    expect(OffsetFetch.encodeRequest(2, { groupId: 'g', topics: null })).toEqual(hex`00 01 67 ff ff ff ff`);
    // A null count where v1 has no null is a decode error, not "every topic".
    expect(decodeFailure(() => OffsetFetch.decodeRequest(1, hex`00 01 67 ff ff ff ff`)).reason).toMatch(
      /null/,
    );
  });

  it('refuses version-gated values where they do not exist', () => {
    const v8 = request(9);
    expect(() => OffsetFetch.encodeRequest(8, v8)).toThrow(/groups\[\]\.memberId/);
    expect(() => OffsetFetch.encodeRequest(9, request(10))).toThrow(/groups\[\]\.topics\[\]\.topicId/);
    expect(() => OffsetFetch.encodeRequest(10, request(9))).toThrow(/groups\[\]\.topics\[\]\.name/);
    expect(() => OffsetFetch.encodeRequest(6, { groupId: 'g', topics: [], requireStable: true })).toThrow(
      /requireStable/,
    );
    expect(() => OffsetFetch.encodeResponse(4, response(5))).toThrow(/committedLeaderEpoch/);
    expect(() => OffsetFetch.encodeResponse(2, response(3))).toThrow(/throttleTimeMs/);
    expect(() => OffsetFetch.encodeResponse(1, { ...response(2), errorCode: 15 })).toThrow(/errorCode/);
    expect(OffsetFetch.encodeResponse(1, response(2))).toEqual(OffsetFetch.encodeResponse(1, response(1)));
    expect(() => OffsetFetch.encodeResponse(9, response(10))).toThrow(/topicId/);
  });

  it('refuses versions it does not implement', () => {
    expect(() => OffsetFetch.encodeRequest(0, request(1))).toThrow(UnsupportedVersionError);
    expect(() => OffsetFetch.decodeResponse(11, RESPONSE_V10)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      00 00 00 00                 # ThrottleTimeMs 0
      02 03 67 31 01 00 00        # Groups: 1, "g1", no topics, ErrorCode 0
      01 01 02 01 02              #   group tags: 1, tag 1, 2 bytes 01 02
      00                          # tags: none
    `;
    const decoded = OffsetFetch.decodeResponse(9, body);
    expect(decoded.groups?.[0]?.unknownTaggedFields).toStrictEqual([{ tag: 1, data: hex`01 02` }]);
    expect(toHex(OffsetFetch.encodeResponse(9, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      OffsetFetch,
      versionsOf(OffsetFetch).map((v) => ({
        version: v,
        request: OffsetFetch.encodeRequest(v, request(v)),
        response: OffsetFetch.encodeResponse(v, response(v)),
      })),
    );
  });
});
