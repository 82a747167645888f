/**
 * Errors from the broker layer → problem+json. Anything unforeseen becomes a 500 problem with no
 * internals in it; the log keeps the details.
 */

import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import {
  BrokerResponseError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../broker/errors.js';
import {
  CoordinatorUnavailableError,
  GroupNotFoundError,
  GroupTypeMismatchError,
  GroupTypeUnavailableError,
} from '../groups/errors.js';
import type { Logger } from '../logger.js';
import {
  type Problem,
  type ProblemExtensions,
  type ProblemSlug,
  problemBody,
  problemResponse,
} from '../openapi/problems.js';

const RETRY_AFTER_SECONDS = '1';

interface Mapped {
  slug: ProblemSlug;
  detail: string;
  extensions?: ProblemExtensions;
  retryAfter?: boolean;
}

function map(error: unknown, logger: Logger, path: string): Mapped {
  // Hono's own 400s: a body that is not JSON at all, before any schema sees it.
  if (error instanceof HTTPException && error.status === 400) {
    const detail = `request body expected JSON, ${error.message.toLowerCase()}`;
    return {
      slug: 'invalid-input',
      detail,
      extensions: {
        errors: [
          { in: 'body', name: '(body)', expected: 'a JSON document', received: null, message: detail },
        ],
      },
    };
  }
  if (error instanceof GroupNotFoundError) {
    return {
      slug: 'group-not-found',
      detail: error.message,
      extensions: { groupId: error.groupId, ...(error.kafkaError && { kafkaError: error.kafkaError }) },
    };
  }
  if (error instanceof GroupTypeMismatchError) {
    return {
      slug: 'group-type-mismatch',
      detail: error.message,
      extensions: {
        groupId: error.groupId,
        expectedType: error.expectedType,
        actualType: error.actualType,
        ...(error.kafkaError && { kafkaError: error.kafkaError }),
      },
    };
  }
  if (error instanceof GroupTypeUnavailableError) {
    return {
      slug: 'group-type-unavailable',
      detail: error.message,
      extensions: {
        groupId: error.groupId,
        expectedType: error.expectedType,
        ...(error.kafkaError && { kafkaError: error.kafkaError }),
      },
    };
  }
  if (error instanceof CoordinatorUnavailableError) {
    return {
      slug: 'coordinator-unavailable',
      detail: error.message,
      extensions: {
        groupId: error.groupId,
        kafkaError: error.kafkaError,
        ...(error.broker && { broker: error.broker }),
      },
      retryAfter: true,
    };
  }
  if (error instanceof BrokerUnavailableError) {
    return {
      slug: 'broker-unavailable',
      detail: error.message,
      extensions: error.broker ? { broker: error.broker } : {},
      retryAfter: true,
    };
  }
  if (error instanceof BrokerTimeoutError) {
    return { slug: 'broker-timeout', detail: error.message, extensions: { broker: error.broker } };
  }
  if (error instanceof BrokerResponseError) {
    logger.warn('unreadable broker response', {
      broker: error.broker,
      api: error.api,
      version: error.version,
      detail: error.message,
    });
    return {
      slug: 'broker-response-unreadable',
      detail: error.message,
      extensions: { broker: error.broker },
    };
  }
  if (error instanceof UnsupportedApiError) {
    return { slug: 'unsupported-broker-api', detail: error.message, extensions: { broker: error.broker } };
  }
  if (error instanceof KafkaResponseError) {
    return {
      slug: 'kafka-error',
      detail: error.message,
      extensions: { kafkaError: error.kafkaError, ...(error.broker && { broker: error.broker }) },
    };
  }
  logger.error('unexpected error', {
    path,
    error:
      error instanceof Error
        ? { name: error.name, message: error.message, stack: error.stack }
        : String(error),
  });
  return {
    slug: 'internal-error',
    detail: 'the request failed unexpectedly; the server log has the details',
  };
}

/** The problem for one item of a batch answer (no `instance`: the item is not a request). */
export function problemOf(error: unknown, logger: Logger, path: string): Problem {
  const { slug, detail, extensions } = map(error, logger, path);
  return problemBody(slug, detail, extensions);
}

export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  const { slug, detail, extensions, retryAfter } = map(error, logger, c.req.path);
  return problemResponse(
    c,
    slug,
    detail,
    extensions,
    retryAfter ? { 'retry-after': RETRY_AFTER_SECONDS } : {},
  );
}
