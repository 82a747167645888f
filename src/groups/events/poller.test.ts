import { afterEach, describe, expect, it, vi } from 'vitest';
import { PollRegistry } from './poller.js';

describe('PollRegistry', () => {
  afterEach(() => vi.useRealTimers());

  it('gives identical watches one poll, which reads once per interval and stops with its last subscriber', async () => {
    vi.useFakeTimers();
    const registry = new PollRegistry<number>();
    let reads = 0;
    const read = async () => ++reads;
    const seenA: number[] = [];
    const seenB: number[] = [];
    const stopA = registry.subscribe('k', read, 1000, (r) => seenA.push(r));
    const stopB = registry.subscribe('k', read, 1000, (r) => seenB.push(r));
    expect(registry.size).toBe(1);
    expect(registry.get('k')?.subscribers).toBe(2);
    await vi.advanceTimersByTimeAsync(3500);
    // At 0, 1000, 2000 and 3000 ms: one read for both subscribers.
    expect(reads).toBe(4);
    expect(seenA).toEqual([1, 2, 3, 4]);
    expect(seenB).toEqual([1, 2, 3, 4]);

    let otherReads = 0;
    const stopOther = registry.subscribe(
      'other',
      async () => ++otherReads,
      1000,
      () => {},
    );
    expect(registry.size).toBe(2);
    stopA();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reads).toBe(5);
    stopB();
    stopOther();
    expect(registry.size).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(reads).toBe(5);
  });

  it('hands a late subscriber the latest reading at once, without a read of its own', async () => {
    vi.useFakeTimers();
    const registry = new PollRegistry<number>();
    let reads = 0;
    const read = async () => ++reads;
    const stop = registry.subscribe('k', read, 1000, () => {});
    await vi.advanceTimersByTimeAsync(100);
    const late: number[] = [];
    const stopLate = registry.subscribe('k', read, 1000, (r) => late.push(r));
    await vi.advanceTimersByTimeAsync(10);
    expect(late).toEqual([1]);
    expect(reads).toBe(1);
    stop();
    stopLate();
    expect(registry.size).toBe(0);
  });
});
