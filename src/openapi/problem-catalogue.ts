/**
 * The catalogue of the problem types this API answers (RFC 9457): slug, status and title. Apart
 * from their schema (problem-schema.ts), which only the document builds: answering a problem
 * (problem-answers.ts) needs no zod.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** A type's status and title; a call, not an object literal, so the Worker's bundle stays small. */
const problem = <S extends number, T extends string>(status: S, title: T) => ({ status, title });

export const PROBLEMS = {
  'invalid-input': problem(400, 'Invalid input'),
  'group-not-found': problem(404, 'Group not found'),
  'route-not-found': problem(404, 'No such route'),
  'cluster-not-found': problem(404, 'No such cluster'),
  'topic-not-found': problem(404, 'Topic not found'),
  'group-type-mismatch': problem(409, 'Group is of another type'),
  'internal-error': problem(500, 'Internal error'),
  'configuration-error': problem(500, 'Configuration error'),
  'group-type-unavailable': problem(501, 'Group type not served by this cluster'),
  'share-group-creation-unsupported': problem(
    501,
    'The brokers cannot create a share group with its start offsets',
  ),
  'broker-response-unreadable': problem(502, 'Broker response cannot be read'),
  'unsupported-broker-api': problem(502, 'Broker does not support a needed RPC version'),
  'cluster-mismatch': problem(502, 'Broker of another cluster'),
  'kafka-error': problem(502, 'Kafka returned an error'),
  'broker-unavailable': problem(503, 'Broker unavailable'),
  'coordinator-unavailable': problem(503, 'Group coordinator unavailable'),
  'broker-timeout': problem(504, 'Broker did not answer in time'),
  // Access control and request limits.
  'malformed-request': problem(400, 'Malformed HTTP request'),
  unauthorized: problem(401, 'Credentials missing or refused'),
  forbidden: problem(403, 'Not granted'),
  'method-not-allowed': problem(405, 'Method not allowed'),
  'not-acceptable': problem(406, 'No acceptable representation'),
  'client-timeout': problem(408, 'Request not received in time'),
  'payload-too-large': problem(413, 'Request body too large'),
  'unsupported-media-type': problem(415, 'Unsupported media type'),
  'rate-limited': problem(429, 'Too many requests'),
  'too-many-streams': problem(429, 'Too many open event streams'),
  'event-streams-unsupported': problem(501, 'Event streams not served by this deployment'),
  'headers-too-large': problem(431, 'Request URI or headers too large'),
  'host-not-allowed': problem(421, 'Host not served'),
  'origin-not-allowed': problem(403, 'Origin not allowed'),
  'request-timeout': problem(504, 'Request took longer than its deadline'),
  'auth-unavailable': problem(503, 'Credentials cannot be checked now'),
  // Writes.
  'writes-disabled': problem(403, 'Writes are disabled'),
  'group-not-empty': problem(409, 'Group has members'),
  'group-subscribed-to-topic': problem(409, 'Group still subscribes to the topic'),
  'member-removal-unsupported': problem(409, 'Members of this group type cannot be removed'),
  'member-not-found': problem(404, 'Member not found'),
  'plan-stale': problem(409, 'The group changed since the plan'),
  'group-deletion-failed': problem(502, 'Kafka could not delete the group'),
} as const;

export type ProblemSlug = keyof typeof PROBLEMS;

export type ProblemStatus = (typeof PROBLEMS)[ProblemSlug]['status'];
