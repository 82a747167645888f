/**
 * Errors → problem+json, by the rows of http/problem-rows.ts. Anything unforeseen becomes a 500
 * problem with no internals in it; the log keeps the details.
 */

import type { Context } from 'hono';
import { type MappedProblem, problemFor } from '../http/problem-rows.js';
import { RouteProblem } from '../http/route-problem.js';
import { writeSentOf } from '../http/write-sent.js';
import type { Logger } from '../logger.js';
import { problemBody, problemResponse } from '../openapi/problem-answers.js';
import type { Problem } from '../openapi/problem-schema.js';

function mapped(error: unknown, logger: Logger, path: string): MappedProblem {
  const problem = problemFor(error, path);
  if (problem.log) logger[problem.log.level](problem.log.message, problem.log.fields);
  return problem;
}

/** The problem for one item of a batch answer (no `instance`: the item is not a request). */
export function problemOf(error: unknown, logger: Logger, path: string): Problem {
  const { slug, detail, extensions } = mapped(error, logger, path);
  return problemBody(slug, detail, extensions);
}

export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  const sent = writeSentOf(c);
  const written = sent === undefined ? {} : { sent };
  if (error instanceof RouteProblem) {
    return problemResponse(c, error.slug, error.message, { ...error.extensions, ...written }, error.headers);
  }
  const { slug, detail, extensions, retryAfterSeconds } = mapped(error, logger, c.req.path);
  return problemResponse(
    c,
    slug,
    detail,
    { ...extensions, ...written },
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
  );
}
