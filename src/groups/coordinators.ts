/**
 * Group coordinators: found with FindCoordinator (one batched request from v4), remembered, and
 * forgotten when a broker says they moved. `forEachCoordinator` runs a call per coordinator for
 * a set of groups and retries the coordinator errors (14, 15, 16) with a bounded backoff, so every
 * group ends with an outcome of its own: a value or a final error.
 */

import QuickLRU from 'quick-lru';
import { type CallOptions, Deadline } from '../broker/deadline.js';
import {
  BrokerTimeoutError,
  describeKafkaError,
  type KafkaErrorInfo,
  KafkaResponseError,
} from '../broker/errors.js';
import { ErrorCode } from '../broker/protocol/errors.js';
import { isNoAnswer, type KafkaCluster } from '../broker/transport/cluster.js';
import { findCoordinators } from './coordinator-lookup.js';
import { CoordinatorUnavailableError } from './errors.js';
import type { BrokerRef } from './model.js';
import { failed, type Outcome, ok } from './outcome.js';

/** The errors that mean "ask again": the coordinator is loading, unknown, or has moved. */
const COORDINATOR_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
  ErrorCode.COORDINATOR_NOT_AVAILABLE,
  ErrorCode.NOT_COORDINATOR,
]);

/** Batching of the lookups of concurrent requests (see `Coordinators`). */
export interface LookupBatching {
  /** Longest a lookup waits for a batch to leave while others are out (ms). Default 5. */
  windowMs?: number;
  /** Lookups out at once before new ones start to wait. Default 2. */
  maxInFlight?: number;
  /** Most keys in one FindCoordinator. Default 1,000. */
  maxKeys?: number;
}

interface Batch {
  ids: Set<string>;
  answers: Promise<Map<string, Outcome<BrokerRef>>>;
  send: () => void;
  /**
   * Takes a caller in: the lookup then runs until that caller's deadline too. False when it cannot
   * (it went out under a deadline and the caller has none, or it was cut already): ask anew.
   */
  admit: (deadline: Deadline | undefined) => boolean;
  /** The broker the lookup is asking now and the RPC it waits on: what a caller that stops waiting names. */
  asking?: { broker: string; api: string };
}

const defer: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

export interface RetryPolicy {
  attempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, initialBackoffMs: 50, maxBackoffMs: 1000 };

export function isCoordinatorError(code: number): boolean {
  return COORDINATOR_ERRORS.has(code);
}

/**
 * The Kafka error of an outcome that is worth another try at the coordinator: a group answered
 * with a coordinator error (a KafkaResponseError with 14, 15 or 16) goes round again.
 */
function coordinatorError(outcome: Outcome<unknown>): KafkaErrorInfo | undefined {
  if (outcome.ok || !(outcome.error instanceof KafkaResponseError)) return undefined;
  return isCoordinatorError(outcome.error.kafkaError.code) ? outcome.error.kafkaError : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lookups are batched like describes (coalesce.ts): the groups that concurrent requests need a
 * coordinator for go out as one FindCoordinator (v4+ takes many keys), at the end of the
 * event-loop turn they were asked in, or, while `maxInFlight` lookups are out, when one comes
 * back or `windowMs` has passed. Sixty-four callers describing sixty-four groups never seen
 * before ask one or two FindCoordinator, not sixty-four.
 */
export class Coordinators {
  private static readonly CACHE_SIZE = 10_000;
  // Bounded so a scan over many group ids cannot grow it without limit, and without a delete per
  // insert (see the type cache in service.ts): it holds between CACHE_SIZE and twice that.
  private readonly cache = new QuickLRU<string, BrokerRef>({ maxSize: Coordinators.CACHE_SIZE });
  /** The lookup each group id is waiting on, until it settles. */
  private readonly inflight = new Map<string, Batch>();
  /** One object per coordinator, shared by the cache entries of all its groups. */
  private readonly refs = new Map<string, BrokerRef>();
  private readonly windowMs: number;
  private readonly maxInFlight: number;
  private readonly maxKeys: number;
  private assembling: Batch | undefined;
  private lookupsOut = 0;

  constructor(
    private readonly cluster: KafkaCluster,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    batching: LookupBatching = {},
  ) {
    this.windowMs = batching.windowMs ?? 5;
    this.maxInFlight = batching.maxInFlight ?? 2;
    this.maxKeys = batching.maxKeys ?? 1_000;
  }

  /**
   * Calls `call` once per coordinator with the groups it holds, until every group has a value or a
   * final error. Groups answered with a coordinator error go round again after a backoff; the
   * coordinator is looked up afresh unless it was only loading. Bounded by `options.deadline`.
   */
  async forEachCoordinator<T>(
    groupIds: readonly string[],
    call: (coordinator: BrokerRef, groupIds: string[]) => Promise<Map<string, Outcome<T>>>,
    options: CallOptions,
  ): Promise<Map<string, Outcome<T>>> {
    const done = new Map<string, Outcome<T>>();
    const last = new Map<string, { kafkaError: KafkaErrorInfo; broker?: string; noAnswer?: Error }>();
    let pending = [...new Set(groupIds)];
    // Coordinators that timed out in this call: asked once, never twice in one request.
    const silent = new Map<string, Error>();
    const { deadline } = options;
    let attempts = 0;
    let cut = false;
    for (let attempt = 0; attempt < this.retry.attempts && pending.length > 0; attempt++) {
      if (attempt > 0) {
        const backoff = Math.min(this.retry.maxBackoffMs, this.retry.initialBackoffMs * 2 ** (attempt - 1));
        // No round starts that the request's deadline would cut short: the groups left keep
        // their last error (a coordinator that did not answer is named as such).
        if (deadline && deadline.budgetMs(Number.POSITIVE_INFINITY) <= 2 * backoff) {
          cut = true;
          break;
        }
        await sleep(backoff);
      }
      attempts = attempt + 1;
      const retry: string[] = [];
      let found: Map<string, Outcome<BrokerRef>>;
      try {
        found = await this.find(pending, deadline);
      } catch (error) {
        // No broker answered the lookup: each group left says so, and what was read stands.
        if (!isNoAnswer(error)) throw error;
        for (const id of pending) done.set(id, failed(error));
        return done;
      }
      const byCoordinator = new Map<string, { coordinator: BrokerRef; ids: string[] }>();
      for (const [id, outcome] of found) {
        const moved = coordinatorError(outcome);
        if (outcome.ok) {
          const key = `${outcome.value.nodeId}@${outcome.value.host}:${outcome.value.port}`;
          const entry = byCoordinator.get(key) ?? { coordinator: outcome.value, ids: [] };
          entry.ids.push(id);
          byCoordinator.set(key, entry);
        } else if (moved) {
          last.set(id, { kafkaError: moved });
          retry.push(id);
        } else {
          done.set(id, outcome);
        }
      }
      const finalAttempt = attempt === this.retry.attempts - 1;
      await Promise.all(
        [...byCoordinator.values()].map(async ({ coordinator, ids }) => {
          const broker = `${coordinator.host}:${coordinator.port}`;
          const before = silent.get(broker);
          if (before) {
            // Kafka still names the coordinator that just failed to answer: that is the answer.
            for (const id of ids) done.set(id, failed(before));
            return;
          }
          let outcomes: Map<string, Outcome<T>>;
          try {
            outcomes = await call(coordinator, ids);
          } catch (error) {
            // A coordinator that went away or hangs is forgotten and looked up again (the lookup
            // goes to another broker first): Kafka may have moved its groups already.
            if (!isNoAnswer(error) || finalAttempt) {
              for (const id of ids) done.set(id, failed(error as Error));
              return;
            }
            // A refusal is cheap to retry; a hang costs a whole request timeout each time.
            if (error instanceof BrokerTimeoutError) silent.set(broker, error);
            for (const id of ids) {
              this.forget(id);
              last.set(id, {
                kafkaError: describeKafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, error.message),
                broker,
                noAnswer: error,
              });
              retry.push(id);
            }
            return;
          }
          for (const id of ids) {
            const outcome = outcomes.get(id);
            const moved = outcome && coordinatorError(outcome);
            if (!outcome) {
              done.set(
                id,
                failed(
                  new KafkaResponseError(
                    broker,
                    'describe',
                    ErrorCode.UNKNOWN_SERVER_ERROR,
                    'the coordinator did not answer for this group',
                  ),
                ),
              );
            } else if (moved) {
              if (moved.code !== ErrorCode.COORDINATOR_LOAD_IN_PROGRESS) this.forget(id);
              last.set(id, { kafkaError: moved, broker });
              retry.push(id);
            } else {
              done.set(id, outcome);
            }
          }
        }),
      );
      pending = retry;
    }
    for (const id of pending) {
      const { kafkaError, broker, noAnswer } = last.get(id) ?? {
        kafkaError: describeKafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE),
      };
      done.set(
        id,
        failed(
          cut && noAnswer ? noAnswer : new CoordinatorUnavailableError(id, broker, kafkaError, attempts),
        ),
      );
    }
    return done;
  }

  forget(groupId: string): void {
    this.cache.delete(groupId);
  }

  /**
   * Coordinators of `groupIds`: from the cache, else one FindCoordinator (v4+) or one per group.
   * Lookups in flight are shared, so concurrent calls for the same groups (a page's details and
   * its lag) ask once. A shared lookup runs until the latest deadline of the callers waiting on it
   * (moved later as callers join), and each caller stops waiting at its own: a caller on its last
   * milliseconds does not cut the lookup short for one that just came.
   */
  private async find(groupIds: string[], deadline?: Deadline): Promise<Map<string, Outcome<BrokerRef>>> {
    const out = new Map<string, Outcome<BrokerRef>>();
    const waits = new Map<Batch, string[]>();
    for (const id of groupIds) {
      const cached = this.cache.get(id);
      if (cached) {
        out.set(id, ok(cached));
        continue;
      }
      const shared = this.inflight.get(id);
      // Each id not in flight joins the batch being assembled; a full batch leaves and the next one starts.
      const batch = shared?.admit(deadline) ? shared : this.join(id, deadline);
      const ids = waits.get(batch);
      if (ids) ids.push(id);
      else waits.set(batch, [id]);
    }
    // Every coordinator known (the describes after a group's first): the answer is at hand.
    if (waits.size === 0) return out;
    await Promise.all(
      [...waits].map(async ([batch, ids]) => {
        const answers = await (deadline ? waitUntilCut(batch, deadline) : batch.answers);
        for (const id of ids) out.set(id, answerFor(answers, id));
      }),
    );
    return out;
  }

  /** The lookup for `id`: the batch being assembled, which it joins. */
  private join(id: string, deadline?: Deadline): Batch {
    let batch = this.assembling;
    if (!batch) {
      let release!: () => void;
      const ready = new Promise<void>((resolve) => {
        release = resolve;
      });
      const ids = new Set<string>();
      let sent = false;
      // Until it leaves: the caller whose deadline is cut last, or none (a caller with no deadline).
      let latest: Deadline | undefined;
      let open = false;
      // Once it has left: the deadline it runs under, moved later as callers join; never its first
      // caller's own, which would end the lookup for the callers that joined later.
      let bound!: Deadline;
      const created: Batch = {
        ids,
        // Starts once `send` releases it; until then more ids may join.
        answers: ready.then(() => this.lookup([...ids], bound, created)),
        send: () => {
          if (sent) return;
          sent = true;
          // A caller with no deadline waits as long as a lookup on its own would (`anyBroker`).
          let base = latest;
          if (open || !base) {
            const alone = Deadline.after(2 * this.cluster.requestTimeoutMs);
            if (!base || cutOf(alone) >= cutOf(base)) base = alone;
          }
          bound = Deadline.shared(base);
          if (this.assembling === created) this.assembling = undefined;
          this.lookupsOut += 1;
          release();
          created.answers
            .finally(() => {
              this.lookupsOut -= 1;
              for (const id of ids) if (this.inflight.get(id) === created) this.inflight.delete(id);
              // A batch that waited for a free slot leaves now.
              this.assembling?.send();
            })
            .catch(() => undefined);
        },
        admit: (deadline) => {
          if (sent) return (deadline !== undefined && bound.extendTo(deadline)) || (open && !bound.expired());
          if (!deadline) open = true;
          else if (!latest || cutOf(deadline) > cutOf(latest)) latest = deadline;
          return true;
        },
      };
      this.assembling = batch = created;
      defer(() => {
        if (this.lookupsOut < this.maxInFlight) created.send();
        else
          setTimeout(() => {
            created.send();
          }, this.windowMs);
      });
    }
    batch.ids.add(id);
    batch.admit(deadline);
    this.inflight.set(id, batch);
    if (batch.ids.size >= this.maxKeys) batch.send();
    return batch;
  }

  private async lookup(
    groupIds: string[],
    deadline: Deadline,
    batch: Batch,
  ): Promise<Map<string, Outcome<BrokerRef>>> {
    const options = { deadline };
    const answers = await this.cluster.anyBroker((connection) => {
      const asking = { broker: connection.label, api: 'FindCoordinator' };
      batch.asking = asking;
      return findCoordinators(connection, groupIds, options, (api) => {
        asking.api = api;
      });
    }, options);
    const out = new Map<string, Outcome<BrokerRef>>();
    for (const answer of answers) {
      if (answer.errorCode === ErrorCode.NONE) {
        const coordinator = this.ref(answer.nodeId, answer.host, answer.port);
        this.remember(answer.key, coordinator);
        out.set(answer.key, ok(coordinator));
      } else {
        // Coordinator errors among these are retried by forEachCoordinator.
        out.set(
          answer.key,
          failed(
            new KafkaResponseError(answer.broker, 'FindCoordinator', answer.errorCode, answer.errorMessage),
          ),
        );
      }
    }
    return out;
  }

  private ref(nodeId: number, host: string, port: number): BrokerRef {
    const key = `${nodeId}@${host}:${port}`;
    let ref = this.refs.get(key);
    if (!ref) {
      ref = { nodeId, host, port };
      if (this.refs.size >= Coordinators.CACHE_SIZE) this.refs.clear();
      this.refs.set(key, ref);
    }
    return ref;
  }

  private remember(groupId: string, coordinator: BrokerRef): void {
    this.cache.set(groupId, coordinator);
  }
}

/**
 * A caller's wait on a shared lookup: until the lookup answers, or `deadline`'s cut. Then the
 * caller answers as if it had asked alone: the broker the lookup is asking did not answer the RPC
 * it waits on, and, under a deadline that remembers such brokers, is not asked again under it.
 */
function waitUntilCut(batch: Batch, deadline: Deadline): Promise<Map<string, Outcome<BrokerRef>>> {
  const budget = deadline.budgetMs(Number.POSITIVE_INFINITY);
  const late = () => {
    const asking = batch.asking;
    const error = new BrokerTimeoutError(
      asking?.broker ?? 'any broker',
      asking?.api ?? 'FindCoordinator',
      budget,
      'abandoned at the request deadline',
    );
    if (asking) deadline.noteUnanswered(asking.broker, error);
    return error;
  };
  if (budget <= 0) return Promise.reject(late());
  return new Promise((resolve, reject) => {
    const cancel = deadline.whenCut(() => reject(late()));
    batch.answers.then(
      (answers) => {
        cancel();
        resolve(answers);
      },
      (error: unknown) => {
        cancel();
        reject(error);
      },
    );
  });
}

/** When calls under `deadline` are cut (only its reserve left). */
const cutOf = (deadline: Deadline) => deadline.expiresAt - deadline.reserveMs();

function answerFor(answers: Map<string, Outcome<BrokerRef>>, id: string): Outcome<BrokerRef> {
  return (
    answers.get(id) ??
    failed(
      new KafkaResponseError(
        undefined,
        'FindCoordinator',
        ErrorCode.UNKNOWN_SERVER_ERROR,
        'no answer for this group',
      ),
    )
  );
}
