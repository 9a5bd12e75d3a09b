// Hooks in the tests are real `python3` processes, started by name from PATH as a user's config starts them.
// Where python3 on PATH is a version manager's shim (pyenv's is a bash script that runs some fifteen more
// processes to pick the interpreter: 0.23 CPU-s a start against 0.08 for the interpreter itself, measured
// here), the suite's ~700 python hooks spent a seventh of its CPU choosing the interpreter. A python3 on PATH
// that is an interpreter itself goes first instead; only when there is none, the one the shim picks. Not
// the shim's pick first: a version manager's interpreter may run site hooks at every start (the pyenv one
// here imports certifi from a .pth file: 0.08 CPU-s a start against 0.022 for Debian's /usr/bin/python3),
// and the suite needs a python3, not a particular one.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** Puts a folder whose python3 is an interpreter (not a shim) first on process.env.PATH, when PATH finds a shim first. */
export function pythonFirstOnPath(): void {
  const entries = (process.env.PATH ?? '').split(path.delimiter);
  const candidates = entries.filter((entry) => {
    try {
      accessSync(path.join(entry, 'python3'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  if (candidates.length === 0) return;
  // The folder of the interpreter a python3 really is (a shim answers with another folder), or undefined.
  const home = (entry: string) => {
    const found = spawnSync(path.join(entry, 'python3'), ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 20_000 });
    const executable = found.status === 0 ? found.stdout.trim() : '';
    return path.isAbsolute(executable) ? path.dirname(executable) : undefined;
  };
  const first = path.resolve(candidates[0]!);
  const firstHome = home(first);
  if (firstHome === first) return; // PATH's python3 is an interpreter: what a hook runs already
  const real = candidates.slice(1).find((entry) => home(entry) === path.resolve(entry));
  const dir = real ?? firstHome;
  if (dir === undefined) return;
  process.env.PATH = [dir, ...entries].join(path.delimiter);
}
