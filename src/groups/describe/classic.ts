/**
 * Classic groups: DescribeGroups at the coordinator, and the consumer protocol's member bytes
 * decoded into subscriptions and assignments.
 */

import { BrokerResponseError, KafkaResponseError } from '../../broker/errors.js';
import {
  decodeConsumerProtocolAssignment,
  decodeConsumerProtocolSubscription,
} from '../../broker/protocol/consumer-protocol.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import {
  type DescribedGroup,
  type DescribedGroupMember,
  DescribeGroups,
} from '../../broker/protocol/messages/describe-groups.js';
import { quoteId } from '../errors.js';
import type {
  BrokerRef,
  ClassicGroup,
  ClassicMember,
  ConsumerAssignment,
  ConsumerProtocol,
  ConsumerSubscription,
  TopicPartitions,
} from '../model.js';
import {
  bestPerGroup,
  type GroupDescriber,
  nearIdLimit,
  outcomeOfError,
  sendIfSupported,
  type TypedOutcome,
  unsupportedForAll,
} from './describer.js';
import { latestPerInstance } from './static-members.js';

export const classicDescriber: GroupDescriber = {
  type: 'classic',
  api: DescribeGroups.name,
  async describe(connection, coordinator, groupIds, options) {
    // From v6 the broker explains a missing group in ErrorMessage; for ids near the 32,767-byte
    // limit that message is too long for Kafka to serialize and the whole answer becomes
    // UNKNOWN_SERVER_ERROR. v5 says the same thing as state Dead, with no message to overflow.
    const nearLimit = groupIds.some(nearIdLimit);
    const request = (v: number) => ({
      groups: [...groupIds],
      ...(v >= 3 && { includeAuthorizedOperations: false }),
    });
    const unsupported = () =>
      unsupportedForAll(groupIds, `${connection.label} does not support DescribeGroups`);
    // Near the limit, whether the broker speaks DescribeGroups at all is asked first: within
    // v5, not speaking it is a failure of the call.
    if (nearLimit && (await connection.versionFor(DescribeGroups, undefined, options)) === undefined)
      return unsupported();
    const sent = await sendIfSupported(
      connection,
      DescribeGroups,
      request,
      nearLimit ? { max: 5 } : undefined,
      options,
    );
    if (!sent) return unsupported();
    const { version: used, response } = sent;
    const byId = bestPerGroup(response.groups);
    const out = new Map<string, TypedOutcome>();
    for (const id of groupIds) {
      const described = byId.get(id);
      if (!described) {
        out.set(id, {
          kind: 'failed',
          error: new BrokerResponseError(
            connection.label,
            'DescribeGroups',
            used,
            `no entry for group ${quoteId(id)}`,
          ),
        });
        continue;
      }
      out.set(id, outcome(described, coordinator, connection.label));
    }
    return out;
  },
};

function outcome(described: DescribedGroup, coordinator: BrokerRef, broker: string): TypedOutcome {
  if (described.errorCode !== ErrorCode.NONE) {
    return outcomeOfError(
      described.groupId,
      described.errorCode,
      described.errorMessage,
      () => new KafkaResponseError(broker, 'DescribeGroups', described.errorCode, described.errorMessage),
    );
  }
  // Before v6 a missing group, or one of another type, is answered as Dead with no error.
  if (described.groupState === 'Dead') return { kind: 'absent' };
  const decode = described.protocolType === 'consumer';
  const group: ClassicGroup = {
    type: 'classic',
    groupId: described.groupId,
    state: described.groupState,
    protocolType: described.protocolType,
    // Kafka's Admin client reads ProtocolData as the partition assignor too; empty until one is chosen.
    assignor: described.protocolData || null,
    groupEpoch: null,
    assignmentEpoch: null,
    coordinator,
    members: latestPerInstance(described.members, (m) => m.groupInstanceId).map((m) =>
      classicMember(m, decode),
    ),
  };
  return { kind: 'found', group };
}

function classicMember(member: DescribedGroupMember, decodeConsumerProtocol: boolean): ClassicMember {
  const consumerProtocol = decodeConsumerProtocol ? decodeMember(member) : null;
  return {
    memberId: member.memberId,
    instanceId: member.groupInstanceId ?? null,
    clientId: member.clientId,
    clientHost: member.clientHost,
    // Only the consumer protocol carries a rack (Subscription v3+); other protocols are opaque bytes.
    rack: consumerProtocol?.subscription?.rack ?? null,
    partitions: consumerProtocol?.assignment?.partitions ?? [],
    memberMetadata: base64(member.memberMetadata),
    memberAssignment: base64(member.memberAssignment),
    consumerProtocol,
  };
}

/** The member's ConsumerProtocol bytes decoded; what cannot be read is named, the rest kept. */
function decodeMember(member: DescribedGroupMember): ConsumerProtocol {
  const problems: string[] = [];
  let decodedSubscription: ConsumerSubscription | null = null;
  let decodedAssignment: ConsumerAssignment | null = null;
  try {
    decodedSubscription = subscription(member.memberMetadata);
  } catch (error) {
    problems.push(`memberMetadata: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    decodedAssignment = assignment(member.memberAssignment);
  } catch (error) {
    problems.push(`memberAssignment: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    subscription: decodedSubscription,
    assignment: decodedAssignment,
    decodeError: problems.length > 0 ? problems.join('; ') : null,
  };
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
    rack: s.rackId ?? null,
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

/** The consumer protocol names topics only: no topic id. */
function topicPartitions(
  list: readonly { topic: string; partitions: readonly number[] }[],
): TopicPartitions[] {
  return list.map((tp) => ({ topic: tp.topic, topicId: null, partitions: [...tp.partitions] }));
}

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.byteLength; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
