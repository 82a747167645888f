/**
 * Group coordinators: found with FindCoordinator, remembered, and forgotten when the broker says
 * they moved. `withCoordinator` runs a call against a group's coordinator and retries the
 * coordinator errors (14, 15, 16) with a bounded backoff, so callers see a group or a final error.
 */

import {
  BrokerUnavailableError,
  CoordinatorUnavailableError,
  describeKafkaError,
  type KafkaErrorInfo,
  KafkaResponseError,
  quoteId,
} from './errors.js';
import type { BrokerRef } from './model.js';
import { FindCoordinator } from './protocol/messages/find-coordinator.js';
import type { KafkaCluster } from './transport/cluster.js';

export const COORDINATOR_LOAD_IN_PROGRESS = 14;
export const COORDINATOR_NOT_AVAILABLE = 15;
export const NOT_COORDINATOR = 16;
const RETRIABLE = new Set([COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR]);
const GROUP_KEY_TYPE = 0;

export interface RetryPolicy {
  attempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, initialBackoffMs: 50, maxBackoffMs: 1000 };

/** What a call against a coordinator returns: a value, or a coordinator error worth a retry. */
export type CoordinatorOutcome<T> = { value: T } | { retry: KafkaErrorInfo };

export function isCoordinatorError(code: number): boolean {
  return RETRIABLE.has(code);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Coordinators {
  // Bounded so a scan over many group ids cannot grow it without limit; Map keeps insertion order.
  private readonly cache = new Map<string, BrokerRef>();
  private static readonly CACHE_SIZE = 10_000;

  constructor(
    private readonly cluster: KafkaCluster,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
  ) {}

  async withCoordinator<T>(
    groupId: string,
    call: (coordinator: BrokerRef) => Promise<CoordinatorOutcome<T>>,
  ): Promise<T> {
    let last: KafkaErrorInfo = describeKafkaError(COORDINATOR_NOT_AVAILABLE);
    let lastBroker: string | undefined;
    for (let attempt = 0; attempt < this.retry.attempts; attempt++) {
      if (attempt > 0)
        await sleep(Math.min(this.retry.maxBackoffMs, this.retry.initialBackoffMs * 2 ** (attempt - 1)));
      const found = await this.find(groupId);
      if ('retry' in found) {
        last = found.retry;
        continue;
      }
      const coordinator = found.value;
      lastBroker = `${coordinator.host}:${coordinator.port}`;
      let outcome: CoordinatorOutcome<T>;
      try {
        outcome = await call(coordinator);
      } catch (error) {
        // A coordinator that went away is looked up again; the group may have moved with it.
        if (!(error instanceof BrokerUnavailableError) || attempt === this.retry.attempts - 1) throw error;
        this.forget(groupId);
        last = describeKafkaError(COORDINATOR_NOT_AVAILABLE, error.message);
        continue;
      }
      if ('value' in outcome) return outcome.value;
      last = outcome.retry;
      if (last.code !== COORDINATOR_LOAD_IN_PROGRESS) this.forget(groupId);
    }
    throw new CoordinatorUnavailableError(groupId, lastBroker, last, this.retry.attempts);
  }

  forget(groupId: string): void {
    this.cache.delete(groupId);
  }

  private async find(groupId: string): Promise<CoordinatorOutcome<BrokerRef>> {
    const cached = this.cache.get(groupId);
    if (cached) return { value: cached };
    const found = await this.cluster.anyBroker(async (connection) => {
      const { version, response } = await connection.send(FindCoordinator, (v) =>
        v >= 4
          ? { keyType: GROUP_KEY_TYPE, coordinatorKeys: [groupId] }
          : { key: groupId, ...(v >= 1 && { keyType: GROUP_KEY_TYPE }) },
      );
      if (version >= 4) {
        const entry = response.coordinators?.find((c) => c.key === groupId);
        if (!entry)
          throw new KafkaResponseError(
            connection.label,
            'FindCoordinator',
            -1,
            `no answer for group ${quoteId(groupId)}`,
          );
        return { ...entry, broker: connection.label };
      }
      return {
        errorCode: response.errorCode ?? 0,
        errorMessage: response.errorMessage ?? null,
        nodeId: response.nodeId ?? -1,
        host: response.host ?? '',
        port: response.port ?? -1,
        broker: connection.label,
      };
    });
    if (found.errorCode !== 0) {
      if (isCoordinatorError(found.errorCode))
        return { retry: describeKafkaError(found.errorCode, found.errorMessage) };
      throw new KafkaResponseError(found.broker, 'FindCoordinator', found.errorCode, found.errorMessage);
    }
    const coordinator: BrokerRef = { nodeId: found.nodeId, host: found.host, port: found.port };
    if (this.cache.size >= Coordinators.CACHE_SIZE) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(groupId, coordinator);
    return { value: coordinator };
  }
}
