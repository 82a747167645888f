/**
 * What answers POST /mcp (routes/mcp/route.ts defines it): the server of server.ts, served by the
 * official SDK in the way of the protocol version the message claims. A message with the
 * per-request envelope of 2026-07-28 goes to the SDK's stateless handler of that version
 * (server/discover, the Mcp-Method/Mcp-Name header match, resultType, cache hints); one without
 * (2025-11-25, 2025-06-18) to the SDK's Streamable HTTP transport without sessions, answering JSON.
 * Loaded on the first MCP request, with the SDK.
 */

import {
  createMcpHandler,
  isLegacyRequest,
  PROTOCOL_VERSION_META_KEY,
  type ProtocolError,
  type StandardSchemaV1,
  specTypeSchemas,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import { problemResponse } from '../../openapi/problems.js';
import { logMcpRequest, metaOf } from './log-line.js';
import { type McpDeps, mcpServer, misfit, toolRoutes } from './server.js';

export type { McpDeps } from './server.js';

/** The first protocol version with the per-request envelope (stateless MCP). */
const FIRST_MODERN_VERSION = '2026-07-28';

/**
 * The 2025 requests, by method, with the SDK's own schemas: checked here first, a misfit is named
 * (the field, what it expected, what came) where the SDK's answer lists zod's issues. A 2026-07-28
 * request is checked by the SDK after its envelope and headers, as that version orders it.
 */
const LEGACY_REQUESTS = new Map<string, StandardSchemaV1>([
  ['initialize', specTypeSchemas.InitializeRequest],
  ['ping', specTypeSchemas.PingRequest],
  ['tools/list', specTypeSchemas.ListToolsRequest],
  ['tools/call', specTypeSchemas.CallToolRequest],
]);

export async function serveMcp(c: Context, deps: McpDeps, body: unknown): Promise<Response> {
  const legacy = await isLegacyRequest(c.req.raw, body);
  const answer = legacy ? await legacyAnswer(c, deps, body) : await modernAnswer(c, deps, body);
  logMcpRequest(c, deps.logger, body, answer, legacy);
  return answer;
}

async function legacyAnswer(c: Context, deps: McpDeps, body: unknown): Promise<Response> {
  const { id, method } = body as { id?: unknown; method?: unknown };
  const schema = typeof method === 'string' && id !== undefined ? LEGACY_REQUESTS.get(method) : undefined;
  const refused = schema && misfit(schema, body);
  if (refused) return c.json(jsonRpcError(id, refused));
  const server = mcpServer(c, deps, await toolRoutes(deps));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const answer = await transport.handleRequest(c.req.raw, { parsedBody: body });
    return answer.status >= 400 ? asProblem(c, answer) : answer;
  } finally {
    await server.close();
  }
}

async function modernAnswer(c: Context, deps: McpDeps, body: unknown): Promise<Response> {
  const routes = await toolRoutes(deps);
  // 'auto' answers one JSON body: no handler here sends anything before its result.
  const handler = createMcpHandler(() => mcpServer(c, deps, routes), { legacy: 'reject' });
  try {
    const answer = await handler.fetch(c.req.raw, { parsedBody: body });
    // What claims 2026-07-28 is refused as that version says (a JSON-RPC error, its HTTP status by
    // code); what claims no version at all (not MCP) as the problem of every other refusal.
    return answer.status >= 400 && !claimsModern(c, body) ? asProblem(c, answer) : answer;
  } finally {
    await handler.close();
  }
}

function jsonRpcError(id: unknown, error: ProtocolError) {
  const { code, message, data } = error;
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } };
}

/** Whether the request names 2026-07-28 or later: by its envelope, or by its version header alone. */
function claimsModern(c: Context, body: unknown): boolean {
  const header = c.req.header('mcp-protocol-version')?.trim() ?? '';
  return (
    metaOf(body)[PROTOCOL_VERSION_META_KEY] !== undefined ||
    (/^\d{4}-\d{2}-\d{2}$/.test(header) && header >= FIRST_MODERN_VERSION)
  );
}

/**
 * The 2025 transport's own refusals (an Accept without text/event-stream, a message that is not
 * MCP's JSON-RPC, a bad protocol version header) as the problems every other refusal of this API
 * is: a client of that era reads an HTTP error by its status, not by its body.
 */
async function asProblem(c: Context, answer: Response): Promise<Response> {
  let message = 'the request is not an MCP message this server takes';
  try {
    const body = (await answer.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message.slice(0, 300);
  } catch {
    // No JSON-RPC error in it: the generic message stays.
  }
  if (answer.status === 406)
    return problemResponse(
      c,
      'not-acceptable',
      message,
      {},
      { accept: 'application/json, text/event-stream' },
    );
  if (answer.status === 415)
    return problemResponse(c, 'unsupported-media-type', message, {}, { accept: 'application/json' });
  const header = /protocol version/i.test(message);
  return problemResponse(c, 'invalid-input', message, {
    errors: [
      {
        in: header ? 'header' : 'body',
        name: header ? 'mcp-protocol-version' : 'message',
        expected: header
          ? 'a protocol version this server supports'
          : 'a JSON-RPC 2.0 message of the Model Context Protocol',
        received: header ? (c.req.header('mcp-protocol-version') ?? '').slice(0, 100) : null,
        message,
      },
    ],
  });
}
