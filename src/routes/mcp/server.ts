/**
 * The MCP server this API is, for one request: the official SDK's low-level Server whose
 * tools/list shows the caller the tools its grants open and whose tools/call sends each call
 * through the app as its route's HTTP request. The same definition serves every protocol version
 * (serve.ts picks the SDK's serving of each), so the eras cannot drift apart.
 */

import type { OpenAPIHono } from '@hono/zod-openapi';
import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type StandardSchemaV1,
} from '@modelcontextprotocol/server';
import type { Context } from 'hono';
import type { WritesSetting } from '../../config.js';
import { isAnonymous, permissionsOf } from '../../http/middleware.js';
import type { Logger } from '../../logger.js';
import { toolRequest, toolResult } from './dispatch.js';
import { type OpenApiDocument, type ToolRoute, toolRoute } from './schemas.js';
import { MCP_TOOLS, type ToolSpec } from './tools.js';

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
  /** Where each MCP request's line goes: method, tool, protocol version, the caller's trace context. */
  logger: Logger;
}

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

/**
 * Cache hints of the 2026-07-28 lists: tools/list depends on the caller's grants and WRITES, so
 * only the caller may keep it (`private`), for a minute; server/discover says the same to everyone.
 */
const CACHE_HINTS = {
  'tools/list': { ttlMs: 60_000, cacheScope: 'private' },
  'server/discover': { ttlMs: 60_000, cacheScope: 'public' },
} as const;

/**
 * The tools' routes, made from the document once: the routes are the code's, the same in every app
 * (a Worker builds an app per request and would otherwise make the document on every MCP call).
 */
const made = new Map<boolean, ToolRoute[]>();

export async function toolRoutes(deps: McpDeps): Promise<ToolRoute[]> {
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

/** Invalid params (-32602) naming the first misfit, how many more there are, and each in `data`. */
export function invalidParams(said: string, count: number, data?: unknown): ProtocolError {
  const more = count > 1 ? ` (and ${count - 1} more)` : '';
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid params: ${said}${more}`, data);
}

/** The SDK's schema of a request checked against a message, as invalid params naming the field. */
export function misfit(schema: StandardSchemaV1, message: unknown): ProtocolError | undefined {
  const checked = schema['~standard'].validate(message);
  // The SDK's schemas validate synchronously (StandardSchemaV1Sync).
  if (checked instanceof Promise || !checked.issues) return undefined;
  const { issues } = checked;
  const first = issues[0];
  const field =
    first?.path?.map((step) => String(typeof step === 'object' ? step.key : step)).join('.') || 'params';
  const what = (first?.message ?? 'invalid').replace(/^Invalid input: /, '');
  return invalidParams(`'${field}' ${what}`, issues.length);
}

export function mcpServer(c: Context, deps: McpDeps, routes: readonly ToolRoute[]): Server {
  const server = new Server(
    { name: 'kafka-groups-rest', version: deps.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: NO_SCHEMA_VALIDATION,
      cacheHints: CACHE_HINTS,
    },
  );
  server.setRequestHandler('tools/list', async () => ({
    tools: routes.filter((r) => listed(c, r.spec, deps.writes)).map(definition),
  }));
  // A tool not listed to this caller is still answered by its route: the refusal is the route's
  // own (403, or 404 for a group it may not see), as over HTTP.
  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const { name, arguments: args = {} } = request.params;
    const route = routes.find((r) => r.spec.name === name);
    if (!route)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `no tool named '${name.slice(0, 100)}'; tools/list names them`,
      );
    // A misfit of the tool's input schema never reaches the route (dispatch.ts): each is in `data`.
    const call = toolRequest(route, args, c.req.url, c.req.raw.headers);
    if (!(call instanceof Request)) {
      const [first] = call;
      throw invalidParams(`'${first?.name}' ${first?.message}`, call.length, { errors: call });
    }
    return toolResult(await deps.api.fetch(call, c.env));
  });
  return server;
}
