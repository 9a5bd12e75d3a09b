// The local modules a JavaScript file loads: every static `import … from './x'`, `export … from './x'`,
// `import './x'`, `import('./x')` and `require('./x')` with a relative specifier written as a string
// literal, followed from file to file. A light scanner, not a parser: a specifier inside a comment or a
// string counts too (covering more is safe). What it cannot see: a specifier computed at run time
// (`import(name)`, `require(path.join(…))`, `createRequire`), a file read as data (`readFileSync`,
// `new URL('./x', import.meta.url)`), and packages (bare specifiers, node_modules).
import path from 'node:path';

/** Relative specifiers in `source`, in order of appearance, without repeats. */
export function relativeSpecifiers(source: string): string[] {
  const found = new Set<string>();
  // `from '…'`, `import '…'`, `import('…')`, `require('…')`, `import.meta.resolve('…')`; any quote.
  const pattern = /(?:\bfrom|\bimport|\brequire|\bresolve)\s*\(?\s*(['"`])(\.{1,2}\/[^'"`\n$\\]*|\.{1,2})\1/g;
  for (const m of source.matchAll(pattern)) found.add(m[2]!);
  return [...found];
}

/**
 * Every file a specifier could load, in the order Node tries them, up to and including the first that
 * `exists`: for `require` the extensions and `index` files too. A file created later at an earlier place
 * would be loaded instead, so the ones before count as covered (as missing).
 */
export function candidates(fromFile: string, specifier: string, exists: (file: string) => 'file' | 'dir' | 'absent'): string[] {
  let decoded = specifier;
  try {
    decoded = decodeURIComponent(specifier);
  } catch {
    // Not URL-encoded after all: as written.
  }
  const base = path.resolve(path.dirname(fromFile), decoded);
  const tried = [base, ...['.js', '.json', '.node', '.mjs', '.cjs', '.ts', '.mts', '.cts'].map((ext) => base + ext), ...['index.js', 'index.json', 'index.node', 'index.mjs', 'index.cjs', 'index.ts'].map((f) => path.join(base, f)), path.join(base, 'package.json')];
  const out: string[] = [];
  for (const file of tried) {
    const kind = exists(file);
    if (kind === 'dir') continue;
    out.push(file);
    if (kind === 'file') break;
  }
  return out;
}

export const JS_SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/i;
