import { describe, expect, it } from 'vitest';
import { tokenSigner } from '../../tokens/signed.js';
import type { GroupOffsets } from '../model.js';
import {
  MAX_PROGRESS_PARTITIONS,
  partitionsBefore,
  progressOf,
  rate,
  readProgress,
} from './progress-token.js';

const row = (partition: number, offset: number | null, endOffset: number | null) => ({
  partition,
  offset,
  leaderEpoch: null,
  metadata: null,
  endOffset,
  lag: offset === null || endOffset === null ? null : endOffset - offset,
  owners: [],
  error: null,
});

const offsets = (partitions: number): GroupOffsets => ({
  groupId: 'g',
  type: 'classic',
  state: 'Empty',
  offsetKind: 'committed',
  isolation: 'read_uncommitted',
  topics: [
    { topic: 'a', lag: 0, partitions: Array.from({ length: partitions }, (_, i) => row(i, 10 + i, 20 + i)) },
    { topic: 'b', lag: 0, partitions: [row(0, null, 5)] },
  ],
  totals: { lag: 0, maxLag: null, partitions: 0, partitionsWithoutOffset: 0, partitionsWithErrors: 0 },
});

describe('lag snapshots', () => {
  it('keep committed and end offsets, -1 for no commit, read back by partition', () => {
    const data = progressOf(offsets(2));
    expect(data).toEqual({
      g: 'g',
      i: 'u',
      t: ['a', 'b'],
      p: [
        [0, 0, 10, 20],
        [0, 1, 11, 21],
        [1, 0, -1, 5],
      ],
    });
    expect(readProgress(JSON.parse(JSON.stringify(data)))).toEqual(data);
    expect(partitionsBefore(data as NonNullable<typeof data>).get('1:a')).toEqual({
      offset: 11,
      endOffset: 21,
      lag: 10,
    });
    // Without a commit then: no offset or lag, but the end offset gives a production rate.
    expect(partitionsBefore(data as NonNullable<typeof data>).get('0:b')).toEqual({
      offset: null,
      endOffset: 5,
      lag: null,
    });
  });

  it('are bounded: a group with more partitions than a token holds has none', () => {
    // topic b adds one partition (no commit, an end offset).
    expect(progressOf(offsets(MAX_PROGRESS_PARTITIONS - 1))).toBeDefined();
    expect(progressOf(offsets(MAX_PROGRESS_PARTITIONS))).toBeUndefined();
  });

  it('refuse data of another shape', () => {
    expect(readProgress({ g: 'g', i: 'u', t: ['a'], p: [[1, 0, 1, 2]] })).toBeUndefined();
    expect(readProgress({ g: 'g', i: 'x', t: [], p: [] })).toBeUndefined();
    expect(readProgress({ g: 'g', i: 'u', t: ['a'], p: [[0, 0, 1.5, 2]] })).toBeUndefined();
    expect(readProgress('nope')).toBeUndefined();
  });

  it('signed: survive a round trip; a token altered, of another key, another purpose or too old is refused', async () => {
    let now = 1_000_000;
    const signer = tokenSigner(['k'.repeat(40)], () => now);
    const limits = { maxAgeMs: 60_000, maxChars: 10_000 };
    const token = await signer.sign('lag-snapshot', progressOf(offsets(3)));
    const back = await signer.verify('lag-snapshot', token, limits);
    expect(back.ok && readProgress(back.data)).toEqual(progressOf(offsets(3)));

    const foreign = await tokenSigner(['z'.repeat(40)], () => now).verify('lag-snapshot', token, limits);
    expect(foreign).toMatchObject({ ok: false, reason: 'bad-signature' });
    const altered = `${token.slice(0, 5)}${token[5] === 'A' ? 'B' : 'A'}${token.slice(6)}`;
    expect(await signer.verify('lag-snapshot', altered, limits)).toMatchObject({ ok: false });
    expect(await signer.verify('reset-plan', token, limits)).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    expect(await signer.verify('lag-snapshot', token, { ...limits, maxChars: 10 })).toMatchObject({
      ok: false,
      reason: 'too-large',
    });
    now += 60_001;
    expect(await signer.verify('lag-snapshot', token, limits)).toMatchObject({
      ok: false,
      reason: 'expired',
    });
  });

  it('rates: records per second over the interval, null when unknown or empty', () => {
    expect(rate(10, 40, 3_000)).toBe(10);
    expect(rate(40, 10, 3_000)).toBe(-10);
    expect(rate(null, 10, 3_000)).toBeNull();
    expect(rate(1, 2, 0)).toBeNull();
  });
});
