/**
 * One request's deadline, made once when the request arrives (REQUEST_TIMEOUT_MS) and carried down
 * to every broker call under it. Each call gets a budget below what is left (at most one Kafka
 * request timeout); a call that cannot finish within its budget is abandoned: its caller stops
 * waiting and answers with what the other calls gave, while the call itself ends on its own
 * timeout in the background.
 *
 * The deadline travels two ways. Explicitly: broker calls take an optional `deadline`. And in the
 * request's async scope (`runWithDeadline`), so that every broker call made while serving the
 * request, in any read path, is bounded by it without each signature in between carrying it. An
 * explicit deadline wins over the scope's.
 */

import { AsyncLocalStorage } from 'node:async_hooks';
import { BrokerTimeoutError } from './errors.js';

/** What a broker call may be given besides its request. */
export interface CallOptions {
  /** Bounds the call; default: the deadline of the request being served, if any. */
  deadline?: Deadline;
}

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
  /** Aborts when the deadline passes (or the request is given up early, see `abort`). */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * With `oncePerBroker`: the first timeout of each broker that did not answer under this deadline;
   * later calls to it under the same deadline are not sent (see `DeadlineOptions`).
   */
  private readonly unanswered: Map<string, BrokerTimeoutError> | undefined;

  private constructor(
    /** Epoch ms. */
    readonly expiresAt: number,
    /** The whole budget, ms. */
    readonly totalMs: number,
    private readonly now: () => number,
    options: DeadlineOptions,
  ) {
    this.unanswered = options.oncePerBroker ? new Map() : undefined;
    this.signal = this.controller.signal;
    const ms = expiresAt - now();
    if (ms <= 0) this.abort();
    else {
      this.timer = setTimeout(() => this.abort(), ms);
      // A deadline never keeps a process alive.
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  /** A deadline `ms` from now. */
  static after(ms: number, now: () => number = Date.now, options: DeadlineOptions = {}): Deadline {
    return new Deadline(now() + ms, ms, now, options);
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
    if (this.signal.aborted) return 0;
    return Math.max(0, this.expiresAt - this.now());
  }

  expired(): boolean {
    return this.remainingMs() === 0;
  }

  /**
   * Kept back from each broker call's budget, so the answer (with the failures of the calls that
   * were abandoned) is made and sent before the deadline: a twentieth of the deadline, 20 ms to 1 s.
   */
  reserveMs(): number {
    return Math.min(1_000, Math.max(20, Math.floor(this.totalMs / 20)));
  }

  /** The budget of one broker call: at most `capMs`, below what is left; 0 when nothing is. */
  budgetMs(capMs: number): number {
    return Math.max(0, Math.min(capMs, this.remainingMs() - this.reserveMs()));
  }

  /** Ends the deadline now: calls under it are abandoned. */
  abort(): void {
    clearTimeout(this.timer);
    if (!this.signal.aborted) this.controller.abort(new DeadlineExceededError('the request deadline passed'));
  }
}

// Node, Lambda, and Workers with nodejs_compat all have it.
const scope = new AsyncLocalStorage<Deadline>();

/** Runs `fn` with `deadline` as the deadline of every broker call made under it. */
export function runWithDeadline<T>(deadline: Deadline, fn: () => T): T {
  return scope.run(deadline, fn);
}

/** The deadline of the request being served, when there is one. */
export function currentDeadline(): Deadline | undefined {
  return scope.getStore();
}

/**
 * `call`, unless it does not settle within `budgetMs` or `signal` aborts first: then `late()` is
 * thrown and `call` is left to end by itself (its outcome is dropped, never unhandled).
 */
export function abandonAfter<T>(
  call: Promise<T>,
  budgetMs: number,
  signal: AbortSignal | undefined,
  late: () => Error,
): Promise<T> {
  if (budgetMs <= 0 || signal?.aborted) {
    call.catch(() => undefined);
    return Promise.reject(late());
  }
  return new Promise<T>((resolve, reject) => {
    const give = () => {
      cleanup();
      call.catch(() => undefined);
      reject(late());
    };
    const timer = setTimeout(give, budgetMs);
    signal?.addEventListener('abort', give, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', give);
    };
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

/**
 * One broker call under the deadline (the explicit one, else the request's): abandoned with a
 * BrokerTimeoutError once only the deadline's reserve is left; it then ends on its own timeout.
 * Given as a function, the call is not even started when the deadline knows the broker for one
 * that does not answer (`oncePerBroker`).
 */
export function bounded<T>(
  broker: string,
  apiName: string,
  options: CallOptions | undefined,
  call: Promise<T> | (() => Promise<T>),
): Promise<T> {
  const deadline = options?.deadline ?? currentDeadline();
  const silent = deadline?.notAnswering(broker, apiName);
  if (silent) {
    if (typeof call !== 'function') call.catch(() => undefined);
    return Promise.reject(silent);
  }
  const started = typeof call === 'function' ? call() : call;
  if (!deadline) return started;
  const budget = deadline.budgetMs(Number.POSITIVE_INFINITY);
  const noted = started.catch((error: unknown) => {
    if (error instanceof BrokerTimeoutError) deadline.noteUnanswered(broker, error);
    throw error;
  });
  return abandonAfter(noted, budget, deadline.signal, () => {
    const late = new BrokerTimeoutError(broker, apiName, budget, 'abandoned at the request deadline');
    deadline.noteUnanswered(broker, late);
    return late;
  });
}
