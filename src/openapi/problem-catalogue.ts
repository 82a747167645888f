/**
 * The catalogue of the problem types this API answers (RFC 9457): slug, status and title. Apart
 * from their schema (problem-schema.ts), which only the document builds: answering a problem
 * (problem-answers.ts) needs no zod.
 */

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const PROBLEMS = {
  'invalid-input': { status: 400, title: 'Invalid input' },
  'group-not-found': { status: 404, title: 'Group not found' },
  'route-not-found': { status: 404, title: 'No such route' },
  'cluster-not-found': { status: 404, title: 'No such cluster' },
  'topic-not-found': { status: 404, title: 'Topic not found' },
  'group-type-mismatch': { status: 409, title: 'Group is of another type' },
  'internal-error': { status: 500, title: 'Internal error' },
  'configuration-error': { status: 500, title: 'Configuration error' },
  'group-type-unavailable': { status: 501, title: 'Group type not served by this cluster' },
  'share-group-creation-unsupported': {
    status: 501,
    title: 'The brokers cannot create a share group with its start offsets',
  },
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
  'not-acceptable': { status: 406, title: 'No acceptable representation' },
  'client-timeout': { status: 408, title: 'Request not received in time' },
  'payload-too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'too-many-streams': { status: 429, title: 'Too many open event streams' },
  'event-streams-unsupported': { status: 501, title: 'Event streams not served by this deployment' },
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

export type ProblemStatus = (typeof PROBLEMS)[ProblemSlug]['status'];
