/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless, on 2026-07-28, 2025-11-25
 * and 2025-06-18. Each POST is answered on its own (a server of the official SDK per request, JSON
 * answers, no session), so it runs alike on Node, Lambda and Workers, where nothing outlives a
 * request. The SDK is loaded on the first MCP request only: a start that serves none never parses it.
 *
 * The tools are the routes of routes/mcp/tools.ts. tools/list shows a principal the tools its
 * grants open (the write tools only where writes are on); tools/call sends the route's own HTTP
 * request through this app with the caller's credentials, so each call is authenticated, rate
 * limited, granted and validated as that HTTP request is.
 *
 * This file is the route's definition only (the document needs it at every start); what serves it
 * is routes/mcp/serve.ts, loaded with the SDK on the first MCP request.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { requires } from '../../http/route-policy.js';
import { problemResponses } from '../../openapi/problems.js';
import { strictQuery } from '../../openapi/validation.js';
import type { McpDeps } from './server.js';

const JsonRpcMessageSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0').openapi({ description: 'Always 2.0' }),
    id: z
      .union([z.string(), z.number().int().openapi({ format: 'int64' })])
      .optional()
      .openapi({
        description: 'Present on requests; absent on notifications',
      }),
    method: z.string().optional().openapi({ example: 'tools/call' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('McpMessage', {
    description:
      'A JSON-RPC 2.0 message of the Model Context Protocol: on 2026-07-28 server/discover, tools/list, tools/call, each with its envelope in params._meta; on 2025-11-25 and 2025-06-18 initialize first',
    example: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'describe_consumer_group_lag', arguments: { groupId: 'demo-classic' } },
    },
  });

const JsonRpcAnswerSchema = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int().openapi({ format: 'int64' }), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int().openapi({ format: 'int32' }), message: z.string() }).optional(),
  })
  .openapi('McpAnswer', {
    description:
      'The JSON-RPC answer. A tool that fails answers a result with isError true, its structuredContent the problem document of the route (type, title, status, detail)',
    example: {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [{ type: 'text', text: '{"groupId":"demo-classic","type":"classic","totals":{"lag":12}}' }],
        structuredContent: { groupId: 'demo-classic', type: 'classic', totals: { lag: 12 } },
      },
    },
  });

const mcp = createRoute({
  method: 'post',
  path: '/mcp',
  // Talking to the endpoint needs the read grant; each tool then needs its own route's grant.
  middleware: requires({ action: 'read', body: 'json', negotiates: true }),
  operationId: 'mcp',
  tags: ['mcp'],
  summary: 'Model Context Protocol (Streamable HTTP): this API as tools for agents',
  description:
    'One JSON-RPC message per POST, answered as application/json; stateless (no Mcp-Session-Id), so GET answers 405. ' +
    'Protocol versions 2026-07-28 (server/discover; the envelope in _meta; Mcp-Method and Mcp-Name must match the body, 400 otherwise), ' +
    '2025-11-25 and 2025-06-18 (initialize). ' +
    'The client must accept application/json and text/event-stream (the protocol says so; 406 otherwise). ' +
    'Tools: list_consumer_groups, describe_consumer_group, describe_consumer_group_lag, describe_consumer_group_health, ' +
    'diagnose_consumer_group, list_topic_consumer_groups, describe_cluster_protocols, describe_cluster, and where writes are on and granted reset_consumer_group_offsets_dry_run and ' +
    'reset_consumer_group_offsets_execute. A tool call is the HTTP request of its route, with the caller’s credentials: ' +
    'the same grants (a group the caller may not see is not found), validation, rate limit and JSON; a problem becomes a ' +
    'tool error carrying the problem document. See docs/mcp.md.',
  request: {
    query: strictQuery({}),
    body: { required: true, content: { 'application/json': { schema: JsonRpcMessageSchema } } },
  },
  responses: {
    200: {
      description: 'The JSON-RPC answer to a request; a tool that fails answers here too, as a tool error',
      content: { 'application/json': { schema: JsonRpcAnswerSchema } },
    },
    202: { description: 'A notification, accepted; no body' },
    400: {
      description:
        'On 2026-07-28, a request refused before any handler, as that version says: a JSON-RPC error (-32020 headers and body disagree, -32022 a version not served, -32602 a malformed envelope)',
      content: {
        'application/json': { schema: JsonRpcAnswerSchema },
        ...problemResponses('invalid-input')[400]?.content,
      },
    },
    404: {
      description:
        'On 2026-07-28, a method that version does not have (initialize, ping): JSON-RPC error -32601',
      content: { 'application/json': { schema: JsonRpcAnswerSchema } },
    },
    ...(({ 400: _, ...rest }) => rest)(problemResponses('invalid-input', 'forbidden', 'not-acceptable')),
  },
});

export function mcpRoutes(app: OpenAPIHono, deps: McpDeps): void {
  app.openapi(mcp, async (c) => {
    const message = c.req.valid('json');
    const { serveMcp } = await import('./serve.js');
    return serveMcp(c, deps, message);
  });
}
