/**
 * A group's health: the verdict of every partition and of the group from one reading of its
 * offsets, and, given the progress token of an earlier reading, the rates between the two.
 */

import type { GroupHealth, PartitionHealth } from '../../openapi/health-schemas.js';
import type { Group, GroupOffsets } from '../model.js';
import { type ProgressData, partitionsBefore, rate } from './progress-token.js';
import { partitionVerdict, type Thresholds, worst } from './verdicts.js';

export interface HealthInput {
  group: Group;
  offsets: GroupOffsets;
  at: number;
}

/** The verdicts of one reading, compared with `before` when there is one. Pure: no clock, no I/O. */
export function healthOf(
  { group, offsets, at }: HealthInput,
  thresholds: Thresholds,
  before?: { snapshot: ProgressData; issuedAt: number },
): Omit<GroupHealth, 'snapshot'> {
  const members = group.members.length;
  const previous = before ? partitionsBefore(before.snapshot) : undefined;
  const intervalMs = before ? Math.max(0, at - before.issuedAt) : 0;
  const partitions: PartitionHealth[] = [];
  let consumed = 0;
  let produced = 0;
  let compared = 0;
  let producedKnown = false;
  for (const t of offsets.topics) {
    for (const p of t.partitions) {
      const then = previous?.get(`${p.partition}:${t.topic}`);
      const verdict = partitionVerdict(
        {
          offset: p.offset,
          lag: p.lag,
          logStartOffset: p.logStartOffset ?? null,
          timeLagMinMs: p.timeLagMs?.min ?? null,
          headAgeMs: p.headAgeMs ?? null,
          failed: p.error !== null && p.error !== undefined,
        },
        members,
        thresholds,
        then,
      );
      const consumptionRate = then ? rate(then.offset, p.offset, intervalMs) : null;
      const productionRate = then ? rate(then.endOffset, p.endOffset, intervalMs) : null;
      if (then && p.offset !== null) {
        compared++;
        consumed += p.offset - then.offset;
        if (then.endOffset !== null && p.endOffset !== null) {
          produced += p.endOffset - then.endOffset;
          producedKnown = true;
        }
      }
      partitions.push({
        topic: t.topic,
        partition: p.partition,
        verdict,
        offset: p.offset,
        endOffset: p.endOffset,
        logStartOffset: p.logStartOffset ?? null,
        lag: p.lag,
        timeLagMs: p.timeLagMs ?? null,
        timeLagReason: p.timeLagReason ?? null,
        headAgeMs: p.headAgeMs ?? null,
        error: p.error ?? null,
        previousOffset: then?.offset ?? null,
        consumptionRate,
        productionRate,
      });
    }
  }
  return {
    groupId: offsets.groupId,
    type: offsets.type,
    state: offsets.state,
    members,
    isolation: offsets.isolation,
    verdict: worst(partitions.map((p) => p.verdict)),
    checkedAt: new Date(at).toISOString(),
    thresholds,
    totals: {
      lag: offsets.totals.lag,
      maxTimeLagMs: offsets.totals.maxTimeLagMs ?? null,
      partitions: partitions.length,
    },
    partitions,
    since: before
      ? {
          issuedAt: new Date(before.issuedAt).toISOString(),
          intervalMs,
          consumptionRate: compared > 0 ? rate(0, consumed, intervalMs) : null,
          productionRate: producedKnown ? rate(0, produced, intervalMs) : null,
          partitionsCompared: compared,
        }
      : null,
  };
}
