/**
 * What the broker admin returns: plain JSON-ready objects (no bigint, bytes as base64), in the
 * shape the HTTP API publishes. A group is a discriminated union on `type`.
 */

export const GROUP_TYPES = ['classic', 'consumer', 'share', 'streams'] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

export interface BrokerRef {
  nodeId: number;
  host: string;
  port: number;
}

export interface GroupListing {
  groupId: string;
  /** null when the broker is too old to say (ListGroups before v5). */
  type: GroupType | null;
  protocolType: string;
  /** null when the broker is too old to say (ListGroups before v4). */
  state: string | null;
}

export interface BrokerFailure {
  broker: BrokerRef;
  error: {
    name: string;
    message: string;
    kafkaError?: { code: number; name: string; message: string | null };
  };
}

export interface GroupList {
  groups: GroupListing[];
  /** Brokers whose ListGroups failed: their groups are missing from `groups`. */
  failures: BrokerFailure[];
}

export interface TopicPartitions {
  topic: string;
  partitions: number[];
}

export interface ConsumerSubscription {
  version: number;
  topics: string[];
  userData: string | null;
  ownedPartitions: TopicPartitions[];
  generationId: number;
  rackId: string | null;
}

export interface ConsumerAssignment {
  version: number;
  partitions: TopicPartitions[];
  userData: string | null;
}

export interface ClassicMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  /** The member's protocol metadata as sent by the client, base64. */
  memberMetadata: string;
  /** The member's assignment as sent by the leader, base64 (empty until the group is Stable). */
  memberAssignment: string;
  /** Decoded `memberMetadata` for protocol type `consumer`; null when the bytes are empty. */
  subscription?: ConsumerSubscription | null;
  /** Decoded `memberAssignment` for protocol type `consumer`; null when the bytes are empty. */
  assignment?: ConsumerAssignment | null;
  /** Why the consumer-protocol bytes could not be decoded (the raw bytes stay above). */
  decodeError?: string;
}

export interface ClassicGroup {
  type: 'classic';
  groupId: string;
  state: string;
  protocolType: string;
  /** The chosen protocol: the partition assignor for consumers. */
  protocol: string;
  coordinator: BrokerRef;
  members: ClassicMember[];
}

/** Partitions of a topic as the newer group RPCs name them: by id and by name. */
export interface TopicIdPartitions {
  topicId: string;
  topic: string;
  partitions: number[];
}

export interface ConsumerMember {
  memberId: string;
  instanceId: string | null;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  subscribedTopicRegex: string | null;
  assignment: TopicIdPartitions[];
  targetAssignment: TopicIdPartitions[];
  /** 'classic' for a member still on the classic protocol in a mixed group; null before v1. */
  memberType: 'consumer' | 'classic' | null;
}

export interface ConsumerGroup {
  type: 'consumer';
  groupId: string;
  state: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignor: string;
  coordinator: BrokerRef;
  members: ConsumerMember[];
}

export interface ShareMember {
  memberId: string;
  rackId: string | null;
  memberEpoch: number;
  clientId: string;
  clientHost: string;
  subscribedTopicNames: string[];
  assignment: TopicIdPartitions[];
}

export interface ShareGroup {
  type: 'share';
  groupId: string;
  state: string;
  groupEpoch: number;
  assignmentEpoch: number;
  assignor: string;
  coordinator: BrokerRef;
  members: ShareMember[];
}

export interface StreamsTopicInfo {
  name: string;
  partitions: number;
  replicationFactor: number;
  topicConfigs: { key: string; value: string }[];
}

export interface StreamsSubtopology {
  subtopologyId: string;
  sourceTopics: string[];
  repartitionSinkTopics: string[];
  stateChangelogTopics: StreamsTopicInfo[];
  repartitionSourceTopics: StreamsTopicInfo[];
}

export interface StreamsTasks {
  subtopologyId: string;
  partitions: number[];
}

export interface StreamsAssignment {
  activeTasks: StreamsTasks[];
  standbyTasks: StreamsTasks[];
  warmupTasks: StreamsTasks[];
}

export interface StreamsTaskOffset {
  subtopologyId: string;
  partition: number;
  offset: number;
}

export interface StreamsMember {
  memberId: string;
  memberEpoch: number;
  instanceId: string | null;
  rackId: string | null;
  clientId: string;
  clientHost: string;
  topologyEpoch: number;
  processId: string;
  userEndpoint: { host: string; port: number } | null;
  clientTags: { key: string; value: string }[];
  taskOffsets: StreamsTaskOffset[];
  taskEndOffsets: StreamsTaskOffset[];
  assignment: StreamsAssignment;
  targetAssignment: StreamsAssignment;
  isClassic: boolean;
}

export interface StreamsGroup {
  type: 'streams';
  groupId: string;
  state: string;
  groupEpoch: number;
  assignmentEpoch: number;
  /** The server-side assignor; null from brokers before StreamsGroupDescribe v1. */
  assignor: string | null;
  topology: { epoch: number; subtopologies: StreamsSubtopology[] } | null;
  coordinator: BrokerRef;
  members: StreamsMember[];
}

export type Group = ClassicGroup | ConsumerGroup | ShareGroup | StreamsGroup;

export interface PartitionOwner {
  memberId: string;
  clientId: string;
  clientHost: string;
  instanceId: string | null;
}

export interface PartitionOffsets {
  partition: number;
  /** The committed offset (share groups: the start offset); null when there is none. */
  offset: number | null;
  leaderEpoch: number | null;
  metadata: string | null;
  /** Log-end offset, or last stable offset with read_committed; null when it could not be read. */
  endOffset: number | null;
  /** endOffset - offset (never below 0); share groups: the broker's figure where it gives one. Null when either is unknown. */
  lag: number | null;
  /** Members that hold the partition now (several for a share group). */
  owners: PartitionOwner[];
  error: { code: number; name: string; message: string | null } | null;
}

export interface TopicOffsets {
  topic: string;
  /** Sum of the partitions' known lags. */
  lag: number;
  partitions: PartitionOffsets[];
}

export interface MaxLag {
  lag: number;
  topic: string;
  partition: number;
}

export interface LagTotals {
  lag: number;
  maxLag: MaxLag | null;
  partitions: number;
  partitionsWithoutOffset: number;
  partitionsWithErrors: number;
}

export interface GroupOffsets {
  groupId: string;
  type: GroupType;
  state: string;
  /** 'committed' offsets (OffsetFetch), or a share group's 'start' offsets. */
  offsetKind: 'committed' | 'start';
  isolation: 'read_uncommitted' | 'read_committed';
  topics: TopicOffsets[];
  totals: LagTotals;
}
