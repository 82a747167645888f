/**
 * The OpenAPI document of an app with every route registered: built on its first need
 * (/openapi.json, /docs's page reads it, /mcp's tools), so a start never loads this module.
 */

import type { OpenAPIHono } from '@hono/zod-openapi';

type DocumentHead = Parameters<OpenAPIHono['getOpenAPI31Document']>[0];

export function openApiDocument(
  app: OpenAPIHono,
  head: DocumentHead,
): ReturnType<OpenAPIHono['getOpenAPI31Document']> {
  return app.getOpenAPI31Document(head);
}
