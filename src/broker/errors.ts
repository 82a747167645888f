/**
 * What can go wrong between this product and the brokers, as types the routes map to HTTP.
 * Messages name the broker and the RPC, never credentials.
 */

import { kafkaError } from './protocol/errors.js';

export interface KafkaErrorInfo {
  code: number;
  name: string;
  message: string | null;
}

export function describeKafkaError(code: number, message?: string | null): KafkaErrorInfo {
  const known = kafkaError(code);
  return { code, name: known.name, message: message ?? null };
}

export abstract class BrokerError extends Error {
  /** `host:port` of the broker concerned, where there is one. */
  abstract readonly broker: string | undefined;
}

/** Could not connect, or the connection dropped. Worth a retry later (503). */
export class BrokerUnavailableError extends BrokerError {
  override readonly name = 'BrokerUnavailableError';
  constructor(
    readonly broker: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The broker did not answer within the request timeout (504). */
export class BrokerTimeoutError extends BrokerError {
  override readonly name = 'BrokerTimeoutError';
  constructor(
    readonly broker: string,
    readonly api: string,
    readonly timeoutMs: number,
    /** Why the wait ended before the broker's own timeout (the request's deadline). */
    reason?: string,
  ) {
    super(`${broker} did not answer ${api} within ${timeoutMs} ms${reason ? ` (${reason})` : ''}`);
  }
}

/** The broker answered bytes the codec cannot read (502). */
export class BrokerResponseError extends BrokerError {
  override readonly name = 'BrokerResponseError';
  constructor(
    readonly broker: string,
    readonly api: string,
    readonly version: number,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${broker} answered ${api} v${version} with a response that cannot be read: ${reason}`, options);
  }
}

/**
 * The broker behind an address is of another cluster than the one configured (or first seen) for
 * it (502): its answers are never read as this cluster's.
 */
export class ClusterMismatchError extends BrokerError {
  override readonly name = 'ClusterMismatchError';
  constructor(
    readonly broker: string,
    readonly expectedClusterId: string,
    /** null: the broker refused the expected id (ApiVersions v5) and would not name its own. */
    readonly seenClusterId: string | null,
  ) {
    super(
      `${broker} is a broker of cluster ${seenClusterId === null ? '(not named)' : `'${seenClusterId}'`}, not of '${expectedClusterId}', the cluster configured or first seen at this address`,
    );
  }
}

/** The broker and this product share no version of an RPC (502). */
export class UnsupportedApiError extends BrokerError {
  override readonly name = 'UnsupportedApiError';
  constructor(
    readonly broker: string,
    readonly api: string,
    readonly brokerRange: { min: number; max: number } | undefined,
    readonly ownRange: { min: number; max: number },
  ) {
    super(
      brokerRange
        ? `${broker} supports ${api} v${brokerRange.min}-${brokerRange.max}, this product v${ownRange.min}-${ownRange.max}`
        : `${broker} does not support ${api}`,
    );
  }
}

/** Kafka answered with an error code that has no better mapping (502, with the code). */
export class KafkaResponseError extends BrokerError {
  override readonly name = 'KafkaResponseError';
  readonly kafkaError: KafkaErrorInfo;
  constructor(
    readonly broker: string | undefined,
    readonly api: string,
    code: number,
    message?: string | null,
  ) {
    const info = describeKafkaError(code, message);
    super(`${api} failed with ${info.name} (${code})${info.message ? `: ${info.message}` : ''}`);
    this.kafkaError = info;
  }
}
