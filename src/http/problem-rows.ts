/**
 * Which problem each error becomes, as rows beside the catalogue (problems.ts) that gives each
 * problem type its status and title. A row names an error class, the problem type, the extensions
 * taken from the error, whether the answer carries Retry-After, and what to log. The first row
 * whose class (and condition) matches wins, so a subclass goes above its parent; what no row
 * claims is an internal error that shows nothing of the internals, the log keeps the details.
 */

import { HTTPException } from 'hono/http-exception';
import { DeadlineExceededError } from '../broker/deadline.js';
import {
  BrokerResponseError,
  BrokerTimeoutError,
  BrokerUnavailableError,
  ClusterMismatchError,
  KafkaResponseError,
  UnsupportedApiError,
} from '../broker/errors.js';
import {
  CoordinatorUnavailableError,
  GroupConfigInvalidError,
  GroupNotFoundError,
  GroupTypeMismatchError,
  GroupTypeUnavailableError,
  ShareGroupCreationUnsupportedError,
} from '../groups/errors.js';
import {
  GroupDeletionFailedError,
  GroupNotEmptyError,
  GroupSubscribedToTopicError,
  MemberNotFoundError,
  MemberRemovalUnsupportedError,
  PlanStaleError,
  ResetPlanError,
} from '../groups/writes/errors.js';
import { PROBLEMS, type ProblemSlug } from '../openapi/problem-catalogue.js';
import type { ProblemExtensions } from '../openapi/problem-schema.js';
import { WriteForbiddenError, WritesDisabledError } from './write-guard.js';

/** How long a client should wait before asking again, where the problem is worth a retry (503). */
export const RETRY_AFTER_SECONDS = 1;

export interface ProblemLog {
  level: 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

export interface ProblemRow<E extends Error = Error> {
  /** The error class the row maps (its subclasses too). */
  readonly error: abstract new (
    ...args: never[]
  ) => E;
  /** Narrows the row to some errors of the class. */
  readonly when?: (error: E) => boolean;
  readonly slug: ProblemSlug;
  /** The problem's detail; the error's message when absent. */
  readonly detail?: (error: E) => string;
  readonly extensions?: (error: E) => ProblemExtensions;
  readonly retryAfterSeconds?: number;
  readonly log?: (error: E) => ProblemLog;
}

/** What an error maps to: the problem, with its status from the catalogue. */
export interface MappedProblem {
  slug: ProblemSlug;
  status: number;
  detail: string;
  extensions?: ProblemExtensions;
  retryAfterSeconds?: number;
  log?: ProblemLog;
}

// Each row is typed for its own class; the table holds them as rows of Error, which is sound
// because problemFor calls a row's functions only on an instance of that row's class.
const row = <E extends Error>(r: ProblemRow<E>) => r as unknown as ProblemRow;

export const PROBLEM_ROWS: readonly ProblemRow[] = [
  // Hono's own 400s: a body that is not JSON at all, before any schema sees it.
  row({
    error: HTTPException,
    when: (e) => e.status === 400,
    slug: 'invalid-input',
    detail: (e) => bodyNotJson(e),
    extensions: (e) => ({
      errors: [
        { in: 'body', name: '(body)', expected: 'a JSON document', received: null, message: bodyNotJson(e) },
      ],
    }),
  }),
  row({
    error: GroupNotFoundError,
    slug: 'group-not-found',
    extensions: (e) => ({ groupId: e.groupId, ...(e.kafkaError && { kafkaError: e.kafkaError }) }),
  }),
  row({
    error: GroupTypeMismatchError,
    slug: 'group-type-mismatch',
    extensions: (e) => ({
      groupId: e.groupId,
      expectedType: e.expectedType,
      actualType: e.actualType,
      ...(e.kafkaError && { kafkaError: e.kafkaError }),
    }),
  }),
  row({
    error: GroupTypeUnavailableError,
    slug: 'group-type-unavailable',
    extensions: (e) => ({
      groupId: e.groupId,
      expectedType: e.expectedType,
      ...(e.kafkaError && { kafkaError: e.kafkaError }),
    }),
  }),
  row({
    error: ShareGroupCreationUnsupportedError,
    slug: 'share-group-creation-unsupported',
    extensions: (e) => ({
      groupId: e.groupId,
      kafkaVersion: e.kafkaVersion,
      requiredKafkaVersion: e.requiredKafkaVersion,
    }),
  }),
  row({
    error: CoordinatorUnavailableError,
    slug: 'coordinator-unavailable',
    extensions: (e) => ({
      groupId: e.groupId,
      kafkaError: e.kafkaError,
      ...(e.broker && { broker: e.broker }),
    }),
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  }),
  row({
    error: BrokerUnavailableError,
    slug: 'broker-unavailable',
    extensions: (e) => (e.broker ? { broker: e.broker } : {}),
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  }),
  row({
    error: BrokerTimeoutError,
    slug: 'broker-timeout',
    extensions: (e) => ({ broker: e.broker }),
  }),
  // In a stream's lines: a group not read because the stream's deadline passed before its turn.
  row({ error: DeadlineExceededError, slug: 'request-timeout' }),
  row({
    error: BrokerResponseError,
    slug: 'broker-response-unreadable',
    extensions: (e) => ({ broker: e.broker }),
    log: (e) => ({
      level: 'warn',
      message: 'unreadable broker response',
      fields: { broker: e.broker, api: e.api, version: e.version, detail: e.message },
    }),
  }),
  row({
    error: UnsupportedApiError,
    slug: 'unsupported-broker-api',
    extensions: (e) => ({ broker: e.broker }),
  }),
  row({
    error: ClusterMismatchError,
    slug: 'cluster-mismatch',
    extensions: (e) => ({
      broker: e.broker,
      expectedClusterId: e.expectedClusterId,
      seenClusterId: e.seenClusterId,
    }),
    log: (e) => ({
      level: 'warn',
      message: 'a broker of another cluster behind a configured address',
      fields: { broker: e.broker, expected: e.expectedClusterId, seen: e.seenClusterId },
    }),
  }),
  // Writes.
  row({ error: WritesDisabledError, slug: 'writes-disabled' }),
  row({
    error: WriteForbiddenError,
    slug: 'forbidden',
    extensions: (e) => ({ groupId: e.groupId, action: e.action }),
  }),
  row({
    error: GroupNotEmptyError,
    slug: 'group-not-empty',
    extensions: (e) => ({
      groupId: e.groupId,
      members: [...e.members],
      ...(e.kafkaError && { kafkaError: e.kafkaError }),
    }),
  }),
  row({
    error: GroupDeletionFailedError,
    slug: 'group-deletion-failed',
    extensions: (e) => ({ groupId: e.groupId, broker: e.broker, kafkaError: e.kafkaError }),
    log: (e) => ({
      level: 'warn',
      message: 'Kafka could not delete a group',
      fields: { groupId: e.groupId, broker: e.broker, kafkaError: e.kafkaError },
    }),
  }),
  row({
    error: GroupSubscribedToTopicError,
    slug: 'group-subscribed-to-topic',
    extensions: (e) => ({
      groupId: e.groupId,
      partitions: [...e.partitions],
      ...(e.kafkaError && { kafkaError: e.kafkaError }),
    }),
  }),
  row({
    error: MemberRemovalUnsupportedError,
    slug: 'member-removal-unsupported',
    extensions: (e) => ({ groupId: e.groupId, actualType: e.type }),
  }),
  row({
    error: MemberNotFoundError,
    slug: 'member-not-found',
    extensions: (e) => ({
      groupId: e.groupId,
      instanceId: e.instanceId,
      ...(e.kafkaError && { kafkaError: e.kafkaError }),
    }),
  }),
  row({
    error: PlanStaleError,
    slug: 'plan-stale',
    extensions: (e) => ({ groupId: e.groupId, partitions: [...e.partitions] }),
  }),
  // Kafka refused a config change: each config its message names, with that message.
  row({
    error: GroupConfigInvalidError,
    slug: 'invalid-input',
    extensions: (e) => ({
      groupId: e.groupId,
      kafkaError: e.kafkaError,
      errors: e.configs.map((c) => ({
        in: 'body' as const,
        name: `${c.field}.${c.name}`,
        expected: 'a config and value Kafka accepts for groups',
        received: c.value,
        message: `config '${c.name}': ${e.kafkaError.message ?? e.kafkaError.name}`,
      })),
    }),
  }),
  // A reset that cannot be planned or executed as asked: the field at fault, as validation names it.
  row({
    error: ResetPlanError,
    slug: 'invalid-input',
    extensions: (e) => ({
      errors: [
        {
          in: e.where,
          name: e.field,
          expected: e.expected,
          received: e.received,
          message: `${e.where === 'body' ? 'body field' : `${e.where} parameter`} '${e.field}' expected ${e.expected}: ${e.message}`,
        },
      ],
    }),
  }),
  row({
    error: KafkaResponseError,
    slug: 'kafka-error',
    extensions: (e) => ({ kafkaError: e.kafkaError, ...(e.broker && { broker: e.broker }) }),
  }),
];

function bodyNotJson(error: HTTPException): string {
  return `request body expected JSON, ${error.message.toLowerCase()}`;
}

/** The row that claims `error`, if one does. */
export function problemRowFor(error: unknown): ProblemRow | undefined {
  return PROBLEM_ROWS.find((r) => error instanceof r.error && (!r.when || r.when(error)));
}

/** The problem for `error`, thrown while answering `path`. */
export function problemFor(error: unknown, path: string): MappedProblem {
  const r = problemRowFor(error);
  if (!r || !(error instanceof Error)) {
    return {
      slug: 'internal-error',
      status: PROBLEMS['internal-error'].status,
      detail: 'the request failed unexpectedly; the server log has the details',
      log: {
        level: 'error',
        message: 'unexpected error',
        fields: {
          path,
          error:
            error instanceof Error
              ? { name: error.name, message: error.message, stack: error.stack }
              : String(error),
        },
      },
    };
  }
  return {
    slug: r.slug,
    status: PROBLEMS[r.slug].status,
    detail: r.detail ? r.detail(error) : error.message,
    ...(r.extensions && { extensions: r.extensions(error) }),
    ...(r.retryAfterSeconds !== undefined && { retryAfterSeconds: r.retryAfterSeconds }),
    ...(r.log && { log: r.log(error) }),
  };
}
