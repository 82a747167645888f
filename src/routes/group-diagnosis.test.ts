import { describe, expect, it } from 'vitest';
import type { DiagnosisData, MemberRow } from '../groups/diagnosis/snapshot.js';
import { tokenSigner } from '../tokens/signed.js';
import { DIAGNOSIS_PURPOSE, signSnapshot } from './group-diagnosis.js';
import { SNAPSHOT_MAX_AGE_MS, SNAPSHOT_MAX_CHARS } from './group-health.js';

function data(members: number, partitions: number): DiagnosisData & { k: [string, string] } {
  return {
    g: 'g',
    y: 'consumer',
    s: 'Stable',
    e: 7,
    r: null,
    m: Array.from(
      { length: members },
      (_, i): MemberRow => [`m${i}`.padEnd(14, 'x'), 7, `c${i}`.padEnd(14, 'y'), -1],
    ),
    o: {
      g: 'g',
      i: 'u',
      t: ['orders'],
      p: Array.from({ length: partitions }, (_, i): [number, number, number, number] => [
        0,
        i,
        1_000_000 + i,
        2_000_000 + i,
      ]),
    },
    k: ['default', 'cluster-id'],
  };
}

describe('the diagnosis snapshot', () => {
  const tokens = tokenSigner(['a-key-of-at-least-thirty-two-characters!']);
  const limits = { maxAgeMs: SNAPSHOT_MAX_AGE_MS, maxChars: SNAPSHOT_MAX_CHARS };

  it('signs a small group whole, and verifies under its own purpose only', async () => {
    const token = await signSnapshot(tokens, data(3, 10));
    expect(token).toBeTruthy();
    const back = await tokens.verify<DiagnosisData>(DIAGNOSIS_PURPOSE, token ?? '', limits);
    expect(back.ok && back.data.o?.p.length).toBe(10);
    expect((await tokens.verify('lag-snapshot', token ?? '', limits)).ok).toBe(false);
  });

  it('never hands out a token longer than a since may be: offsets dropped first, then none', async () => {
    const big = await signSnapshot(tokens, data(2000, 2000));
    expect(big?.length).toBeLessThanOrEqual(SNAPSHOT_MAX_CHARS);
    const back = await tokens.verify<DiagnosisData>(DIAGNOSIS_PURPOSE, big ?? '', limits);
    expect(back.ok && back.data.o).toBeNull();
    expect(back.ok && back.data.m.length).toBe(2000);
    expect(await signSnapshot(tokens, data(2000, 2000), 1000)).toBeNull();
    expect(await signSnapshot(tokens, undefined)).toBeNull();
  });
});
