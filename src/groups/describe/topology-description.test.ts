import { describe, expect, it } from 'vitest';
import { NO_DEADLINE } from '../../broker/deadline.js';
import { UnsupportedApiError } from '../../broker/errors.js';
import type { StreamsGroupDescribeResponse } from '../../broker/protocol/messages/streams-group-describe.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { GroupNotFoundError } from '../errors.js';
import { describeTopology } from './topology-description.js';

const node = (name: string, nodeType: number, more = {}) => ({
  name,
  nodeType,
  sourceTopics: [],
  sinkTopic: null,
  stores: [],
  successors: [],
  ...more,
});

function answering(group: Partial<StreamsGroupDescribeResponse['groups'][number]>): {
  connection: BrokerConnection;
  sent: unknown[];
} {
  const sent: unknown[] = [];
  const response = {
    throttleTimeMs: 0,
    groups: [
      {
        errorCode: 0,
        errorMessage: null,
        groupId: 'g',
        groupState: 'Stable',
        groupEpoch: 1,
        assignmentEpoch: 1,
        topology: null,
        members: [],
        authorizedOperations: -2147483648,
        ...group,
      },
    ],
  };
  const connection = {
    label: 'b:9092',
    send: async (_api: unknown, request: unknown, bounds: unknown) => {
      sent.push({ request, bounds });
      return { version: 1, response };
    },
  } as unknown as BrokerConnection;
  return { connection, sent };
}

describe('describeTopology', () => {
  it('asks v1 with IncludeTopologyDescription and maps an available description', async () => {
    const { connection, sent } = answering({
      topologyDescriptionStatus: 3,
      topologyDescription: {
        subtopologies: [
          {
            subtopologyId: '0',
            nodes: [
              node('src', 1, { sourceTopics: ['in'], successors: ['sink'] }),
              node('sink', 3, { sinkTopic: 'out' }),
            ],
          },
        ],
        globalStores: [{ source: node('gs', 1), processor: node('gp', 2, { stores: ['s'] }) }],
      },
    });
    const answer = await describeTopology(connection, 'g', NO_DEADLINE);
    expect(sent).toEqual([
      {
        request: { groupIds: ['g'], includeAuthorizedOperations: false, includeTopologyDescription: true },
        bounds: { min: 1 },
      },
    ]);
    expect(answer.status).toBe('available');
    expect(answer.description?.subtopologies[0]?.nodes.map((n) => [n.name, n.nodeType, n.sinkTopic])).toEqual(
      [
        ['src', 'source', null],
        ['sink', 'sink', 'out'],
      ],
    );
    expect(answer.description?.globalStores[0]?.processor).toMatchObject({
      nodeType: 'processor',
      stores: ['s'],
    });
  });

  it('says not-stored with a null description, and unknown for a status it does not know', async () => {
    expect(
      await describeTopology(answering({ topologyDescriptionStatus: 1 }).connection, 'g', NO_DEADLINE),
    ).toEqual({
      status: 'not-stored',
      description: null,
    });
    expect(
      (await describeTopology(answering({ topologyDescriptionStatus: 9 }).connection, 'g', NO_DEADLINE))
        .status,
    ).toBe('unknown');
  });

  it('maps a missing group, and lets an unsupported version through', async () => {
    await expect(
      describeTopology(
        answering({ errorCode: 69, errorMessage: 'Group g not found.' }).connection,
        'g',
        NO_DEADLINE,
      ),
    ).rejects.toBeInstanceOf(GroupNotFoundError);
    const old = {
      label: 'b:9092',
      send: async () => {
        throw new UnsupportedApiError(
          'b:9092',
          'StreamsGroupDescribe',
          { min: 0, max: 0 },
          { min: 1, max: 1 },
        );
      },
    } as unknown as BrokerConnection;
    await expect(describeTopology(old, 'g', NO_DEADLINE)).rejects.toBeInstanceOf(UnsupportedApiError);
  });
});
