/**
 * The one gate every write route passes, in this order:
 *
 * 1. WRITES: `disabled` refuses every write; with AUTH=none only `enabled` lets one through
 *    (problem `writes-disabled`, 403). Nothing else is looked at, Kafka is not asked.
 * 2. Grants (authenticated callers): a group id the caller cannot see at all (no `read` grant and
 *    no grant of the write's action covering it) is answered as missing (404), as the reads do;
 *    one it can see but may not write with this action is `forbidden` (403) naming the action.
 *    Both before Kafka is asked.
 * 3. The group: it must exist (404) and be of the type the request names (409
 *    `group-type-mismatch`, or 404 when the caller may not see the type it really has). A write
 *    never creates a group, so every write route describes it first; the route gets that describe.
 */

import type { Context } from 'hono';
import type { WriteAction } from '../auth/grants.js';
import type { WritesSetting } from '../config.js';
import { GroupNotFoundError, GroupTypeMismatchError } from '../groups/errors.js';
import type { Group, GroupType } from '../groups/model.js';
import type { GroupService } from '../groups/service.js';
import { deadlineOf, isAnonymous, permissionsOf } from './middleware.js';

/** Writes are off on this server (403 `writes-disabled`). */
export class WritesDisabledError extends Error {
  override readonly name = 'WritesDisabledError';
  constructor(readonly setting: WritesSetting) {
    super(
      setting === 'disabled'
        ? 'writes are disabled on this server (WRITES=disabled)'
        : 'writes are off: this server runs without authentication (AUTH=none) and WRITES is not enabled',
    );
  }
}

/** The caller sees the group but holds no grant of the write's action for it (403 `forbidden`). */
export class WriteForbiddenError extends Error {
  override readonly name = 'WriteForbiddenError';
  constructor(
    readonly principal: string,
    readonly action: WriteAction,
    readonly groupId: string,
    readonly type: GroupType,
  ) {
    super(`${principal} has no grant with the action '${action}' for this ${type} group`);
  }
}

export interface WriteTarget {
  action: WriteAction;
  groupId: string;
  /** The type the request names: every write requires it. */
  type: GroupType;
}

/** Steps 1 and 2: throws unless this caller may attempt `action` on the group; asks no broker. */
export function authorizeWriteAccess(c: Context, writes: WritesSetting, target: WriteTarget): void {
  if (writes === 'disabled') throw new WritesDisabledError(writes);
  if (isAnonymous(c)) {
    if (writes !== 'enabled') throw new WritesDisabledError(writes);
    return;
  }
  const { action, groupId, type } = target;
  const permissions = permissionsOf(c);
  const sees = (t?: GroupType) =>
    permissions.allows('read', groupId, t) || permissions.allows(action, groupId, t);
  if (!sees()) throw new GroupNotFoundError(groupId);
  if (permissions.allows(action, groupId, type)) return;
  if (!sees(type)) throw new GroupNotFoundError(groupId);
  throw new WriteForbiddenError(c.get('principal')?.id ?? 'the caller', action, groupId, type);
}

/**
 * All three steps: the group, described, when the caller may write it with `action`. The errors
 * are those a read of the group gives (GroupNotFoundError, GroupTypeMismatchError, broker
 * errors), cut down to what the caller may see, plus WritesDisabledError and WriteForbiddenError.
 */
export async function authorizeWrite(
  c: Context,
  writes: WritesSetting,
  service: Pick<GroupService, 'describeGroup'>,
  target: WriteTarget,
): Promise<Group> {
  authorizeWriteAccess(c, writes, target);
  const { action, groupId, type } = target;
  try {
    return await service.describeGroup(groupId, { ...deadlineOf(c), expected: type });
  } catch (error) {
    if (isAnonymous(c)) throw error;
    const permissions = permissionsOf(c);
    if (error instanceof GroupNotFoundError) throw new GroupNotFoundError(groupId);
    if (
      error instanceof GroupTypeMismatchError &&
      !permissions.allows('read', groupId, error.actualType) &&
      !permissions.allows(action, groupId, error.actualType)
    ) {
      throw new GroupNotFoundError(groupId);
    }
    throw error;
  }
}
