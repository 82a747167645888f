/**
 * The app without a broker, as the MCP unit tests ask it: an API key granted read and offsets on
 * `team-*`, POST /mcp with that key, and the 1.x SDK's client over the app's own fetch.
 */

import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';
import type { Logger } from '../../src/logger.js';
import type { OpenApiDocument } from '../../src/routes/mcp/schemas.js';

export const KEY = 'mcp-unit-key-0123456789abcdef0123';
const noBroker = (): never => {
  throw new Error('no broker in this test');
};
const service = new Proxy({} as GroupService, { get: () => noBroker });

export function appWith(env: Record<string, string> = {}, logger?: Logger) {
  const config = loadConfig({
    AUTH_API_KEYS: `agent:${createHash('sha256').update(KEY).digest('hex')}`,
    AUTH_GRANTS: JSON.stringify({ agent: { groups: 'team-*', actions: ['read', 'offsets'] } }),
    RATE_LIMIT_PER_MINUTE: '0',
    ...env,
  });
  return createApp({ service, security: securityFrom(config), ...(logger && { logger }) });
}

export async function documentOf(app: ReturnType<typeof appWith>): Promise<OpenApiDocument> {
  return (await (
    await app.request('/openapi.json', { headers: { authorization: `Bearer ${KEY}` } })
  ).json()) as OpenApiDocument;
}

export async function connect(app: ReturnType<typeof appWith>): Promise<Client> {
  const client = new Client({ name: 'unit', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: async (url, init) => app.request(String(url), init),
      requestInit: { headers: { authorization: `Bearer ${KEY}` } },
    }),
  );
  return client;
}

export const post = (app: ReturnType<typeof appWith>, body: string, headers: Record<string, string> = {}) =>
  app.request('/mcp', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
