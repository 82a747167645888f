/**
 * A streams group's topology description (KIP-1331): StreamsGroupDescribe v1 with
 * IncludeTopologyDescription. The broker keeps a description only when it runs a topology
 * description plugin; then the Streams clients send theirs when the broker asks for it.
 */

import type { CallOptions } from '../../broker/deadline.js';
import { KafkaResponseError } from '../../broker/errors.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import {
  StreamsGroupDescribe,
  type StreamsGroupTopologyDescriptionNode,
  StreamsTopologyDescriptionStatus,
  StreamsTopologyNodeType,
} from '../../broker/protocol/messages/streams-group-describe.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { GroupNotFoundError } from '../errors.js';

export type TopologyDescriptionStatus = 'not-requested' | 'not-stored' | 'error' | 'available' | 'unknown';

export interface TopologyNode {
  name: string;
  nodeType: 'source' | 'processor' | 'sink' | 'unknown';
  sourceTopics: string[];
  sinkTopic: string | null;
  stores: string[];
  successors: string[];
}

export interface TopologyDescription {
  subtopologies: { subtopologyId: string; nodes: TopologyNode[] }[];
  globalStores: { source: TopologyNode; processor: TopologyNode }[];
}

export interface TopologyDescriptionAnswer {
  /** Why `description` is there or not, as the broker says (TopologyDescriptionStatus). */
  status: TopologyDescriptionStatus;
  /** Null unless the broker has one (status `available`). */
  description: TopologyDescription | null;
}

const STATUS: Record<number, TopologyDescriptionStatus> = {
  [StreamsTopologyDescriptionStatus.NotRequested]: 'not-requested',
  [StreamsTopologyDescriptionStatus.NotStored]: 'not-stored',
  [StreamsTopologyDescriptionStatus.Error]: 'error',
  [StreamsTopologyDescriptionStatus.Available]: 'available',
};

const NODE_TYPES: Record<number, TopologyNode['nodeType']> = {
  [StreamsTopologyNodeType.Source]: 'source',
  [StreamsTopologyNodeType.Processor]: 'processor',
  [StreamsTopologyNodeType.Sink]: 'sink',
};

function node(n: StreamsGroupTopologyDescriptionNode): TopologyNode {
  return {
    name: n.name,
    nodeType: NODE_TYPES[n.nodeType] ?? 'unknown',
    sourceTopics: n.sourceTopics,
    sinkTopic: n.sinkTopic,
    stores: n.stores,
    successors: n.successors,
  };
}

/**
 * Asks the coordinator behind `connection` for `groupId`'s topology description. A broker that
 * serves StreamsGroupDescribe v0 only (Kafka 4.1 to 4.3) fails the call with UnsupportedApiError.
 */
export async function describeTopology(
  connection: BrokerConnection,
  groupId: string,
  options: CallOptions,
): Promise<TopologyDescriptionAnswer> {
  const { response } = await connection.send(
    StreamsGroupDescribe,
    { groupIds: [groupId], includeAuthorizedOperations: false, includeTopologyDescription: true },
    { min: 1 },
    options,
  );
  const group = response.groups.find((g) => g.groupId === groupId);
  if (!group) {
    throw new KafkaResponseError(
      connection.label,
      StreamsGroupDescribe.name,
      ErrorCode.UNKNOWN_SERVER_ERROR,
      'no entry for the group',
    );
  }
  if (group.errorCode === ErrorCode.GROUP_ID_NOT_FOUND) throw new GroupNotFoundError(groupId);
  if (group.errorCode !== ErrorCode.NONE) {
    throw new KafkaResponseError(
      connection.label,
      StreamsGroupDescribe.name,
      group.errorCode,
      group.errorMessage,
    );
  }
  const d = group.topologyDescription ?? null;
  return {
    status: STATUS[group.topologyDescriptionStatus ?? 0] ?? 'unknown',
    description: d && {
      subtopologies: d.subtopologies.map((s) => ({
        subtopologyId: s.subtopologyId,
        nodes: s.nodes.map(node),
      })),
      globalStores: d.globalStores.map((g) => ({ source: node(g.source), processor: node(g.processor) })),
    },
  };
}
