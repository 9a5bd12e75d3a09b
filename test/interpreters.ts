// Hooks in the tests are real `python3` processes, started by name from PATH as a user's config starts them.
// Where python3 on PATH is a version manager's shim (pyenv's is a bash script that runs some fifteen more
// processes to pick the interpreter: 0.23 CPU-s a start against 0.08 for the interpreter itself, measured
// here), the suite's ~700 python hooks spent a seventh of its CPU choosing the interpreter. The interpreter
// the shim picks goes first on PATH instead: the same python3, started directly.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Puts the folder of the interpreter `python3` resolves to first on process.env.PATH, when that differs from where PATH finds it. */
export function pythonFirstOnPath(): void {
  const found = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 20_000 });
  const executable = found.status === 0 ? found.stdout.trim() : '';
  if (!path.isAbsolute(executable)) return;
  const dir = path.dirname(executable);
  const entries = (process.env.PATH ?? '').split(path.delimiter);
  // The first folder on PATH that has a python3 is what a hook would run: nothing to do when it is the interpreter's own.
  const first = entries.find((entry) => {
    try {
      accessSync(path.join(entry, 'python3'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (first === undefined || path.resolve(first) === dir) return;
  process.env.PATH = [dir, ...entries].join(path.delimiter);
}
