/**
 * The official MCP clients of each protocol era, over their Streamable HTTP transports: the 1.x
 * SDK's (2025-11-25, an `initialize` handshake) and the 2.x client package's pinned to 2026-07-28
 * (stateless: `server/discover`, then the per-request envelope). Tests ask both the same things.
 */

import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type McpEra = 'legacy' | 'modern';

/** The eras, as a test's title names them. */
export const MCP_ERAS: [string, McpEra][] = [
  ['2025-11-25, SDK 1.x client', 'legacy'],
  ['2026-07-28, SDK 2.x client', 'modern'],
];

/** What the tests ask of a client: the calls both SDKs' clients have, alike in shape. */
export interface McpClient {
  listTools(): Promise<{
    tools: {
      name: string;
      inputSchema: { required?: string[]; properties?: Record<string, unknown> };
      annotations?: { readOnlyHint?: boolean };
    }[];
  }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** The fetch the transport sends with (a runtime's own dispatch in place of the network). */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** A bearer key for every request. */
  key?: string;
}

export async function connectMcp(era: McpEra, url: URL, options: ConnectOptions = {}): Promise<McpClient> {
  const transportOptions = {
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.key && { requestInit: { headers: { authorization: `Bearer ${options.key}` } } }),
  };
  if (era === 'legacy') {
    const client = new Client({ name: 'kafka-groups-rest-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, transportOptions));
    return client as unknown as McpClient;
  }
  const client = new ModernClient(
    { name: 'kafka-groups-rest-test', version: '2.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new ModernTransport(url, transportOptions));
  return client as unknown as McpClient;
}
