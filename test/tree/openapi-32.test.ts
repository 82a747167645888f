/**
 * /openapi-3.2.json beside /openapi.json: the same operations and schemas, the streams described
 * item by item (`itemSchema`), NDJSON also under `application/jsonl`, an event's `data` as JSON text.
 * The document is linted as 3.2 in openapi-lint.test.ts.
 */

import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/generate-sdk.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { GroupService } from '../../src/groups/service.js';
import { securityFrom } from '../../src/http/security.js';

// biome-ignore lint/suspicious/noExplicitAny: a document walked by hand
type Json = Record<string, any>;

let v31: Json;
let v32: Json;

beforeAll(async () => {
  [v31, v32] = (await Promise.all([openApiDocument(), openApiDocument('/openapi-3.2.json')])).map((text) =>
    JSON.parse(text),
  );
}, 60_000);

/** Every response content of the document, with where it is. */
function contents(doc: Json): { where: string; content: Json }[] {
  const out = [];
  for (const [path, item] of Object.entries<Json>(doc.paths))
    for (const [method, operation] of Object.entries<Json>(item))
      for (const [status, response] of Object.entries<Json>(operation.responses ?? {}))
        if (response.content)
          out.push({ where: `${method.toUpperCase()} ${path} ${status}`, content: response.content });
  return out;
}

describe('the OpenAPI 3.2 view', () => {
  it('names 3.2 and has the same operations, components and head as the 3.1 document', () => {
    expect(v31.openapi).toBe('3.1.0');
    expect(v32.openapi).toBe('3.2.0');
    const operations = (doc: Json) =>
      Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
        Object.entries<Json>(item).map(([method, op]) => `${method} ${path} ${op.operationId}`),
      );
    expect(operations(v32)).toEqual(operations(v31));
    expect(Object.keys(v32.components.schemas)).toEqual(Object.keys(v31.components.schemas));
    for (const key of ['info', 'servers', 'tags', 'security'] as const) expect(v32[key]).toEqual(v31[key]);
  });

  it('describes every NDJSON and event stream by its items, NDJSON also as application/jsonl', () => {
    const streams = contents(v31).filter(({ content }) =>
      Object.keys(content).some((type) => type === 'application/x-ndjson' || type === 'text/event-stream'),
    );
    // The listing, the topic's readers, the protocols, the events: each also under /clusters/{alias}.
    expect(streams.length).toBeGreaterThanOrEqual(10);
    const byWhere = new Map(contents(v32).map(({ where, content }) => [where, content]));
    for (const { where, content } of streams) {
      const viewed = byWhere.get(where) ?? {};
      for (const [type, media] of Object.entries<Json>(content)) {
        if (type === 'application/x-ndjson') {
          expect(viewed[type], where).toEqual({ itemSchema: media.schema });
          expect(viewed['application/jsonl'], where).toEqual({ itemSchema: media.schema });
        } else if (type === 'text/event-stream') {
          expect(viewed[type], where).toEqual({ itemSchema: media.schema });
        } else expect(viewed[type], `${where} ${type}`).toEqual(media);
      }
    }
    // And nothing else moved: every other content is as in 3.1.
    const streamed = new Set(streams.map(({ where }) => where));
    const others = contents(v31).filter(({ where }) => !streamed.has(where));
    for (const { where, content } of others) expect(byWhere.get(where), where).toEqual(content);
  });

  it("gives each event's data as JSON text of the event's schema", () => {
    const [ref] = contents(v32)
      .map(({ content }) => content['text/event-stream']?.itemSchema?.$ref)
      .filter(Boolean);
    const name = String(ref).split('/').at(-1) ?? '';
    const events: Json[] = v32.components.schemas[name].anyOf;
    const originals: Json[] = v31.components.schemas[name].anyOf;
    expect(events.length).toBeGreaterThan(3);
    events.forEach((event, i) => {
      expect(event.properties.data).toEqual({
        type: 'string',
        contentMediaType: 'application/json',
        contentSchema: originals[i]?.properties.data,
      });
    });
    expect(typeof v32.components.schemas[name].example.data).toBe('string');
    // The 3.1 document keeps the object form: its schema describes the decoded event.
    expect(typeof v31.components.schemas[name].example.data).toBe('object');
  });

  it('/docs shows the 3.1 document, and the 3.2 view with ?openapi=3.2', async () => {
    const app = createApp({
      service: {} as GroupService,
      security: securityFrom(loadConfig({ AUTH: 'none' })),
    });
    expect(await (await app.request('http://localhost/docs')).text()).toContain('"/openapi.json"');
    expect(await (await app.request('http://localhost/docs?openapi=3.2')).text()).toContain(
      '"/openapi-3.2.json"',
    );
  });
});
