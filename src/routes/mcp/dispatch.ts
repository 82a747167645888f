/**
 * A tool call as the HTTP request of its route, and that route's answer as the tool's result. The
 * request carries the caller's own credentials and goes through the whole app (authentication,
 * rate limit, grants, validation), so a tool can do nothing its caller could not do over HTTP,
 * and answers what HTTP answers: the JSON as structured content, a problem as a tool error.
 */

import { type InvalidParameter, type Problem, problemBody } from '../../openapi/problems.js';
import { argumentErrors } from './arguments.js';
import { CLUSTER_ARGUMENT, type ToolRoute } from './schemas.js';

/** Request headers a tool call passes on to its route: who calls, and from where. */
const PASSED_HEADERS = ['authorization', 'cf-connecting-ip', 'user-agent'] as const;

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function problemResult(problem: Record<string, unknown>, retryAfter?: string | null): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(problem) }],
    structuredContent: problem,
    isError: true,
    ...(retryAfter && { _meta: { retryAfterSeconds: Number(retryAfter) } }),
  };
}

/** A query value as the query string carries it: lists repeated, anything else as text. */
function queryValues(value: unknown): string[] {
  const one = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  return Array.isArray(value) ? value.map(one) : [one(value)];
}

/**
 * The route's request for these arguments, or what misfits the tool's input schema (arguments.ts):
 * a misfit never reaches the route, whose path and query would take a number as its spelling.
 */
export function toolRequest(
  route: ToolRoute,
  args: Record<string, unknown>,
  base: string,
  incoming: Headers,
): Request | InvalidParameter[] {
  const errors = argumentErrors(route, args);
  if (errors.length > 0) return errors;
  let path = route.path;
  const cluster = args[CLUSTER_ARGUMENT];
  if (route.clusterPath && cluster !== undefined) {
    path = route.clusterPath.replace('{alias}', encodeURIComponent(String(cluster)));
  }
  const query = new URLSearchParams(route.spec.fixedQuery);
  const body: Record<string, unknown> = {};
  for (const [name, place] of route.places) {
    const value = args[name];
    if (value === undefined) continue;
    if (place === 'path') path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (place === 'query') for (const v of queryValues(value)) query.append(name, v);
    else if (place === 'body') body[name] = value;
  }
  const headers = new Headers({ accept: 'application/json' });
  for (const name of PASSED_HEADERS) {
    const value = incoming.get(name);
    if (value !== null) headers.set(name, value);
  }
  const takesBody = [...route.places.values()].includes('body');
  if (takesBody) headers.set('content-type', 'application/json');
  const search = query.size > 0 ? `?${query}` : '';
  return new Request(new URL(`${path}${search}`, base), {
    method: route.method,
    headers,
    ...(takesBody && { body: JSON.stringify(body) }),
  });
}

/** The route's answer as the tool's result. */
export async function toolResult(res: Response): Promise<ToolResult> {
  const type = (res.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const isObject = json !== null && typeof json === 'object' && !Array.isArray(json);
  if (res.ok && type === 'application/json' && isObject) {
    return { content: [{ type: 'text', text }], structuredContent: json as Record<string, unknown> };
  }
  if (type === 'application/problem+json' && isObject) {
    return problemResult(json as Record<string, unknown>, res.headers.get('retry-after'));
  }
  return problemResult(
    problemBody(
      'internal-error',
      `the route answered ${res.status} with ${type || 'no content type'}`,
    ) as Problem & Record<string, unknown>,
  );
}
