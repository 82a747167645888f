/**
 * A Lambda event checked before it becomes a Request: what `hono/aws-lambda` cannot turn into one
 * (no event, no path, a body marked base64 that is not) is answered as the Node server answers
 * bytes that are not HTTP, a 400 `malformed-request` problem naming what is wrong, not a bare
 * "Invalid request" or 500 and a stack in the log. A GET or HEAD with a body (API Gateway passes
 * one on) is read as the Node server reads it: the body is ignored, the route answers.
 */

import { problemBody } from '../openapi/problem-answers.js';
import { PROBLEM_CONTENT_TYPE } from '../openapi/problem-catalogue.js';

type EventFields = Record<string, unknown> & {
  requestContext?: { http?: { method?: unknown } } | null;
};

/** The method as the event's shape carries it: payload 2.0 in its context, the others at the top. */
function methodOf(event: EventFields): unknown {
  if (typeof event.rawPath === 'string' && isObject(event.requestContext?.http))
    return event.requestContext.http.method;
  return 'httpMethod' in event ? event.httpMethod : event.method;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Forgiving base64 as `atob` reads it: false where decoding the body would throw. */
function isBase64(text: string): boolean {
  try {
    atob(text);
    return true;
  } catch {
    return false;
  }
}

/** What makes `event` no HTTP request, in words for the problem's detail; undefined: none. */
export function eventFault(event: unknown): string | undefined {
  if (!isObject(event))
    return `the Lambda event is not an HTTP request: expected an object, received ${event === null ? 'null' : Array.isArray(event) ? 'an array' : typeof event}`;
  const fields = event as EventFields;
  const path = typeof fields.rawPath === 'string' ? fields.rawPath : fields.path;
  if (typeof path !== 'string' || !path.startsWith('/'))
    return "the Lambda event is not an HTTP request: expected a path starting with '/' (rawPath for payload 2.0, path for 1.0 and ALB)";
  if (fields.isBase64Encoded === true && typeof fields.body === 'string' && !isBase64(fields.body))
    return "the Lambda event's body is marked base64 (isBase64Encoded) but is not valid base64";
  return undefined;
}

/** The event a Request can be made from: a GET's or HEAD's body left out, as Node's server does. */
export function withoutIgnoredBody<E>(event: E): E {
  const fields = event as EventFields;
  if (!fields.body) return event;
  const method = methodOf(fields);
  if (typeof method !== 'string' || !/^(get|head)$/i.test(method)) return event;
  return { ...fields, body: null, isBase64Encoded: false } as E;
}

/** The 400 problem for a malformed event, in the result shape its source reads. */
export function malformedEventResult(event: unknown, detail: string) {
  const body = problemBody('malformed-request', detail);
  const multi = isObject(event) && isObject(event.multiValueHeaders);
  return {
    statusCode: body.status,
    ...(multi
      ? { multiValueHeaders: { 'content-type': [PROBLEM_CONTENT_TYPE] } }
      : { headers: { 'content-type': PROBLEM_CONTENT_TYPE } }),
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}
