/**
 * The TypeScript client of the API, generated from its OpenAPI document (`npm run sdk`):
 *
 *   sdk/openapi.json   the document, as the app serves it at /openapi.json
 *   sdk/schema.d.ts    its types, by openapi-typescript
 *   sdk/index.ts       createGroupsClient(baseUrl) over openapi-fetch, and a type per schema
 *
 * The document is built in-process from createApp with an admin that is never called: no broker,
 * no server. test/tree/sdk.test.ts regenerates in memory and fails when the committed files
 * differ.
 */

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { GroupService } from '../src/groups/service.js';
import type { GroupWrites } from '../src/groups/writes/group-writes.js';
import { securityFrom } from '../src/http/security.js';

export const SDK_DIR = fileURLToPath(new URL('../sdk/', import.meta.url));
export const SDK_FILES = ['openapi.json', 'schema.d.ts', 'index.ts'] as const;
export type SdkFile = (typeof SDK_FILES)[number];

const neverCalled = (): never => {
  throw new Error('generate-sdk: the OpenAPI document is built without a broker');
};

const service: GroupService = {
  listGroups: neverCalled,
  listUnsorted: neverCalled,
  listRows: neverCalled,
  describeGroup: neverCalled,
  describeGroups: neverCalled,
  groupOffsets: neverCalled,
  describeListed: neverCalled,
  offsetsOfGroups: neverCalled,
  groupHealth: neverCalled,
  groupReading: neverCalled,
  describeCluster: neverCalled,
  ping: neverCalled,
  close: neverCalled,
  // Never called either: a write route needs a request to run.
  writes: {} as GroupWrites,
};

/** The app as a start builds it, with a service that is never called: its document and its routes. */
export function appWithoutBroker() {
  // The document is the same whatever the authentication; AUTH=none only spares a key here.
  const security = securityFrom(loadConfig({ AUTH: 'none' }));
  return createApp({ service, security });
}

/** The document GET /openapi.json serves, pretty-printed in the order the app produces its keys. */
export async function openApiDocument(path = '/openapi.json'): Promise<string> {
  const res = await appWithoutBroker().request(path);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${body}`);
  return `${JSON.stringify(JSON.parse(body), null, 2)}\n`;
}

/** The names under components.schemas, in document order. */
function schemaNames(document: string): string[] {
  const parsed: unknown = JSON.parse(document);
  if (!parsed || typeof parsed !== 'object' || !('components' in parsed)) return [];
  const { components } = parsed;
  if (!components || typeof components !== 'object' || !('schemas' in components)) return [];
  const { schemas } = components;
  if (!schemas || typeof schemas !== 'object') return [];
  return Object.keys(schemas).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
}

const ANNOTATIONS = new Set([
  'description',
  'title',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{ allOf: [{ $ref }, { description }] }` → `{ $ref, description }`, everywhere in the document.
 *
 * zod-openapi wraps a reference in allOf to annotate it; OpenAPI 3.1 allows the annotations beside
 * `$ref`, which means the same. openapi-typescript reads every allOf member that points at a
 * schema with a discriminator as a subtype and emits `Omit<Group, 'type'>` (openapi-typescript
 * #1464), and Omit over a union keeps only the common keys: the field could not be narrowed.
 * Only sdk/schema.d.ts is generated from the rewritten copy; sdk/openapi.json is the document as
 * served.
 */
export function inlineAnnotatedRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inlineAnnotatedRefs);
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = inlineAnnotatedRefs(child);
  const { allOf, ...rest } = out;
  if (!Array.isArray(allOf)) return out;
  const refs = allOf.filter((s) => isRecord(s) && typeof s.$ref === 'string' && Object.keys(s).length === 1);
  const notes = allOf.filter(
    (s) => isRecord(s) && !('$ref' in s) && Object.keys(s).every((k) => ANNOTATIONS.has(k)),
  );
  const [ref] = refs;
  if (refs.length !== 1 || !isRecord(ref) || refs.length + notes.length !== allOf.length) return out;
  const merged: Record<string, unknown> = { ...ref };
  for (const note of notes) if (isRecord(note)) Object.assign(merged, note);
  return { ...merged, ...rest };
}

function indexSource(schemaNames: readonly string[]): string {
  const types = schemaNames
    .map((name) => `export type ${name} = components['schemas']['${name}'];\n`)
    .join('');
  return `/**
 * Generated by scripts/generate-sdk.ts (npm run sdk) from the API's OpenAPI document: do not edit.
 *
 *   const api = createGroupsClient('http://127.0.0.1:8080');
 *   const { data, error } = await api.GET('/groups/{groupId}', { params: { path: { groupId: 'orders' } } });
 */

import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, paths } from './schema.js';

${types}
/** The group of one type: \`GroupOf<'share'>\` is \`ShareGroup\`. */
export type GroupOf<T extends Group['type']> = Extract<Group, { type: T }>;

/**
 * What this client reads: JSON answers and problems. The ndjson listing (GET /groups.ndjson,
 * streamGroups) is for streaming readers, not for a client that parses one JSON body.
 */
export type ClientMedia = 'application/json' | 'application/problem+json';

export type GroupsClient = Client<paths, ClientMedia>;

/** A typed client of the API at \`baseUrl\` ('http://127.0.0.1:8080'); problems arrive as \`error\`. */
export function createGroupsClient(
  baseUrl: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): GroupsClient {
  return createClient<paths, ClientMedia>({ ...options, baseUrl });
}
`;
}

/** Every file of sdk/, as `npm run sdk` writes it. */
export async function generateSdk(): Promise<Record<SdkFile, string>> {
  const document = await openApiDocument();
  const ast = await openapiTS(JSON.stringify(inlineAnnotatedRefs(JSON.parse(document))), { silent: true });
  return {
    'openapi.json': document,
    'schema.d.ts': COMMENT_HEADER + astToString(ast),
    'index.ts': indexSource(schemaNames(document)),
  };
}

async function main(): Promise<void> {
  const files = await generateSdk();
  await mkdir(SDK_DIR, { recursive: true });
  for (const name of SDK_FILES) {
    await writeFile(join(SDK_DIR, name), files[name]);
    console.log(`wrote sdk/${name}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
