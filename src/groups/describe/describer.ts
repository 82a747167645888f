/**
 * What one type's describe RPC says about one group. Kafka answers a group of another type the
 * same way as a missing one (GROUP_ID_NOT_FOUND, or Dead before DescribeGroups v6), so a single
 * RPC can only say "found" or "not of my type"; the resolver asks the other types to tell
 * "missing" from "another type".
 */

import type { CallOptions } from '../../broker/deadline.js';
import type { KafkaErrorInfo } from '../../broker/errors.js';
import {
  BrokerResponseError,
  describeKafkaError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../../broker/errors.js';
import type { ApiMessage } from '../../broker/protocol/api.js';
import { ErrorCode } from '../../broker/protocol/errors.js';
import type { BrokerConnection } from '../../broker/transport/connection.js';
import { isCoordinatorError } from '../coordinators.js';
import { quoteId } from '../errors.js';
import type { BrokerRef, Group, GroupType } from '../model.js';

export type TypedOutcome =
  | { kind: 'found'; group: Group }
  /** Not a group of this type: missing, or of another type. */
  | { kind: 'absent'; kafkaError?: KafkaErrorInfo }
  /** The cluster does not serve this type (the RPC is missing, or UNSUPPORTED_VERSION). */
  | { kind: 'unsupported'; reason: string; kafkaError?: KafkaErrorInfo }
  | { kind: 'retry'; kafkaError: KafkaErrorInfo }
  | { kind: 'failed'; error: Error };

export interface GroupDescriber {
  readonly type: GroupType;
  /** The RPC's name, for messages. */
  readonly api: string;
  /** One RPC for all `groupIds` (they share this coordinator), under `options.deadline`. */
  describe(
    connection: BrokerConnection,
    coordinator: BrokerRef,
    groupIds: readonly string[],
    options: CallOptions,
  ): Promise<Map<string, TypedOutcome>>;
}

/** Room Kafka needs around a group id in its "Group <id> not found." messages. */
const NOT_FOUND_MESSAGE_OVERHEAD = 64;
const utf8 = new TextEncoder();

/** Whether Kafka's "not found" message for this id overflows its 32,767-byte string limit. */
export function nearIdLimit(groupId: string): boolean {
  // At most 3 UTF-8 bytes per UTF-16 unit: a shorter id is not near it, and is not encoded to know.
  if (groupId.length * 3 <= 32_767 - NOT_FOUND_MESSAGE_OVERHEAD) return false;
  return utf8.encode(groupId).byteLength > 32_767 - NOT_FOUND_MESSAGE_OVERHEAD;
}

/**
 * `api` sent to the coordinator, or undefined when the two have no version of it in common (the
 * cluster does not serve the type there). Once the connection negotiated its versions that is known
 * at once and nothing is sent; before, the send negotiates and tells (an awaited lookup first would
 * cost the describe a turn).
 */
export async function sendIfSupported<Req, Res>(
  connection: BrokerConnection,
  api: ApiMessage<Req, Res>,
  request: Req | ((version: number) => Req),
  bounds: Partial<{ min: number; max: number }> | undefined,
  options: CallOptions,
): Promise<{ version: number; response: Res } | undefined> {
  // Known absent from this broker's settled answer: no call at all (it would only fail locally).
  if (!bounds && connection.lacks(api)) return undefined;
  try {
    return await connection.send(api, request, bounds, options);
  } catch (error) {
    // Within bounds the broker cannot meet, it is a failure of the call, not an unsupported type.
    if (error instanceof UnsupportedApiError && error.api === api.name && !bounds) return undefined;
    throw error;
  }
}

/** The outcome for a per-group error code every group-describe RPC shares. */
export function outcomeOfError(
  groupId: string,
  code: number,
  message: string | null | undefined,
  failed: () => Error,
): TypedOutcome {
  const kafkaError = describeKafkaError(code, message);
  if (isCoordinatorError(code)) return { kind: 'retry', kafkaError };
  // Kafka cannot serialize its "Group <id> not found." for ids near the length limit and answers
  // UNKNOWN_SERVER_ERROR instead: for such an id that error means "not a group of this type".
  if (code === ErrorCode.UNKNOWN_SERVER_ERROR && nearIdLimit(groupId)) return { kind: 'absent', kafkaError };
  if (code === ErrorCode.GROUP_ID_NOT_FOUND) return { kind: 'absent', kafkaError };
  if (code === ErrorCode.UNSUPPORTED_VERSION) {
    return { kind: 'unsupported', reason: kafkaError.message ?? 'UNSUPPORTED_VERSION', kafkaError };
  }
  return { kind: 'failed', error: failed() };
}

export function unsupportedForAll(groupIds: readonly string[], reason: string): Map<string, TypedOutcome> {
  return new Map(groupIds.map((id) => [id, { kind: 'unsupported', reason }]));
}

/**
 * Sends one batched describe RPC and maps each group of the answer: a group with an error code
 * gets the outcome every describe RPC shares for it, a group the answer left out fails on its
 * own, and a coordinator that lacks the RPC makes the type unsupported for all.
 */
export async function perGroup<
  Req,
  G extends { groupId: string; errorCode: number; errorMessage: string | null },
>(
  connection: BrokerConnection,
  api: ApiMessage<Req, { groups: G[] }>,
  groupIds: readonly string[],
  request: Req,
  found: (group: G) => Group,
  options: CallOptions,
): Promise<Map<string, TypedOutcome>> {
  const sent = await sendIfSupported(connection, api, request, undefined, options);
  if (!sent) return unsupportedForAll(groupIds, `${connection.label} does not support ${api.name}`);
  const { version, response } = sent;
  const byId = bestPerGroup(response.groups);
  const out = new Map<string, TypedOutcome>();
  for (const id of groupIds) {
    const group = byId.get(id);
    if (!group) {
      const error = new BrokerResponseError(
        connection.label,
        api.name,
        version,
        `no entry for group ${quoteId(id)}`,
      );
      out.set(id, { kind: 'failed', error });
    } else if (group.errorCode !== ErrorCode.NONE) {
      const { errorCode, errorMessage } = group;
      const failed = () => new KafkaResponseError(connection.label, api.name, errorCode, errorMessage);
      out.set(id, outcomeOfError(id, errorCode, errorMessage, failed));
    } else {
      out.set(id, { kind: 'found', group: found(group) });
    }
  }
  return out;
}

/**
 * One entry per group id. Some brokers (3.9) answer a batch with several entries for one id, one
 * per offsets partition asked, all but one of them GROUP_ID_NOT_FOUND: the group's own answer is the
 * one without an error, then one worth a retry, then any other.
 */
export function bestPerGroup<G extends { groupId: string; errorCode: number }>(
  groups: readonly G[],
): Map<string, G> {
  const rank = (g: G) => (g.errorCode === ErrorCode.NONE ? 0 : isCoordinatorError(g.errorCode) ? 1 : 2);
  const best = new Map<string, G>();
  for (const g of groups) {
    const kept = best.get(g.groupId);
    if (!kept || rank(g) < rank(kept)) best.set(g.groupId, g);
  }
  return best;
}
