import { describe, expect, it } from 'vitest';
import { ProtocolEncodeError, UnsupportedFieldVersionError } from '../decode-error.js';
import {
  decodeFailure,
  expectRoundTrip,
  expectTruncationsFail,
  fuzz,
  hex,
  toHex,
  versionsOf,
} from '../test-utils.js';
import { Metadata, type MetadataRequest, type MetadataResponse } from './metadata.js';

const TOPIC_ID = 'AAAAAAAAAAAAAAAAAAAAAQ'; // 15 zero bytes and a 1

const request = (v: number): MetadataRequest => ({
  topics: [
    { ...(v >= 10 && { topicId: TOPIC_ID }), name: 'orders' },
    { ...(v >= 10 && { topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }), name: v >= 10 ? null : 'payments' },
  ],
  ...(v >= 4 && { allowAutoTopicCreation: false }),
  ...(v >= 8 && v <= 10 && { includeClusterAuthorizedOperations: true }),
  ...(v >= 8 && { includeTopicAuthorizedOperations: true }),
});

const response = (v: number): MetadataResponse => ({
  ...(v >= 3 && { throttleTimeMs: 0 }),
  brokers: [
    { nodeId: 1, host: 'broker-1', port: 9092, ...(v >= 1 && { rack: 'eu-west-1a' }) },
    { nodeId: 2, host: '::1', port: 19092, ...(v >= 1 && { rack: null }) },
  ],
  ...(v >= 2 && { clusterId: 'MkU3OEVBNTcwNTJENDM2Qk' }),
  ...(v >= 1 && { controllerId: 1 }),
  topics: [
    {
      errorCode: 0,
      name: 'orders',
      ...(v >= 10 && { topicId: TOPIC_ID }),
      ...(v >= 1 && { isInternal: false }),
      partitions: [
        {
          errorCode: 0,
          partitionIndex: 0,
          leaderId: 1,
          ...(v >= 7 && { leaderEpoch: 4 }),
          replicaNodes: [1, 2],
          isrNodes: [1],
          ...(v >= 5 && { offlineReplicas: [2] }),
        },
      ],
      ...(v >= 8 && { topicAuthorizedOperations: 0x0ff8 }),
    },
    {
      errorCode: 3,
      name: v >= 12 ? null : 'gone',
      ...(v >= 10 && { topicId: 'AAAAAAAAAAAAAAAAAAAAAA' }),
      ...(v >= 1 && { isInternal: true }),
      partitions: [],
      ...(v >= 8 && { topicAuthorizedOperations: -2147483648 }),
    },
  ],
  ...(v >= 8 && v <= 10 && { clusterAuthorizedOperations: 0x0ff8 }),
  ...(v >= 13 && { errorCode: 0 }),
});

// Golden bodies, derived by hand from MetadataRequest.json / MetadataResponse.json.
const REQUEST_V0 = hex`
  00 00 00 01                   # Topics: 1
  00 01 74                      #   Name "t"
`;
const REQUEST_V1_ALL = hex`
  ff ff ff ff                   # Topics: null (all topics, from v1)
`;
const REQUEST_V12 = hex`
  02                            # Topics: 1 (compact)
  00 00 00 00 00 00 00 00
  00 00 00 00 00 00 00 00       #   TopicId: zero
  02 74                         #   Name "t"
  00                            #   topic tagged fields
  01                            # AllowAutoTopicCreation true (no IncludeCluster... after v10)
  00                            # IncludeTopicAuthorizedOperations false
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 01                   # Brokers: 1
  00 00 00 01                   #   NodeId 1
  00 01 68                      #   Host "h"
  00 00 23 84                   #   Port 9092
  ff ff                         #   Rack null
  00 00 00 01                   # ControllerId 1
  00 00 00 01                   # Topics: 1
  00 00                         #   ErrorCode 0
  00 01 74                      #   Name "t"
  00                            #   IsInternal false
  00 00 00 01                   #   Partitions: 1
  00 00                         #     ErrorCode 0
  00 00 00 00                   #     PartitionIndex 0
  00 00 00 01                   #     LeaderId 1
  00 00 00 01 00 00 00 01       #     ReplicaNodes [1]
  00 00 00 01 00 00 00 01       #     IsrNodes [1]
`;
const RESPONSE_V13 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Brokers: 1 (compact)
  00 00 00 01                   #   NodeId 1
  02 68                         #   Host "h"
  00 00 23 84                   #   Port 9092
  02 72                         #   Rack "r"
  00                            #   broker tagged fields
  02 63                         # ClusterId "c"
  00 00 00 01                   # ControllerId 1
  02                            # Topics: 1
  00 00                         #   ErrorCode 0
  02 74                         #   Name "t"
  00 00 00 00 00 00 00 00
  00 00 00 00 00 00 00 01       #   TopicId AAAAAAAAAAAAAAAAAAAAAQ
  00                            #   IsInternal false
  01                            #   Partitions: 0
  80 00 00 00                   #   TopicAuthorizedOperations INT32_MIN
  00                            #   topic tagged fields
  00 81                         # ErrorCode 129 (REBOOTSTRAP_REQUIRED; no ClusterAuthorizedOperations after v10)
  00                            # tagged fields
`;

describe('Metadata codec', () => {
  it('has the key and versions of the schema', () => {
    expect(Metadata).toMatchObject({ apiKey: 3, minVersion: 0, maxVersion: 13, flexibleFrom: 9 });
  });

  it.each(versionsOf(Metadata))('round-trips request and response v%i', (v) => {
    expectRoundTrip(Metadata, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req0 = { topics: [{ name: 't' }] };
    expect(toHex(Metadata.encodeRequest(0, req0))).toBe(toHex(REQUEST_V0));
    expect(Metadata.decodeRequest(0, REQUEST_V0)).toStrictEqual(req0);
    expect(toHex(Metadata.encodeRequest(1, { topics: null }))).toBe(toHex(REQUEST_V1_ALL));
    expect(Metadata.decodeRequest(1, REQUEST_V1_ALL)).toStrictEqual({ topics: null });
    const req12 = {
      topics: [{ topicId: 'AAAAAAAAAAAAAAAAAAAAAA', name: 't' }],
      allowAutoTopicCreation: true,
      includeTopicAuthorizedOperations: false,
    };
    expect(toHex(Metadata.encodeRequest(12, req12))).toBe(toHex(REQUEST_V12));
    expect(Metadata.decodeRequest(12, REQUEST_V12)).toStrictEqual(req12);
    // Fields left out take their schema defaults: AllowAutoTopicCreation true, topic id zero.
    expect(toHex(Metadata.encodeRequest(12, { topics: [{ name: 't' }] }))).toBe(toHex(REQUEST_V12));

    const res1: MetadataResponse = {
      brokers: [{ nodeId: 1, host: 'h', port: 9092, rack: null }],
      controllerId: 1,
      topics: [
        {
          errorCode: 0,
          name: 't',
          isInternal: false,
          partitions: [{ errorCode: 0, partitionIndex: 0, leaderId: 1, replicaNodes: [1], isrNodes: [1] }],
        },
      ],
    };
    expect(toHex(Metadata.encodeResponse(1, res1))).toBe(toHex(RESPONSE_V1));
    expect(Metadata.decodeResponse(1, RESPONSE_V1)).toStrictEqual(res1);
    const res13: MetadataResponse = {
      throttleTimeMs: 0,
      brokers: [{ nodeId: 1, host: 'h', port: 9092, rack: 'r' }],
      clusterId: 'c',
      controllerId: 1,
      topics: [
        {
          errorCode: 0,
          name: 't',
          topicId: TOPIC_ID,
          isInternal: false,
          partitions: [],
          topicAuthorizedOperations: -2147483648,
        },
      ],
      errorCode: 129,
    };
    expect(toHex(Metadata.encodeResponse(13, res13))).toBe(toHex(RESPONSE_V13));
    expect(Metadata.decodeResponse(13, RESPONSE_V13)).toStrictEqual(res13);
  });

  it('fails cleanly on every truncation of the golden bodies', () => {
    expectTruncationsFail((b) => Metadata.decodeResponse(1, b), RESPONSE_V1);
    expectTruncationsFail((b) => Metadata.decodeResponse(13, b), RESPONSE_V13);
    expectTruncationsFail((b) => Metadata.decodeRequest(12, b), REQUEST_V12);
  });

  it('fails at once on huge counts', () => {
    expect(decodeFailure(() => Metadata.decodeResponse(0, hex`7f ff ff ff 00 00 00 00`)).reason).toMatch(
      /count/,
    );
    const replicas = hex`
      00 00 00 00                   # Brokers: 0
      00 00 00 01                   # Topics: 1
      00 00                         #   ErrorCode 0
      00 01 74                      #   Name "t"
      00 00 00 01                   #   Partitions: 1
      00 00                         #     ErrorCode 0
      00 00 00 00                   #     PartitionIndex 0
      00 00 00 01                   #     LeaderId 1
      7f ff ff ff                   #     ReplicaNodes: 2^31-1 int32s
      00 00 00 00                   #     IsrNodes: 0
    `;
    expect(decodeFailure(() => Metadata.decodeResponse(0, replicas)).reason).toMatch(/count 2147483647/);
  });

  it('refuses null where the version does not allow it', () => {
    expect(() => Metadata.encodeRequest(0, { topics: null })).toThrow(ProtocolEncodeError);
    expect(() => Metadata.encodeRequest(9, { topics: [{ name: null }] })).toThrow(/null/);
    expect(() => Metadata.encodeResponse(11, { ...response(12) })).toThrow(/null/);
    // Name null (ffff) in a v1 topic.
    const body = hex`00 00 00 00  00 00 00 01  00 00 00 01  00 00  ff ff 00 00 00 00 00 00`;
    expect(decodeFailure(() => Metadata.decodeResponse(1, body)).reason).toMatch(/null/);
  });

  it('refuses version-gated values where they do not exist', () => {
    expect(() => Metadata.encodeRequest(3, { topics: [], allowAutoTopicCreation: false })).toThrow(
      UnsupportedFieldVersionError,
    );
    expect(Metadata.encodeRequest(3, { topics: [], allowAutoTopicCreation: true })).toEqual(hex`00 00 00 00`);
    expect(() =>
      Metadata.encodeRequest(11, { topics: [], includeClusterAuthorizedOperations: true }),
    ).toThrow(/includeClusterAuthorizedOperations/);
    expect(() => Metadata.encodeResponse(12, { ...response(12), errorCode: 129 })).toThrow(/errorCode/);
    expect(() => Metadata.encodeResponse(11, { ...response(11), clusterAuthorizedOperations: 1 })).toThrow(
      /clusterAuthorizedOperations/,
    );
    expect(() => Metadata.encodeResponse(9, response(10))).toThrow(/topicId/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      Metadata,
      versionsOf(Metadata).map((v) => ({
        version: v,
        request: Metadata.encodeRequest(v, request(v)),
        response: Metadata.encodeResponse(v, response(v)),
      })),
    );
  });
});
