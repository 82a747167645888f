/**
 * Classic groups: DescribeGroups at the coordinator, and the consumer protocol's member bytes
 * decoded into subscriptions and assignments.
 */

import type { CoordinatorOutcome } from './coordinators.js';
import { isCoordinatorError } from './coordinators.js';
import {
  BrokerResponseError,
  describeKafkaError,
  GroupNotFoundError,
  KafkaResponseError,
  quoteId,
} from './errors.js';
import type {
  BrokerRef,
  ClassicGroup,
  ClassicMember,
  ConsumerAssignment,
  ConsumerSubscription,
  TopicPartitions,
} from './model.js';
import {
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
} from './protocol/consumer-protocol.js';
import { type DescribedGroupMember, DescribeGroups } from './protocol/messages/describe-groups.js';
import type { BrokerConnection } from './transport/connection.js';

const GROUP_ID_NOT_FOUND = 69;
/** Room Kafka needs around a group id in its "Group <id> not found." message. */
const NOT_FOUND_MESSAGE_OVERHEAD = 64;
const utf8 = new TextEncoder();

export async function describeClassicGroup(
  connection: BrokerConnection,
  coordinator: BrokerRef,
  groupId: string,
): Promise<CoordinatorOutcome<ClassicGroup>> {
  // From v6 the broker explains a missing group in ErrorMessage; for ids near the 32,767-byte limit
  // that message is too long for Kafka to serialize and the whole answer becomes
  // UNKNOWN_SERVER_ERROR. v5 says the same thing as state Dead, with no message to overflow.
  const nearLimit = utf8.encode(groupId).byteLength > 32_767 - NOT_FOUND_MESSAGE_OVERHEAD;
  const { version, response } = await connection.send(
    DescribeGroups,
    (v) => ({ groups: [groupId], ...(v >= 3 && { includeAuthorizedOperations: false }) }),
    nearLimit ? { max: 5 } : undefined,
  );
  const described = response.groups.find((g) => g.groupId === groupId);
  if (!described) {
    throw new BrokerResponseError(
      connection.label,
      'DescribeGroups',
      version,
      `no entry for group ${quoteId(groupId)}`,
    );
  }
  const { errorCode } = described;
  if (isCoordinatorError(errorCode)) return { retry: describeKafkaError(errorCode, described.errorMessage) };
  if (errorCode === GROUP_ID_NOT_FOUND) {
    throw new GroupNotFoundError(groupId, describeKafkaError(errorCode, described.errorMessage));
  }
  if (errorCode !== 0)
    throw new KafkaResponseError(connection.label, 'DescribeGroups', errorCode, described.errorMessage);
  // Before v6 a missing group is answered as Dead with no error.
  if (described.groupState === 'Dead') throw new GroupNotFoundError(groupId);
  const decode = described.protocolType === 'consumer';
  return {
    value: {
      type: 'classic',
      groupId,
      state: described.groupState,
      protocolType: described.protocolType,
      protocol: described.protocolData,
      coordinator,
      members: described.members.map((m) => classicMember(m, decode)),
    },
  };
}

function classicMember(member: DescribedGroupMember, decodeConsumerProtocol: boolean): ClassicMember {
  const out: ClassicMember = {
    memberId: member.memberId,
    groupInstanceId: member.groupInstanceId ?? null,
    clientId: member.clientId,
    clientHost: member.clientHost,
    memberMetadata: base64(member.memberMetadata),
    memberAssignment: base64(member.memberAssignment),
  };
  if (!decodeConsumerProtocol) return out;
  const problems: string[] = [];
  try {
    out.subscription = subscription(member.memberMetadata);
  } catch (error) {
    out.subscription = null;
    problems.push(`memberMetadata: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    out.assignment = assignment(member.memberAssignment);
  } catch (error) {
    out.assignment = null;
    problems.push(`memberAssignment: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (problems.length > 0) out.decodeError = problems.join('; ');
  return out;
}

function subscription(bytes: Uint8Array): ConsumerSubscription | null {
  const s = decodeConsumerProtocolSubscription(bytes);
  if (!s) return null;
  return {
    version: s.version,
    topics: s.topics,
    userData: s.userData ? base64(s.userData) : null,
    ownedPartitions: topicPartitions(s.ownedPartitions ?? []),
    generationId: s.generationId ?? -1,
    rackId: s.rackId ?? null,
  };
}

function assignment(bytes: Uint8Array): ConsumerAssignment | null {
  const a = decodeConsumerProtocolAssignment(bytes);
  if (!a) return null;
  return {
    version: a.version,
    partitions: topicPartitions(a.assignedPartitions),
    userData: a.userData ? base64(a.userData) : null,
  };
}

function topicPartitions(
  list: readonly { topic: string; partitions: readonly number[] }[],
): TopicPartitions[] {
  return list.map((tp) => ({ topic: tp.topic, partitions: [...tp.partitions] }));
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.byteLength; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
