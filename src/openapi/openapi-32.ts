/**
 * The OpenAPI 3.2 view of the served 3.1 document (/openapi-3.2.json): the same operations, with
 * what 3.1 cannot say about a stream. 3.1 has only `schema`, which describes a whole body, so the
 * 3.1 document gives an NDJSON or event-stream answer the schema of one line or event; 3.2's
 * `itemSchema` describes each item of a sequential media type (OpenAPI 3.2, "Sequential Media
 * Types"). NDJSON is also named by 3.2's `application/jsonl`, which the routes accept. An event's
 * `data` is text on the wire: 3.2 describes it as a string whose content is JSON of the event's
 * schema (`contentMediaType`, `contentSchema`).
 */

type Json = Record<string, unknown>;

const NDJSON = 'application/x-ndjson';
const JSONL = 'application/jsonl';
const EVENT_STREAM = 'text/event-stream';
const REF_PREFIX = '#/components/schemas/';

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A 3.2 copy of `document` (a finished 3.1 document); `document` is left as it is. */
export function toOpenApi32(document: Json): Json {
  const out = structuredClone(document);
  out.openapi = '3.2.0';
  const eventSchemas = new Set<string>();
  const contents: Json[] = [];
  for (const item of Object.values(isRecord(out.paths) ? out.paths : {})) {
    if (!isRecord(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue;
      for (const response of Object.values(operation.responses))
        if (isRecord(response) && isRecord(response.content)) contents.push(response.content);
    }
  }
  for (const content of contents) {
    const ndjson = content[NDJSON];
    if (isRecord(ndjson) && ndjson.schema !== undefined) {
      const { schema, ...rest } = ndjson;
      content[NDJSON] = { ...rest, itemSchema: schema };
      content[JSONL] = { ...rest, itemSchema: schema };
    }
    const events = content[EVENT_STREAM];
    if (isRecord(events) && events.schema !== undefined) {
      const { schema, ...rest } = events;
      content[EVENT_STREAM] = { ...rest, itemSchema: schema };
      if (isRecord(schema) && typeof schema.$ref === 'string' && schema.$ref.startsWith(REF_PREFIX))
        eventSchemas.add(schema.$ref.slice(REF_PREFIX.length));
    }
  }
  const schemas = isRecord(out.components) && isRecord(out.components.schemas) ? out.components.schemas : {};
  for (const name of eventSchemas) {
    const schema = schemas[name];
    if (isRecord(schema)) schemas[name] = dataAsText(schema);
  }
  return out;
}

/** An event's schema (or a union of them) with each `data` described as the JSON text it is sent as. */
function dataAsText(given: Json): Json {
  // An example shows the event as sent, its data as text too.
  const { example } = given;
  const schema =
    isRecord(example) && example.data !== undefined && typeof example.data !== 'string'
      ? { ...given, example: { ...example, data: JSON.stringify(example.data) } }
      : given;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches))
      return { ...schema, [key]: branches.map((b) => (isRecord(b) ? dataAsText(b) : b)) };
  }
  const properties = schema.properties;
  if (!isRecord(properties) || properties.data === undefined) return schema;
  return {
    ...schema,
    properties: {
      ...properties,
      data: { type: 'string', contentMediaType: 'application/json', contentSchema: properties.data },
    },
  };
}
