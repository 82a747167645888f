/**
 * Errors → problems, by the rows beside the catalogue. Each case states the whole answer a route
 * gives (status, headers, body text byte for byte, what is logged) and the batch item's problem,
 * so a row that changes what clients see fails here before it reaches a broker test.
 */

import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import {
  BrokerResponseError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  describeKafkaError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../../src/broker/errors.js';
import {
  CoordinatorUnavailableError,
  GroupNotFoundError,
  GroupTypeMismatchError,
  GroupTypeUnavailableError,
} from '../../src/groups/errors.js';
import { PROBLEM_ROWS, problemRowFor } from '../../src/http/problem-rows.js';
import type { Logger } from '../../src/logger.js';
import { PROBLEMS } from '../../src/openapi/problems.js';
import { errorResponse, problemOf } from '../../src/routes/errors.js';

type Logged = [level: string, message: string, fields: unknown];

function recordingLogger(): Logger & { logged: Logged[] } {
  const logged: Logged[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void logged.push([level, message, fields]);
  return { logged, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

async function answer(error: Error) {
  const logger = recordingLogger();
  const app = new Hono();
  app.onError((e, c) => errorResponse(e, c, logger));
  app.get('/groups/g', () => {
    throw error;
  });
  const response = await app.request('/groups/g');
  return { response, text: await response.text(), logged: logger.logged };
}

const notFound = describeKafkaError(69, 'Group g not found.');
const INTERNAL = {
  type: '/problems/internal-error',
  title: 'Internal error',
  status: 500,
  detail: 'the request failed unexpectedly; the server log has the details',
};
const PROBLEM_HEADERS = { 'content-type': 'application/problem+json' };
const RETRY_HEADERS = { ...PROBLEM_HEADERS, 'retry-after': '1' };

/** [what, error, headers, body (key order as served, `instance` left out), logged] */
const CASES: [string, Error, Record<string, string>, Record<string, unknown>, Logged[]][] = [
  [
    'a body that is not JSON',
    new HTTPException(400, { message: 'Malformed JSON in request body' }),
    PROBLEM_HEADERS,
    {
      type: '/problems/invalid-input',
      title: 'Invalid input',
      status: 400,
      detail: 'request body expected JSON, malformed json in request body',
      errors: [
        {
          in: 'body',
          name: '(body)',
          expected: 'a JSON document',
          received: null,
          message: 'request body expected JSON, malformed json in request body',
        },
      ],
    },
    [],
  ],
  [
    'an HTTPException other than 400',
    new HTTPException(404, { message: 'nope' }),
    PROBLEM_HEADERS,
    INTERNAL,
    [
      [
        'error',
        'unexpected error',
        { path: '/groups/g', error: { name: 'Error', message: 'nope', stack: 'STACK' } },
      ],
    ],
  ],
  [
    'a missing group',
    new GroupNotFoundError('g'),
    PROBLEM_HEADERS,
    {
      type: '/problems/group-not-found',
      title: 'Group not found',
      status: 404,
      detail: "group 'g' does not exist",
      groupId: 'g',
    },
    [],
  ],
  [
    'a missing group Kafka named',
    new GroupNotFoundError('g', notFound),
    PROBLEM_HEADERS,
    {
      type: '/problems/group-not-found',
      title: 'Group not found',
      status: 404,
      detail: "group 'g' does not exist",
      groupId: 'g',
      kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'Group g not found.' },
    },
    [],
  ],
  [
    'a group of another type',
    new GroupTypeMismatchError('g', 'share', 'consumer', notFound),
    PROBLEM_HEADERS,
    {
      type: '/problems/group-type-mismatch',
      title: 'Group is of another type',
      status: 409,
      detail: "group 'g' is a consumer group, not a share group",
      groupId: 'g',
      expectedType: 'share',
      actualType: 'consumer',
      kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'Group g not found.' },
    },
    [],
  ],
  [
    'a group type the cluster does not serve',
    new GroupTypeUnavailableError('g', 'streams', 'no', describeKafkaError(35)),
    PROBLEM_HEADERS,
    {
      type: '/problems/group-type-unavailable',
      title: 'Group type not served by this cluster',
      status: 501,
      detail: "the cluster does not serve streams groups, so group 'g' cannot be described as one: no",
      groupId: 'g',
      expectedType: 'streams',
      kafkaError: { code: 35, name: 'UNSUPPORTED_VERSION', message: null },
    },
    [],
  ],
  [
    'a coordinator that stayed away',
    new CoordinatorUnavailableError('g', 'h:1', describeKafkaError(14), 8),
    RETRY_HEADERS,
    {
      type: '/problems/coordinator-unavailable',
      title: 'Group coordinator unavailable',
      status: 503,
      detail: "the coordinator of group 'g' is not available after 8 attempts (COORDINATOR_LOAD_IN_PROGRESS)",
      groupId: 'g',
      kafkaError: { code: 14, name: 'COORDINATOR_LOAD_IN_PROGRESS', message: null },
      broker: 'h:1',
    },
    [],
  ],
  [
    'a coordinator never found',
    new CoordinatorUnavailableError('g', undefined, describeKafkaError(15, 'x'), 3),
    RETRY_HEADERS,
    {
      type: '/problems/coordinator-unavailable',
      title: 'Group coordinator unavailable',
      status: 503,
      detail: "the coordinator of group 'g' is not available after 3 attempts (COORDINATOR_NOT_AVAILABLE)",
      groupId: 'g',
      kafkaError: { code: 15, name: 'COORDINATOR_NOT_AVAILABLE', message: 'x' },
    },
    [],
  ],
  [
    'a broker that cannot be reached',
    new BrokerUnavailableError('h:1', 'cannot connect'),
    RETRY_HEADERS,
    {
      type: '/problems/broker-unavailable',
      title: 'Broker unavailable',
      status: 503,
      detail: 'cannot connect',
      broker: 'h:1',
    },
    [],
  ],
  [
    'no broker at all',
    new BrokerUnavailableError(undefined, 'no bootstrap broker'),
    RETRY_HEADERS,
    {
      type: '/problems/broker-unavailable',
      title: 'Broker unavailable',
      status: 503,
      detail: 'no bootstrap broker',
    },
    [],
  ],
  [
    'a broker that did not answer in time',
    new BrokerTimeoutError('h:1', 'DescribeGroups', 100),
    PROBLEM_HEADERS,
    {
      type: '/problems/broker-timeout',
      title: 'Broker did not answer in time',
      status: 504,
      detail: 'h:1 did not answer DescribeGroups within 100 ms',
      broker: 'h:1',
    },
    [],
  ],
  [
    'an answer the codec cannot read',
    new BrokerResponseError('h:1', 'DescribeGroups', 5, '3 bytes left over'),
    PROBLEM_HEADERS,
    {
      type: '/problems/broker-response-unreadable',
      title: 'Broker response cannot be read',
      status: 502,
      detail: 'h:1 answered DescribeGroups v5 with a response that cannot be read: 3 bytes left over',
      broker: 'h:1',
    },
    [
      [
        'warn',
        'unreadable broker response',
        {
          broker: 'h:1',
          api: 'DescribeGroups',
          version: 5,
          detail: 'h:1 answered DescribeGroups v5 with a response that cannot be read: 3 bytes left over',
        },
      ],
    ],
  ],
  [
    'an RPC version in common with none',
    new UnsupportedApiError('h:1', 'ListGroups', { min: 0, max: 2 }, { min: 3, max: 5 }),
    PROBLEM_HEADERS,
    {
      type: '/problems/unsupported-broker-api',
      title: 'Broker does not support a needed RPC version',
      status: 502,
      detail: 'h:1 supports ListGroups v0-2, this product v3-5',
      broker: 'h:1',
    },
    [],
  ],
  [
    'a Kafka error with no better mapping',
    new KafkaResponseError('h:1', 'DescribeGroups', 30),
    PROBLEM_HEADERS,
    {
      type: '/problems/kafka-error',
      title: 'Kafka returned an error',
      status: 502,
      detail: 'DescribeGroups failed with GROUP_AUTHORIZATION_FAILED (30)',
      kafkaError: { code: 30, name: 'GROUP_AUTHORIZATION_FAILED', message: null },
      broker: 'h:1',
    },
    [],
  ],
  [
    'a Kafka error from no particular broker',
    new KafkaResponseError(undefined, 'ListGroups', 31, 'denied'),
    PROBLEM_HEADERS,
    {
      type: '/problems/kafka-error',
      title: 'Kafka returned an error',
      status: 502,
      detail: 'ListGroups failed with CLUSTER_AUTHORIZATION_FAILED (31): denied',
      kafkaError: { code: 31, name: 'CLUSTER_AUTHORIZATION_FAILED', message: 'denied' },
    },
    [],
  ],
  [
    'an unforeseen error',
    new Error('boom'),
    PROBLEM_HEADERS,
    INTERNAL,
    [
      [
        'error',
        'unexpected error',
        { path: '/groups/g', error: { name: 'Error', message: 'boom', stack: 'STACK' } },
      ],
    ],
  ],
];

/** Stacks differ from run to run: the log must carry one, its text is not compared. */
function withoutStacks(logged: Logged[]): Logged[] {
  return JSON.parse(
    JSON.stringify(logged, (key, value) => (key === 'stack' && typeof value === 'string' ? 'STACK' : value)),
  );
}

describe('errors → problems', () => {
  for (const [what, error, headers, body, logged] of CASES) {
    it(`answers ${what} as ${body.type} (${body.status})`, async () => {
      const served = await answer(error);
      expect(served.response.status).toBe(body.status);
      expect(Object.fromEntries(served.response.headers)).toEqual(headers);
      const { type, title, status, detail, ...extensions } = body;
      expect(served.text).toBe(
        JSON.stringify({ type, title, status, detail, instance: '/groups/g', ...extensions }),
      );
      expect(withoutStacks(served.logged)).toEqual(logged);

      const logger = recordingLogger();
      expect(JSON.stringify(problemOf(error, logger, '/groups/g'))).toBe(JSON.stringify(body));
      expect(withoutStacks(logger.logged)).toEqual(logged);
    });
  }

  it('answers a thrown non-error as an internal error, logging what was thrown', () => {
    const logger = recordingLogger();
    expect(problemOf('thrown string', logger, '/groups')).toEqual(INTERNAL);
    expect(logger.logged).toEqual([
      ['error', 'unexpected error', { path: '/groups', error: 'thrown string' }],
    ]);
  });
});

describe('the problem rows', () => {
  it('give Retry-After exactly where the catalogue says 503', () => {
    for (const row of PROBLEM_ROWS)
      expect(row.retryAfterSeconds !== undefined, row.slug).toBe(PROBLEMS[row.slug].status === 503);
  });

  it('cover every problem type an error can cause', () => {
    // Problems the app raises itself, not from an error: validation, routing, configuration, and
    // the HTTP guards (src/http: authentication, grants, limits, deadline) and the Node server.
    const raisedElsewhere = [
      'route-not-found',
      'cluster-not-found',
      'topic-not-found',
      'configuration-error',
      'internal-error',
      'malformed-request',
      'unauthorized',
      'auth-unavailable',
      'forbidden',
      'host-not-allowed',
      'origin-not-allowed',
      'method-not-allowed',
      'not-acceptable',
      'client-timeout',
      'payload-too-large',
      'unsupported-media-type',
      'rate-limited',
      'too-many-streams',
      'event-streams-unsupported',
      'headers-too-large',
      'request-timeout',
    ];
    const mapped = new Set(PROBLEM_ROWS.map((r) => r.slug));
    for (const slug of Object.keys(PROBLEMS))
      if (!raisedElsewhere.includes(slug)) expect(mapped, slug).toContain(slug);
  });

  it('have no row hidden by an earlier one', () => {
    PROBLEM_ROWS.forEach((later, j) => {
      for (const earlier of PROBLEM_ROWS.slice(0, j)) {
        const hidden =
          !earlier.when && (later.error === earlier.error || later.error.prototype instanceof earlier.error);
        expect(hidden, `${later.slug} is hidden by ${earlier.slug}`).toBe(false);
      }
    });
  });

  it('find the row by class, subclasses included, and none for what no row names', () => {
    class SlowCoordinator extends CoordinatorUnavailableError {}
    expect(problemRowFor(new SlowCoordinator('g', 'h:1', describeKafkaError(16), 2))?.slug).toBe(
      'coordinator-unavailable',
    );
    expect(problemRowFor(new HTTPException(413))).toBeUndefined();
    expect(problemRowFor(new TypeError('x'))).toBeUndefined();
  });
});
