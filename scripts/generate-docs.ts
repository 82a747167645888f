/**
 * The reference pages made from the code (`npm run docs`):
 *
 *   docs/configuration.md   every variable the configuration reader accepts (src/config/variables.ts)
 *   docs/problems.md        the problem catalogue (src/openapi/problems.ts, problem-docs.ts)
 *
 * Each page is formatted by Biome as `npm run format` would, so the committed page is what this
 * writes. test/tree/generated-docs.test.ts regenerates in memory and fails when a committed page
 * differs.
 */

import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENV_VARIABLES, type VariableDoc, type VariableSection } from '../src/config/variables.js';
import { PROBLEM_WHEN } from '../src/openapi/problem-docs.js';
import { PROBLEMS, type ProblemSlug } from '../src/openapi/problems.js';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DOCS_FILES = ['docs/configuration.md', 'docs/problems.md'] as const;
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

export function generateDocs(): Record<DocsFile, string> {
  return {
    'docs/configuration.md': formatted('docs/configuration.md', configurationPage()),
    'docs/problems.md': formatted('docs/problems.md', problemsPage()),
  };
}

async function main(): Promise<void> {
  const pages = generateDocs();
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
