/**
 * The import graph of a source tree and the two rules the tree keeps: no cycle, and no import that
 * runs up the layer order. Every import counts: static, `export … from`, dynamic `import()` and
 * type-only ones (a type-only cycle still means two modules that cannot be understood apart).
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** File (relative to the root, '/'-separated) → the files it imports, in the same form. */
export type ImportGraph = Map<string, string[]>;

export interface Layer {
  name: string;
  /** Paths relative to the root: a folder ends with '/', anything else is one file. */
  paths: string[];
  /** Its files import nothing outside the layer. */
  sealed?: boolean;
}

/** The module specifiers a TypeScript source imports. */
export function importsOf(source: string, fileName = 'file.ts'): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The import graph of the sources under `root` (tests excluded: they are not part of the product). */
export function readImportGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const path of sourceFiles(root)) {
    const targets: string[] = [];
    for (const specifier of importsOf(readFileSync(path, 'utf8'), path)) {
      if (!specifier.startsWith('.')) continue;
      const base = resolve(dirname(path), specifier).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
      if (!target) throw new Error(`${relative(root, path)}: cannot resolve '${specifier}'`);
      targets.push(relative(root, target).split('\\').join('/'));
    }
    graph.set(relative(root, path).split('\\').join('/'), [...new Set(targets)]);
  }
  return graph;
}

function layerIndex(file: string, layers: readonly Layer[]): number {
  // The longest matching path wins, so a sub-folder can sit in another layer than its parent.
  let best = -1;
  let bestLength = -1;
  layers.forEach((layer, i) => {
    for (const p of layer.paths) {
      const hit = p.endsWith('/') ? file.startsWith(p) : file === p;
      if (hit && p.length > bestLength) {
        best = i;
        bestLength = p.length;
      }
    }
  });
  return best;
}

/** Every cycle, as one path around each strongly connected component (Tarjan). */
export function findCycles(graph: ImportGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(cyclePath(graph, component));
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) connect(v);
  return cycles;
}

/** A readable cycle through a component: a → b → … → a, starting at its first file by name. */
function cyclePath(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0] as string;
  // Breadth-first from start back to start, inside the component.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = previous.get(at) as string) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

/** What breaks the rules, one line each; empty when the tree keeps them. */
export function layerViolations(graph: ImportGraph, layers: readonly Layer[]): string[] {
  const problems: string[] = [];
  for (const [file, targets] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const from = layerIndex(file, layers);
    if (from < 0) {
      problems.push(`${file} is in no layer: add it to one`);
      continue;
    }
    for (const target of targets) {
      const to = layerIndex(target, layers);
      if (to < 0) continue; // reported as its own file
      const fromLayer = layers[from] as Layer;
      const toLayer = layers[to] as Layer;
      if (to < from) {
        problems.push(`upward import: ${file} (${fromLayer.name}) imports ${target} (${toLayer.name})`);
      } else if (to !== from && fromLayer.sealed) {
        problems.push(
          `${file} (${fromLayer.name}) imports ${target} (${toLayer.name}): ${fromLayer.name} imports nothing outside itself`,
        );
      }
    }
  }
  for (const cycle of findCycles(graph)) problems.push(`import cycle: ${cycle.join(' → ')}`);
  return problems;
}
