import { describe, expect, it } from 'vitest';
import {
  ProtocolDecodeError,
  ProtocolEncodeError,
  UnsupportedFieldVersionError,
  UnsupportedVersionError,
} from '../decode-error.js';
import { expectRoundTrip, expectTruncationsFail, fuzz, hex, toHex, versionsOf } from '../test-utils.js';
import {
  FETCH_CONSUMER_REPLICA_ID,
  Fetch,
  type FetchPartitionData,
  type FetchRequest,
  type FetchResponse,
  RECORD_BATCH_HEADER_BYTES,
  type RecordBatchHeader,
  readRecordBatchHeader,
  writeRecordBatchHeader,
} from './fetch.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes, then 01
const OTHER_TOPIC_ID = 'q83vEjRWeJCrze8SNFZ4kA';

const byNameOrId = (v: number, topic: string, topicId: string) => (v >= 13 ? { topicId } : { topic });

// A v2 record batch header: 2 records, lz4, broker time (LogAppendTime), no producer id.
const BATCH_HEADER = hex`
  00 00 00 00 00 00 00 05       # BaseOffset 5
  00 00 00 49                   # BatchLength 73 (the batch is 85 bytes)
  00 00 00 00                   # PartitionLeaderEpoch 0
  02                            # Magic 2
  12 34 56 78                   # CRC (not checked)
  00 0b                         # Attributes: lz4 (3) | LogAppendTime (8)
  00 00 00 01                   # LastOffsetDelta 1 (offsets 5 and 6)
  00 00 01 8b cf e5 68 00       # BaseTimestamp 1700000000000
  00 00 01 8b cf e5 69 f4       # MaxTimestamp 1700000000500
  ff ff ff ff ff ff ff ff       # ProducerId -1
  ff ff                         # ProducerEpoch -1
  ff ff ff ff                   # BaseSequence -1
  00 00 00 02                   # RecordsCount 2
`;
const batch: RecordBatchHeader = {
  baseOffset: 5n,
  batchLength: 73,
  partitionLeaderEpoch: 0,
  magic: 2,
  crc: 0x12345678,
  attributes: 0x0b,
  compression: 'lz4',
  timestampType: 'LogAppendTime',
  isTransactional: false,
  isControl: false,
  lastOffsetDelta: 1,
  baseTimestamp: 1_700_000_000_000n,
  maxTimestamp: 1_700_000_000_500n,
  producerId: -1n,
  producerEpoch: -1,
  baseSequence: -1,
  recordsCount: 2,
};
const controlBatch: RecordBatchHeader = {
  ...batch,
  baseOffset: 9_007_199_254_740_993n,
  crc: 0xffffffff,
  attributes: 0x30,
  compression: 'none',
  timestampType: 'CreateTime',
  isTransactional: true,
  isControl: true,
  lastOffsetDelta: 0,
  producerId: 4000n,
  producerEpoch: 3,
  recordsCount: 1,
};

const request = (v: number): FetchRequest => ({
  ...(v <= 14 && { replicaId: FETCH_CONSUMER_REPLICA_ID }),
  maxWaitMs: 0,
  minBytes: 1,
  maxBytes: 1024,
  isolationLevel: 1,
  ...(v >= 7 && { sessionId: 0, sessionEpoch: -1 }),
  topics: [
    {
      ...byNameOrId(v, 'orders', TOPIC_ID),
      partitions: [
        {
          partition: 0,
          ...(v >= 9 && { currentLeaderEpoch: 4 }),
          fetchOffset: 9_007_199_254_740_993n,
          ...(v >= 12 && { lastFetchedEpoch: 3 }),
          ...(v >= 5 && { logStartOffset: 100n }),
          partitionMaxBytes: 512,
        },
        {
          partition: 3,
          ...(v >= 9 && { currentLeaderEpoch: -1 }),
          fetchOffset: 0n,
          ...(v >= 12 && { lastFetchedEpoch: -1 }),
          ...(v >= 5 && { logStartOffset: -1n }),
          partitionMaxBytes: 1,
        },
      ],
    },
  ],
  ...(v >= 7 && {
    forgottenTopicsData: [{ ...byNameOrId(v, 'payments', OTHER_TOPIC_ID), partitions: [1, 2] }],
  }),
  ...(v >= 11 && { rackId: 'rack-ñ' }),
});

const response = (v: number): FetchResponse => ({
  throttleTimeMs: 3,
  ...(v >= 7 && { errorCode: 0, sessionId: 0 }),
  responses: [
    {
      ...byNameOrId(v, 'orders', TOPIC_ID),
      partitions: [
        {
          partitionIndex: 0,
          errorCode: 0,
          highWatermark: 9_007_199_254_740_999n,
          lastStableOffset: 9_007_199_254_740_999n,
          ...(v >= 5 && { logStartOffset: 2n }),
          abortedTransactions: [{ producerId: 4000n, firstOffset: 7n }],
          ...(v >= 11 && { preferredReadReplica: -1 }),
          records: { sizeInBytes: 85, firstBatch: batch },
        },
        {
          partitionIndex: 1,
          errorCode: 6,
          highWatermark: -1n,
          lastStableOffset: -1n,
          ...(v >= 5 && { logStartOffset: -1n }),
          ...(v >= 12 && { currentLeader: { leaderId: 2, leaderEpoch: 9 } }),
          abortedTransactions: null,
          ...(v >= 11 && { preferredReadReplica: -1 }),
          records: null,
        },
        {
          partitionIndex: 2,
          errorCode: 0,
          highWatermark: 10n,
          lastStableOffset: 10n,
          ...(v >= 5 && { logStartOffset: 0n }),
          abortedTransactions: null,
          ...(v >= 11 && { preferredReadReplica: 1 }),
          records: { sizeInBytes: 200, firstBatch: controlBatch },
        },
        {
          partitionIndex: 3,
          errorCode: 0,
          highWatermark: 10n,
          lastStableOffset: 10n,
          ...(v >= 5 && { logStartOffset: 10n }),
          abortedTransactions: [],
          ...(v >= 11 && { preferredReadReplica: -1 }),
          records: { sizeInBytes: 0, firstBatch: null },
        },
      ],
    },
  ],
  ...(v >= 16 && { nodeEndpoints: [{ nodeId: 2, host: 'broker-2.internal', port: 9092, rack: null }] }),
});

// Golden bodies, derived by hand from FetchRequest.json / FetchResponse.json.
const REQUEST_V4 = hex`
  ff ff ff ff                   # ReplicaId -1 (a consumer)
  00 00 00 00                   # MaxWaitMs 0 (answer at once)
  00 00 00 00                   # MinBytes 0
  00 00 04 00                   # MaxBytes 1024
  00                            # IsolationLevel 0 (read uncommitted)
  00 00 00 01                   # Topics: 1 (int32 count)
  00 01 74                      #   Topic "t" (int16 length)
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     Partition 0
  00 00 00 00 00 00 00 05       #     FetchOffset 5
  00 00 04 00                   #     PartitionMaxBytes 1024
`;
const REQUEST_V12 = hex`
  ff ff ff ff                   # ReplicaId -1
  00 00 00 00                   # MaxWaitMs 0
  00 00 00 00                   # MinBytes 0
  00 00 04 00                   # MaxBytes 1024
  00                            # IsolationLevel 0
  00 00 00 00                   # SessionId 0 (no fetch session)
  ff ff ff ff                   # SessionEpoch -1 (full fetch, no session)
  02                            # Topics: 1 (compact: 1 + 1)
  02 74                         #   Topic "t" (compact: length 1 + 1)
  02                            #   Partitions: 1
  00 00 00 00                   #     Partition 0
  ff ff ff ff                   #     CurrentLeaderEpoch -1
  00 00 00 00 00 00 00 05       #     FetchOffset 5
  ff ff ff ff                   #     LastFetchedEpoch -1
  ff ff ff ff ff ff ff ff       #     LogStartOffset -1
  00 00 04 00                   #     PartitionMaxBytes 1024
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  01                            # ForgottenTopicsData: 0
  01                            # RackId ""
  00                            # tagged fields
`;
const REQUEST_V15 = hex`
  00 00 00 00                   # MaxWaitMs 0 (no ReplicaId from v15)
  00 00 00 00                   # MinBytes 0
  00 00 04 00                   # MaxBytes 1024
  00                            # IsolationLevel 0
  00 00 00 00                   # SessionId 0
  ff ff ff ff                   # SessionEpoch -1
  02                            # Topics: 1
  00 00 00 00 00 00 00 00       #   TopicId (first 8 bytes)
  00 00 00 00 00 00 00 01       #   TopicId (last 8 bytes)
  02                            #   Partitions: 1
  00 00 00 00                   #     Partition 0
  ff ff ff ff                   #     CurrentLeaderEpoch -1
  00 00 00 00 00 00 00 05       #     FetchOffset 5
  ff ff ff ff                   #     LastFetchedEpoch -1
  ff ff ff ff ff ff ff ff       #     LogStartOffset -1
  00 00 04 00                   #     PartitionMaxBytes 1024
  00                            #     partition tagged fields
  00                            #   topic tagged fields
  01                            # ForgottenTopicsData: 0
  01                            # RackId ""
  00                            # tagged fields
`;
const RESPONSE_V4 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00 00 01                   # Responses: 1
  00 01 74                      #   Topic "t"
  00 00 00 01                   #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  00 01                         #     ErrorCode 1 (OFFSET_OUT_OF_RANGE)
  00 00 00 00 00 00 00 0a       #     HighWatermark 10
  00 00 00 00 00 00 00 0a       #     LastStableOffset 10
  ff ff ff ff                   #     AbortedTransactions: null
  00 00 00 00                   #     Records: 0 bytes
`;
const RESPONSE_V12 = new Uint8Array([
  ...hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00 00 00 00                   # SessionId 0
  02                            # Responses: 1
  02 74                         #   Topic "t"
  02                            #   Partitions: 1
  00 00 00 00                   #     PartitionIndex 0
  00 00                         #     ErrorCode 0
  00 00 00 00 00 00 00 07       #     HighWatermark 7
  00 00 00 00 00 00 00 07       #     LastStableOffset 7
  00 00 00 00 00 00 00 00       #     LogStartOffset 0
  00                            #     AbortedTransactions: null (compact)
  ff ff ff ff                   #     PreferredReadReplica -1
  3e                            #     Records: 61 bytes (compact: 61 + 1), the batch header:
  `,
  ...BATCH_HEADER,
  ...hex`
  01                            #     partition tagged fields: 1
  01 09                         #       tag 1 (CurrentLeader), 9 bytes
  00 00 00 01                   #         LeaderId 1
  00 00 00 07                   #         LeaderEpoch 7
  00                            #         CurrentLeader tagged fields
  00                            #   topic tagged fields
  00                            # tagged fields
  `,
]);
const RESPONSE_V16 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  00 00                         # ErrorCode 0
  00 00 00 00                   # SessionId 0
  01                            # Responses: 0
  01                            # tagged fields: 1
  00 0d                         #   tag 0 (NodeEndpoints), 13 bytes
  02                            #     NodeEndpoints: 1
  00 00 00 02                   #       NodeId 2
  02 68                         #       Host "h"
  00 00 23 84                   #       Port 9092
  00                            #       Rack null
  00                            #       endpoint tagged fields
`;

describe('Fetch codec', () => {
  it('has the key and versions of the schema (v0-3 removed in Kafka 4.0, v18 from 4.1)', () => {
    expect(Fetch).toMatchObject({
      apiKey: 1,
      name: 'Fetch',
      minVersion: 4,
      maxVersion: 18,
      flexibleFrom: 12,
    });
  });

  it.each(versionsOf(Fetch))('round-trips request and response v%i', (v) => {
    expectRoundTrip(Fetch, v, request(v), response(v));
  });

  it('reads a v2 record batch header and nothing after it', () => {
    expect(readRecordBatchHeader(BATCH_HEADER)).toStrictEqual(batch);
    expect(toHex(writeRecordBatchHeader(batch))).toBe(toHex(BATCH_HEADER));
    expect(BATCH_HEADER.length).toBe(RECORD_BATCH_HEADER_BYTES);
    // Whatever follows the header (records, compressed or not, more batches) is not looked at.
    const withTail = new Uint8Array([...BATCH_HEADER, 0xde, 0xad, 0xbe, 0xef]);
    expect(readRecordBatchHeader(withTail)).toStrictEqual(batch);
    // Too short for a header, or a legacy message set (magic 1 at byte 16): no header.
    expect(readRecordBatchHeader(BATCH_HEADER.subarray(0, 60))).toBeNull();
    const legacy = BATCH_HEADER.slice();
    legacy[16] = 1;
    expect(readRecordBatchHeader(legacy)).toBeNull();
    // Compression codecs 5-7 do not exist.
    const badCodec = BATCH_HEADER.slice();
    badCodec[22] = 0x0d;
    expect(() => readRecordBatchHeader(badCodec)).toThrow(ProtocolDecodeError);
    expect(() => readRecordBatchHeader(badCodec)).toThrow(/compression codec 5/);
  });

  it('refuses a batch header whose named bits disagree with its attributes', () => {
    expect(() => writeRecordBatchHeader({ ...batch, compression: 'zstd' })).toThrow(ProtocolEncodeError);
    expect(() => writeRecordBatchHeader({ ...batch, timestampType: 'CreateTime' })).toThrow(/attributes 11/);
    expect(() =>
      Fetch.encodeResponse(12, {
        ...response(12),
        responses: [
          {
            topic: 't',
            partitions: [
              {
                ...(response(12).responses[0]?.partitions[0] as FetchPartitionData),
                records: { sizeInBytes: 60, firstBatch: batch },
              },
            ],
          },
        ],
      }),
    ).toThrow(/at least 61 bytes/);
  });

  it('matches golden bytes', () => {
    const req4: FetchRequest = {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: 1024,
      isolationLevel: 0,
      topics: [{ topic: 't', partitions: [{ partition: 0, fetchOffset: 5n, partitionMaxBytes: 1024 }] }],
    };
    expect(toHex(Fetch.encodeRequest(4, req4))).toBe(toHex(REQUEST_V4));
    expect(Fetch.decodeRequest(4, REQUEST_V4)).toStrictEqual(req4);
    const partition12 = {
      partition: 0,
      currentLeaderEpoch: -1,
      fetchOffset: 5n,
      lastFetchedEpoch: -1,
      logStartOffset: -1n,
      partitionMaxBytes: 1024,
    };
    const req12: FetchRequest = {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes: 1024,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [{ topic: 't', partitions: [partition12] }],
      forgottenTopicsData: [],
      rackId: '',
    };
    expect(toHex(Fetch.encodeRequest(12, req12))).toBe(toHex(REQUEST_V12));
    expect(Fetch.decodeRequest(12, REQUEST_V12)).toStrictEqual(req12);
    const { replicaId: _, ...req15 } = {
      ...req12,
      topics: [{ topicId: TOPIC_ID, partitions: [partition12] }],
    };
    for (const v of [15, 16, 17, 18]) {
      expect(toHex(Fetch.encodeRequest(v, req15))).toBe(toHex(REQUEST_V15));
      expect(Fetch.decodeRequest(v, REQUEST_V15)).toStrictEqual(req15);
    }

    const res4: FetchResponse = {
      throttleTimeMs: 0,
      responses: [
        {
          topic: 't',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 1,
              highWatermark: 10n,
              lastStableOffset: 10n,
              abortedTransactions: null,
              records: { sizeInBytes: 0, firstBatch: null },
            },
          ],
        },
      ],
    };
    expect(toHex(Fetch.encodeResponse(4, res4))).toBe(toHex(RESPONSE_V4));
    expect(Fetch.decodeResponse(4, RESPONSE_V4)).toStrictEqual(res4);
    const res12: FetchResponse = {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [
        {
          topic: 't',
          partitions: [
            {
              partitionIndex: 0,
              errorCode: 0,
              highWatermark: 7n,
              lastStableOffset: 7n,
              logStartOffset: 0n,
              currentLeader: { leaderId: 1, leaderEpoch: 7 },
              abortedTransactions: null,
              preferredReadReplica: -1,
              records: { sizeInBytes: 61, firstBatch: batch },
            },
          ],
        },
      ],
    };
    expect(toHex(Fetch.encodeResponse(12, res12))).toBe(toHex(RESPONSE_V12));
    expect(Fetch.decodeResponse(12, RESPONSE_V12)).toStrictEqual(res12);
    const res16: FetchResponse = {
      throttleTimeMs: 0,
      errorCode: 0,
      sessionId: 0,
      responses: [],
      nodeEndpoints: [{ nodeId: 2, host: 'h', port: 9092, rack: null }],
    };
    expect(toHex(Fetch.encodeResponse(16, res16))).toBe(toHex(RESPONSE_V16));
    expect(Fetch.decodeResponse(16, RESPONSE_V16)).toStrictEqual(res16);
    // Before v16, tag 0 at the top level is not NodeEndpoints: it is kept as an unknown tag.
    expect(Fetch.decodeResponse(15, RESPONSE_V16).unknownTaggedFields?.[0]?.tag).toBe(0);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => Fetch.decodeRequest(4, b), REQUEST_V4);
    expectTruncationsFail((b) => Fetch.decodeRequest(12, b), REQUEST_V12);
    expectTruncationsFail((b) => Fetch.decodeRequest(15, b), REQUEST_V15);
    expectTruncationsFail((b) => Fetch.decodeResponse(4, b), RESPONSE_V4);
    expectTruncationsFail((b) => Fetch.decodeResponse(12, b), RESPONSE_V12);
    expectTruncationsFail((b) => Fetch.decodeResponse(16, b), RESPONSE_V16);
  });

  it('refuses version-gated values where they do not exist, and accepts their defaults', () => {
    // v15 moved a follower's id into ReplicaState; a consumer's -1 is the default and needs no room.
    expect(() => Fetch.encodeRequest(15, { ...request(15), replicaId: 1 })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(() => Fetch.encodeRequest(15, { ...request(15), replicaId: 1 })).toThrow(/replicaId/);
    expect(Fetch.encodeRequest(15, { ...request(15), replicaId: -1 })).toEqual(
      Fetch.encodeRequest(15, request(15)),
    );
    expect(() => Fetch.encodeRequest(4, request(5))).toThrow(/logStartOffset/);
    expect(() => Fetch.encodeRequest(6, request(7))).toThrow(/sessionEpoch|forgottenTopicsData/);
    expect(() => Fetch.encodeRequest(8, request(9))).toThrow(/currentLeaderEpoch/);
    expect(() => Fetch.encodeRequest(10, request(11))).toThrow(/rackId/);
    expect(() => Fetch.encodeRequest(11, request(12))).toThrow(/lastFetchedEpoch/);
    expect(() => Fetch.encodeRequest(12, request(13))).toThrow(/topics\[\]\.topicId/);
    expect(() => Fetch.encodeRequest(13, request(12))).toThrow(/topics\[\]\.topic\b/);
    expect(() => Fetch.encodeResponse(6, { ...response(6), sessionId: 42 })).toThrow(/sessionId/);
    expect(() => Fetch.encodeResponse(10, response(11))).toThrow(/preferredReadReplica/);
    expect(() => Fetch.encodeResponse(11, response(12))).toThrow(/currentLeader/);
    expect(() => Fetch.encodeResponse(15, response(16))).toThrow(/nodeEndpoints/);
    expect(Fetch.encodeResponse(15, { ...response(15), nodeEndpoints: [] })).toEqual(
      Fetch.encodeResponse(15, response(15)),
    );
  });

  it('refuses versions it does not implement', () => {
    expect(() => Fetch.encodeRequest(3, request(4))).toThrow(UnsupportedVersionError);
    expect(() => Fetch.decodeResponse(19, RESPONSE_V16)).toThrow(UnsupportedVersionError);
  });

  it('keeps unknown tagged fields through a decode and encode', () => {
    // A follower's ClusterId (tag 0) is not modelled: it stays raw.
    const body = new Uint8Array([...REQUEST_V12.subarray(0, REQUEST_V12.length - 1), ...hex`01 00 02 01 63`]);
    const decoded = Fetch.decodeRequest(12, body);
    expect(decoded.unknownTaggedFields).toStrictEqual([{ tag: 0, data: hex`01 63` }]);
    expect(toHex(Fetch.encodeRequest(12, decoded))).toBe(toHex(body));
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      Fetch,
      versionsOf(Fetch).map((v) => ({
        version: v,
        request: Fetch.encodeRequest(v, request(v)),
        response: Fetch.encodeResponse(v, response(v)),
      })),
    );
  });
});
