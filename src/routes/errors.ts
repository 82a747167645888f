/**
 * Errors from the broker layer → problem+json. Anything unforeseen becomes a 500 problem with no
 * internals in it; the log keeps the details.
 */

import type { Context } from 'hono';
import {
  BrokerResponseError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  CoordinatorUnavailableError,
  GroupNotFoundError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../broker/errors.js';
import type { Logger } from '../logger.js';
import { problemResponse } from '../openapi/problems.js';

const RETRY_AFTER_SECONDS = '1';

export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof GroupNotFoundError) {
    return problemResponse(c, 'group-not-found', error.message, {
      groupId: error.groupId,
      ...(error.kafkaError && { kafkaError: error.kafkaError }),
    });
  }
  if (error instanceof CoordinatorUnavailableError) {
    return problemResponse(
      c,
      'coordinator-unavailable',
      error.message,
      { groupId: error.groupId, kafkaError: error.kafkaError, ...(error.broker && { broker: error.broker }) },
      { 'retry-after': RETRY_AFTER_SECONDS },
    );
  }
  if (error instanceof BrokerUnavailableError) {
    return problemResponse(
      c,
      'broker-unavailable',
      error.message,
      error.broker ? { broker: error.broker } : {},
      { 'retry-after': RETRY_AFTER_SECONDS },
    );
  }
  if (error instanceof BrokerTimeoutError)
    return problemResponse(c, 'broker-timeout', error.message, { broker: error.broker });
  if (error instanceof BrokerResponseError) {
    logger.warn('unreadable broker response', {
      broker: error.broker,
      api: error.api,
      version: error.version,
      detail: error.message,
    });
    return problemResponse(c, 'broker-response-unreadable', error.message, { broker: error.broker });
  }
  if (error instanceof UnsupportedApiError)
    return problemResponse(c, 'unsupported-broker-api', error.message, { broker: error.broker });
  if (error instanceof KafkaResponseError) {
    return problemResponse(c, 'kafka-error', error.message, {
      kafkaError: error.kafkaError,
      ...(error.broker && { broker: error.broker }),
    });
  }
  logger.error('unexpected error', {
    path: c.req.path,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return problemResponse(
    c,
    'internal-error',
    'the request failed unexpectedly; the server log has the details',
  );
}
