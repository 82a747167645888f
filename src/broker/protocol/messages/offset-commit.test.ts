import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  ADMIN_COMMIT_GENERATION,
  OffsetCommit,
  type OffsetCommitRequest,
  type OffsetCommitResponse,
} from './offset-commit.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01
const OTHER_TOPIC_ID = 'q83vEjRWeJCrze8SNFZ4kA';

const byNameOrId = (v: number, name: string, topicId: string) => (v >= 10 ? { topicId } : { name });

const request = (v: number): OffsetCommitRequest => ({
  groupId: 'orders-app',
  generationIdOrMemberEpoch: 12,
  memberId: 'consumer-1-4f0e',
  ...(v >= 7 && { groupInstanceId: 'static-ñ' }),
  ...(v <= 4 && { retentionTimeMs: 86_400_000n }),
  topics: [
    {
      ...byNameOrId(v, 'orders', TOPIC_ID),
      partitions: [
        {
          partitionIndex: 0,
          committedOffset: 9_007_199_254_740_993n,
          ...(v >= 6 && { committedLeaderEpoch: 3 }),
          committedMetadata: 'reset by admin',
        },
        {
          partitionIndex: 1,
          committedOffset: 0n,
          ...(v >= 6 && { committedLeaderEpoch: -1 }),
          committedMetadata: null,
        },
      ],
    },
    { ...byNameOrId(v, 'payments', OTHER_TOPIC_ID), partitions: [] },
  ],
});

const response = (v: number): OffsetCommitResponse => ({
  ...(v >= 3 && { throttleTimeMs: 7 }),
  topics: [
    {
      ...byNameOrId(v, 'orders', TOPIC_ID),
      partitions: [
        { partitionIndex: 0, errorCode: 0 },
        { partitionIndex: 1, errorCode: 25 },
      ],
    },
  ],
});

// Golden bodies, derived by hand from OffsetCommitRequest.json / OffsetCommitResponse.json.
const REQUEST_V2 = hex`
  00 02 67 31                   # GroupId "g1" (int16 length)
  ff ff ff ff                   # GenerationIdOrMemberEpoch -1 (admin commit)
  00 00                         # MemberId "" (admin commit)
  ff ff ff ff ff ff ff ff       # RetentionTimeMs -1 (broker default)
  00 00 00 01                   # Topics: 1 (int32 count)
  00 01 74                      #   Name "t"
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  00 00 00 00 00 00 00 2a       #     CommittedOffset 42
  ff ff                         #     CommittedMetadata null
`;
const REQUEST_V9 = hex`
  03 67 31                      # GroupId "g1" (compact: length 2 + 1)
  ff ff ff ff                   # GenerationIdOrMemberEpoch -1
  01                            # MemberId "" (compact: 0 + 1)
  00                            # GroupInstanceId null
  02                            # Topics: 1 (compact: 1 + 1)
  02 74                         #   Name "t"
  02                            #   Partitions: 1
  00 00 00 02                   #     PartitionIndex 2
  00 00 00 00 00 00 00 2a       #     CommittedOffset 42
  ff ff ff ff                   #     CommittedLeaderEpoch -1
  01                            #     CommittedMetadata ""
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
`;
const REQUEST_V10 = hex`
  03 67 31                      # GroupId "g1"
  00 00 00 05                   # GenerationIdOrMemberEpoch 5 (a member's epoch)
  02 6d                         # MemberId "m"
  02 69                         # GroupInstanceId "i"
  02                            # Topics: 1
  00 00 00 00 00 00 00 00       #   TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #   TopicId (last 8 bytes)
  01                            #   Partitions: 0
  00                            #   topic tagged fields
  00                            # tagged fields
`;
const RESPONSE_V2 = hex`
  00 00 00 01                   # Topics: 1
  00 01 74                      #   Name "t"
  00 00 00 02                   #   Partitions: 2
  00 00 00 00                   #     PartitionIndex 0
  00 00                         #     ErrorCode 0
  00 00 00 01                   #     PartitionIndex 1
  00 19                         #     ErrorCode 25 (UNKNOWN_MEMBER_ID)
`;
const RESPONSE_V10 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Topics: 1
  00 00 00 00 00 00 00 00       #   TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #   TopicId (last 8 bytes)
  02                            #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  00 45                         #     ErrorCode 69 (GROUP_ID_NOT_FOUND)
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
`;

describe('OffsetCommit codec', () => {
  it('has the key and versions of the schema (v0-1 removed in Kafka 4.0)', () => {
    expect(OffsetCommit).toMatchObject({
      apiKey: 8,
      name: 'OffsetCommit',
      minVersion: 2,
      maxVersion: 10,
      flexibleFrom: 8,
    });
  });

  it.each(versionsOf(OffsetCommit))('round-trips request and response v%i', (v) => {
    expectRoundTrip(OffsetCommit, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req2: OffsetCommitRequest = {
      groupId: 'g1',
      generationIdOrMemberEpoch: ADMIN_COMMIT_GENERATION,
      memberId: '',
      retentionTimeMs: -1n,
      topics: [
        { name: 't', partitions: [{ partitionIndex: 0, committedOffset: 42n, committedMetadata: null }] },
      ],
    };
    expect(toHex(OffsetCommit.encodeRequest(2, req2))).toBe(toHex(REQUEST_V2));
    expect(OffsetCommit.decodeRequest(2, REQUEST_V2)).toStrictEqual(req2);
    const req9: OffsetCommitRequest = {
      groupId: 'g1',
      generationIdOrMemberEpoch: ADMIN_COMMIT_GENERATION,
      memberId: '',
      groupInstanceId: null,
      topics: [
        {
          name: 't',
          partitions: [
            { partitionIndex: 2, committedOffset: 42n, committedLeaderEpoch: -1, committedMetadata: '' },
          ],
        },
      ],
    };
    expect(toHex(OffsetCommit.encodeRequest(9, req9))).toBe(toHex(REQUEST_V9));
    expect(OffsetCommit.decodeRequest(9, REQUEST_V9)).toStrictEqual(req9);
    // v8 is byte for byte the same request.
    expect(toHex(OffsetCommit.encodeRequest(8, req9))).toBe(toHex(REQUEST_V9));
    const req10: OffsetCommitRequest = {
      groupId: 'g1',
      generationIdOrMemberEpoch: 5,
      memberId: 'm',
      groupInstanceId: 'i',
      topics: [{ topicId: TOPIC_ID, partitions: [] }],
    };
    expect(toHex(OffsetCommit.encodeRequest(10, req10))).toBe(toHex(REQUEST_V10));
    expect(OffsetCommit.decodeRequest(10, REQUEST_V10)).toStrictEqual(req10);

    const res2: OffsetCommitResponse = {
      topics: [
        {
          name: 't',
          partitions: [
            { partitionIndex: 0, errorCode: 0 },
            { partitionIndex: 1, errorCode: 25 },
          ],
        },
      ],
    };
    expect(toHex(OffsetCommit.encodeResponse(2, res2))).toBe(toHex(RESPONSE_V2));
    expect(OffsetCommit.decodeResponse(2, RESPONSE_V2)).toStrictEqual(res2);
    const res10: OffsetCommitResponse = {
      throttleTimeMs: 0,
      topics: [{ topicId: TOPIC_ID, partitions: [{ partitionIndex: 0, errorCode: 69 }] }],
    };
    expect(toHex(OffsetCommit.encodeResponse(10, res10))).toBe(toHex(RESPONSE_V10));
    expect(OffsetCommit.decodeResponse(10, RESPONSE_V10)).toStrictEqual(res10);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => OffsetCommit.decodeRequest(2, b), REQUEST_V2);
    expectTruncationsFail((b) => OffsetCommit.decodeRequest(9, b), REQUEST_V9);
    expectTruncationsFail((b) => OffsetCommit.decodeRequest(10, b), REQUEST_V10);
    expectTruncationsFail((b) => OffsetCommit.decodeResponse(2, b), RESPONSE_V2);
    expectTruncationsFail((b) => OffsetCommit.decodeResponse(10, b), RESPONSE_V10);
  });

  it('refuses version-gated values where they do not exist, and accepts their defaults', () => {
    expect(() => OffsetCommit.encodeRequest(6, request(7))).toThrow(UnsupportedFieldVersionError);
    expect(() => OffsetCommit.encodeRequest(6, request(7))).toThrow(/groupInstanceId/);
    expect(OffsetCommit.encodeRequest(6, { ...request(6), groupInstanceId: null })).toEqual(
      OffsetCommit.encodeRequest(6, request(6)),
    );
    expect(() => OffsetCommit.encodeRequest(5, request(4))).toThrow(/retentionTimeMs/);
    expect(OffsetCommit.encodeRequest(5, { ...request(5), retentionTimeMs: -1n })).toEqual(
      OffsetCommit.encodeRequest(5, request(5)),
    );
    expect(() => OffsetCommit.encodeRequest(5, request(6))).toThrow(/committedLeaderEpoch/);
    expect(() => OffsetCommit.encodeRequest(9, request(10))).toThrow(/topics\[\]\.topicId/);
    expect(() => OffsetCommit.encodeRequest(10, request(9))).toThrow(/topics\[\]\.name/);
    expect(() => OffsetCommit.encodeResponse(2, response(3))).toThrow(/throttleTimeMs/);
    expect(() => OffsetCommit.encodeResponse(10, response(9))).toThrow(/topics\[\]\.name/);
  });

  it('refuses versions it does not implement', () => {
    expect(() => OffsetCommit.encodeRequest(1, request(2))).toThrow(UnsupportedVersionError);
    expect(() => OffsetCommit.decodeResponse(11, RESPONSE_V10)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      00 00 00 00                 # ThrottleTimeMs 0
      02 02 74 01                 # Topics: 1, Name "t", Partitions: 0
      01 02 01 ff                 #   topic tags: 1, tag 2, 1 byte ff
      00                          # tags: none
    `;
    const decoded = OffsetCommit.decodeResponse(8, body);
    expect(decoded.topics[0]?.unknownTaggedFields).toStrictEqual([{ tag: 2, data: hex`ff` }]);
    expect(toHex(OffsetCommit.encodeResponse(8, decoded))).toBe(toHex(body));
    expect(() => OffsetCommit.encodeResponse(7, decoded)).toThrow(/unknownTaggedFields/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      OffsetCommit,
      versionsOf(OffsetCommit).map((v) => ({
        version: v,
        request: OffsetCommit.encodeRequest(v, request(v)),
        response: OffsetCommit.encodeResponse(v, response(v)),
      })),
    );
  });
});
