/**
 * Problem answers (RFC 9457): what every route, guard and runtime sends. Apart from the problems'
 * schema and examples (problems.ts), so that answering one builds no zod schema.
 */

import type { Context } from 'hono';
import { PROBLEM_CONTENT_TYPE, PROBLEMS, type ProblemSlug } from './problem-catalogue.js';
import type { Problem, ProblemExtensions } from './problem-schema.js';

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
