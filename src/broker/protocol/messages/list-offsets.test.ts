import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  CONSUMER_REPLICA_ID,
  IsolationLevel,
  ListOffsets,
  type ListOffsetsRequest,
  type ListOffsetsResponse,
  ListOffsetsTimestamp,
} from './list-offsets.js';

const request = (v: number): ListOffsetsRequest => ({
  replicaId: CONSUMER_REPLICA_ID,
  ...(v >= 2 && { isolationLevel: IsolationLevel.ReadCommitted }),
  topics: [
    {
      name: 'orders',
      partitions: [
        {
          partitionIndex: 0,
          ...(v >= 4 && { currentLeaderEpoch: 5 }),
          timestamp: ListOffsetsTimestamp.Latest,
        },
        {
          partitionIndex: 1,
          ...(v >= 4 && { currentLeaderEpoch: -1 }),
          timestamp: ListOffsetsTimestamp.Earliest,
        },
        { partitionIndex: 2, ...(v >= 4 && { currentLeaderEpoch: -1 }), timestamp: 1_700_000_000_000n },
      ],
    },
    { name: 'ñ-topic', partitions: [] },
  ],
  ...(v >= 10 && { timeoutMs: 30_000 }),
});

const response = (v: number): ListOffsetsResponse => ({
  ...(v >= 2 && { throttleTimeMs: 4 }),
  topics: [
    {
      name: 'orders',
      partitions: [
        {
          partitionIndex: 0,
          errorCode: 0,
          timestamp: -1n,
          offset: 9_007_199_254_740_993n,
          ...(v >= 4 && { leaderEpoch: 5 }),
        },
        { partitionIndex: 1, errorCode: 6, timestamp: -1n, offset: -1n, ...(v >= 4 && { leaderEpoch: -1 }) },
      ],
    },
  ],
});

// Golden bodies, derived by hand from ListOffsetsRequest.json / ListOffsetsResponse.json.
const REQUEST_V1 = hex`
  ff ff ff ff                   # ReplicaId -1 (a client)
  00 00 00 01                   # Topics: 1 (int32 count)
  00 01 74                      #   Name "t" (int16 length)
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  ff ff ff ff ff ff ff fe       #     Timestamp -2 (earliest)
`;
const RESPONSE_V1 = hex`
  00 00 00 01                   # Topics: 1
  00 01 74                      #   Name "t"
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  00 00                         #     ErrorCode 0
  ff ff ff ff ff ff ff ff       #     Timestamp -1
  00 00 00 00 00 00 00 05       #     Offset 5
`;
const REQUEST_V11 = hex`
  ff ff ff ff                   # ReplicaId -1
  01                            # IsolationLevel 1 (read committed)
  02                            # Topics: 1 (compact: 1 + 1)
  02 74                         #   Name "t"
  02                            #   Partitions: 1
  00 00 00 03                   #     PartitionIndex 3
  00 00 00 02                   #     CurrentLeaderEpoch 2
  ff ff ff ff ff ff ff ff       #     Timestamp -1 (latest)
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00 00 75 30                   # TimeoutMs 30000
  00                            # tagged fields
`;
const RESPONSE_V11 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Topics: 1
  02 74                         #   Name "t"
  02                            #   Partitions: 1
  00 00 00 03                   #     PartitionIndex 3
  00 00                         #     ErrorCode 0
  ff ff ff ff ff ff ff ff       #     Timestamp -1
  00 00 00 00 00 00 04 d2       #     Offset 1234
  00 00 00 02                   #     LeaderEpoch 2
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
`;

describe('ListOffsets codec', () => {
  it('has the key and versions of the schema (v0 removed in Kafka 4.0)', () => {
    expect(ListOffsets).toMatchObject({
      apiKey: 2,
      name: 'ListOffsets',
      minVersion: 1,
      maxVersion: 11,
      flexibleFrom: 6,
    });
  });

  it.each(versionsOf(ListOffsets))('round-trips request and response v%i', (v) => {
    expectRoundTrip(ListOffsets, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req1: ListOffsetsRequest = {
      replicaId: -1,
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, timestamp: -2n }] }],
    };
    expect(toHex(ListOffsets.encodeRequest(1, req1))).toBe(toHex(REQUEST_V1));
    expect(ListOffsets.decodeRequest(1, REQUEST_V1)).toStrictEqual(req1);
    const res1: ListOffsetsResponse = {
      topics: [{ name: 't', partitions: [{ partitionIndex: 0, errorCode: 0, timestamp: -1n, offset: 5n }] }],
    };
    expect(toHex(ListOffsets.encodeResponse(1, res1))).toBe(toHex(RESPONSE_V1));
    expect(ListOffsets.decodeResponse(1, RESPONSE_V1)).toStrictEqual(res1);

    const req11: ListOffsetsRequest = {
      replicaId: -1,
      isolationLevel: 1,
      topics: [{ name: 't', partitions: [{ partitionIndex: 3, currentLeaderEpoch: 2, timestamp: -1n }] }],
      timeoutMs: 30_000,
    };
    expect(toHex(ListOffsets.encodeRequest(11, req11))).toBe(toHex(REQUEST_V11));
    expect(ListOffsets.decodeRequest(11, REQUEST_V11)).toStrictEqual(req11);
    const res11: ListOffsetsResponse = {
      throttleTimeMs: 0,
      topics: [
        {
          name: 't',
          partitions: [{ partitionIndex: 3, errorCode: 0, timestamp: -1n, offset: 1234n, leaderEpoch: 2 }],
        },
      ],
    };
    expect(toHex(ListOffsets.encodeResponse(11, res11))).toBe(toHex(RESPONSE_V11));
    expect(ListOffsets.decodeResponse(11, RESPONSE_V11)).toStrictEqual(res11);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => ListOffsets.decodeRequest(1, b), REQUEST_V1);
    expectTruncationsFail((b) => ListOffsets.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail((b) => ListOffsets.decodeRequest(11, b), REQUEST_V11);
    expectTruncationsFail((b) => ListOffsets.decodeResponse(11, b), RESPONSE_V11);
  });

  it('refuses version-gated values where they do not exist, and accepts their defaults', () => {
    expect(() => ListOffsets.encodeRequest(1, { ...request(1), isolationLevel: 1 })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(ListOffsets.encodeRequest(1, { ...request(1), isolationLevel: 0 })).toEqual(
      ListOffsets.encodeRequest(1, request(1)),
    );
    expect(() => ListOffsets.encodeRequest(3, request(4))).toThrow(
      /topics\[\]\.partitions\[\]\.currentLeaderEpoch/,
    );
    expect(() => ListOffsets.encodeRequest(9, request(10))).toThrow(/timeoutMs/);
    expect(() => ListOffsets.encodeResponse(1, response(2))).toThrow(/throttleTimeMs/);
    expect(() => ListOffsets.encodeResponse(3, response(4))).toThrow(/leaderEpoch/);
  });

  it('refuses versions it does not implement', () => {
    expect(() => ListOffsets.encodeRequest(0, request(1))).toThrow(UnsupportedVersionError);
    expect(() => ListOffsets.decodeResponse(12, RESPONSE_V11)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    const body = hex`
      ff ff ff ff 00              # ReplicaId -1, IsolationLevel 0
      01                          # Topics: 0
      01 05 01 07                 # tags: 1, tag 5, 1 byte 07
    `;
    const decoded = ListOffsets.decodeRequest(6, body);
    expect(decoded).toStrictEqual({
      replicaId: -1,
      isolationLevel: 0,
      topics: [],
      unknownTaggedFields: [{ tag: 5, data: hex`07` }],
    });
    expect(toHex(ListOffsets.encodeRequest(6, decoded))).toBe(toHex(body));
    expect(() => ListOffsets.encodeRequest(5, decoded)).toThrow(/unknownTaggedFields/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      ListOffsets,
      versionsOf(ListOffsets).map((v) => ({
        version: v,
        request: ListOffsets.encodeRequest(v, request(v)),
        response: ListOffsets.encodeResponse(v, response(v)),
      })),
    );
  });
});
