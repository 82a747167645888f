/**
 * One FindCoordinator lookup on one broker connection: one request for every key from v4, else one
 * request per key (a few at a time). Answers come back per key, errors included, for the caller to
 * remember or retry.
 */

import type { CallOptions } from '../broker/deadline.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import { type Coordinator, FindCoordinator } from '../broker/protocol/messages/find-coordinator.js';
import type { BrokerConnection } from '../broker/transport/connection.js';

const GROUP_KEY_TYPE = 0;
/** FindCoordinator before v4 takes one key a request: so many go out at once. */
const SINGLE_LOOKUP_CONCURRENCY = 16;

/** One key's answer, and the broker that gave it. */
export type CoordinatorAnswer = Pick<
  Coordinator,
  'key' | 'nodeId' | 'host' | 'port' | 'errorCode' | 'errorMessage'
> & { broker: string };

/**
 * The coordinator of each of `groupIds`, as `connection`'s broker answers. `asking` hears the RPC
 * the lookup waits on next, so a caller that stops waiting can name it.
 */
export async function findCoordinators(
  connection: BrokerConnection,
  groupIds: string[],
  options: CallOptions,
  asking?: (api: string) => void,
): Promise<CoordinatorAnswer[]> {
  asking?.('ApiVersions');
  const version = await connection.versionFor(FindCoordinator, undefined, options);
  asking?.(FindCoordinator.name);
  return version !== undefined && version >= 4
    ? lookupBatch(connection, groupIds, options)
    : lookupEach(connection, groupIds, options);
}

async function lookupBatch(
  connection: BrokerConnection,
  groupIds: string[],
  by: CallOptions,
): Promise<CoordinatorAnswer[]> {
  const { response } = await connection.send(
    FindCoordinator,
    { keyType: GROUP_KEY_TYPE, coordinatorKeys: groupIds },
    { min: 4 },
    by,
  );
  const answers = new Map((response.coordinators ?? []).map((c) => [c.key, c]));
  return groupIds.map((id) => {
    const entry = answers.get(id);
    return entry
      ? { ...entry, broker: connection.label }
      : {
          key: id,
          nodeId: -1,
          host: '',
          port: -1,
          errorCode: ErrorCode.UNKNOWN_SERVER_ERROR,
          errorMessage: 'no answer for this group',
          broker: connection.label,
        };
  });
}

async function lookupEach(
  connection: BrokerConnection,
  groupIds: string[],
  by: CallOptions,
): Promise<CoordinatorAnswer[]> {
  const out: CoordinatorAnswer[] = [];
  for (let i = 0; i < groupIds.length; i += SINGLE_LOOKUP_CONCURRENCY) {
    const slice = groupIds.slice(i, i + SINGLE_LOOKUP_CONCURRENCY);
    const answers = await Promise.all(
      slice.map(async (key) => {
        const { response } = await connection.send(
          FindCoordinator,
          (v) => ({ key, ...(v >= 1 && { keyType: GROUP_KEY_TYPE }) }),
          { max: 3 },
          by,
        );
        return {
          key,
          nodeId: response.nodeId ?? -1,
          host: response.host ?? '',
          port: response.port ?? -1,
          errorCode: response.errorCode ?? ErrorCode.NONE,
          errorMessage: response.errorMessage ?? null,
          broker: connection.label,
        };
      }),
    );
    out.push(...answers);
  }
  return out;
}
