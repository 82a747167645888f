import { afterEach, describe, expect, it, vi } from 'vitest';
import { abandonAfter, bounded, Deadline, NO_DEADLINE } from './deadline.js';
import { BrokerTimeoutError } from './errors.js';

const never = () => new Promise<never>(() => undefined);

describe('Deadline', () => {
  it('gives each call a budget below what is left, capped, keeping a reserve for the answer', () => {
    let now = 1_000;
    const deadline = Deadline.after(30_000, () => now);
    expect(deadline.reserveMs()).toBe(1_000);
    expect(deadline.budgetMs(10_000)).toBe(10_000);
    now += 25_000;
    expect(deadline.remainingMs()).toBe(5_000);
    expect(deadline.budgetMs(10_000)).toBe(4_000);
    now += 5_000;
    expect(deadline.expired()).toBe(true);
    expect(deadline.budgetMs(10_000)).toBe(0);
  });

  it('aborts its signal when it passes, or at once when aborted', async () => {
    const deadline = Deadline.after(30);
    expect(deadline.signal.aborted).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(deadline.signal.aborted).toBe(true);
    const early = Deadline.after(60_000);
    early.abort();
    expect(early.signal.aborted).toBe(true);
    expect(early.remainingMs()).toBe(0);
  });
});

describe('a deadline shared by the callers of one call', () => {
  it('moves its cut to a later caller’s, never earlier, and a request’s own deadline never moves', () => {
    const now = 0;
    const first = Deadline.after(1_000, () => now);
    const shared = Deadline.shared(first);
    expect(shared.cutAt()).toBe(first.cutAt());
    const later = Deadline.after(30_000, () => now);
    expect(shared.extendTo(later)).toBe(true);
    expect(shared.cutAt()).toBe(later.cutAt());
    expect(shared.reserveMs()).toBe(later.reserveMs());
    expect(shared.extendTo(first)).toBe(true);
    expect(shared.cutAt()).toBe(later.cutAt());
    expect(first.extendTo(later)).toBe(false);
    expect(first.cutAt()).toBe(950);
  });

  it('refuses a caller once its calls were cut, and cuts them at the moved cut', () => {
    vi.useFakeTimers();
    try {
      const shared = Deadline.shared(Deadline.after(60));
      const cut = vi.fn();
      shared.whenCut(cut);
      shared.extendTo(Deadline.after(150));
      vi.advanceTimersByTime(80);
      // The timer armed for the first cut (40 ms) found time left: the cut is at 130 ms now.
      expect(cut).not.toHaveBeenCalled();
      vi.advanceTimersByTime(49);
      expect(cut).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(cut).toHaveBeenCalledOnce();
      expect(shared.extendTo(Deadline.after(5_000))).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('abandonAfter', () => {
  it('passes an answer or an error that comes in time', async () => {
    await expect(abandonAfter(Promise.resolve(1), 100, undefined, () => new Error('late'))).resolves.toBe(1);
    await expect(
      abandonAfter(Promise.reject(new Error('no')), 100, undefined, () => new Error('late')),
    ).rejects.toThrow('no');
  });

  it('stops waiting at the budget, or when the signal aborts, without awaiting the call', async () => {
    const started = Date.now();
    await expect(abandonAfter(never(), 50, undefined, () => new Error('late'))).rejects.toThrow('late');
    expect(Date.now() - started).toBeLessThan(1_000);
    const deadline = Deadline.after(60_000);
    const waiting = abandonAfter(never(), 60_000, deadline.signal, () => new Error('aborted'));
    deadline.abort();
    await expect(waiting).rejects.toThrow('aborted');
    // No budget at all: not even started waiting; a late failure of the call is not unhandled.
    const failing = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('later')), 5));
    await expect(abandonAfter(failing, 0, undefined, () => new Error('none'))).rejects.toThrow('none');
    await new Promise((r) => setTimeout(r, 20));
  });

  it('bounded: a broker call under the request deadline is abandoned as a BrokerTimeoutError', async () => {
    const deadline = Deadline.after(300);
    const started = Date.now();
    const error = await bounded('b:1', 'Metadata', { deadline }, never()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    const within = /b:1 did not answer Metadata within (\d+) ms \(abandoned at the request deadline\)/.exec(
      (error as Error).message,
    );
    // Cut before the deadline itself: its reserve is left to answer with. The budget is read from
    // the answer, not the clock, which a loaded machine's late timers would move.
    expect(Number(within?.[1])).toBeLessThan(300);
    expect(Date.now() - started).toBeLessThan(2_000);
    // No deadline given: the call is the call.
    await expect(bounded('b:1', 'Metadata', NO_DEADLINE, Promise.resolve(7))).resolves.toBe(7);
  });

  it('bounded: a call under a deadline with no time left is never started', async () => {
    let now = 1_000;
    const deadline = Deadline.after(300, () => now);
    now += 300;
    const call = vi.fn(() => Promise.resolve(7));
    await expect(bounded('b:1', 'DescribeGroups', { deadline }, call)).rejects.toBeInstanceOf(
      BrokerTimeoutError,
    );
    expect(call).not.toHaveBeenCalled();
  });
});

describe('a deadline that asks each broker once (oncePerBroker, for streams)', () => {
  it('does not send a call to a broker that did not answer under it; others are still asked', async () => {
    const deadline = Deadline.after(60_000, Date.now, { oncePerBroker: true });
    const timeout = new BrokerTimeoutError('b:1', 'OffsetFetch', 50);
    await expect(bounded('b:1', 'OffsetFetch', { deadline }, () => Promise.reject(timeout))).rejects.toBe(
      timeout,
    );
    let sent = 0;
    const call = () => {
      sent++;
      return Promise.resolve(7);
    };
    const error = await bounded('b:1', 'ListOffsets', { deadline }, call).catch((e: unknown) => e);
    expect(sent).toBe(0);
    expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect((error as BrokerTimeoutError).broker).toBe('b:1');
    expect((error as Error).message).toContain('OffsetFetch within 50 ms');
    await expect(bounded('b:2', 'ListOffsets', { deadline }, call)).resolves.toBe(7);
    expect(sent).toBe(1);
    // A request's deadline asks again.
    const request = Deadline.after(60_000);
    await expect(
      bounded('b:1', 'OffsetFetch', { deadline: request }, () => Promise.reject(timeout)),
    ).rejects.toBe(timeout);
    await expect(bounded('b:1', 'ListOffsets', { deadline: request }, call)).resolves.toBe(7);
  });
});

describe('what a deadline costs a request', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('leaves no timer behind once its calls are answered', async () => {
    vi.useFakeTimers();
    const deadline = Deadline.after(30_000);
    expect(vi.getTimerCount()).toBe(0);
    const answered = await Promise.all(
      [1, 2, 3].map((n) => bounded('b:1', 'DescribeGroups', { deadline }, Promise.resolve(n))),
    );
    expect(answered).toEqual([1, 2, 3]);
    expect(vi.getTimerCount()).toBe(0);
    const cancel = deadline.whenPassed(() => undefined);
    expect(vi.getTimerCount()).toBe(1);
    cancel();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('abandonAfter waits on a deadline without its signal: nothing left once answered, given up when it ends', async () => {
    vi.useFakeTimers();
    const deadline = Deadline.after(60_000);
    await expect(abandonAfter(Promise.resolve(1), 1_000, deadline, () => new Error('late'))).resolves.toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    const waiting = abandonAfter(never(), 30_000, deadline, () => new Error('aborted'));
    deadline.abort();
    await expect(waiting).rejects.toThrow('aborted');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cuts every call under it with one timer, at its reserve, and aborts its signal at the end', async () => {
    vi.useFakeTimers();
    const deadline = Deadline.after(1_000);
    let passed = false;
    deadline.whenPassed(() => {
      passed = true;
    });
    const calls = [1, 2, 3].map(() =>
      bounded('b:1', 'DescribeGroups', { deadline }, never()).catch((e: unknown) => e),
    );
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000 - deadline.reserveMs());
    for (const error of await Promise.all(calls)) expect(error).toBeInstanceOf(BrokerTimeoutError);
    expect(passed).toBe(false);
    const { signal } = deadline;
    await vi.advanceTimersByTimeAsync(deadline.reserveMs());
    expect(passed).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
