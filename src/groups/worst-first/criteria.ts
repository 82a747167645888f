/**
 * Worst first over the estate: which groups a lag filter keeps and in what order a lag sort puts
 * them, judged from each group's offset table as the batches come in. A group whose lag is not
 * known (its offsets could not be read, or a partition's could not: a leader down) is never
 * judged: it is named apart, not sorted or filtered as if it had none.
 */

import { verdictOf } from '../health/assess.js';
import type { Thresholds, Verdict } from '../health/verdicts.js';
import type { OffsetTable } from '../offsets/tables.js';

export const LAG_SORTS = ['lag', '-lag', 'timeLag', '-timeLag'] as const;
export type LagSort = (typeof LAG_SORTS)[number];

export interface LagCriteria {
  /** Only groups at least this many records behind, in all. */
  minLag?: number;
  /** Only groups whose largest time lag is at least this (its lower bound), ms. */
  minTimeLagMs?: number;
  /** Only groups with one of these verdicts (routes/group-health.ts's rules, one reading). */
  verdicts?: ReadonlySet<Verdict>;
  thresholds: Thresholds;
  sort?: LagSort;
}

/** What the criteria read of a group whose lag is known. */
export interface Judged {
  lag: number;
  /** The lower bound of its largest time lag, ms; null when no partition's is known. */
  timeLagMs: number | null;
  /** Made only when the criteria ask for verdicts. */
  verdict?: Verdict;
}

/** Whether the table tells the group's whole lag: read, and every partition's read. */
export function lagKnown(table: OffsetTable): boolean {
  return table.totals.partitionsWithErrors === 0;
}

export function judge(table: OffsetTable, members: number, criteria: LagCriteria): Judged {
  return {
    lag: table.totals.lag,
    timeLagMs: table.totals.maxTimeLagMs?.min ?? null,
    ...(criteria.verdicts && { verdict: verdictOf(table, members, criteria.thresholds).verdict }),
  };
}

export function kept(judged: Judged, criteria: LagCriteria): boolean {
  if (criteria.minLag !== undefined && judged.lag < criteria.minLag) return false;
  if (
    criteria.minTimeLagMs !== undefined &&
    (judged.timeLagMs === null || judged.timeLagMs < criteria.minTimeLagMs)
  )
    return false;
  if (criteria.verdicts && (judged.verdict === undefined || !criteria.verdicts.has(judged.verdict)))
    return false;
  return true;
}

/**
 * `before(a, b)`: a comes first under `sort`. `lag` and `timeLag` put the least first, `-lag` and
 * `-timeLag` the most; a group with no known time lag comes after every group with one, either way.
 */
export function rankOf(sort: LagSort): (a: Judged, b: Judged) => boolean {
  const descending = sort.startsWith('-');
  if (sort.endsWith('imeLag')) {
    return (a, b) => {
      if (a.timeLagMs === null || b.timeLagMs === null) return a.timeLagMs !== null && b.timeLagMs === null;
      return descending ? a.timeLagMs > b.timeLagMs : a.timeLagMs < b.timeLagMs;
    };
  }
  return (a, b) => (descending ? a.lag > b.lag : a.lag < b.lag);
}
