import { describe, expect, it } from 'vitest';
import { UnsupportedFieldVersionError, UnsupportedVersionError } from '../decode-error.js';
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
  StreamsGroupDescribe,
  type StreamsGroupDescribedGroup,
  type StreamsGroupDescribeRequest,
  type StreamsGroupDescribeResponse,
  StreamsTopologyDescriptionStatus,
  StreamsTopologyNodeType,
} from './streams-group-describe.js';

const request = (v: number): StreamsGroupDescribeRequest => ({
  groupIds: ['word-count', 'ünï/côdé', ''],
  includeAuthorizedOperations: true,
  ...(v >= 1 && { includeTopologyDescription: true }),
});

const response = (v: number): StreamsGroupDescribeResponse => ({
  throttleTimeMs: 1,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'word-count',
      groupState: 'Stable',
      groupEpoch: 9,
      assignmentEpoch: 9,
      topology: {
        epoch: 2,
        subtopologies: [
          {
            subtopologyId: '0',
            sourceTopics: ['words'],
            repartitionSinkTopics: ['word-count-KSTREAM-REPARTITION-0000000003-repartition'],
            stateChangelogTopics: [],
            repartitionSourceTopics: [],
          },
          {
            subtopologyId: '1',
            sourceTopics: [],
            repartitionSinkTopics: [],
            stateChangelogTopics: [
              {
                name: 'word-count-counts-changelog',
                partitions: 0,
                replicationFactor: 3,
                topicConfigs: [{ key: 'cleanup.policy', value: 'compact' }],
              },
            ],
            repartitionSourceTopics: [
              {
                name: 'word-count-KSTREAM-REPARTITION-0000000003-repartition',
                partitions: 4,
                replicationFactor: 0,
                topicConfigs: [],
              },
            ],
          },
        ],
      },
      members: [
        {
          memberId: 'x1',
          memberEpoch: 9,
          instanceId: null,
          rackId: 'rack-a',
          clientId: 'word-count-StreamThread-1',
          clientHost: '/10.0.0.7',
          topologyEpoch: 2,
          processId: '5a6c7d1e-0000-4000-8000-000000000001',
          userEndpoint: { host: 'app-1.internal', port: 65535 },
          clientTags: [{ key: 'zone', value: 'eu-1a' }],
          taskOffsets: [{ subtopologyId: '1', partition: 3, offset: 9_007_199_254_740_993n }],
          taskEndOffsets: [{ subtopologyId: '1', partition: 3, offset: -1n }],
          assignment: {
            activeTasks: [{ subtopologyId: '0', partitions: [0, 1] }],
            standbyTasks: [{ subtopologyId: '1', partitions: [3] }],
            warmupTasks: [],
          },
          targetAssignment: {
            activeTasks: [{ subtopologyId: '0', partitions: [0] }],
            standbyTasks: [],
            warmupTasks: [{ subtopologyId: '1', partitions: [2, 3] }],
          },
          isClassic: false,
        },
        {
          memberId: 'x2',
          memberEpoch: 0,
          instanceId: 'static-2',
          rackId: null,
          clientId: '',
          clientHost: '',
          topologyEpoch: 0,
          processId: '',
          userEndpoint: null,
          clientTags: [],
          taskOffsets: [],
          taskEndOffsets: [],
          assignment: { activeTasks: [], standbyTasks: [], warmupTasks: [] },
          targetAssignment: { activeTasks: [], standbyTasks: [], warmupTasks: [] },
          isClassic: true,
        },
      ],
      authorizedOperations: 0x1fe,
      ...(v >= 1 && {
        topologyDescription: {
          subtopologies: [
            {
              subtopologyId: '0',
              nodes: [
                {
                  name: 'KSTREAM-SOURCE-0000000000',
                  nodeType: StreamsTopologyNodeType.Source,
                  sourceTopics: ['words'],
                  sinkTopic: null,
                  stores: [],
                  successors: ['KSTREAM-SINK-0000000001'],
                },
                {
                  name: 'KSTREAM-SINK-0000000001',
                  nodeType: StreamsTopologyNodeType.Sink,
                  sourceTopics: [],
                  sinkTopic: 'out',
                  stores: [],
                  successors: [],
                },
              ],
            },
          ],
          globalStores: [
            {
              source: {
                name: 'KSTREAM-SOURCE-0000000002',
                nodeType: StreamsTopologyNodeType.Source,
                sourceTopics: ['global'],
                sinkTopic: null,
                stores: [],
                successors: ['KTABLE-SOURCE-0000000003'],
              },
              processor: {
                name: 'KTABLE-SOURCE-0000000003',
                nodeType: StreamsTopologyNodeType.Processor,
                sourceTopics: [],
                sinkTopic: null,
                stores: ['global-store'],
                successors: [],
              },
            },
          ],
        },
        topologyDescriptionStatus: StreamsTopologyDescriptionStatus.Available,
        assignorName: 'highly_available',
      }),
    },
    {
      errorCode: 69,
      errorMessage: 'Group orders is not a streams group.',
      groupId: 'orders',
      groupState: '',
      groupEpoch: 0,
      assignmentEpoch: 0,
      topology: null,
      members: [],
      authorizedOperations: -2147483648,
      ...(v >= 1 && {
        topologyDescription: null,
        topologyDescriptionStatus: StreamsTopologyDescriptionStatus.NotRequested,
        assignorName: null,
      }),
    },
  ],
});

// Golden bodies, derived by hand from StreamsGroupDescribeRequest.json / ...Response.json.
const REQUEST_V0 = hex`
  02                            # GroupIds: 1 (compact: 1 + 1)
  03 67 31                      #   "g1"
  00                            # IncludeAuthorizedOperations false
  00                            # tagged fields
`;
const REQUEST_V1 = hex`
  02                            # GroupIds: 1
  03 67 31                      #   "g1"
  00                            # IncludeAuthorizedOperations false
  01                            # IncludeTopologyDescription true
  00                            # tagged fields
`;
const RESPONSE_V0 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Groups: 1
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  02 61                         #   GroupId "a"
  07 53 74 61 62 6c 65          #   GroupState "Stable"
  00 00 00 03                   #   GroupEpoch 3
  00 00 00 03                   #   AssignmentEpoch 3
  01                            #   Topology: present (nullable struct marker)
  00 00 00 01                   #     Epoch 1
  02                            #     Subtopologies: 1
  02 30                         #       SubtopologyId "0"
  02 03 69 6e                   #       SourceTopics: 1, "in"
  01                            #       RepartitionSinkTopics: 0
  02                            #       StateChangelogTopics: 1
  02 63                         #         Name "c"
  00 00 00 00                   #         Partitions 0
  00 00                         #         ReplicationFactor 0
  01                            #         TopicConfigs: 0
  00                            #         topic-info tagged fields
  01                            #       RepartitionSourceTopics: 0
  00                            #       subtopology tagged fields
  00                            #     topology tagged fields
  02                            #   Members: 1
  02 6d                         #     MemberId "m"
  00 00 00 03                   #     MemberEpoch 3
  00                            #     InstanceId null
  00                            #     RackId null
  02 63                         #     ClientId "c"
  03 2f 68                      #     ClientHost "/h"
  00 00 00 01                   #     TopologyEpoch 1
  02 70                         #     ProcessId "p"
  01                            #     UserEndpoint: present
  02 68                         #       Host "h"
  1f 90                         #       Port 8080 (uint16)
  00                            #       endpoint tagged fields
  02                            #     ClientTags: 1
  02 6b                         #       Key "k"
  02 76                         #       Value "v"
  00                            #       key-value tagged fields
  02                            #     TaskOffsets: 1
  02 30                         #       SubtopologyId "0"
  00 00 00 00                   #       Partition 0
  00 00 00 00 00 00 00 2a       #       Offset 42
  00                            #       task-offset tagged fields
  01                            #     TaskEndOffsets: 0
  02                            #     Assignment.ActiveTasks: 1
  02 30                         #       SubtopologyId "0"
  02 00 00 00 00                #       Partitions: 1, [0]
  00                            #       task-ids tagged fields
  01                            #     Assignment.StandbyTasks: 0
  01                            #     Assignment.WarmupTasks: 0
  00                            #     Assignment tagged fields
  01 01 01                      #     TargetAssignment: no active, standby or warm-up tasks
  00                            #     TargetAssignment tagged fields
  00                            #     IsClassic false
  00                            #     member tagged fields
  80 00 00 00                   #   AuthorizedOperations INT32_MIN (not requested)
  00                            #   group tagged fields
  00                            # tagged fields
`;
const RESPONSE_V1 = hex`
  00 00 00 00                   # ThrottleTimeMs 0
  02                            # Groups: 1
  00 00                         #   ErrorCode 0
  00                            #   ErrorMessage null
  02 61                         #   GroupId "a"
  06 45 6d 70 74 79             #   GroupState "Empty"
  00 00 00 01                   #   GroupEpoch 1
  00 00 00 01                   #   AssignmentEpoch 1
  01                            #   Topology: present
  00 00 00 01                   #     Epoch 1
  00                            #     Subtopologies: null (not configured yet)
  00                            #     topology tagged fields
  01                            #   Members: 0
  80 00 00 00                   #   AuthorizedOperations INT32_MIN
  01                            #   TopologyDescription: present
  02                            #     Subtopologies: 1
  02 30                         #       SubtopologyId "0"
  02                            #       Nodes: 1
  04 73 72 63                   #         Name "src"
  01                            #         NodeType 1 (source)
  02 03 69 6e                   #         SourceTopics: 1, "in"
  00                            #         SinkTopic null
  01                            #         Stores: 0
  01                            #         Successors: 0
  00                            #         node tagged fields
  00                            #       subtopology tagged fields
  01                            #     GlobalStores: 0
  00                            #     description tagged fields
  03                            #   TopologyDescriptionStatus 3 (available)
  07 73 74 69 63 6b 79          #   AssignorName "sticky"
  00                            #   group tagged fields
  00                            # tagged fields
`;

const GOLDEN_V0: StreamsGroupDescribeResponse = {
  throttleTimeMs: 0,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'a',
      groupState: 'Stable',
      groupEpoch: 3,
      assignmentEpoch: 3,
      topology: {
        epoch: 1,
        subtopologies: [
          {
            subtopologyId: '0',
            sourceTopics: ['in'],
            repartitionSinkTopics: [],
            stateChangelogTopics: [{ name: 'c', partitions: 0, replicationFactor: 0, topicConfigs: [] }],
            repartitionSourceTopics: [],
          },
        ],
      },
      members: [
        {
          memberId: 'm',
          memberEpoch: 3,
          instanceId: null,
          rackId: null,
          clientId: 'c',
          clientHost: '/h',
          topologyEpoch: 1,
          processId: 'p',
          userEndpoint: { host: 'h', port: 8080 },
          clientTags: [{ key: 'k', value: 'v' }],
          taskOffsets: [{ subtopologyId: '0', partition: 0, offset: 42n }],
          taskEndOffsets: [],
          assignment: {
            activeTasks: [{ subtopologyId: '0', partitions: [0] }],
            standbyTasks: [],
            warmupTasks: [],
          },
          targetAssignment: { activeTasks: [], standbyTasks: [], warmupTasks: [] },
          isClassic: false,
        },
      ],
      authorizedOperations: -2147483648,
    },
  ],
};

const GOLDEN_V1: StreamsGroupDescribeResponse = {
  throttleTimeMs: 0,
  groups: [
    {
      errorCode: 0,
      errorMessage: null,
      groupId: 'a',
      groupState: 'Empty',
      groupEpoch: 1,
      assignmentEpoch: 1,
      topology: { epoch: 1, subtopologies: null },
      members: [],
      authorizedOperations: -2147483648,
      topologyDescription: {
        subtopologies: [
          {
            subtopologyId: '0',
            nodes: [
              {
                name: 'src',
                nodeType: 1,
                sourceTopics: ['in'],
                sinkTopic: null,
                stores: [],
                successors: [],
              },
            ],
          },
        ],
        globalStores: [],
      },
      topologyDescriptionStatus: 3,
      assignorName: 'sticky',
    },
  ],
};

describe('StreamsGroupDescribe codec', () => {
  it('has the key and versions of the schema', () => {
    expect(StreamsGroupDescribe).toMatchObject({
      apiKey: 89,
      name: 'StreamsGroupDescribe',
      minVersion: 0,
      maxVersion: 1,
      flexibleFrom: 0,
    });
  });

  it.each(versionsOf(StreamsGroupDescribe))('round-trips request and response v%i', (v) => {
    expectRoundTrip(StreamsGroupDescribe, v, request(v), response(v));
  });

  it('matches golden bytes', () => {
    const req0 = { groupIds: ['g1'], includeAuthorizedOperations: false };
    expect(toHex(StreamsGroupDescribe.encodeRequest(0, req0))).toBe(toHex(REQUEST_V0));
    expect(StreamsGroupDescribe.decodeRequest(0, REQUEST_V0)).toStrictEqual(req0);
    const req1 = { ...req0, includeTopologyDescription: true };
    expect(toHex(StreamsGroupDescribe.encodeRequest(1, req1))).toBe(toHex(REQUEST_V1));
    expect(StreamsGroupDescribe.decodeRequest(1, REQUEST_V1)).toStrictEqual(req1);

    expect(toHex(StreamsGroupDescribe.encodeResponse(0, GOLDEN_V0))).toBe(toHex(RESPONSE_V0));
    expect(StreamsGroupDescribe.decodeResponse(0, RESPONSE_V0)).toStrictEqual(GOLDEN_V0);
    expect(toHex(StreamsGroupDescribe.encodeResponse(1, GOLDEN_V1))).toBe(toHex(RESPONSE_V1));
    expect(StreamsGroupDescribe.decodeResponse(1, RESPONSE_V1)).toStrictEqual(GOLDEN_V1);
  });

  it('fails cleanly on every truncation of the golden bodies and on a trailing byte', () => {
    expectTruncationsFail((b) => StreamsGroupDescribe.decodeRequest(0, b), REQUEST_V0);
    expectTruncationsFail((b) => StreamsGroupDescribe.decodeRequest(1, b), REQUEST_V1);
    expectTruncationsFail((b) => StreamsGroupDescribe.decodeResponse(0, b), RESPONSE_V0);
    expectTruncationsFail((b) => StreamsGroupDescribe.decodeResponse(1, b), RESPONSE_V1);
  });

  it('reads a nullable struct the way Kafka does: a negative marker is null, 0 and up are present', () => {
    // RESPONSE_V1 with the Topology marker (byte 24) set to ff and the 6 bytes of the struct
    // (Epoch, Subtopologies, tags) that followed it removed.
    const nullTopology = new Uint8Array([...RESPONSE_V1.subarray(0, 24), 0xff, ...RESPONSE_V1.subarray(31)]);
    const decoded = StreamsGroupDescribe.decodeResponse(1, nullTopology);
    expect(decoded.groups[0]?.topology).toBeNull();
    expect(toHex(StreamsGroupDescribe.encodeResponse(1, decoded))).toBe(toHex(nullTopology));
    // Kafka's generated reader takes 0 as "present" too; this codec writes it back as 1.
    const zeroMarker = RESPONSE_V1.slice();
    zeroMarker[24] = 0x00;
    const fromZero = StreamsGroupDescribe.decodeResponse(1, zeroMarker);
    expect(fromZero).toStrictEqual(GOLDEN_V1);
    expect(StreamsGroupDescribe.encodeResponse(1, fromZero)).toEqual(RESPONSE_V1);
  });

  it('writes the endpoint port as uint16 and refuses one out of range', () => {
    const res = structuredClone(GOLDEN_V0);
    const member = res.groups[0]?.members[0];
    if (!member?.userEndpoint) throw new Error('fixture has an endpoint');
    member.userEndpoint.port = 65536;
    expect(() => StreamsGroupDescribe.encodeResponse(0, res)).toThrow(/uint16/);
  });

  it('refuses v1 fields in v0 unless they hold their defaults', () => {
    expect(() =>
      StreamsGroupDescribe.encodeRequest(0, { ...request(0), includeTopologyDescription: true }),
    ).toThrow(UnsupportedFieldVersionError);
    expect(
      StreamsGroupDescribe.encodeRequest(0, { ...request(0), includeTopologyDescription: false }),
    ).toEqual(StreamsGroupDescribe.encodeRequest(0, request(0)));
    const withV1 = (fields: Partial<StreamsGroupDescribedGroup>) => {
      const res = structuredClone(GOLDEN_V0);
      Object.assign(res.groups[0] as StreamsGroupDescribedGroup, fields);
      return res;
    };
    expect(() => StreamsGroupDescribe.encodeResponse(0, withV1({ assignorName: 'sticky' }))).toThrow(
      /groups\[\]\.assignorName/,
    );
    expect(() => StreamsGroupDescribe.encodeResponse(0, withV1({ topologyDescriptionStatus: 1 }))).toThrow(
      /topologyDescriptionStatus/,
    );
    expect(() =>
      StreamsGroupDescribe.encodeResponse(
        0,
        withV1({ topologyDescription: { subtopologies: [], globalStores: [] } }),
      ),
    ).toThrow(/topologyDescription/);
    const defaults = withV1({ topologyDescription: null, topologyDescriptionStatus: 0, assignorName: null });
    expect(StreamsGroupDescribe.encodeResponse(0, defaults)).toEqual(RESPONSE_V0);
  });

  it('refuses versions it does not implement', () => {
    expect(() => StreamsGroupDescribe.encodeRequest(2, request(1))).toThrow(UnsupportedVersionError);
  });

  it('fails at once on a huge member count', () => {
    const body = hex`
      00 00 00 00  02  00 00  00  01  01  00 00 00 00  00 00 00 00  ff    # up to Topology null
      ff ff ff ff 0f                                                       # Members: 2^32 - 2
    `;
    expect(decodeFailure(() => StreamsGroupDescribe.decodeResponse(0, body)).reason).toMatch(/count/);
  });

  it('survives random and corrupted bytes', () => {
    fuzz(
      StreamsGroupDescribe,
      versionsOf(StreamsGroupDescribe).map((v) => ({
        version: v,
        request: StreamsGroupDescribe.encodeRequest(v, request(v)),
        response: StreamsGroupDescribe.encodeResponse(v, response(v)),
      })),
    );
  });
});
