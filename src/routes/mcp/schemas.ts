/**
 * Each tool's route, as the document describes it: its method and path, where each argument goes
 * (path, query or body), and the tool's input schema, made of the route's own parameter and body
 * schemas (the document is generated from the routes' zod schemas, so a tool takes exactly what
 * its route takes, described in the same words).
 */

import type { ToolSpec } from './tools.js';

export type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** Where an argument of a tool goes in the HTTP request. */
export type ArgumentPlace = 'path' | 'query' | 'body';

export interface ToolRoute {
  spec: ToolSpec;
  method: string;
  /** The route's path on the default cluster. */
  path: string;
  /** Its mirror under /clusters/{alias}, when the route is mirrored and several clusters are served. */
  clusterPath?: string;
  /** Every argument the tool takes, and where it goes (`cluster` chooses the path). */
  places: ReadonlyMap<string, ArgumentPlace | 'cluster'>;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
}

/** The argument that picks a cluster when the API serves several. */
export const CLUSTER_ARGUMENT = 'cluster';
const MAX_REF_DEPTH = 32;

function findOperation(
  document: OpenApiDocument,
  operationId: string,
): { method: string; path: string; operation: Operation } | undefined {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId === operationId) return { method, path, operation };
    }
  }
  return undefined;
}

/**
 * The schema with every `$ref` to a component replaced by the component itself (a tool's input
 * schema stands alone), and OpenAPI's `example` as JSON Schema's `examples`.
 */
function standalone(schema: unknown, components: Record<string, JsonSchema>, depth = 0): unknown {
  if (Array.isArray(schema)) return schema.map((s) => standalone(s, components, depth));
  if (schema === null || typeof schema !== 'object') return schema;
  if (depth > MAX_REF_DEPTH) throw new Error('a schema nests components too deep to inline');
  const record = schema as JsonSchema;
  const ref = record.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace(/^#\/components\/schemas\//, '');
    const target = Object.hasOwn(components, name) ? components[name] : undefined;
    if (!target) throw new Error(`unknown schema reference ${ref}`);
    const { $ref: _ref, ...rest } = record;
    return standalone({ ...target, ...rest }, components, depth + 1);
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === 'example') out.examples = [value];
    else out[key] = standalone(value, components, depth);
  }
  return out;
}

function describe(spec: ToolSpec, operation: Operation): string {
  return [spec.lead, operation.summary, operation.description].filter(Boolean).join('\n\n');
}

/** The tool's route and input schema; throws when the table names a route the document lacks. */
export function toolRoute(document: OpenApiDocument, spec: ToolSpec, severalClusters: boolean): ToolRoute {
  const found = findOperation(document, spec.operationId);
  if (!found)
    throw new Error(`the tool ${spec.name} names the operation ${spec.operationId}, not in the document`);
  const { method, path, operation } = found;
  const components = document.components?.schemas ?? {};
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const places = new Map<string, ArgumentPlace | 'cluster'>();
  const add = (name: string, place: ArgumentPlace | 'cluster', schema: unknown, isRequired: boolean) => {
    if (places.has(name)) throw new Error(`the tool ${spec.name} has two arguments named ${name}`);
    places.set(name, place);
    properties[name] = standalone(schema, components);
    if (isRequired) required.push(name);
  };

  for (const p of operation.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue;
    if (spec.fixedQuery && Object.hasOwn(spec.fixedQuery, p.name)) continue;
    add(
      p.name,
      p.in,
      { ...p.schema, ...(p.description && { description: p.description }) },
      p.in === 'path' || p.required === true,
    );
  }
  const body = standalone(operation.requestBody?.content?.['application/json']?.schema, components) as
    | (JsonSchema & { properties?: Record<string, unknown>; required?: string[] })
    | undefined;
  if (body?.properties) {
    const taken = spec.bodyFields ?? Object.keys(body.properties);
    for (const field of taken) {
      const schema = body.properties[field];
      if (schema === undefined)
        throw new Error(`the tool ${spec.name} takes ${field}, not in its route's body`);
      const isRequired = (body.required ?? []).includes(field) || (spec.requiredBody ?? []).includes(field);
      add(field, 'body', schema, isRequired);
    }
  }

  const mirrored = findOperation(document, `${spec.operationId}InCluster`);
  if (severalClusters && mirrored) {
    add(
      CLUSTER_ARGUMENT,
      'cluster',
      {
        type: 'string',
        description:
          'The alias of the cluster to ask (GET /clusters lists them); default: the default cluster',
      },
      false,
    );
  }
  return {
    spec,
    method: method.toUpperCase(),
    path,
    ...(severalClusters && mirrored && { clusterPath: mirrored.path }),
    places,
    description: describe(spec, operation),
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
    },
  };
}
