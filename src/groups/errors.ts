/**
 * What can go wrong with a group, as types the routes map to HTTP: missing, of another type, of a
 * type the cluster does not serve, or a coordinator that stays away.
 */

import { BrokerError, type KafkaErrorInfo } from '../broker/errors.js';
import type { GroupType } from './model.js';

/** A group id as messages show it: whole when short, cut when it would drown the message. */
export function quoteId(groupId: string): string {
  const chars = [...groupId];
  return chars.length <= 200
    ? `'${groupId}'`
    : `'${chars.slice(0, 200).join('')}…' (${chars.length} characters)`;
}

/** The group's coordinator stayed unavailable through every retry (503). */
export class CoordinatorUnavailableError extends BrokerError {
  override readonly name = 'CoordinatorUnavailableError';
  constructor(
    readonly groupId: string,
    readonly broker: string | undefined,
    readonly kafkaError: KafkaErrorInfo,
    readonly attempts: number,
  ) {
    super(
      `the coordinator of group ${quoteId(groupId)} is not available after ${attempts} attempts (${kafkaError.name})`,
    );
  }
}

/** The group does not exist (404). */
export class GroupNotFoundError extends Error {
  override readonly name = 'GroupNotFoundError';
  constructor(
    readonly groupId: string,
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    super(`group ${quoteId(groupId)} does not exist`);
  }
}

/** The group exists, but is of another type than the request asked for (409). */
export class GroupTypeMismatchError extends Error {
  override readonly name = 'GroupTypeMismatchError';
  constructor(
    readonly groupId: string,
    readonly expectedType: GroupType,
    readonly actualType: GroupType,
    /** What the expected type's RPC said, where it said something (GROUP_ID_NOT_FOUND, "not a … group"). */
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    super(`group ${quoteId(groupId)} is a ${actualType} group, not a ${expectedType} group`);
  }
}

/** The request asked for a group type this cluster does not serve (disabled or too old) (501). */
export class GroupTypeUnavailableError extends Error {
  override readonly name = 'GroupTypeUnavailableError';
  constructor(
    readonly groupId: string,
    readonly expectedType: GroupType,
    readonly reason: string,
    readonly kafkaError?: KafkaErrorInfo,
  ) {
    super(
      `the cluster does not serve ${expectedType} groups, so group ${quoteId(groupId)} cannot be described as one: ${reason}`,
    );
  }
}

/**
 * A share group that does not exist yet cannot be created with its start offsets on these brokers:
 * AlterShareGroupOffsets creates one only from Kafka 4.2 on (KAFKA-19662); Kafka 4.1 answers
 * UNKNOWN_SERVER_ERROR for an unknown group (501).
 */
export class ShareGroupCreationUnsupportedError extends Error {
  override readonly name = 'ShareGroupCreationUnsupportedError';
  constructor(
    readonly groupId: string,
    /** The brokers' Kafka version (major.minor) as their ApiVersions show it. */
    readonly kafkaVersion: string,
    readonly requiredKafkaVersion: string,
    /** The RPC versions the inference rests on. */
    readonly evidence: string,
  ) {
    super(
      `share group ${quoteId(groupId)} does not exist and cannot be created with its start offsets here: that needs Kafka ${requiredKafkaVersion} or later (KAFKA-19662), and the brokers are Kafka ${kafkaVersion} (${evidence})`,
    );
  }
}

/**
 * Kafka refused the change (INVALID_CONFIG, INVALID_REQUEST): an unknown config, a value out of
 * range, a config this Kafka version does not accept for groups. `configs` are the names of the
 * request that Kafka's message mentions (all of them when it mentions none).
 */
export class GroupConfigInvalidError extends Error {
  override readonly name = 'GroupConfigInvalidError';
  constructor(
    readonly groupId: string,
    readonly configs: readonly { name: string; field: 'set' | 'delete'; value: string | null }[],
    readonly kafkaError: KafkaErrorInfo,
  ) {
    super(`Kafka refused the configs of group ${quoteId(groupId)}: ${kafkaError.message ?? kafkaError.name}`);
  }
}
