import { describe, expect, it } from 'vitest';
import { Deadline } from '../broker/deadline.js';
import { pipelined, UnreadError } from './estate.js';
import { batchesOf } from './offsets/committed.js';

describe('estate batches', () => {
  it('cuts ids into bounded batches, none empty', () => {
    expect(batchesOf([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batchesOf([], 2)).toEqual([]);
  });

  it('yields every batch in order, with at most inFlight batches read at once', async () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    for await (const { batch, answer } of pipelined(
      items,
      async (batch) => {
        running++;
        most = Math.max(most, running);
        // Later batches finish first: the order must still be the batches' own.
        await new Promise((r) => setTimeout(r, 20 - batch.length - (batch[0] ?? 0) / 5));
        running--;
        return batch.map((n) => n * 2);
      },
      { size: 5, inFlight: 2 },
    )) {
      expect(answer).toEqual(batch.map((n) => n * 2));
      seen.push(...batch);
    }
    expect(seen).toEqual(items);
    expect(most).toBe(2);
  });

  it('passes a failed batch on to the reader, in its turn', async () => {
    const out: number[] = [];
    const run = async () => {
      for await (const { batch } of pipelined(
        [1, 2, 3],
        async (batch) => {
          if (batch[0] === 2) throw new Error('broker gone');
          return batch;
        },
        { size: 1, inFlight: 3 },
      ))
        out.push(...batch);
    };
    await expect(run()).rejects.toThrow('broker gone');
    expect(out).toEqual([1]);
  });

  it('reads each batch under the deadline, and hands on unread the batches whose turn comes after it', async () => {
    const deadline = Deadline.after(300);
    const seen: (Deadline | undefined)[] = [];
    const out: { batch: readonly number[]; unread: boolean }[] = [];
    for await (const { batch, answer } of pipelined(
      [1, 2, 3, 4, 5, 6],
      async (batch, { deadline: given }) => {
        seen.push(given);
        // The second batch outlasts the deadline.
        await new Promise((r) => setTimeout(r, batch[0] === 3 ? 400 : 1));
        return batch;
      },
      { size: 2, inFlight: 1, deadline },
    ))
      out.push({ batch, unread: answer instanceof UnreadError });
    expect(seen).toEqual([deadline, deadline]);
    expect(out).toEqual([
      { batch: [1, 2], unread: false },
      { batch: [3, 4], unread: false },
      { batch: [5, 6], unread: true },
    ]);
    // A batch whose turn comes after it (or after an abort: the client left) is not read.
    const left = Deadline.after(60_000);
    left.abort();
    let reads = 0;
    for await (const { answer } of pipelined([1, 2], async (b) => ++reads && b, { size: 1, deadline: left }))
      expect(answer).toBeInstanceOf(UnreadError);
    expect(reads).toBe(0);
  });
});
