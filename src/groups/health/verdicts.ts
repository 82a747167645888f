/**
 * Verdicts: is a group healthy, from one look at the brokers and, when the caller hands back an
 * earlier snapshot, from two. The rules, per partition, first match wins:
 *
 *   UNKNOWN    the partition's offsets could not be read (its error says why)
 *   NO_OFFSET  nothing committed (a member holds it, or the commit is gone)
 *   DATA_LOSS  committed offset below the log start: records were deleted before the group read them
 *   REWOUND    (with since) the committed offset went backwards
 *   STOPPED    no members, and lag above zero
 *   STALLED    (with since) members present, the committed offset did not move, lag above zero then
 *              and now and not falling
 *   LAGGING    lag above maxLag, or time lag (its lower bound) above maxTimeLagSeconds
 *   IDLE       nothing to consume (lag 0) and the newest record older than idleAfterSeconds, or none
 *   OK         otherwise
 *
 * The group's verdict is its worst partition's, by SEVERITY; a group with no partition is NO_OFFSET.
 *
 * STALLED and REWOUND follow Burrow's rules over a window of two points: its "offset did not change
 * and lag is fixed or increasing" (STALL; any zero lag in the window is OK) and its rewind check
 * (the offset decreased). Burrow tells a consumer that stopped committing (STOP) from one that
 * commits without progress (STALL) by commit times, which OffsetFetch does not give; here the
 * group's members stand for that: members present but not moving is STALLED, no members is STOPPED.
 * Burrow's WARN (lag rising while offsets move) has no rule here: thresholds give LAGGING instead.
 */

import { type Thresholds, VERDICTS, type Verdict } from '../../vocabulary.js';

export { VERDICTS, type Verdict } from '../../vocabulary.js';

/** Higher is worse: the order of VERDICTS. */
export const SEVERITY: Readonly<Record<Verdict, number>> = Object.fromEntries(
  VERDICTS.map((v, i) => [v, i]),
) as Record<Verdict, number>;

export { DEFAULT_THRESHOLDS, type Thresholds } from '../../vocabulary.js';

export interface PartitionState {
  offset: number | null;
  lag: number | null;
  logStartOffset: number | null;
  /** Lower bound of the time lag, ms; null when unknown. */
  timeLagMinMs: number | null;
  headAgeMs: number | null;
  /** The partition's offsets could not be read. */
  failed: boolean;
}

/** The same partition in the earlier snapshot. */
export interface PartitionBefore {
  /** null: nothing was committed then. */
  offset: number | null;
  lag: number | null;
}

export function partitionVerdict(
  now: PartitionState,
  members: number,
  thresholds: Thresholds,
  before?: PartitionBefore,
): Verdict {
  if (now.failed) return 'UNKNOWN';
  if (now.offset === null) return 'NO_OFFSET';
  if (now.logStartOffset !== null && now.offset < now.logStartOffset) return 'DATA_LOSS';
  if (before && before.offset !== null && now.offset < before.offset) return 'REWOUND';
  const lag = now.lag ?? 0;
  if (members === 0 && lag > 0) return 'STOPPED';
  if (
    before &&
    members > 0 &&
    now.offset === before.offset &&
    lag > 0 &&
    before.lag !== null &&
    before.lag > 0 &&
    lag >= before.lag
  ) {
    return 'STALLED';
  }
  if (lag > thresholds.maxLag) return 'LAGGING';
  if (now.timeLagMinMs !== null && now.timeLagMinMs > thresholds.maxTimeLagSeconds * 1000) return 'LAGGING';
  if (lag === 0 && (now.headAgeMs === null || now.headAgeMs > thresholds.idleAfterSeconds * 1000))
    return 'IDLE';
  return 'OK';
}

/** The worst of `verdicts`; NO_OFFSET when there is none (a group with nothing committed or held). */
export function worst(verdicts: Iterable<Verdict>): Verdict {
  let out: Verdict | undefined;
  for (const v of verdicts) if (out === undefined || SEVERITY[v] > SEVERITY[out]) out = v;
  return out ?? 'NO_OFFSET';
}
