/**
 * RFC 9457 problem details: the one shape of every error this API returns, its schema, its
 * catalogue of types, and the examples the OpenAPI document shows for each.
 */

import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { GROUP_TYPES } from '../vocabulary.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const KafkaErrorSchema = z
  .object({
    code: z.number().int().openapi({ description: "Kafka's error code", format: 'int32', example: 69 }),
    name: z.string().openapi({ description: "Kafka's name for the code", example: 'GROUP_ID_NOT_FOUND' }),
    message: z.string().nullable().openapi({ description: "Kafka's own message, where it sent one" }),
  })
  .openapi('KafkaError');

export const InvalidParameterSchema = z
  .object({
    in: z.enum(['path', 'query', 'header', 'body']),
    name: z.string().openapi({
      example: 'groupId',
      description: 'The parameter, or the path of the body field (groupIds[2])',
    }),
    expected: z.string().openapi({ description: 'What the parameter accepts' }),
    received: z
      .string()
      .nullable()
      .openapi({ description: 'What came (shortened when long), null when absent' }),
    message: z.string(),
  })
  .openapi('InvalidParameter');

export const ProblemMemberSchema = z
  .object({
    memberId: z.string(),
    instanceId: z.string().nullable().openapi({ description: 'group.instance.id of a static member' }),
    clientId: z.string(),
    clientHost: z.string(),
  })
  .openapi('ProblemMember');

export const ProblemPartitionSchema = z
  .object({
    topic: z.string(),
    partition: z.number().int().openapi({ format: 'int32' }),
  })
  .openapi('ProblemPartition');

export const PROBLEMS = {
  'invalid-input': { status: 400, title: 'Invalid input' },
  'group-not-found': { status: 404, title: 'Group not found' },
  'route-not-found': { status: 404, title: 'No such route' },
  'cluster-not-found': { status: 404, title: 'No such cluster' },
  'group-type-mismatch': { status: 409, title: 'Group is of another type' },
  'internal-error': { status: 500, title: 'Internal error' },
  'configuration-error': { status: 500, title: 'Configuration error' },
  'group-type-unavailable': { status: 501, title: 'Group type not served by this cluster' },
  'broker-response-unreadable': { status: 502, title: 'Broker response cannot be read' },
  'unsupported-broker-api': { status: 502, title: 'Broker does not support a needed RPC version' },
  'kafka-error': { status: 502, title: 'Kafka returned an error' },
  'broker-unavailable': { status: 503, title: 'Broker unavailable' },
  'coordinator-unavailable': { status: 503, title: 'Group coordinator unavailable' },
  'broker-timeout': { status: 504, title: 'Broker did not answer in time' },
  // Access control and request limits.
  'malformed-request': { status: 400, title: 'Malformed HTTP request' },
  unauthorized: { status: 401, title: 'Credentials missing or refused' },
  forbidden: { status: 403, title: 'Not granted' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'client-timeout': { status: 408, title: 'Request not received in time' },
  'payload-too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'headers-too-large': { status: 431, title: 'Request URI or headers too large' },
  'request-timeout': { status: 504, title: 'Request took longer than its deadline' },
  'auth-unavailable': { status: 503, title: 'Credentials cannot be checked now' },
  // Writes.
  'writes-disabled': { status: 403, title: 'Writes are disabled' },
  'group-not-empty': { status: 409, title: 'Group has members' },
  'group-subscribed-to-topic': { status: 409, title: 'Group still subscribes to the topic' },
  'member-removal-unsupported': { status: 409, title: 'Members of this group type cannot be removed' },
  'member-not-found': { status: 404, title: 'Member not found' },
  'plan-stale': { status: 409, title: 'The group changed since the plan' },
  'group-deletion-failed': { status: 502, title: 'Kafka could not delete the group' },
} as const;

export type ProblemSlug = keyof typeof PROBLEMS;
const PROBLEM_TYPES = Object.keys(PROBLEMS).map((slug) => `/problems/${slug}`) as [
  `/problems/${ProblemSlug}`,
  ...`/problems/${ProblemSlug}`[],
];

export const ProblemSchema = z
  .object({
    type: z.enum(PROBLEM_TYPES).openapi({
      description: 'Stable URI reference naming the kind of problem',
      example: '/problems/group-not-found',
    }),
    title: z.string(),
    status: z.number().int().openapi({ format: 'int32' }),
    detail: z.string(),
    instance: z.string().optional().openapi({ description: 'The request path' }),
    groupId: z.string().optional(),
    broker: z.string().optional().openapi({ description: 'host:port of the broker concerned' }),
    kafkaError: KafkaErrorSchema.optional(),
    errors: z.array(InvalidParameterSchema).optional(),
    expectedType: z
      .enum(GROUP_TYPES)
      .optional()
      .openapi({ description: 'The group type the request asked for' }),
    actualType: z.enum(GROUP_TYPES).optional().openapi({ description: 'The type the group really has' }),
    action: z
      .string()
      .optional()
      .openapi({ description: 'The grant action a refused write needs', example: 'delete' }),
    members: z
      .array(ProblemMemberSchema)
      .optional()
      .openapi({ description: 'The members that keep the group from being written (group-not-empty)' }),
    partitions: z.array(ProblemPartitionSchema).optional().openapi({
      description:
        'The partitions the problem is about (group-subscribed-to-topic; plan-stale: those whose offset moved)',
    }),
    instanceId: z.string().optional().openapi({ description: 'The group.instance.id the request named' }),
    clusters: z
      .array(z.string())
      .optional()
      .openapi({ description: 'cluster-not-found: the aliases the caller may use' }),
  })
  .openapi('Problem', { description: 'RFC 9457 problem details' });

export type Problem = z.infer<typeof ProblemSchema>;
export type InvalidParameter = z.infer<typeof InvalidParameterSchema>;

type ProblemStatus = (typeof PROBLEMS)[ProblemSlug]['status'];

export type ProblemExtensions = Omit<Problem, 'type' | 'title' | 'status' | 'detail'>;

export function problemBody(slug: ProblemSlug, detail: string, extensions: ProblemExtensions = {}): Problem {
  const { status, title } = PROBLEMS[slug];
  return { type: `/problems/${slug}` as const, title, status, detail, ...extensions };
}

/** A problem+json response; `headers` carries Retry-After for 503. */
export function problemResponse(
  c: Context,
  slug: ProblemSlug,
  detail: string,
  extensions: ProblemExtensions = {},
  headers: Record<string, string> = {},
): Response {
  const body = problemBody(slug, detail, { instance: c.req.path, ...extensions });
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...headers },
  });
}

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

/** Problems every route that talks to Kafka can return. */
export const BROKER_PROBLEMS: ProblemSlug[] = [
  'internal-error',
  'configuration-error',
  'broker-response-unreadable',
  'unsupported-broker-api',
  'kafka-error',
  'broker-unavailable',
  'broker-timeout',
];
