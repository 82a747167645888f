/**
 * Caller-given regular expressions (`/metrics?allow=`): RE2 syntax, matched in time linear in the
 * id, as Prometheus matches its own. A backtracking engine would let a 16-character pattern hold
 * the event loop for seconds, and no deadline can interrupt a synchronous match.
 *
 * The engine (some 150 KB) loads on the first pattern a caller sends, not when the process starts:
 * most requests never carry one. Validation runs asynchronously (safeParseAsync), so the transform may wait.
 */

import { z } from '@hono/zod-openapi';
import { expect } from './validation.js';

export const PATTERN_MAX_CHARS = 1000;
export const PATTERN_RULE = `an RE2 regular expression (no backreferences or lookaround) of at most ${PATTERN_MAX_CHARS} characters, matched against the whole group id`;
/** RE2's complaint quotes the pattern: a bounded piece of it is enough to point at the fault. */
const REASON_MAX = 120;

export interface CallerPattern {
  /** Whether the whole of `id` matches. */
  test(id: string): boolean;
}

export type PatternOutcome = { ok: true; pattern: CallerPattern } | { ok: false; reason: string };

/** Compiles `source` anchored at both ends; the reason RE2 refused it otherwise. */
export async function compilePattern(source: string): Promise<PatternOutcome> {
  const { RE2JS } = await import('re2js');
  try {
    const compiled = RE2JS.compile(source);
    return { ok: true, pattern: { test: (id) => compiled.matches(id) } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const reason = message.replace(/^error parsing regexp: /, '');
    return {
      ok: false,
      reason: reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX)}…` : reason,
    };
  }
}

/** A query parameter holding a pattern: a bad one is a 400 naming it and what RE2 refused. */
export function patternParam(name: string, description: string, example: string) {
  return z
    .string()
    .max(PATTERN_MAX_CHARS, expect(PATTERN_RULE))
    .transform(async (source, ctx) => {
      const outcome = await compilePattern(source);
      if (outcome.ok) return outcome.pattern;
      ctx.addIssue({ code: 'custom', message: `${PATTERN_RULE}; RE2 refused it: ${outcome.reason}` });
      return z.NEVER;
    })
    .optional()
    .openapi({ param: { name, in: 'query' }, type: 'string', description, example });
}
