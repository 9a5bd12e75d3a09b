// The house's rooms depend one way: no import cycle anywhere in src/, and nothing outside src/cli/ imports
// the CLI's room. A tiny regex scanner reads the imports (static, type-only, re-exports and import() of a
// literal); type-only imports count, because a circle of types is still two rooms that need each other.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');

type Graph = Map<string, string[]>;

/** The relative specifiers a module's text imports or re-exports. */
function importsOf(text: string): string[] {
  const found: string[] = [];
  // Anchored at a line start, so prose in comments that mentions `import ... from` is not read as one.
  const statement = /^[ \t]*(?:import|export)\b(?:[^;'"]*?\bfrom)?[ \t]*['"](\.{1,2}\/[^'"]+)['"]/gm;
  const dynamic = /\bimport\([ \t]*['"](\.{1,2}\/[^'"]+)['"][ \t]*\)/g;
  for (const m of text.matchAll(statement)) found.push(m[1]!);
  // Lines of comment only are left out: they quote import('./x') as an example.
  const code = text.replace(/^[ \t]*(?:\/\/|\/?\*).*$/gm, '');
  for (const m of code.matchAll(dynamic)) found.push(m[1]!);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** Every module of src/ (relative to the root) with the modules it imports, and the specifiers that name no file. */
function readGraph(): { graph: Graph; unresolved: string[] } {
  const graph: Graph = new Map();
  const unresolved: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = path.relative(ROOT, file);
    const deps = new Set<string>();
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
      let exists = false;
      try {
        exists = statSync(target).isFile();
      } catch {
        // reported below
      }
      if (exists) deps.add(path.relative(ROOT, target));
      else unresolved.push(`${from}: ${spec}`);
    }
    graph.set(from, [...deps].sort());
  }
  return { graph, unresolved };
}

/** The strongly connected components with more than one module, or one importing itself (Tarjan). */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A cycle as its edges inside the component: the lines to read when the test fails. */
function describeCycle(graph: Graph, component: string[]): string {
  return component.map((m) => `${m} -> ${(graph.get(m) ?? []).filter((d) => component.includes(d)).join(', ')}`).join('\n  ');
}

const isCli = (module: string) => module.startsWith(`src${path.sep}cli${path.sep}`);

describe('the scanner', () => {
  it('reads static, type-only, multi-line, side-effect, re-export and dynamic imports, and no prose', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      'import {',
      '  c,',
      '  d,',
      "} from './cd.js';",
      "import './side.js';",
      "export { e } from './e.js';",
      "export * from './star.js';",
      "export type { F } from './f.js';",
      "const g = await import('./g.js');",
      "import kleur from 'kleur';",
      " * The launcher's import() of the bundle's own; see import x from './not-code.js' in prose.",
      "// as `import('./x')` does",
      "const s = 'import { h } from ./h.js';",
      "export const DEFAULT = './not-an-import.js';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['./a.js', '../b.js', './cd.js', './side.js', './e.js', './star.js', './f.js', './g.js']);
  });

  it('finds a cycle of two, of three, a self-import, and none in a one-way graph', () => {
    const graph: Graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', []],
      ['x', ['y']],
      ['y', ['z']],
      ['z', ['x']],
      ['s', ['s']],
    ]);
    expect(cycles(graph).map((c) => c.join(' ')).sort()).toEqual(['a b', 's', 'x y z']);
    expect(cycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });
});

describe('src/ imports', () => {
  const { graph, unresolved } = readGraph();

  it('read the whole of src/ (the scanner has not gone blind)', () => {
    expect(graph.size).toBeGreaterThan(100);
    // Edges known to exist: a static import, a type-only one and a dynamic one.
    expect(graph.get(path.join('src', 'engine.ts'))).toContain(path.join('src', 'trust', 'recheck.ts'));
    expect(graph.get(path.join('src', 'config', 'resolve.ts'))).toContain(path.join('src', 'trust', 'recheck.ts'));
    expect(graph.get(path.join('src', 'cli', 'main.ts'))).toContain(path.join('src', 'cli', 'commands', 'run.ts'));
  });

  it('name only files that exist', () => {
    expect(unresolved).toEqual([]);
  });

  it('form no cycle', () => {
    expect(cycles(graph).map((c) => describeCycle(graph, c))).toEqual([]);
  });

  it('reach the CLI (src/cli/) only from the CLI', () => {
    const reaching = [...graph].flatMap(([from, deps]) => (isCli(from) ? [] : deps.filter(isCli).map((to) => `${from} -> ${to}`)));
    expect(reaching).toEqual([]);
  });
});
