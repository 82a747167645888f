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

export function shorten(value: string): string {
  const chars = [...value];
  if (chars.length <= RECEIVED_MAX) return value;
  return `${chars.slice(0, RECEIVED_MAX).join('')}… (${chars.length} characters in all)`;
}

function show(value: unknown): string | null {
  if (value === undefined) return null;
  return shorten(typeof value === 'string' ? value : JSON.stringify(value));
}

function rawValue(
  c: Context,
  where: InvalidParameter['in'],
  name: string,
  body: unknown,
  path: PropertyKey[],
): string | null {
  if (where === 'path') return show(c.req.param(name));
  if (where === 'header') return show(c.req.header(name));
  if (where === 'body') {
    let value: unknown = body;
    for (const key of path)
      value =
        value != null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    return show(value);
  }
  const values = c.req.queries(name);
  if (!values || values.length === 0) return null;
  return show(values.join(','));
}

const TARGETS: Record<string, InvalidParameter['in']> = {
  param: 'path',
  query: 'query',
  header: 'header',
  json: 'body',
};

function bodyPath(path: PropertyKey[]): string {
  return (
    path.reduce<string>(
      (out, key) =>
        typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key),
      '',
    ) || '(body)'
  );
}

export async function invalidParameters(
  error: z.ZodError,
  target: string,
  c: Context,
): Promise<InvalidParameter[]> {
  const where = TARGETS[target] ?? 'query';
  const body = where === 'body' ? await c.req.json().catch(() => undefined) : undefined;
  const out: InvalidParameter[] = [];
  for (const issue of error.issues) {
    const unknownKeys = issue.code === 'unrecognized_keys';
    const paths = unknownKeys ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      const name = where === 'body' ? bodyPath(path) : String(path[0] ?? '');
      const received = rawValue(c, where, name, body, path);
      const noun = where === 'body' ? 'body field' : `${where} parameter`;
      const label = unknownKeys ? `unknown ${noun} '${name}'` : `${noun} '${name}'`;
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
export async function validationHook(
  result: { success: boolean; error?: z.ZodError; target: string },
  c: Context,
) {
  if (result.success || !result.error) return undefined;
  const errors = await invalidParameters(result.error, result.target, c);
  return problemResponse(c, 'invalid-input', errors.map((e) => e.message).join('; '), { errors });
}
