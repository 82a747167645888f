/**
 * The sockets one KafkaCluster holds open: counted, and capped where the runtime has a limit (a
 * Cloudflare Worker may hold 6 at once per request). A connection takes a slot before it opens a
 * socket and gives it back once the socket has closed. At the cap, the least recently used idle
 * socket is closed to make room; when every socket is busy, the newcomer waits until one is idle.
 */

export interface SlotHolder {
  /** True when nothing is in flight on this socket, so closing it loses nothing. */
  idle(): boolean;
  /** A sequence number: larger is more recent. */
  lastUsed(): number;
  /** Closes the socket; its slot comes back through `release()` once it has closed. */
  evict(): void;
}

export interface ConnectionStats {
  /** Sockets opened (slots taken) since the cluster was made. */
  opened: number;
  /** Sockets closed (slots given back). */
  closed: number;
  /** Open now. */
  open: number;
  /** Most open at once. */
  peak: number;
  /** Idle sockets closed to make room under the cap. */
  evicted: number;
  /** Times a new socket had to wait for a free slot. */
  waited: number;
}

export class Slot {
  holder: SlotHolder | undefined;
  evicting = false;
  constructor(private readonly pool: ConnectionPool) {}

  /** Gives the slot back (idempotent). */
  release(): void {
    this.pool.release(this);
  }
}

let clock = 0;
/** A process-wide sequence for "last used" ordering (no clock ties). */
export function tick(): number {
  clock += 1;
  return clock;
}

export class ConnectionPool {
  private readonly slots = new Set<Slot>();
  private waiters: Array<() => void> = [];
  private readonly counts = { opened: 0, closed: 0, peak: 0, evicted: 0, waited: 0 };

  constructor(readonly max: number = Number.POSITIVE_INFINITY) {
    if (!(max >= 1) || (Number.isFinite(max) && !Number.isInteger(max))) {
      throw new RangeError(`maxConnections must be a positive integer, received ${max}`);
    }
  }

  /** A slot for one socket; waits while the cap is reached and no socket is idle. */
  async acquire(): Promise<Slot> {
    let waited = false;
    for (;;) {
      if (this.slots.size < this.max) {
        const slot = new Slot(this);
        this.slots.add(slot);
        this.counts.opened += 1;
        this.counts.peak = Math.max(this.counts.peak, this.slots.size);
        return slot;
      }
      if (!waited) {
        waited = true;
        this.counts.waited += 1;
      }
      const woken = new Promise<void>((resolve) => this.waiters.push(resolve));
      this.makeRoom();
      await woken;
    }
  }

  release(slot: Slot): void {
    if (!this.slots.delete(slot)) return;
    this.counts.closed += 1;
    this.wake();
  }

  /** A holder became idle: a waiter may now close it. */
  idle(): void {
    if (this.waiters.length > 0) this.makeRoom();
  }

  stats(): ConnectionStats {
    return { ...this.counts, open: this.slots.size };
  }

  /** Closes as many least recently used idle sockets as there are waiters without a slot coming. */
  private makeRoom(): void {
    let coming = 0;
    for (const slot of this.slots) if (slot.evicting) coming += 1;
    let needed = this.waiters.length - coming - Math.max(0, this.max - this.slots.size);
    while (needed > 0) {
      let victim: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.evicting || !slot.holder?.idle()) continue;
        if (!victim || slot.holder.lastUsed() < (victim.holder as SlotHolder).lastUsed()) victim = slot;
      }
      if (!victim) return;
      victim.evicting = true;
      this.counts.evicted += 1;
      victim.holder?.evict();
      needed -= 1;
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
