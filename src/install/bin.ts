// Where this package's bin is, found from the module's own location, whether it runs from src/,
// dist/ or the esbuild bundle in dist/bundle/ (whose chunks sit one folder deeper still).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HooksError } from '../errors.js';

const PACKAGE_NAME = 'agent-hooks';

/** The folder holding agent-hooks' package.json, walking up from `from` (a file URL or path). */
export function packageRoot(from: string = import.meta.url): string {
  let dir = path.dirname(from.startsWith('file:') ? fileURLToPath(from) : from);
  for (;;) {
    if (isOurPackage(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new HooksError('INTERNAL', `cannot find the ${PACKAGE_NAME} package.json above ${from}`);
    dir = parent;
  }
}

/** The absolute path of this copy's `bin/hooks.js` (what a --user install runs, when this copy is global). */
export function hooksBin(from?: string): string {
  const bin = path.join(packageRoot(from), 'bin', 'hooks.js');
  if (!existsSync(bin)) throw new HooksError('INTERNAL', `${bin}: the hooks bin is missing`);
  return bin;
}

/** True when the bin lives in npx's cache, which npm may clear at any time. */
export function isTransient(bin: string): boolean {
  return bin.split(path.sep).includes('_npx');
}

function isOurPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    // No package.json here, or someone else's that does not parse: keep walking.
    return false;
  }
}
