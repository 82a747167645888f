/**
 * What a principal may see of the groups. A group outside its grants is answered exactly as a
 * group that does not exist: the same 404, and Kafka is not asked about it at all when its id is
 * outside. For an authenticated caller every "missing" answer is the plain one (no Kafka error
 * detail), so a real missing group and a hidden one cannot be told apart by their answers.
 */

import type { Context } from 'hono';
import type { Action } from '../auth/grants.js';
import { GroupNotFoundError, GroupTypeMismatchError } from '../groups/errors.js';
import type { Group, GroupListing, GroupType } from '../groups/model.js';
import { failed, type Outcome } from '../groups/outcome.js';
import { isAnonymous, permissionsOf } from './middleware.js';

/** Throws the missing-group error when the id is outside the caller's grants for `action`. */
export function requireVisibleId(c: Context, action: Action, groupId: string): void {
  if (!permissionsOf(c).allows(action, groupId)) throw new GroupNotFoundError(groupId);
}

/** The value when its type is granted too, else the missing-group error. */
export function visibleOrMissing<T extends { type: GroupType }>(
  c: Context,
  action: Action,
  groupId: string,
  value: T,
): T {
  if (!permissionsOf(c).allows(action, groupId, value.type)) throw new GroupNotFoundError(groupId);
  return value;
}

/** The error a caller may see: a mismatch naming a type it may not see, or any missing group, becomes the plain 404. */
export function visibleError(c: Context, action: Action, groupId: string, error: unknown): unknown {
  if (isAnonymous(c)) return error;
  if (
    error instanceof GroupTypeMismatchError &&
    !permissionsOf(c).allows(action, groupId, error.actualType)
  ) {
    return new GroupNotFoundError(groupId);
  }
  if (error instanceof GroupNotFoundError) return new GroupNotFoundError(groupId);
  return error;
}

/** Runs a single-group read and answers as missing whatever the caller may not see. */
export async function readVisible<T extends { type: GroupType }>(
  c: Context,
  action: Action,
  groupId: string,
  read: () => Promise<T>,
): Promise<T> {
  requireVisibleId(c, action, groupId);
  let value: T;
  try {
    value = await read();
  } catch (error) {
    throw visibleError(c, action, groupId, error);
  }
  return visibleOrMissing(c, action, groupId, value);
}

/** Whether a listed group (type null from old brokers) is visible. */
export function listedVisible(c: Context, action: Action, groupId: string, type: GroupType | null): boolean {
  return permissionsOf(c).allows(action, groupId, type);
}

/** A listing's `visible` filter for the caller; undefined when it sees every group (nothing to ask per group). */
export function listingVisibility(c: Context, action: Action): ((g: GroupListing) => boolean) | undefined {
  if (permissionsOf(c).coversEveryGroup(action)) return undefined;
  return (g) => listedVisible(c, action, g.groupId, g.type);
}

/**
 * A batch describe of what the caller may see: ids outside its grants are not sent to Kafka, and
 * they, like groups of a type it may not see, are answered as missing groups, in the order asked
 * (duplicates once).
 */
export async function describeVisible(
  c: Context,
  action: Action,
  groupIds: readonly string[],
  describe: (ids: string[]) => Promise<Map<string, Outcome<Group>>>,
): Promise<Map<string, Outcome<Group>>> {
  const asked = [...new Set(groupIds)];
  const permissions = permissionsOf(c);
  const visible = asked.filter((id) => permissions.allows(action, id));
  const described = visible.length > 0 ? await describe(visible) : new Map<string, Outcome<Group>>();
  const out = new Map<string, Outcome<Group>>();
  for (const groupId of asked) {
    const result = described.get(groupId);
    if (!result) out.set(groupId, failed(new GroupNotFoundError(groupId)));
    else if (!result.ok) out.set(groupId, failed(visibleError(c, action, groupId, result.error) as Error));
    else if (!permissions.allows(action, groupId, result.value.type))
      out.set(groupId, failed(new GroupNotFoundError(groupId)));
    else out.set(groupId, result);
  }
  return out;
}
