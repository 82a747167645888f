/**
 * What this process has seen of each broker lately: failures (to steer requests that may go to any
 * broker away from one that just timed out or refused, for a short while) and one log line per
 * outage instead of one per failed request.
 *
 * Avoidance is a hint, never a wall: a broker avoided still gets one probe at a time once its
 * pause is over, and callers that have no other broker to ask still ask it.
 *
 * Logs: the first failure of a broker is a warning; later failures only count, and at most one
 * line per `logIntervalMs` says how many there were; the first success after failures says the
 * broker answers again and how long it did not.
 */

import type { Logger } from '../../logger.js';
import { BrokerTimeoutError } from '../errors.js';

export interface BrokerHealthOptions {
  logger: Logger;
  /** How long a broker that timed out (or refused) is avoided; default 5 s. */
  avoidMs?: number;
  /** At most one repeat line per broker this often; default 30 s. */
  logIntervalMs?: number;
  now?: () => number;
}

interface State {
  failures: number;
  /** Failures since the last line logged about this broker. */
  unlogged: number;
  firstFailureAt: number;
  lastLoggedAt: number;
  lastError: string;
  avoidUntil: number;
  probing: boolean;
}

export class BrokerHealth {
  private readonly states = new Map<string, State>();
  private readonly logger: Logger;
  private readonly avoidMs: number;
  private readonly logIntervalMs: number;
  private readonly now: () => number;

  constructor(options: BrokerHealthOptions) {
    this.logger = options.logger;
    this.avoidMs = options.avoidMs ?? 5_000;
    this.logIntervalMs = options.logIntervalMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** True while `broker` failed recently: it is asked last, if at all. */
  isAvoided(broker: string): boolean {
    const state = this.states.get(broker);
    return state !== undefined && state.avoidUntil > this.now();
  }

  /** True from a broker's failure until its next success (avoided or not). */
  isFailing(broker: string): boolean {
    return (this.states.get(broker)?.failures ?? 0) > 0;
  }

  /**
   * Whether a caller that may skip `broker` should: true while it is avoided, or while another
   * caller's probe of it is under way. The caller told false after the pause is the probe.
   */
  shouldSkip(broker: string): boolean {
    const state = this.states.get(broker);
    if (!state || state.failures === 0) return false;
    if (state.avoidUntil > this.now() || state.probing) return true;
    state.probing = true;
    return false;
  }

  /**
   * Why a caller that may skip `broker` should (see `shouldSkip`), or undefined when it should ask
   * it: the answers that skip it name the reason.
   */
  skipReason(broker: string): string | undefined {
    return this.shouldSkip(broker) ? this.reason(broker) : undefined;
  }

  /** Why `broker` is avoided, for the answers that name it. */
  reason(broker: string): string | undefined {
    const state = this.states.get(broker);
    if (!state || state.failures === 0) return undefined;
    const ago = Math.max(0, Math.round((this.now() - state.firstFailureAt) / 1000));
    return `${broker} is failing since ${ago} s (${state.failures} failures; last: ${state.lastError})`;
  }

  /** The brokers in the order to try them: those not avoided first, each group in the given order. */
  order<T>(items: readonly T[], broker: (item: T) => string): T[] {
    const good = items.filter((i) => !this.isAvoided(broker(i)));
    const avoided = items.filter((i) => this.isAvoided(broker(i)));
    return [...good, ...avoided];
  }

  succeeded(broker: string): void {
    const state = this.states.get(broker);
    if (!state) return;
    this.states.delete(broker);
    const downMs = this.now() - state.firstFailureAt;
    this.logger.info(`broker ${broker} answers again`, {
      broker,
      failures: state.failures,
      downMs,
    });
  }

  /** A call to `broker` failed without an answer (timed out, refused, dropped). */
  failed(broker: string, error: Error): void {
    const now = this.now();
    const timeout = error instanceof BrokerTimeoutError;
    let state = this.states.get(broker);
    if (!state) {
      state = {
        failures: 0,
        unlogged: 0,
        firstFailureAt: now,
        lastLoggedAt: now,
        lastError: error.message,
        avoidUntil: 0,
        probing: false,
      };
      this.states.set(broker, state);
      this.logger.warn(`broker ${broker} does not answer`, {
        broker,
        error: error.message,
        kind: timeout ? 'timeout' : 'unavailable',
      });
    } else {
      state.unlogged += 1;
    }
    state.failures += 1;
    state.lastError = error.message;
    state.avoidUntil = now + this.avoidMs;
    state.probing = false;
    if (state.unlogged > 0 && now - state.lastLoggedAt >= this.logIntervalMs) {
      this.logger.warn(`broker ${broker} still does not answer`, {
        broker,
        failures: state.unlogged,
        sinceMs: now - state.lastLoggedAt,
        totalFailures: state.failures,
        downMs: now - state.firstFailureAt,
        error: error.message,
      });
      state.unlogged = 0;
      state.lastLoggedAt = now;
    }
  }
}

/**
 * A logger for kafkajs's own lines: the first line of a kind per broker passes, repeats within
 * `intervalMs` are counted and summed up in the next line of that kind after the interval.
 */
export function collapsingLogger(logger: Logger, intervalMs = 30_000, now: () => number = Date.now): Logger {
  const seen = new Map<string, { at: number; repeats: number }>();
  const at =
    (level: 'warn' | 'error') =>
    (message: string, fields: Record<string, unknown> = {}): void => {
      const key = `${String(fields.broker ?? '')}\u0000${message.replace(/\d+/g, '#')}`;
      const entry = seen.get(key);
      const t = now();
      if (entry && t - entry.at < intervalMs) {
        entry.repeats += 1;
        return;
      }
      if (seen.size > 1_000) seen.clear();
      seen.set(key, { at: t, repeats: 0 });
      logger[level](message, entry?.repeats ? { ...fields, repeated: entry.repeats } : fields);
    };
  return { debug: logger.debug, info: logger.info, warn: at('warn'), error: at('error') };
}
