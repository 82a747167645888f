/**
 * The reference made from the code (`npm run docs`):
 *
 *   docs/configuration.md   every variable the configuration reader accepts (src/config/variables.ts)
 *   docs/problems.md        the problem catalogue (src/openapi/problems.ts, problem-docs.ts)
 *   README.md, docs/api.md  the route table between their generated-routes comments: every operation
 *                           of the OpenAPI document the app serves, with the grant action its route
 *                           requires; the prose around it is written by hand
 *
 * Each page is formatted by Biome as `npm run format` would, so the committed page is what this
 * writes. test/tree/generated-docs.test.ts regenerates in memory and fails when a committed page
 * differs.
 */

import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_VARIABLES, type VariableDoc, type VariableSection } from '../src/config/variables.js';
import { policyOf, type RoutePolicy } from '../src/http/route-policy.js';
import { PROBLEM_WHEN } from '../src/openapi/problem-docs.js';
import { PROBLEMS, type ProblemSlug } from '../src/openapi/problems.js';
import { CLUSTER_PREFIX } from '../src/routes/clusters.js';
import { honoPath } from '../src/routes/lazy.js';
import { appWithoutBroker, openApiDocument } from './generate-sdk.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOCS_FILES = ['docs/configuration.md', 'docs/problems.md', 'README.md', 'docs/api.md'] as const;
export type DocsFile = (typeof DOCS_FILES)[number];

const GENERATED = (source: string) =>
  `<!-- Generated from ${source} by \`npm run docs\`; edit the code, not this page. -->`;

/** A markdown table; Biome aligns it. Pipes inside cells are escaped. */
function table(head: string[], rows: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  return [head, head.map(() => '---'), ...rows].map((r) => `| ${r.map(cell).join(' | ')} |`).join('\n');
}

/** Read by the test harness and the demo, not by the server. */
const TEST_VARIABLES: [string, string][] = [
  [
    'KAFKA_VERSION',
    'Kafka version the tests and the demo fetch and run (default: the pinned 4.4.0; 3.9.x works too)',
  ],
  ['KAFKA_CACHE_DIR', 'where the fetched Kafka jars live (default `~/.cache/kafka-groups-rest`)'],
  ['KAFKA_BROKERS', 'when set for `npm test`, the tests use that cluster instead of starting a broker'],
];

function configurationPage(): string {
  const sections = new Map<VariableSection, [string, VariableDoc][]>();
  for (const [name, doc] of Object.entries(ENV_VARIABLES) as [string, VariableDoc][]) {
    sections.set(doc.section, [...(sections.get(doc.section) ?? []), [name, doc]]);
  }
  return [
    '# Configuration',
    '',
    GENERATED('src/config/variables.ts'),
    '',
    'The same environment variables in every runtime; a bad value stops the server at start with a',
    'message naming the variable (secret values are never printed). Variables marked *secret* belong in',
    "the platform's secret store (see [Security](security.md) and [Deploy](deploy.md)).",
    '',
    'Each cluster of `KAFKA_CLUSTERS` is configured by the variables of the Kafka connection, TLS and',
    'SASL sections with `KAFKA_` replaced by `KAFKA_CLUSTER_<ALIAS>_` (alias upper-cased, `-` as `_`);',
    'timeouts and client id fall back to the single-cluster values, brokers, TLS and SASL never do',
    '(see [Several clusters](clusters.md#several-clusters)).',
    '',
    ...[...sections].flatMap(([section, vars]) => [
      `## ${section}`,
      '',
      table(
        ['variable', 'default', 'meaning'],
        vars.map(([name, doc]) => [
          `\`${name}\``,
          doc.default ?? '',
          doc.secret ? `*secret*: ${doc.meaning}` : doc.meaning,
        ]),
      ),
      '',
    ]),
    '## Test and demo only',
    '',
    'Read by the test harness and `npm run demo`, not by the server.',
    '',
    table(
      ['variable', 'meaning'],
      TEST_VARIABLES.map(([name, meaning]) => [`\`${name}\``, meaning]),
    ),
    '',
  ].join('\n');
}

const INVALID_INPUT_EXAMPLE = `\`\`\`sh
curl -s 'localhost:8080/groups?typ=share'
\`\`\`
\`\`\`json
{
  "type": "/problems/invalid-input",
  "title": "Invalid input",
  "status": 400,
  "detail": "unknown query parameter 'typ' expected one of the known parameters: type, state, prefix, protocolType, limit, cursor, include, isolation, received 'share'",
  "instance": "/groups",
  "errors": [
    {
      "in": "query",
      "name": "typ",
      "expected": "one of the known parameters: type, state, prefix, …",
      "received": "share",
      "message": "…"
    }
  ]
}
\`\`\``;

function problemsPage(): string {
  const slugs = (Object.keys(PROBLEMS) as ProblemSlug[])
    .map((slug, i) => ({ slug, i, status: PROBLEMS[slug].status as number }))
    .sort((a, b) => a.status - b.status || a.i - b.i);
  return [
    '# Problems',
    '',
    GENERATED('src/openapi/problems.ts and src/openapi/problem-docs.ts'),
    '',
    'Every error is `application/problem+json` (RFC 9457) with a stable `type`, the `title` and',
    '`status` below, a `detail` naming the cause, and extensions where they say more: `kafkaError:',
    '{code, name, message}` where Kafka said something, `errors[]` for invalid input, `expectedType` and',
    '`actualType` for a type mismatch. No answer carries a stack trace; a 500 shows nothing of the',
    'internals. Each problem type keeps its status within 1.x.',
    '',
    table(
      ['status', 'type', 'title', 'when'],
      slugs.map(({ slug, status }) => [
        String(status),
        `\`/problems/${slug}\``,
        PROBLEMS[slug].title,
        PROBLEM_WHEN[slug],
      ]),
    ),
    '',
    'An unknown parameter is a 400 that names it and lists the known ones:',
    '',
    INVALID_INPUT_EXAMPLE,
    '',
  ].join('\n');
}

/** Biome's formatting of `text` as the file `path`. */
function formatted(path: string, text: string): string {
  const biome = spawnSync(join(ROOT, 'node_modules/.bin/biome'), ['format', `--stdin-file-path=${path}`], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
  if (biome.status !== 0) throw new Error(`biome format ${path} failed: ${biome.stderr}`);
  return biome.stdout;
}

const ROUTES_BEGIN =
  '<!-- routes: generated from the OpenAPI document by `npm run docs`; edit the routes, not this table -->';
const ROUTES_END = '<!-- end of the generated routes -->';

interface Operation {
  method: string;
  path: string;
  summary: string;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** Every operation of the document, in the document's order. */
function operations(document: string): Operation[] {
  const { paths } = JSON.parse(document) as { paths: Record<string, Record<string, { summary?: string }>> };
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.has(method))
      .map(([method, operation]) => ({ method, path, summary: operation.summary ?? '' })),
  );
}

/**
 * The policy of each route, by method and Hono path, as the app serving requests holds it: a
 * lazily loaded route's is the one its stand-in carries (src/routes/lazy-modules.ts), which is the
 * one the guards read.
 */
function routePolicies(): Map<string, RoutePolicy> {
  const policies = new Map<string, RoutePolicy>();
  for (const route of appWithoutBroker().routes) {
    const policy = policyOf(route.handler);
    const key = routeKey(route.method, route.path);
    if (policy && !policies.has(key)) policies.set(key, policy);
  }
  return policies;
}

/**
 * One row per operation. A mirror under /clusters/{alias} has the grant action of the route it
 * mirrors (routes/clusters.ts), so it is a column of that route's row rather than a row of its own.
 */
async function routesTable(): Promise<string> {
  const all = operations(await openApiDocument());
  const policies = routePolicies();
  const known = new Set(all.map((op) => routeKey(op.method, op.path)));
  const mirrored = new Set<string>();
  const own = all.filter((op) => {
    const short = op.path.slice(CLUSTER_PREFIX.length);
    const mirror = op.path.startsWith(`${CLUSTER_PREFIX}/`) && known.has(routeKey(op.method, short));
    if (mirror) mirrored.add(routeKey(op.method, short));
    return !mirror;
  });
  return table(
    ['route', 'grant action', 'under `/clusters/{alias}`', 'what it does'],
    own.map(({ method, path, summary }) => {
      const route = routeKey(method, path);
      const policy = policies.get(routeKey(method, honoPath(path)));
      if (!policy) throw new Error(`${route} has no policy (src/http/route-policy.ts): no grant opens it`);
      return [
        `\`${route}\``,
        'action' in policy ? `\`${policy.action}\`` : 'none: open to all',
        mirrored.has(route) ? 'yes' : 'no',
        summary,
      ];
    }),
  );
}

/** `page` with the table between its generated-routes comments. */
function withRoutes(file: string, page: string, routes: string): string {
  const begin = page.indexOf(ROUTES_BEGIN);
  const end = page.indexOf(ROUTES_END);
  if (begin < 0 || end < begin) throw new Error(`${file} has no generated-routes region: ${ROUTES_BEGIN}`);
  return `${page.slice(0, begin + ROUTES_BEGIN.length)}\n\n${routes}\n\n${page.slice(end)}`;
}

export async function generateDocs(): Promise<Record<DocsFile, string>> {
  const routes = await routesTable();
  const spliced = async (file: DocsFile) =>
    formatted(file, withRoutes(file, await readFile(join(ROOT, file), 'utf8'), routes));
  return {
    'docs/configuration.md': formatted('docs/configuration.md', configurationPage()),
    'docs/problems.md': formatted('docs/problems.md', problemsPage()),
    'README.md': await spliced('README.md'),
    'docs/api.md': await spliced('docs/api.md'),
  };
}

async function main(): Promise<void> {
  const pages = await generateDocs();
  for (const file of DOCS_FILES) {
    await writeFile(join(ROOT, file), pages[file]);
    console.log(`wrote ${file}`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
