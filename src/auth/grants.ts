/**
 * Grants: what one principal may see and do. A principal holds a list of grants; each names group
 * ids (exact ids, `prefix*` or globs with `*`), optionally group types, and actions. A request is
 * allowed when one grant of that principal covers it: grants only ever add to their own principal,
 * never to another's, and nothing is allowed that no grant names.
 */

import { ACTIONS, type Action, GROUP_TYPES, type GroupType, READ_ACTIONS } from '../vocabulary.js';

export { type Action, isWriteAction, type WriteAction } from '../vocabulary.js';

export interface Grant {
  /** Patterns over group ids: `*` matches any run of characters (none included). */
  groups: string[];
  /** Group types covered; undefined: every type. */
  types?: GroupType[];
  actions: Action[];
  /** Cluster aliases (exact or globs with `*`) the grant covers; undefined: every cluster. */
  clusters?: string[];
}

export class GrantError extends Error {
  override readonly name = 'GrantError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringList(value: unknown, where: string, field: string): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || list.some((v) => typeof v !== 'string' || v === '')) {
    throw new GrantError(`${where}.${field}: expected a non-empty string or list of non-empty strings`);
  }
  return list as string[];
}

/** One grant object (`{groups, types?, actions}`), validated; `where` names it in errors. */
export function parseGrant(value: unknown, where: string): Grant {
  if (!isRecord(value))
    throw new GrantError(`${where}: expected an object with groups, actions and optional types`);
  const unknown = Object.keys(value).filter((k) => !['groups', 'types', 'actions', 'clusters'].includes(k));
  if (unknown.length > 0) {
    throw new GrantError(
      `${where}: unknown field(s) ${unknown.join(', ')}; known: groups, types, actions, clusters`,
    );
  }
  const groups = stringList(value.groups, where, 'groups');
  const actions = stringList(value.actions, where, 'actions');
  for (const action of actions) {
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new GrantError(`${where}.actions: unknown action '${action}'; known: ${ACTIONS.join(', ')}`);
    }
  }
  const grant: Grant = { groups, actions: [...new Set(actions)] as Action[] };
  if (value.types !== undefined) {
    const types = stringList(value.types, where, 'types');
    for (const type of types) {
      if (!(GROUP_TYPES as readonly string[]).includes(type)) {
        throw new GrantError(
          `${where}.types: unknown group type '${type}'; known: ${GROUP_TYPES.join(', ')}`,
        );
      }
    }
    grant.types = [...new Set(types)] as GroupType[];
  }
  if (value.clusters !== undefined)
    grant.clusters = [...new Set(stringList(value.clusters, where, 'clusters'))];
  return grant;
}

/** A grant or a list of grants (the value of AUTH_GRANTS for one key, or of a JWT's grants claim). */
export function parseGrants(value: unknown, where: string): Grant[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((g, i) => parseGrant(g, Array.isArray(value) ? `${where}[${i}]` : where));
}

/** Whether `pattern` (with `*` as "any run of characters") matches the whole of `groupId`. */
export function matchesPattern(pattern: string, groupId: string): boolean {
  // The open server's and most grants' pattern: nothing to split.
  if (pattern === '*') return true;
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === groupId;
  const first = parts[0] as string;
  const last = parts.at(-1) as string;
  if (groupId.length < first.length + last.length) return false;
  if (!groupId.startsWith(first) || !groupId.endsWith(last)) return false;
  // Greedy left to right is exact for `*`-only globs: each middle part taken at its first place
  // leaves the most room for the rest.
  let at = first.length;
  const end = groupId.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = groupId.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** What one authenticated principal may do, from its grants alone. */
export class Permissions {
  constructor(readonly grants: readonly Grant[]) {}

  /** Whether some grant covers the cluster `alias`: a cluster no grant covers is answered as unknown. */
  seesCluster(alias: string): boolean {
    return this.grants.some((g) => coversCluster(g, alias));
  }

  /** The permissions within one cluster: the grants that cover it. */
  forCluster(alias: string): Permissions {
    const within = this.grants.filter((g) => coversCluster(g, alias));
    return within.length === this.grants.length ? this : new Permissions(within);
  }

  /** Whether any grant names `action` at all: without one, the route answers 403. */
  hasAction(action: Action): boolean {
    return this.grants.some((g) => g.actions.includes(action));
  }

  /** Whether every group of every type is covered for `action`: a listing then asks about none. */
  coversEveryGroup(action: Action): boolean {
    return this.grants.some(
      (g) => g.actions.includes(action) && g.types === undefined && g.groups.some((p) => /^\*+$/.test(p)),
    );
  }

  /**
   * Whether the group id is covered for `action`; with `type`, for that type too. Without `type`
   * (not known yet), a grant restricted to some types still counts: the type is checked once known.
   */
  allows(action: Action, groupId: string, type?: GroupType | null): boolean {
    return this.grants.some(
      (g) =>
        g.actions.includes(action) &&
        g.groups.some((p) => matchesPattern(p, groupId)) &&
        (type === undefined || g.types === undefined || (type !== null && g.types.includes(type))),
    );
  }
}

function coversCluster(grant: Grant, alias: string): boolean {
  return grant.clusters === undefined || grant.clusters.some((p) => matchesPattern(p, alias));
}

/**
 * Every group, every read: the permissions of the anonymous caller when the server runs open.
 * Writes are not among them: with AUTH=none only WRITES=enabled opens them (see http/write-guard.ts).
 */
export const OPEN_PERMISSIONS = new Permissions([{ groups: ['*'], actions: [...READ_ACTIONS] }]);
