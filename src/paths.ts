// Path questions asked in several places, answered once.
import path from 'node:path';

/** True when `target` is `dir` itself or inside it (a child folder named `..cache` counts as inside). */
export function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}
