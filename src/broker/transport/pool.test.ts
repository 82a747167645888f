import { describe, expect, it } from 'vitest';
import { ConnectionPool, type Slot, tick } from './pool.js';

/** A socket stand-in for the pool: busy or idle, closes (gives its slot back) on a later turn. */
function hold(slot: Slot, name: string, log: string[]) {
  const state = { busy: false, lastUsed: tick(), closed: false };
  slot.holder = {
    idle: () => !state.busy,
    lastUsed: () => state.lastUsed,
    evict: () => {
      log.push(`evict ${name}`);
      setTimeout(() => {
        state.closed = true;
        slot.release();
      }, 1);
    },
  };
  return state;
}

const settled = async <T>(p: Promise<T>) => {
  let done = false;
  p.then(() => {
    done = true;
  });
  await new Promise((r) => setTimeout(r, 10));
  return done;
};

describe('ConnectionPool', () => {
  it('counts slots with no cap', async () => {
    const pool = new ConnectionPool();
    const slots = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    for (const s of slots) s.release();
    slots[0]?.release(); // idempotent
    expect(pool.stats()).toEqual({ opened: 3, closed: 3, open: 0, peak: 3, evicted: 0, waited: 0 });
  });

  it('at the cap, closes the least recently used idle socket before opening another', async () => {
    const log: string[] = [];
    const pool = new ConnectionPool(2);
    const a = hold(await pool.acquire(), 'a', log);
    const b = hold(await pool.acquire(), 'b', log);
    b.lastUsed = tick();
    a.lastUsed = tick(); // a used after b: b is the least recently used
    const c = await pool.acquire();
    expect(log).toEqual(['evict b']);
    expect(a.closed).toBe(false);
    c.release();
    expect(pool.stats()).toMatchObject({ opened: 3, open: 1, peak: 2, evicted: 1, waited: 1 });
  });

  it('waits while every socket is busy, and goes on once one is idle', async () => {
    const log: string[] = [];
    const pool = new ConnectionPool(1);
    const a = hold(await pool.acquire(), 'a', log);
    a.busy = true;
    const next = pool.acquire();
    expect(await settled(next)).toBe(false);
    expect(log).toEqual([]);
    a.busy = false;
    pool.idle();
    await next;
    expect(log).toEqual(['evict a']);
    expect(pool.stats()).toMatchObject({ peak: 1, open: 1 });
  });

  it('closes one idle socket per waiter, not more', async () => {
    const log: string[] = [];
    const pool = new ConnectionPool(3);
    for (const name of ['a', 'b', 'c']) hold(await pool.acquire(), name, log);
    const [x, y] = await Promise.all([pool.acquire(), pool.acquire()]);
    expect(log).toEqual(['evict a', 'evict b']);
    expect(pool.stats()).toMatchObject({ open: 3, peak: 3, evicted: 2 });
    x?.release();
    y?.release();
  });

  it('refuses a cap that is not a positive integer', () => {
    expect(() => new ConnectionPool(0)).toThrow(RangeError);
    expect(() => new ConnectionPool(1.5)).toThrow(RangeError);
  });
});
