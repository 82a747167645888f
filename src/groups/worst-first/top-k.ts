/**
 * The k best of a stream, in memory for k: a binary heap whose root is the worst kept, so each
 * offer costs O(log k) and the estate is never held. Ties keep the one offered first (the listing's
 * order, by group id), so the answer does not depend on batch timing.
 */

export class TopK<T> {
  private readonly heap: { item: T; seq: number }[] = [];
  private seq = 0;

  /** `better(a, b)`: a ranks before b (by key alone; ties are broken by arrival). */
  constructor(
    readonly k: number,
    private readonly better: (a: T, b: T) => boolean,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  offer(item: T): void {
    if (this.k <= 0) return;
    const entry = { item, seq: this.seq++ };
    if (this.heap.length < this.k) {
      this.heap.push(entry);
      this.up(this.heap.length - 1);
    } else if (this.before(entry, this.heap[0] as typeof entry)) {
      this.heap[0] = entry;
      this.down(0);
    }
  }

  /** What was kept, best first. */
  sorted(): T[] {
    return [...this.heap]
      .sort((a, b) => (this.before(a, b) ? -1 : this.before(b, a) ? 1 : 0))
      .map((e) => e.item);
  }

  private before(a: { item: T; seq: number }, b: { item: T; seq: number }): boolean {
    if (this.better(a.item, b.item)) return true;
    if (this.better(b.item, a.item)) return false;
    return a.seq < b.seq;
  }

  /** The root is the worst: a child moves up while it is worse than its parent. */
  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[parent] as (typeof h)[number], h[i] as (typeof h)[number])) break;
      [h[parent], h[i]] = [h[i] as (typeof h)[number], h[parent] as (typeof h)[number]];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && this.before(h[worst] as (typeof h)[number], h[l] as (typeof h)[number])) worst = l;
      if (r < h.length && this.before(h[worst] as (typeof h)[number], h[r] as (typeof h)[number])) worst = r;
      if (worst === i) return;
      [h[worst], h[i]] = [h[i] as (typeof h)[number], h[worst] as (typeof h)[number]];
      i = worst;
    }
  }
}
