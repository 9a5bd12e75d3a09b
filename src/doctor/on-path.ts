// Where a program would be found on PATH, as a shell finds it, for doctor's checks.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** An executable regular file. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The first executable `program` in PATH's folders. Relative entries (`.`, `bin`, an empty one) are
 * passed over: what they find depends on the folder the agent happens to run in, and in a cloned
 * repository that is the repository's own file.
 */
export function findOnPath(program: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const file = path.join(dir, program);
    if (isExecutable(file)) return file;
  }
  return undefined;
}
