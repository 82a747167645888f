/**
 * RFC 9457 problem details: the one shape of every error this API returns, its schema, its
 * catalogue of types, and the examples the OpenAPI document shows for each.
 */

import { problemBody } from './problem-answers.js';
import {
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  type Problem,
  ProblemSchema,
  type ProblemSlug,
  type ProblemStatus,
} from './problem-schema.js';

export { problemBody, problemResponse } from './problem-answers.js';

export type { InvalidParameter, Problem, ProblemExtensions, ProblemSlug } from './problem-schema.js';
export {
  InvalidParameterSchema,
  KafkaErrorSchema,
  PROBLEM_CONTENT_TYPE,
  PROBLEMS,
  ProblemMemberSchema,
  ProblemPartitionSchema,
  ProblemSchema,
} from './problem-schema.js';

const SECURITY_EXAMPLES = {
  'malformed-request': problemBody(
    'malformed-request',
    'the HTTP request cannot be parsed (HPE_INVALID_METHOD)',
  ),
  unauthorized: problemBody(
    'unauthorized',
    'credentials are required: Authorization: Bearer <key or token>',
    {
      instance: '/groups',
    },
  ),
  forbidden: problemBody('forbidden', "key:reporting has no grant with the action 'offsets'", {
    instance: '/groups/orders-eu/offsets',
  }),
  'method-not-allowed': problemBody(
    'method-not-allowed',
    'DELETE is not allowed on /groups/orders-eu; allowed: GET, HEAD',
    {
      instance: '/groups/orders-eu',
    },
  ),
  'not-acceptable': problemBody(
    'not-acceptable',
    "GET /groups answers application/json or application/x-ndjson; the Accept header 'text/html' takes none of them",
    { instance: '/groups', offers: ['application/json', 'application/x-ndjson'] },
  ),
  'client-timeout': problemBody('client-timeout', 'the request was not received completely in time'),
  'payload-too-large': problemBody(
    'payload-too-large',
    'the request body is larger than 4194304 bytes, the most this server accepts',
    { instance: '/groups/describe' },
  ),
  'unsupported-media-type': problemBody(
    'unsupported-media-type',
    "the request body must be application/json, received 'text/plain'",
    { instance: '/groups/describe' },
  ),
  'too-many-streams': problemBody(
    'too-many-streams',
    'key:dashboard has 10 open event streams, the most one caller may have; close one or retry after 5 s',
    { instance: '/groups/orders-eu/events', limit: 10 },
  ),
  'event-streams-unsupported': problemBody(
    'event-streams-unsupported',
    "this Lambda invocation buffers its answer, so it cannot stream events; call the function's streamHandler through a function URL with InvokeMode RESPONSE_STREAM",
    { instance: '/groups/orders-eu/events' },
  ),
  'rate-limited': problemBody('rate-limited', 'too many requests from key:reporting; retry after 2 s', {
    instance: '/groups',
  }),
  'auth-unavailable': problemBody(
    'auth-unavailable',
    "the credentials cannot be checked now: the issuer's key set could not be read",
    { instance: '/groups' },
  ),
  'headers-too-large': problemBody(
    'headers-too-large',
    'the request line and headers are larger than 262144 bytes, the most this server reads',
  ),
  'cluster-mismatch': problemBody(
    'cluster-mismatch',
    "kafka-1.internal:9092 is a broker of cluster 'q1Sh-9_nRNyCQ5DrnjzAoA', not of 'MkU3OEVBNTcwNTJENDM2Qg', the cluster configured or first seen at this address",
    {
      instance: '/groups/orders-eu',
      broker: 'kafka-1.internal:9092',
      expectedClusterId: 'MkU3OEVBNTcwNTJENDM2Qg',
      seenClusterId: 'q1Sh-9_nRNyCQ5DrnjzAoA',
    },
  ),
  'host-not-allowed': problemBody(
    'host-not-allowed',
    "this server does not answer for the host 'evil.example.com:8080': with AUTH=none and no ALLOWED_HOSTS only localhost, 127.0.0.1 and [::1] are served; set ALLOWED_HOSTS to the names callers use",
    { instance: '/groups', host: 'evil.example.com:8080' },
  ),
  'origin-not-allowed': problemBody(
    'origin-not-allowed',
    "requests to /mcp from the origin 'http://evil.example.com' are refused: it is none of the hosts this server answers for (ALLOWED_HOSTS) nor of CORS_ORIGINS",
    { instance: '/mcp', origin: 'http://evil.example.com' },
  ),
  'request-timeout': problemBody(
    'request-timeout',
    'the request did not complete within its 30000 ms deadline',
    {
      instance: '/groups',
    },
  ),
} satisfies Record<string, Problem>;

const PLUGIN_FAILED = 'Topology description plugin failed to delete the topology.';
export const EXAMPLES: Record<ProblemSlug, Problem> = {
  'invalid-input': problemBody(
    'invalid-input',
    "query parameter 'limit' expected an integer from 1 to 1000, received 'abc'",
    {
      instance: '/groups',
      errors: [
        {
          in: 'query',
          name: 'limit',
          expected: 'an integer from 1 to 1000',
          received: 'abc',
          message: "query parameter 'limit' expected an integer from 1 to 1000, received 'abc'",
        },
      ],
    },
  ),
  'group-not-found': problemBody('group-not-found', "group 'orders-eu' does not exist", {
    instance: '/groups/orders-eu',
    groupId: 'orders-eu',
    kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'Group orders-eu not found.' },
  }),
  'topic-not-found': problemBody('topic-not-found', "topic 'orders' does not exist", {
    instance: '/topics/orders/groups',
  }),
  'cluster-not-found': problemBody(
    'cluster-not-found',
    "no cluster 'us-east' here; the clusters you may use: default, eu-west",
    { instance: '/clusters/us-east/groups', clusters: ['default', 'eu-west'] },
  ),
  'route-not-found': problemBody(
    'route-not-found',
    'GET /group is not a route of this API; see /openapi.json',
    {
      instance: '/group',
    },
  ),
  'group-type-mismatch': problemBody(
    'group-type-mismatch',
    "group 'orders-eu' is a consumer group, not a share group",
    {
      instance: '/groups/orders-eu',
      groupId: 'orders-eu',
      expectedType: 'share',
      actualType: 'consumer',
      kafkaError: { code: 69, name: 'GROUP_ID_NOT_FOUND', message: 'Group orders-eu is not a share group.' },
    },
  ),
  'group-type-unavailable': problemBody(
    'group-type-unavailable',
    "the cluster does not serve share groups, so group 'orders-eu' cannot be described as one: 10.0.0.12:9092 does not support ShareGroupDescribe",
    { instance: '/groups/orders-eu', groupId: 'orders-eu', expectedType: 'share' },
  ),
  'share-group-creation-unsupported': problemBody(
    'share-group-creation-unsupported',
    "share group 'orders-eu' does not exist and cannot be created with its start offsets here: that needs Kafka 4.2 or later (KAFKA-19662), and the brokers are Kafka 4.1 (AlterShareGroupOffsets v0, DescribeShareGroupOffsets v0)",
    {
      instance: '/groups/orders-eu/offsets/reset',
      groupId: 'orders-eu',
      kafkaVersion: '4.1',
      requiredKafkaVersion: '4.2',
    },
  ),
  'internal-error': problemBody(
    'internal-error',
    'the request failed unexpectedly; the server log has the details',
    {
      instance: '/groups/orders-eu',
    },
  ),
  'configuration-error': problemBody(
    'configuration-error',
    "the service's configuration is invalid: KAFKA_SSL_CA: custom CAs are not supported by Cloudflare Workers' TLS",
    { instance: '/groups' },
  ),
  'broker-response-unreadable': problemBody(
    'broker-response-unreadable',
    '10.0.0.12:9092 answered DescribeGroups v5 with a response that cannot be read: 3 bytes left over',
    { instance: '/groups/orders-eu', broker: '10.0.0.12:9092' },
  ),
  'unsupported-broker-api': problemBody(
    'unsupported-broker-api',
    '10.0.0.12:9092 does not support ListGroups',
    {
      instance: '/groups',
      broker: '10.0.0.12:9092',
    },
  ),
  'kafka-error': problemBody('kafka-error', 'DescribeGroups failed with GROUP_AUTHORIZATION_FAILED (30)', {
    instance: '/groups/orders-eu',
    broker: '10.0.0.12:9092',
    kafkaError: { code: 30, name: 'GROUP_AUTHORIZATION_FAILED', message: null },
  }),
  'broker-unavailable': problemBody(
    'broker-unavailable',
    'no bootstrap broker could be reached: cannot connect to 10.0.0.12:9092: Connection error: connect ECONNREFUSED',
    { instance: '/groups' },
  ),
  'coordinator-unavailable': problemBody(
    'coordinator-unavailable',
    "the coordinator of group 'orders-eu' is not available after 8 attempts (COORDINATOR_LOAD_IN_PROGRESS)",
    {
      instance: '/groups/orders-eu',
      groupId: 'orders-eu',
      broker: '10.0.0.12:9092',
      kafkaError: { code: 14, name: 'COORDINATOR_LOAD_IN_PROGRESS', message: null },
    },
  ),
  'broker-timeout': problemBody(
    'broker-timeout',
    '10.0.0.12:9092 did not answer DescribeGroups within 10000 ms',
    {
      instance: '/groups/orders-eu',
      broker: '10.0.0.12:9092',
    },
  ),
  ...SECURITY_EXAMPLES,
  'writes-disabled': problemBody(
    'writes-disabled',
    'writes are off: this server runs without authentication (AUTH=none) and WRITES is not enabled',
    { instance: '/groups/orders-eu', groupId: 'orders-eu' },
  ),
  'group-deletion-failed': problemBody(
    'group-deletion-failed',
    `Kafka could not delete group 'orders-eu' (GROUP_DELETION_FAILED: ${PLUGIN_FAILED}); the group is still there, try again later`,
    {
      instance: '/groups/orders-eu',
      groupId: 'orders-eu',
      broker: '10.0.0.12:9092',
      kafkaError: { code: 134, name: 'GROUP_DELETION_FAILED', message: PLUGIN_FAILED },
    },
  ),
  'group-not-empty': problemBody(
    'group-not-empty',
    "group 'orders-eu' has 1 member (orders-eu-1): stop them first",
    {
      instance: '/groups/orders-eu',
      groupId: 'orders-eu',
      members: [
        {
          memberId: 'orders-eu-1-5f1d0c3e-9a43-4f8e-b1a2-3c7d2e0f4b6a',
          instanceId: 'orders-eu-1',
          clientId: 'orders-service',
          clientHost: '/10.0.3.7',
        },
      ],
      kafkaError: { code: 68, name: 'NON_EMPTY_GROUP', message: null },
    },
  ),
  'group-subscribed-to-topic': problemBody(
    'group-subscribed-to-topic',
    "group 'orders-eu' still subscribes to 'orders': its offsets there cannot be deleted while it does",
    {
      instance: '/groups/orders-eu/offsets',
      groupId: 'orders-eu',
      partitions: [
        { topic: 'orders', partition: 0 },
        { topic: 'orders', partition: 1 },
      ],
      kafkaError: { code: 86, name: 'GROUP_SUBSCRIBED_TO_TOPIC', message: null },
    },
  ),
  'member-removal-unsupported': problemBody(
    'member-removal-unsupported',
    "group 'orders-eu' is a share group: Kafka removes members only from classic and consumer groups (LeaveGroup); a share member leaves when its client stops",
    { instance: '/groups/orders-eu/members/orders-eu-1', groupId: 'orders-eu', actualType: 'share' },
  ),
  'member-not-found': problemBody(
    'member-not-found',
    "group 'orders-eu' has no member with group.instance.id 'orders-eu-9'",
    {
      instance: '/groups/orders-eu/members/orders-eu-9',
      groupId: 'orders-eu',
      instanceId: 'orders-eu-9',
      kafkaError: { code: 25, name: 'UNKNOWN_MEMBER_ID', message: null },
    },
  ),
  'plan-stale': problemBody(
    'plan-stale',
    'the group changed since the plan was made: orders:1 offset 1200 → 1350; plan again',
    {
      instance: '/groups/orders-eu/offsets/reset',
      groupId: 'orders-eu',
      partitions: [{ topic: 'orders', partition: 1 }],
    },
  ),
};

/** Headers that come with the access-control and limit problems. */
const PROBLEM_HEADERS: Partial<Record<number, Record<string, unknown>>> = {
  401: {
    'WWW-Authenticate': {
      description: 'Bearer challenge (RFC 6750), with error="invalid_token" when credentials were refused',
      schema: { type: 'string' },
    },
  },
  405: { Allow: { description: 'The methods the path accepts', schema: { type: 'string' } } },
  429: {
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
  },
};

/**
 * The `responses` entries of a route for the problems it can return, each documented with an
 * example per problem type of that status.
 */
export function problemResponses(...slugs: ProblemSlug[]) {
  const byStatus = new Map<ProblemStatus, ProblemSlug[]>();
  for (const slug of slugs) {
    const status = PROBLEMS[slug].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), slug]);
  }
  const responses: Record<
    string,
    { description: string; content: Record<string, unknown>; headers?: Record<string, unknown> }
  > = {};
  for (const [status, list] of byStatus) {
    responses[String(status)] = {
      description: list.map((slug) => PROBLEMS[slug].title).join('; '),
      ...(status === 503 && {
        headers: {
          'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
        },
      }),
      ...(PROBLEM_HEADERS[status] && { headers: PROBLEM_HEADERS[status] }),
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema: ProblemSchema,
          examples: Object.fromEntries(
            list.map((slug) => [slug, { summary: PROBLEMS[slug].title, value: EXAMPLES[slug] }]),
          ),
        },
      },
    };
  }
  return responses;
}

/** Problems of every route about one group: its id, its type, its coordinator. */
export const GROUP_PROBLEMS: ProblemSlug[] = [
  'invalid-input',
  'group-not-found',
  'group-type-mismatch',
  'group-type-unavailable',
  'coordinator-unavailable',
];

/** Problems every route that talks to Kafka can return. */
export const BROKER_PROBLEMS: ProblemSlug[] = [
  'internal-error',
  'configuration-error',
  'broker-response-unreadable',
  'unsupported-broker-api',
  'cluster-mismatch',
  'kafka-error',
  'broker-unavailable',
  'broker-timeout',
];
