/**
 * One poll of an event stream: the groups watched, each described with its offsets (time lag
 * included) and judged by the health rules, so a stream can tell a change of state, epoch,
 * members, assignment or verdict, and report lag. A failure is a reading of its own: the stream
 * says so in-band and polls again.
 */

import { type CallOptions, Deadline } from '../../broker/deadline.js';
import { GroupNotFoundError, GroupTypeMismatchError } from '../errors.js';
import { healthOf } from '../health/assess.js';
import { DEFAULT_THRESHOLDS } from '../health/verdicts.js';
import type { ListFilter } from '../listing.js';
import type { Group, GroupOffsets, GroupType } from '../model.js';
import type { GroupService } from '../service.js';

export interface Observed {
  group: Group;
  /** The group's verdict by the default thresholds; null when its offsets could not be read. */
  verdict: string | null;
  lag: {
    total: number | null;
    /** The largest time lag of a partition, as bounds (see GET /groups/{groupId}/health). */
    maxTimeLagMs: { min: number; max: number } | null;
    partitions: number;
  } | null;
}

export type Reading =
  | {
      ok: true;
      at: number;
      /** The groups found, by id. */
      groups: Map<string, Observed>;
      /** Ids this poll could not read (a describe failed): neither changed nor gone. */
      unknown: Set<string>;
      /** Some broker's listing failed: a group missing from `groups` may still exist. */
      partial: boolean;
      /** Groups that matched before the cap (listing streams). */
      matching: number;
    }
  | { ok: false; at: number; error: unknown };

/** One poll's read, under the deadline it is given. */
export type Read = (options: CallOptions) => Promise<Reading>;

/**
 * `read`, each call under a deadline of its own of `ms`. A poll outlives the request that started
 * it, and that request's deadline passes after REQUEST_TIMEOUT_MS: a poll under it would find no
 * time left and fail from then on, for every stream sharing it.
 */
export function eachUnderOwnDeadline(read: Read, ms: number): () => Promise<Reading> {
  return () => read({ deadline: Deadline.after(ms) });
}

function observed(group: Group, offsets: GroupOffsets | null, at: number): Observed {
  if (!offsets) return { group, verdict: null, lag: null };
  const health = healthOf({ group, offsets, at }, DEFAULT_THRESHOLDS);
  return {
    group,
    verdict: health.verdict,
    lag: {
      total: health.totals.lag,
      maxTimeLagMs: health.totals.maxTimeLagMs ?? null,
      partitions: health.totals.partitions,
    },
  };
}

/** One group, as GET /groups/{groupId}/health reads it; gone (or of another type than `expected`): absent. */
export function readGroup(service: GroupService, groupId: string, expected?: GroupType): Read {
  return async ({ deadline }) => {
    try {
      const r = await service.groupHealth(groupId, { deadline, ...(expected && { expected }) });
      return {
        ok: true,
        at: r.at,
        groups: new Map([[groupId, observed(r.group, r.offsets, r.at)]]),
        unknown: new Set(),
        partial: false,
        matching: 1,
      };
    } catch (error) {
      if (error instanceof GroupNotFoundError || error instanceof GroupTypeMismatchError) {
        return {
          ok: true,
          at: Date.now(),
          groups: new Map(),
          unknown: new Set(),
          partial: false,
          matching: 0,
        };
      }
      return { ok: false, at: Date.now(), error };
    }
  };
}

/** The first `maxGroups` groups (by id) of a listing, each described with its offsets. */
export function readListing(service: GroupService, filter: ListFilter, maxGroups: number): Read {
  return async (options) => {
    try {
      const listed = await service.listGroups(filter, options);
      const watched = listed.groups.slice(0, maxGroups);
      const details = await service.describeListed(watched, { ...options, offsets: { timeLag: true } });
      const at = Date.now();
      const groups = new Map<string, Observed>();
      const unknown = new Set<string>();
      for (const { groupId } of watched) {
        const described = details.groups.get(groupId);
        if (!described?.ok) {
          // Deleted between the listing and the describe: gone; any other failure: not known now.
          const gone = described?.ok === false && described.error instanceof GroupNotFoundError;
          if (!gone) unknown.add(groupId);
          continue;
        }
        const table = details.offsets?.get(groupId);
        const group = described.value;
        const offsets: GroupOffsets | null =
          table?.ok === true
            ? {
                groupId,
                type: group.type,
                state: group.state,
                offsetKind: group.type === 'share' ? 'start' : 'committed',
                isolation: 'read_uncommitted',
                ...table.value,
              }
            : null;
        groups.set(groupId, observed(group, offsets, at));
      }
      return {
        ok: true,
        at,
        groups,
        unknown,
        partial: listed.failures.length > 0,
        matching: listed.groups.length,
      };
    } catch (error) {
      return { ok: false, at: Date.now(), error };
    }
  };
}
