/**
 * One request's deadline, made once when the request arrives (REQUEST_TIMEOUT_MS) and carried down
 * to every broker call under it. Each call gets a budget below what is left (at most one Kafka
 * request timeout); a call that cannot finish within its budget is abandoned: its caller stops
 * waiting and answers with what the other calls gave, while the call itself ends on its own
 * timeout in the background.
 *
 * It travels one way: as an argument, route to socket (as franz-go's kadm passes a `ctx`). Every
 * call that reaches a broker takes `CallOptions`, whose `deadline` must be given, so a layer that
 * forgets to pass it on does not compile. No async context carries it, as
 * test/tree/no-async-context.test.ts checks: on Node 20 the first one entered turns on promise
 * hooks for the whole process (about 40 µs of CPU per describe), and what a shared call (a
 * coalesced describe, a coordinator lookup) would read from one is the context of whichever caller
 * happened to start it.
 */

import { BrokerTimeoutError } from './errors.js';

/** What a call that reaches a broker is given besides its request. */
export interface CallOptions {
  /**
   * Bounds the call: the deadline of the request (or stream, or poll) it serves. Undefined only
   * where none is waiting (NO_DEADLINE): the call is then bounded by its Kafka request timeout.
   */
  deadline: Deadline | undefined;
}

/**
 * For a call no request waits on (a warm-up, a check with timers of its own): bounded by its Kafka
 * request timeout alone.
 */
export const NO_DEADLINE: CallOptions = Object.freeze({ deadline: undefined });

/** The request's deadline passed: what is not done by now is not waited for. */
export class DeadlineExceededError extends Error {
  override readonly name = 'DeadlineExceededError';
}

export interface DeadlineOptions {
  /**
   * A broker that did not answer one call under this deadline (its Kafka request timeout, or
   * abandoned at the deadline) is not asked again under it: later calls to it fail at once with
   * that first timeout. For answers made of many batches (the streams), which all ask the same
   * brokers: a broker hung mid-stream costs one Kafka request timeout, not one per batch. Kafka
   * moving its groups and partitions elsewhere is still seen: those calls go to other brokers.
   */
  oncePerBroker?: boolean;
}

export class Deadline {
  /**
   * Made on first read: most requests end long before their deadline, and the calls under them
   * wait on `whenPassed`/`whenCut` instead, so a request pays for no AbortController, no event
   * listener and, once nothing waits, no timer.
   */
  private controller: AbortController | undefined;
  private ended = false;
  /** One timer for the whole deadline, at the earliest moment a waiter needs; none when nothing waits. */
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  /** Run when the deadline passes or is aborted. */
  private readonly atEnd = new Set<() => void>();
  /** Run when only the reserve is left (the calls `bounded` abandons then), or on abort. */
  private readonly atCut = new Set<() => void>();

  /**
   * With `oncePerBroker`: the first timeout of each broker that did not answer under this deadline;
   * later calls to it under the same deadline are not sent (see `DeadlineOptions`).
   */
  private readonly unanswered: Map<string, BrokerTimeoutError> | undefined;

  /** Only a shared deadline moves (see `shared`); a request's own never does. */
  private extendable = false;
  private expiry: number;
  private total: number;

  private constructor(
    /** Epoch ms. */
    expiresAt: number,
    /** The whole budget, ms. */
    totalMs: number,
    private readonly now: () => number,
    options: DeadlineOptions,
  ) {
    this.expiry = expiresAt;
    this.total = totalMs;
    this.unanswered = options.oncePerBroker ? new Map() : undefined;
    if (expiresAt - now() <= 0) this.ended = true;
  }

  /** A deadline `ms` from now. */
  static after(ms: number, now: () => number = Date.now, options: DeadlineOptions = {}): Deadline {
    return new Deadline(now() + ms, ms, now, options);
  }

  /**
   * The deadline of one call that several callers wait on, each with a deadline of its own: it
   * starts as `first`'s and moves later as callers whose deadlines are cut later join
   * (`extendTo`), so the call runs until the last of them gives up. Each caller bounds its own
   * wait by its own deadline.
   */
  static shared(first: Deadline): Deadline {
    const shared = new Deadline(first.expiry, first.total, first.now, {});
    shared.extendable = true;
    return shared;
  }

  /** Epoch ms. */
  get expiresAt(): number {
    return this.expiry;
  }

  /** The whole budget, ms. */
  get totalMs(): number {
    return this.total;
  }

  /**
   * Moves a shared deadline's cut to `other`'s when that comes later. False when it cannot wait
   * for `other`: it is not shared, or its calls were cut already (the caller must ask anew).
   */
  extendTo(other: Deadline): boolean {
    if (!this.extendable || this.ended || this.now() >= this.cutAt()) return false;
    if (other.cutAt() > this.cutAt()) {
      this.expiry = other.expiry;
      this.total = other.total;
      // The timer armed for the earlier cut finds time left when it fires and arms again (`fire`).
    }
    return true;
  }

  /** Aborts when the deadline passes (or the request is given up early, see `abort`). */
  get signal(): AbortSignal {
    if (!this.controller) {
      const controller = new AbortController();
      this.controller = controller;
      if (this.ended) controller.abort(passed());
      else this.whenPassed(() => undefined);
    }
    return this.controller.signal;
  }

  /**
   * Runs `run` once, when the deadline passes or is aborted (at once if it has). Returns what
   * cancels it: a request that ends first leaves no timer behind.
   */
  whenPassed(run: () => void): () => void {
    return this.wait(this.atEnd, run);
  }

  /** As `whenPassed`, but when only the reserve is left: where `bounded` abandons its calls. */
  whenCut(run: () => void): () => void {
    return this.wait(this.atCut, run);
  }

  /** Why a call to `broker` is not sent under this deadline (it did not answer one), if so. */
  notAnswering(broker: string, apiName: string): BrokerTimeoutError | undefined {
    const first = this.unanswered?.get(broker);
    if (!first) return undefined;
    return new BrokerTimeoutError(
      broker,
      first.api,
      first.timeoutMs,
      `earlier in this answer, so ${apiName} was not sent to it`,
    );
  }

  /** `broker` did not answer a call under this deadline. */
  noteUnanswered(broker: string, error: BrokerTimeoutError): void {
    if (this.unanswered && !this.unanswered.has(broker)) this.unanswered.set(broker, error);
  }

  /** Ms left, 0 once passed or aborted. */
  remainingMs(): number {
    if (this.ended) return 0;
    return Math.max(0, this.expiry - this.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /**
   * Kept back from each broker call's budget, so the answer (with the failures of the calls that
   * were abandoned) is made and sent before the deadline: a twentieth of the deadline, 20 ms to 1 s.
   */
  reserveMs(): number {
    return Math.min(1_000, Math.max(20, Math.floor(this.total / 20)));
  }

  /** The budget of one broker call: at most `capMs`, below what is left; 0 when nothing is. */
  budgetMs(capMs: number): number {
    return Math.max(0, Math.min(capMs, this.remainingMs() - this.reserveMs()));
  }

  /** Epoch ms at which the calls under this deadline are cut (only the reserve left). */
  cutAt(): number {
    return this.expiry - this.reserveMs();
  }

  /** Ends the deadline now: calls under it are abandoned. */
  abort(): void {
    if (this.ended) return;
    this.ended = true;
    this.disarm();
    this.controller?.abort(passed());
    const waiting = [...this.atCut, ...this.atEnd];
    this.atCut.clear();
    this.atEnd.clear();
    for (const run of waiting) run();
  }

  private wait(set: Set<() => void>, run: () => void): () => void {
    if (this.ended || this.remainingMs() === 0) {
      this.abort();
      run();
      return noop;
    }
    set.add(run);
    this.arm();
    return () => {
      if (!set.delete(run)) return;
      if (this.atEnd.size === 0 && this.atCut.size === 0 && !this.controller) this.disarm();
    };
  }

  private arm(): void {
    // At the cut while it is ahead, whoever waits: a request's calls then join the timer its
    // 504 armed instead of moving it.
    const cutAt = this.cutAt();
    const at = this.now() < cutAt ? cutAt : this.expiry;
    if (this.timer !== undefined && this.timerAt <= at) return;
    this.disarm();
    this.timerAt = at;
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - this.now()));
    // A deadline never keeps a process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private disarm(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const left = this.expiry - this.now();
    if (left <= 0) {
      this.abort();
      return;
    }
    if (left <= this.reserveMs() && this.atCut.size > 0) {
      const cut = [...this.atCut];
      this.atCut.clear();
      for (const run of cut) run();
    }
    if (this.atEnd.size > 0 || this.atCut.size > 0 || this.controller) this.arm();
  }
}

const noop = () => undefined;
const passed = () => new DeadlineExceededError('the request deadline passed');

/**
 * `call`, unless it does not settle within `budgetMs` or `until` (a signal, or a deadline) ends
 * first: then `late()` is thrown and `call` is left to end by itself (its outcome is dropped, never
 * unhandled). A deadline is waited on with its own timer, not through its AbortSignal; with
 * `atCut`, until its cut (only the reserve left), wherever a shared deadline has moved it by then.
 */
export function abandonAfter<T>(
  call: Promise<T>,
  budgetMs: number,
  until: AbortSignal | Deadline | undefined,
  late: () => Error,
  atCut = false,
): Promise<T> {
  const ended = until instanceof Deadline ? until.expired() : until?.aborted === true;
  if (budgetMs <= 0 || ended) {
    call.catch(() => undefined);
    return Promise.reject(late());
  }
  return new Promise<T>((resolve, reject) => {
    // A deadline that passes in between runs `give` at once, from inside `whenPassed`.
    let stop: () => void = noop;
    const cleanup = () => {
      clearTimeout(timer);
      stop();
    };
    const give = () => {
      cleanup();
      call.catch(() => undefined);
      reject(late());
    };
    const timer = setTimeout(give, budgetMs);
    stop =
      until instanceof Deadline
        ? atCut
          ? until.whenCut(give)
          : until.whenPassed(give)
        : listen(until, give);
    call.then(
      (value) => {
        cleanup();
        resolve(value);
      },
      (error: unknown) => {
        cleanup();
        reject(error);
      },
    );
  });
}

function listen(signal: AbortSignal | undefined, run: () => void): () => void {
  if (!signal) return noop;
  signal.addEventListener('abort', run, { once: true });
  return () => signal.removeEventListener('abort', run);
}

/**
 * One broker call under the deadline it is given: abandoned with a BrokerTimeoutError once only
 * the deadline's reserve is left; it then ends on its own timeout.
 * Given as a function, the call is not even started when the deadline knows the broker for one
 * that does not answer (`oncePerBroker`).
 */
export function bounded<T>(
  broker: string,
  apiName: string,
  { deadline }: CallOptions,
  call: Promise<T> | (() => Promise<T>),
): Promise<T> {
  const silent = deadline?.notAnswering(broker, apiName);
  if (silent) {
    if (typeof call !== 'function') call.catch(() => undefined);
    return Promise.reject(silent);
  }
  if (!deadline) return typeof call === 'function' ? call() : call;
  const budget = deadline.budgetMs(Number.POSITIVE_INFINITY);
  const late = () => {
    const error = new BrokerTimeoutError(broker, apiName, budget, 'abandoned at the request deadline');
    deadline.noteUnanswered(broker, error);
    return error;
  };
  // Judged before the call starts: with no time left, nothing is sent.
  if (budget <= 0) {
    if (typeof call !== 'function') call.catch(() => undefined);
    return Promise.reject(late());
  }
  const started = typeof call === 'function' ? call() : call;
  const noted = started.catch((error: unknown) => {
    if (error instanceof BrokerTimeoutError) deadline.noteUnanswered(broker, error);
    throw error;
  });
  // Every call under a deadline is cut at the same moment (only its reserve left): the deadline's
  // one timer serves them all.
  return new Promise<T>((resolve, reject) => {
    const cancel = deadline.whenCut(() => {
      noted.catch(() => undefined);
      reject(late());
    });
    noted.then(
      (value) => {
        cancel();
        resolve(value);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}
