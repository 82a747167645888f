/**
 * The house's layers, checked on every unit run: no import cycle under src/, and no import that
 * runs up this order. A layer may import itself and any layer below it, never one above.
 *
 *   runtime        src/runtime/: sockets and configuration per platform, nothing else
 *   app            src/app.ts: middleware, routes and the document put together
 *   routes         src/routes/: parse, ask the service, shape the JSON
 *   metrics        src/metrics/: the /metrics families and series of the groups' readings, and
 *                  their two naming schemes (the exposition format is http/'s)
 *   http           src/http/: request-scoped pieces: limits, audit, visibility, the write guard and
 *                  the error → HTTP mapping
 *   auth, config   src/auth/ (credentials and grants: they know no request) and src/config.ts,
 *                  src/config/ (the environment read once into each layer's settings; it parses
 *                  grants and API keys with auth/, and builds the transport's own settings)
 *   wiring         src/wiring.ts: settings → connections → group service
 *   groups         src/groups/: the domain
 *   openapi        src/openapi/: the API's shapes (the zod schemas the document is made from, which
 *                  also type what the domain returns) and the problem catalogue; it knows only the
 *                  vocabulary, so the domain can infer its types from it
 *   broker         src/broker/ but protocol: connections, the pool, SASL, its own settings and errors
 *   protocol       src/broker/protocol/: pure codecs, importing nothing outside themselves
 *   foundation     src/logger.ts, src/tokens/: needed at every level, importing nothing above
 *   vocabulary     src/vocabulary.ts: the shared words (group types and states, grant actions,
 *                  verdicts, reset scenarios); imports nothing
 *
 * Tests beside the code are not part of the product and are not read.
 */

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findCycles,
  type ImportGraph,
  importsOf,
  type Layer,
  layerViolations,
  readImportGraph,
} from './import-graph.js';

const LAYERS: readonly Layer[] = [
  { name: 'runtime', paths: ['runtime/'] },
  { name: 'app', paths: ['app.ts'] },
  { name: 'routes', paths: ['routes/'] },
  { name: 'metrics', paths: ['metrics/'] },
  { name: 'http', paths: ['http/'] },
  { name: 'auth, config', paths: ['auth/', 'config.ts', 'config/'] },
  { name: 'wiring', paths: ['wiring.ts'] },
  { name: 'groups', paths: ['groups/'] },
  { name: 'openapi', paths: ['openapi/'] },
  { name: 'broker', paths: ['broker/'] },
  { name: 'protocol', paths: ['broker/protocol/'], sealed: true },
  { name: 'foundation', paths: ['logger.ts', 'tokens/'] },
  { name: 'vocabulary', paths: ['vocabulary.ts'], sealed: true },
];

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

describe('the layers of src/', () => {
  it('has no import cycle and no upward import', () => {
    expect(layerViolations(readImportGraph(SRC), LAYERS)).toEqual([]);
  });

  it('puts every source file in a layer', () => {
    const graph = readImportGraph(SRC);
    expect(graph.size).toBeGreaterThan(50);
    expect(layerViolations(graph, LAYERS).filter((p) => p.includes('in no layer'))).toEqual([]);
  });
});

describe('the layer checker', () => {
  const layers: Layer[] = [
    { name: 'top', paths: ['top/'] },
    { name: 'middle', paths: ['middle/'] },
    { name: 'bottom', paths: ['bottom/'] },
    { name: 'codec', paths: ['bottom/codec/'], sealed: true },
  ];
  const graphOf = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

  it('passes a tree whose arrows point down', () => {
    const graph = graphOf({
      'top/a.ts': ['middle/b.ts', 'bottom/c.ts'],
      'middle/b.ts': ['bottom/c.ts', 'bottom/codec/d.ts'],
      'bottom/c.ts': [],
      'bottom/codec/d.ts': [],
    });
    expect(layerViolations(graph, layers)).toEqual([]);
  });

  it('reports an upward import', () => {
    const graph = graphOf({ 'top/a.ts': [], 'bottom/c.ts': ['top/a.ts'] });
    expect(layerViolations(graph, layers)).toEqual([
      'upward import: bottom/c.ts (bottom) imports top/a.ts (top)',
    ]);
  });

  it('reports a cycle inside one layer, with its path', () => {
    const graph = graphOf({
      'middle/a.ts': ['middle/b.ts'],
      'middle/b.ts': ['middle/c.ts'],
      'middle/c.ts': ['middle/a.ts'],
    });
    expect(layerViolations(graph, layers)).toEqual([
      'import cycle: middle/a.ts → middle/b.ts → middle/c.ts → middle/a.ts',
    ]);
  });

  it('reports a cycle across layers as an upward import and a cycle', () => {
    const graph = graphOf({ 'top/a.ts': ['bottom/c.ts'], 'bottom/c.ts': ['top/a.ts'] });
    expect(layerViolations(graph, layers)).toEqual([
      'upward import: bottom/c.ts (bottom) imports top/a.ts (top)',
      'import cycle: bottom/c.ts → top/a.ts → bottom/c.ts',
    ]);
  });

  it('reports a file importing itself', () => {
    expect(findCycles(graphOf({ 'top/a.ts': ['top/a.ts'] }))).toEqual([['top/a.ts', 'top/a.ts']]);
  });

  it('reports a sealed layer importing out, even downward', () => {
    const graph = graphOf({ 'bottom/codec/d.ts': ['bottom/c.ts'], 'bottom/c.ts': [] });
    expect(layerViolations(graph, layers)).toEqual([
      'upward import: bottom/codec/d.ts (codec) imports bottom/c.ts (bottom)',
    ]);
    const sealedDown = graphOf({ 'bottom/codec/d.ts': ['x/e.ts'], 'x/e.ts': [] });
    expect(layerViolations(sealedDown, [...layers, { name: 'x', paths: ['x/'] }])).toEqual([
      'bottom/codec/d.ts (codec) imports x/e.ts (x): codec imports nothing outside itself',
    ]);
  });

  it('reports a file in no layer', () => {
    expect(layerViolations(graphOf({ 'elsewhere.ts': [] }), layers)).toEqual([
      'elsewhere.ts is in no layer: add it to one',
    ]);
  });

  it('reads static, re-exported, dynamic and type-only imports', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "const e = await import('./e.js');",
      "type F = import('./f.js').F;",
      "import 'node:fs';",
      'const text = "import { g } from \'./g.js\'";',
    ].join('\n');
    expect(importsOf(source)).toEqual([
      './a.js',
      './b.js',
      './c.js',
      './d.js',
      './e.js',
      './f.js',
      'node:fs',
    ]);
  });
});
