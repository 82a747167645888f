/**
 * Invalid input → a 400 problem that names each bad parameter, what it accepts and what came.
 *
 * Parameter schemas carry "what it accepts" as their error message (see `expect`), so the
 * problem reads the same whichever check failed; "what came" is read from the raw request, since
 * zod does not keep the input.
 */

import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type InvalidParameter, problemResponse } from './problems.js';

const RECEIVED_MAX = 200;

/** Error option for zod checks: the message is the description of what is accepted. */
export const expect = (accepted: string) => ({ error: accepted });

/** A query object that rejects parameters it does not know, naming the known ones. */
export function strictQuery<Shape extends z.ZodRawShape>(shape: Shape) {
  const known = Object.keys(shape);
  const accepted =
    known.length > 0 ? `one of the known parameters: ${known.join(', ')}` : 'no query parameters';
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? accepted : undefined),
  });
}

function shorten(value: string): string {
  const chars = [...value];
  if (chars.length <= RECEIVED_MAX) return value;
  return `${chars.slice(0, RECEIVED_MAX).join('')}… (${chars.length} characters in all)`;
}

function rawValue(c: Context, where: InvalidParameter['in'], name: string): string | null {
  if (where === 'path') return c.req.param(name) ?? null;
  if (where === 'header') return c.req.header(name) ?? null;
  const values = c.req.queries(name);
  if (!values || values.length === 0) return null;
  return values.length === 1 ? (values[0] as string) : values.join(',');
}

const TARGETS: Record<string, InvalidParameter['in']> = { param: 'path', query: 'query', header: 'header' };

export function invalidParameters(error: z.ZodError, target: string, c: Context): InvalidParameter[] {
  const where = TARGETS[target] ?? 'query';
  const out: InvalidParameter[] = [];
  for (const issue of error.issues) {
    const names = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
    for (const name of names) {
      const raw = rawValue(c, where, name);
      const received = raw === null ? null : shorten(raw);
      const label =
        issue.code === 'unrecognized_keys'
          ? `unknown ${where} parameter '${name}'`
          : `${where} parameter '${name}'`;
      out.push({
        in: where,
        name,
        expected: issue.message,
        received,
        message: `${label} expected ${issue.message}, received ${received === null ? 'nothing' : `'${received}'`}`,
      });
    }
  }
  return out;
}

/** The `defaultHook` of every route: passes valid input through, answers 400 otherwise. */
export function validationHook(result: { success: boolean; error?: z.ZodError; target: string }, c: Context) {
  if (result.success || !result.error) return undefined;
  const errors = invalidParameters(result.error, result.target, c);
  return problemResponse(c, 'invalid-input', errors.map((e) => e.message).join('; '), { errors });
}
