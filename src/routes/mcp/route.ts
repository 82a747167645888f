/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP, stateless. Each POST is answered on
 * its own (a server and a transport of the official SDK per request, JSON answers, no session), so
 * it runs alike on Node, Lambda and Workers, where nothing outlives a request. The SDK is loaded
 * on the first MCP request only: a start that serves none never parses it.
 *
 * The tools are the routes of routes/mcp/tools.ts. tools/list shows a principal the tools its
 * grants open (the write tools only where writes are on); tools/call sends the route's own HTTP
 * request through this app with the caller's credentials, so each call is authenticated, rate
 * limited, granted and validated as that HTTP request is.
 */

import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { WritesSetting } from '../../config.js';
import { isAnonymous, permissionsOf } from '../../http/middleware.js';
import { requires } from '../../http/route-policy.js';
import { problemResponses } from '../../openapi/problems.js';
import { strictQuery } from '../../openapi/validation.js';
import { toolRequest, toolResult } from './dispatch.js';
import { type OpenApiDocument, type ToolRoute, toolRoute } from './schemas.js';
import { MCP_TOOLS, type ToolSpec } from './tools.js';

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
      'A JSON-RPC 2.0 message of the Model Context Protocol (initialize, tools/list, tools/call, …)',
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
  middleware: requires({ action: 'read', body: 'json' }),
  operationId: 'mcp',
  tags: ['mcp'],
  summary: 'Model Context Protocol (Streamable HTTP): this API as tools for agents',
  description:
    'One JSON-RPC message per POST, answered as application/json; stateless (no Mcp-Session-Id), so GET answers 405. ' +
    'The client must accept application/json and text/event-stream (the protocol says so; a 406 JSON-RPC error otherwise). ' +
    'Tools: list_consumer_groups, describe_consumer_group, describe_consumer_group_lag, describe_consumer_group_health, ' +
    'describe_cluster, and where writes are on and granted reset_consumer_group_offsets_dry_run and ' +
    'reset_consumer_group_offsets_execute. A tool call is the HTTP request of its route, with the caller’s credentials: ' +
    'the same grants (a group the caller may not see is not found), validation, rate limit and JSON; a problem becomes a ' +
    'tool error carrying the problem document. See docs/mcp.md.',
  request: {
    query: strictQuery({}),
    body: { required: true, content: { 'application/json': { schema: JsonRpcMessageSchema } } },
  },
  responses: {
    200: {
      description: 'The JSON-RPC answer to a request (protocol errors too: a 4xx with a JSON-RPC error)',
      content: { 'application/json': { schema: JsonRpcAnswerSchema } },
    },
    202: { description: 'A notification, accepted; no body' },
    ...problemResponses('invalid-input', 'forbidden'),
  },
});

/** The server never validates against a JSON schema itself (no elicitation): nothing to compile. */
const NO_SCHEMA_VALIDATION = {
  getValidator: () => () => ({
    valid: false as const,
    data: undefined,
    errorMessage: 'schema validation is not used by this server',
  }),
};

const INSTRUCTIONS =
  "Apache Kafka's groups (classic, consumer, share, streams) as this principal may see them. Every tool answers " +
  'what the HTTP API answers; a failure is a tool error whose structuredContent is an RFC 9457 problem. ' +
  'Offset resets take two steps: a dry run returns a plan and its planToken; only the execute tool applies it.';

export interface McpDeps {
  writes: WritesSetting;
  severalClusters: boolean;
  version: string;
}

/**
 * The tools' routes, made from the document once: the routes are the code's, the same in every app
 * (a Worker builds an app per request and would otherwise make the document on every MCP call).
 */
const made = new Map<boolean, ToolRoute[]>();

function toolRoutes(app: OpenAPIHono, severalClusters: boolean): ToolRoute[] {
  let routes = made.get(severalClusters);
  if (!routes) {
    const document = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { title: 'kafka-groups-rest', version: '' },
    }) as unknown as OpenApiDocument;
    routes = MCP_TOOLS.map((spec) => toolRoute(document, spec, severalClusters));
    made.set(severalClusters, routes);
  }
  return routes;
}

/** Whether tools/list shows the tool to this caller: it holds the grant, and a write is possible at all. */
function listed(c: Context, spec: ToolSpec, writes: WritesSetting): boolean {
  if (spec.action !== 'read' && spec.action !== 'offsets') {
    if (writes === 'disabled') return false;
    if (isAnonymous(c)) return writes === 'enabled';
  }
  return permissionsOf(c).hasAction(spec.action);
}

function definition(route: ToolRoute) {
  const write = route.spec.action !== 'read' && route.spec.action !== 'offsets';
  return {
    name: route.spec.name,
    title: route.spec.title,
    description: route.description,
    inputSchema: route.inputSchema,
    annotations: {
      title: route.spec.title,
      readOnlyHint: !route.spec.writes,
      ...(write && { destructiveHint: route.spec.writes === true, idempotentHint: false }),
      openWorldHint: false,
    },
  };
}

export function mcpRoutes(app: OpenAPIHono, deps: McpDeps): void {
  app.openapi(mcp, async (c) => {
    const message = c.req.valid('json');
    const routes = toolRoutes(app, deps.severalClusters);
    const [{ Server }, { WebStandardStreamableHTTPServerTransport }, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    const server = new Server(
      { name: 'kafka-groups-rest', version: deps.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator: NO_SCHEMA_VALIDATION,
      },
    );
    server.setRequestHandler(types.ListToolsRequestSchema, async () => ({
      tools: routes.filter((r) => listed(c, r.spec, deps.writes)).map(definition),
    }));
    // A tool not listed to this caller is still answered by its route: the refusal is the route's
    // own (403, or 404 for a group it may not see), as over HTTP.
    server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
      const route = routes.find((r) => r.spec.name === request.params.name);
      if (!route) {
        throw new types.McpError(
          types.ErrorCode.InvalidParams,
          `no tool named '${request.params.name.slice(0, 100)}'; tools/list names them`,
        );
      }
      const call = toolRequest(route, request.params.arguments ?? {}, c.req.url, c.req.raw.headers);
      return call instanceof Request ? toolResult(await app.fetch(call, c.env)) : call;
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw, { parsedBody: message });
    } finally {
      await server.close();
    }
  });
}
