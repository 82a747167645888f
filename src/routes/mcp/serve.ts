/**
 * What answers POST /mcp (routes/mcp/route.ts defines it): per request, a server and a stateless
 * transport of the official SDK, whose tools/list shows the caller the tools its grants open and
 * whose tools/call sends each call through the app as its route's HTTP request. Loaded on the
 * first MCP request, with the SDK.
 */

import type { OpenAPIHono } from '@hono/zod-openapi';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import type { WritesSetting } from '../../config.js';
import { isAnonymous, permissionsOf } from '../../http/middleware.js';
import { problemResponse } from '../../openapi/problems.js';
import { argumentErrors } from './arguments.js';
import { toolRequest, toolResult } from './dispatch.js';
import { type OpenApiDocument, type ToolRoute, toolRoute } from './schemas.js';
import { MCP_TOOLS, type ToolSpec } from './tools.js';

/** The server never validates against a JSON schema itself (no elicitation): nothing to compile. */
const NO_SCHEMA_VALIDATION = {
  getValidator: () => () => ({
    valid: false as const,
    data: undefined,
    errorMessage: 'schema validation is not used by this server',
  }),
};

export interface McpDeps {
  writes: WritesSetting;
  severalClusters: boolean;
  version: string;
  /** The whole API document (every route module registered), as /openapi.json serves it. */
  document(): Promise<unknown>;
  /**
   * The app whose routes answer the tool calls. The MCP route itself may be registered on a
   * stand-in app (a route module loaded on first use, routes/lazy.ts) that has no other route.
   */
  api: OpenAPIHono;
}

const INSTRUCTIONS =
  "Apache Kafka's groups (classic, consumer, share, streams) as this principal may see them. Every tool answers " +
  'what the HTTP API answers; a failure is a tool error whose structuredContent is an RFC 9457 problem. ' +
  'Offset resets take two steps: a dry run returns a plan and its planToken; only the execute tool applies it.';

/**
 * The tools' routes, made from the document once: the routes are the code's, the same in every app
 * (a Worker builds an app per request and would otherwise make the document on every MCP call).
 */
const made = new Map<boolean, ToolRoute[]>();

async function toolRoutes(deps: McpDeps): Promise<ToolRoute[]> {
  const { severalClusters } = deps;
  let routes = made.get(severalClusters);
  if (!routes) {
    // Route modules load on first use (routes/lazy.ts), so only the whole document names them all.
    const document = (await deps.document()) as OpenApiDocument;
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

/**
 * The requests this server answers, by method, with the SDK's own schemas. The SDK checks a
 * request's params only inside its handler and answers a misfit as an internal error (-32603)
 * carrying zod's issue list; checked here first, a misfit is the caller's: invalid params (-32602)
 * naming the field, what it expected and what came.
 */
const REQUEST_SCHEMAS = new Map<string, typeof PingRequestSchema | typeof CallToolRequestSchema>([
  ['initialize', InitializeRequestSchema as unknown as typeof PingRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema as unknown as typeof PingRequestSchema],
  ['tools/call', CallToolRequestSchema],
]);

function invalidParams(c: Context, message: unknown): Response | undefined {
  const { id, method } = message as { id?: unknown; method?: unknown };
  if (id === undefined || typeof method !== 'string') return undefined;
  const parsed = REQUEST_SCHEMAS.get(method)?.safeParse(message);
  if (!parsed || parsed.success) return undefined;
  const issues = parsed.error.issues;
  const first = issues[0];
  const field = first?.path.map(String).join('.') || 'params';
  const what = (first?.message ?? 'invalid').replace(/^Invalid input: /, '');
  return invalidParamsAnswer(c, id, `'${field}' ${what}`, issues.length);
}

function invalidParamsAnswer(c: Context, id: unknown, said: string, count: number, data?: unknown): Response {
  const more = count > 1 ? ` (and ${count - 1} more)` : '';
  return c.json({
    jsonrpc: '2.0',
    id,
    error: {
      code: ErrorCode.InvalidParams,
      message: `invalid params: ${said}${more}`,
      ...(data !== undefined && { data }),
    },
  });
}

/** A tool call whose arguments misfit the tool's input schema: invalid params, each misfit in `data.errors`. */
function misfitArguments(c: Context, message: unknown, routes: readonly ToolRoute[]): Response | undefined {
  const { id, method, params } = message as {
    id?: unknown;
    method?: unknown;
    params?: { name?: unknown; arguments?: Record<string, unknown> };
  };
  if (id === undefined || method !== 'tools/call') return undefined;
  const route = routes.find((r) => r.spec.name === params?.name);
  if (!route) return undefined;
  const errors = argumentErrors(route, params?.arguments ?? {});
  const [first] = errors;
  if (!first) return undefined;
  return invalidParamsAnswer(c, id, `'${first.name}' ${first.message}`, errors.length, { errors });
}

export async function serveMcp(
  app: OpenAPIHono,
  c: Context,
  deps: McpDeps,
  message: unknown,
): Promise<Response> {
  const refused = invalidParams(c, message);
  if (refused) return refused;
  const routes = await toolRoutes(deps);
  const misfit = misfitArguments(c, message, routes);
  if (misfit) return misfit;
  const server = new Server(
    { name: 'kafka-groups-rest', version: deps.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: NO_SCHEMA_VALIDATION,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: routes.filter((r) => listed(c, r.spec, deps.writes)).map(definition),
  }));
  // A tool not listed to this caller is still answered by its route: the refusal is the route's
  // own (403, or 404 for a group it may not see), as over HTTP.
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const route = routes.find((r) => r.spec.name === request.params.name);
    if (!route) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no tool named '${request.params.name.slice(0, 100)}'; tools/list names them`,
      );
    }
    const call = toolRequest(route, request.params.arguments ?? {}, c.req.url, c.req.raw.headers);
    // Misfits were answered above (misfitArguments); this one is for a call that slipped past.
    if (!(call instanceof Request))
      throw new McpError(ErrorCode.InvalidParams, call[0]?.message ?? 'invalid');
    return toolResult(await app.fetch(call, c.env));
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const answer = await transport.handleRequest(c.req.raw, { parsedBody: message });
    return answer.status >= 400 ? asProblem(c, answer) : answer;
  } finally {
    await server.close();
  }
}

/**
 * The transport's own refusals (an Accept without text/event-stream, a message that is not MCP's
 * JSON-RPC, a bad protocol version header) as the problems every other refusal of this API is:
 * an MCP client reads an HTTP error by its status, not by its body.
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
