/**
 * One log line per MCP request: what was asked, on which protocol version, in which trace (the
 * W3C trace context a 2026-07-28 client puts in `_meta`, else the HTTP headers), how it ended.
 */

import {
  PROTOCOL_VERSION_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { Logger } from '../../logger.js';

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The `_meta` of a message's params, or an empty one. */
export function metaOf(body: unknown): Record<string, unknown> {
  const meta = (body as { params?: { _meta?: unknown } } | undefined)?.params?._meta;
  return meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
}

/** Only well-formed values: a log line is no place for whatever a caller chose to write. */
export function traceContext(c: Context, body: unknown): { traceparent?: string; tracestate?: string } {
  const meta = metaOf(body);
  const pick = (key: string, header: string, form: RegExp) => {
    const said = meta[key] ?? c.req.header(header);
    return typeof said === 'string' && form.test(said) ? said : undefined;
  };
  const traceparent = pick(TRACEPARENT_META_KEY, 'traceparent', TRACEPARENT);
  const tracestate = traceparent && pick(TRACESTATE_META_KEY, 'tracestate', TRACESTATE);
  return { ...(traceparent && { traceparent }), ...(tracestate && { tracestate }) };
}

export function logMcpRequest(
  c: Context,
  logger: Logger,
  body: unknown,
  answer: Response,
  legacy: boolean,
): void {
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  const version = legacy
    ? (c.req.header('mcp-protocol-version') ?? (method === 'initialize' ? 'initialize' : undefined))
    : metaOf(body)[PROTOCOL_VERSION_META_KEY];
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : null);
  logger.info('mcp', {
    method: text(method, 100),
    ...(method === 'tools/call' && typeof params?.name === 'string' && { tool: text(params.name, 100) }),
    protocolVersion: text(version, 40),
    status: answer.status,
    ...traceContext(c, body),
  });
}
