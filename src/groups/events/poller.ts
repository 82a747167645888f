/**
 * Identical watches share one poll: streams that would ask Kafka the same question at the same
 * interval subscribe to one `SharedPoll`, which reads once per interval while it has a subscriber
 * and stops (and leaves its registry) when the last one leaves. A new subscriber gets the latest
 * reading at once, so a reconnect or a second dashboard costs Kafka nothing extra.
 */

export type Listener<R> = (reading: R) => void;

export class SharedPoll<R> {
  private readonly listeners = new Set<Listener<R>>();
  private latest: { reading: R; at: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  /** Polls made so far (for tests and the docs' claim that watches share one). */
  polls = 0;

  constructor(
    private readonly read: () => Promise<R>,
    readonly intervalMs: number,
    private readonly onIdle: () => void,
  ) {}

  get subscribers(): number {
    return this.listeners.size;
  }

  subscribe(listener: Listener<R>): () => void {
    this.listeners.add(listener);
    const latest = this.latest;
    // A reading younger than the interval is still current: handed over, not asked again.
    if (latest && Date.now() - latest.at < this.intervalMs) queueMicrotask(() => listener(latest.reading));
    if (!this.running) {
      this.running = true;
      void this.tick();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.running = false;
    this.latest = undefined;
    this.onIdle();
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    this.polls++;
    // `read` answers failures as readings of their own; a throw here would end the poll silently.
    const reading = await this.read();
    if (!this.running) return;
    this.latest = { reading, at: Date.now() };
    for (const listener of [...this.listeners]) listener(reading);
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
  }
}

/** The polls of one process by key: the same key, the same poll. */
export class PollRegistry<R> {
  private readonly polls = new Map<string, SharedPoll<R>>();

  /**
   * Subscribes `listener` to the poll of `key`, made with `read` when none runs; returns the
   * unsubscribe. Made and subscribed in one step, so no poll is ever kept without a subscriber.
   */
  subscribe(key: string, read: () => Promise<R>, intervalMs: number, listener: Listener<R>): () => void {
    let poll = this.polls.get(key);
    if (!poll) {
      const made: SharedPoll<R> = new SharedPoll(read, intervalMs, () => {
        if (this.polls.get(key) === made) this.polls.delete(key);
      });
      this.polls.set(key, made);
      poll = made;
    }
    return poll.subscribe(listener);
  }

  /** The poll of `key` while it runs (for tests). */
  get(key: string): SharedPoll<R> | undefined {
    return this.polls.get(key);
  }

  get size(): number {
    return this.polls.size;
  }
}
