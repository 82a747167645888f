/**
 * Invalid input → a 400 problem that names each bad parameter, what it accepts and what came.
 *
 * Parameter schemas carry "what it accepts" as their error message (see `expect`), so the
 * problem reads the same whichever check failed; "what came" is read from the raw request, since
 * zod does not keep the input.
 */

import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type DuplicatePath, duplicateNames } from './duplicate-names.js';
import { problemResponse } from './problem-answers.js';
import type { InvalidParameter } from './problem-schema.js';

const RECEIVED_MAX = 200;
/** Problems named in one answer; the rest are counted. The answer never grows with the input. */
export const MAX_PROBLEMS = 20;
/** How deep an echoed body value is shown; deeper levels are elided. */
const RECEIVED_DEPTH = 3;

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

/**
 * JSON of `value` cut at RECEIVED_DEPTH levels and about RECEIVED_MAX characters: whatever the
 * size or the depth of what came (a body nested 200,000 deep), the echo costs no more than that.
 */
function preview(value: unknown, depth: number, budget: { left: number }): string {
  if (budget.left <= 0) return '…';
  let out: string;
  if (value === null || typeof value !== 'object') {
    out = JSON.stringify(value) ?? 'null';
    if (out.length > budget.left) out = `${out.slice(0, budget.left)}…`;
  } else if (depth >= RECEIVED_DEPTH) {
    out = Array.isArray(value) ? '[…]' : '{…}';
  } else {
    const parts: string[] = [];
    const entries: Array<[string | undefined, unknown]> = Array.isArray(value)
      ? value.map((v) => [undefined, v])
      : Object.entries(value);
    budget.left -= 2;
    for (const [key, item] of entries) {
      if (budget.left <= 0) {
        parts.push('…');
        break;
      }
      const label = key === undefined ? '' : `${preview(key, depth + 1, budget)}:`;
      parts.push(label + preview(item, depth + 1, budget));
    }
    out = Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
    return out;
  }
  budget.left -= out.length;
  return out;
}

function show(value: unknown): string | null {
  if (value === undefined) return null;
  if (typeof value === 'string') return shorten(value);
  return shorten(preview(value, 0, { left: RECEIVED_MAX }));
}

/** zod's own unrecognized-keys message lists every key: each problem would repeat the input. */
function unknownKeyExpectation(message: string): string {
  return message.startsWith('Unrecognized key')
    ? 'no such field: only the documented fields are accepted'
    : message;
}

type Issue = z.ZodError['issues'][number];

const article = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);
const SIZE_UNITS: Record<string, string> = { string: ' characters', array: ' items', set: ' items' };
const unitOf = (origin: string) => (Object.hasOwn(SIZE_UNITS, origin) ? SIZE_UNITS[origin] : '');

/**
 * What an issue says is accepted. A schema's own message (`expect`) is kept as it is; zod's
 * defaults ("Invalid input: expected string, received array") are said in the problem's words,
 * since `received` already says what came. `repeated`: a query parameter sent more than once.
 */
function expectation(issue: Issue, repeated: boolean): string {
  if (!/^(Invalid|Too big|Too small)\b/.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      if (repeated && issue.expected !== 'array') return 'one value (the parameter is not repeated)';
      const named: Record<string, string> = { record: 'object', int: 'integer' };
      return article(
        Object.hasOwn(named, issue.expected) ? (named[issue.expected] as string) : issue.expected,
      );
    }
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const branches = issue.errors.map((branch) =>
        branch[0] ? expectation(branch[0], repeated) : 'anything',
      );
      return branches.length > 0 ? [...new Set(branches)].join(' or ') : issue.message;
    }
    case 'too_big':
      return `at most ${issue.maximum}${unitOf(issue.origin)}`;
    case 'too_small':
      return `at least ${issue.minimum}${unitOf(issue.origin)}`;
    default:
      return issue.message;
  }
}

/** The value at `path` in a parsed body: own properties only. */
function walk(body: unknown, path: PropertyKey[]): unknown {
  let value: unknown = body;
  for (const key of path)
    value =
      value != null && typeof value === 'object' && Object.hasOwn(value, key)
        ? (value as Record<PropertyKey, unknown>)[key]
        : undefined;
  return value;
}

/**
 * Parameters that carry tokens (lag snapshots, reset plans, page cursors): a problem says what
 * came (how many, how long), never the token itself, which may be another caller's or a secret.
 */
const TOKEN_PARAMETERS = new Set(['since', 'planToken', 'if-match', 'cursor']);

export function describeTokens(values: readonly unknown[]): string {
  const lengths = values.map((v) => (typeof v === 'string' ? `${[...v].length}` : typeof v));
  return values.length === 1
    ? `a token of ${lengths[0]} characters (not repeated)`
    : `${values.length} tokens of ${lengths.slice(0, 5).join(', ')}${values.length > 5 ? ', …' : ''} characters (not repeated)`;
}

function rawValue(
  c: Context,
  where: InvalidParameter['in'],
  name: string,
  body: unknown,
  path: PropertyKey[],
): string | null {
  if (TOKEN_PARAMETERS.has(where === 'header' ? name.toLowerCase() : String(path.at(-1) ?? name))) {
    const value = where === 'body' ? walk(body, path) : where === 'header' ? c.req.header(name) : undefined;
    const values = where === 'query' ? (c.req.queries(name) ?? []) : value === undefined ? [] : [value];
    return values.length === 0 ? null : describeTokens(values);
  }
  if (where === 'path') return show(c.req.param(name));
  if (where === 'header') return show(c.req.header(name));
  if (where === 'body') {
    return show(walk(body, path));
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

export interface InvalidParameters {
  /** The first MAX_PROBLEMS problems. */
  errors: InvalidParameter[];
  /** All the problems found, those named included. */
  total: number;
}

export async function invalidParameters(
  error: z.ZodError,
  target: string,
  c: Context,
): Promise<InvalidParameters> {
  const where = (Object.hasOwn(TARGETS, target) && TARGETS[target]) || 'query';
  const body = where === 'body' ? await c.req.json().catch(() => undefined) : undefined;
  const out: InvalidParameter[] = [];
  let total = 0;
  for (const issue of error.issues) {
    const unknownKeys = issue.code === 'unrecognized_keys';
    const count = unknownKeys ? issue.keys.length : 1;
    total += count;
    const room = MAX_PROBLEMS - out.length;
    if (room <= 0) continue;
    const paths = unknownKeys ? issue.keys.slice(0, room).map((k) => [...issue.path, k]) : [issue.path];
    for (const path of paths) {
      const fullName = where === 'body' ? bodyPath(path) : String(path[0] ?? '');
      const repeated = where === 'query' && (c.req.queries(fullName)?.length ?? 0) > 1;
      const expected = unknownKeys ? unknownKeyExpectation(issue.message) : expectation(issue, repeated);
      const name = shorten(fullName);
      // Two checks of one value (an integer, and at most 2^53 - 1) say the same words: once is enough.
      if (out.some((e) => e.in === where && e.name === name && e.expected === expected)) {
        total--;
        continue;
      }
      const received = rawValue(c, where, fullName, body, path);
      const noun = where === 'body' ? 'body field' : `${where} parameter`;
      const label = unknownKeys ? `unknown ${noun} '${name}'` : `${noun} '${name}'`;
      out.push({
        in: where,
        name,
        expected,
        received,
        message: `${label} expected ${expected}, received ${received === null ? 'nothing' : `'${received}'`}`,
      });
    }
  }
  return { errors: out, total };
}

/**
 * Keys that name the machinery of every JavaScript object. A schema's record drops `__proto__`
 * without a word (assigning it sets a prototype), so a change sent with it would be applied in
 * part; none is a field, a config or an argument of this API, so each is refused wherever it is.
 */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const RESERVED_EXPECTED = 'a key other than __proto__, constructor and prototype';
/** JSON's "\ud800": a lone UTF-16 surrogate has no UTF-8 spelling, so no Kafka string can hold it. */
const LONE_SURROGATE = /\p{Cs}/u;
const UNICODE_EXPECTED = 'text with no lone UTF-16 surrogate (no UTF-8 spelling)';

interface Visit {
  value: unknown;
  key: PropertyKey | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.unshift(v.key);
  return path;
}

/**
 * Every reserved key, and every key or string with a lone surrogate, in a parsed body (the first
 * MAX_PROBLEMS named), walked without recursion:
 * a body nested as deep as the size cap allows costs one pass and no stack.
 */
export function reservedKeys(body: unknown): { errors: InvalidParameter[]; total: number } {
  const errors: InvalidParameter[] = [];
  let total = 0;
  const stack: Visit[] = [{ value: body, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, key } = visit;
    const reserved = typeof key === 'string' && RESERVED_KEYS.has(key);
    if (reserved || unpaired(key) || unpaired(value)) {
      total++;
      if (errors.length >= MAX_PROBLEMS) continue;
      const name = shorten(bodyPath(pathOf(visit)));
      const expected = reserved ? RESERVED_EXPECTED : UNICODE_EXPECTED;
      errors.push({
        in: 'body',
        name,
        expected,
        received: reserved ? key : shorten(JSON.stringify(unpaired(key) ? key : value)),
        message: reserved
          ? `body field '${name}' is not allowed: the key '${key}' is reserved, expected ${expected}`
          : `body field '${name}' expected ${expected}`,
      });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    // Pushed last to first: popped, and so named, in the body's own order. Only what can hold a
    // reserved key is visited: a body of a million numbers costs no visit per number.
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const v: unknown = value[i];
        if ((v !== null && typeof v === 'object') || unpaired(v))
          stack.push({ value: v, key: i, parent: visit });
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string;
      const v: unknown = (value as Record<string, unknown>)[k];
      if (RESERVED_KEYS.has(k) || (v !== null && typeof v === 'object') || unpaired(k) || unpaired(v))
        stack.push({ value: v, key: k, parent: visit });
    }
  }
  return { errors, total };
}

const UNIQUE_EXPECTED = 'each name once in an object (RFC 7493: JSON.parse would keep the last)';

/** The names a body repeats (duplicate-names.ts), as problems naming each one's path. */
function repeatedNames(text: string): { errors: InvalidParameter[]; total: number } {
  const { paths, total } = duplicateNames(text, MAX_PROBLEMS);
  // One problem a name, however often it is repeated.
  const times = new Map<string, { path: DuplicatePath; count: number }>();
  for (const path of paths) {
    const key = bodyPath(path);
    const seen = times.get(key);
    if (seen) seen.count++;
    else times.set(key, { path, count: 2 });
  }
  const errors = [...times.entries()].map(([key, { path, count }]): InvalidParameter => {
    const name = shorten(key);
    return {
      in: 'body',
      name,
      expected: UNIQUE_EXPECTED,
      received: shorten(String(path[path.length - 1])),
      message: `body field '${name}' appears ${count === 2 ? 'twice' : `${count} times`}`,
    };
  });
  return { errors, total: errors.length + (total - paths.length) };
}

const unpaired = (v: unknown) => typeof v === 'string' && LONE_SURROGATE.test(v);

/** The `defaultHook` of every route: passes valid input through, answers 400 otherwise. */
export async function validationHook(
  result: { success: boolean; error?: z.ZodError; target: string },
  c: Context,
) {
  if (result.target === 'json') {
    const body: unknown = await c.req.json().catch(() => undefined);
    // Only a body that parsed, and only one with an object in it, can repeat a name.
    if (body !== null && typeof body === 'object') {
      const repeated = repeatedNames(await c.req.text());
      if (repeated.total > 0) return invalidInput(c, repeated.errors, repeated.total);
    }
    const reserved = reservedKeys(body);
    if (reserved.total > 0) return invalidInput(c, reserved.errors, reserved.total);
  }
  if (result.success || !result.error) return undefined;
  const { errors, total } = await invalidParameters(result.error, result.target, c);
  return invalidInput(c, errors, total);
}

function invalidInput(c: Context, errors: InvalidParameter[], total: number): Response {
  const more = total - errors.length;
  const detail =
    errors.map((e) => e.message).join('; ') +
    (more > 0 ? `; and ${more} more (${total} problems in all)` : '');
  return problemResponse(c, 'invalid-input', detail, { errors });
}
