// What an installed entry runs to start agent-hooks, chosen so the entry works wherever the file goes.
//
// A project's settings are committed and read in every clone, on every teammate's machine, so they
// may never name this machine's absolute path. They run the project's own dependency, by a path
// relative to the project folder as the agent names it (Claude Code's $CLAUDE_PROJECT_DIR, ...), or,
// in a project without one, the `agent-hooks` every teammate installed globally (on PATH).
// A user's settings serve every project, so they must run a copy that outlives the project install
// ran from: a global install (absolute path). A project's dependency or npx's cache is refused.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { isRecord } from '../json.js';
import { hooksBin, isTransient, packageRoot } from './bin.js';
import type { Scope } from './scope.js';

/** The package's bin name that cannot collide (`hooks` on npm is an unrelated package). */
export const BIN_NAME = 'agent-hooks';

export type Launcher =
  /** The project's dependency: `rel` is the bin's path relative to the project folder (`/`-separated). */
  | { kind: 'project'; rel: string }
  /** `agent-hooks` on PATH: a global install on each machine. */
  | { kind: 'path' }
  /**
   * This absolute path (user scope: a global install). With `node`, run by that interpreter (a locked
   * install, install/managed.ts): never the bin's `#!/usr/bin/env node`, which looks node up on PATH.
   */
  | { kind: 'absolute'; bin: string; node?: string };

export interface LauncherChoice {
  launcher: Launcher;
  /** Something the user should know about the choice (printed on stderr). */
  note?: string;
}

/**
 * The launcher for an install into `scope`, from the project folder `base` (the folder the agent's
 * project variable names), with `running` the bin of the agent-hooks copy doing the install.
 */
export function chooseLauncher(scope: Scope, base: string, running: string = hooksBin()): LauncherChoice {
  const copy = copyKind(running);
  if (scope === 'user') {
    if (copy.kind !== 'global') throw new HooksError('USAGE', `install --user: ${copy.why}; a user-level install serves every project, so it must run a copy that outlives this one: install agent-hooks globally (npm i -g agent-hooks) and run "agent-hooks install <agent> --user" from it`);
    return { launcher: { kind: 'absolute', bin: running } };
  }
  const dependency = projectDependency(base);
  if (dependency !== undefined) return { launcher: { kind: 'project', rel: dependency } };
  if (copy.kind === 'global') {
    return {
      launcher: { kind: 'path' },
      note: `agent-hooks is not a dependency of this project, so the entries run the "${BIN_NAME}" on PATH: every teammate needs it installed globally (npm i -g agent-hooks), or add it to the project (npm i -D agent-hooks) and install again`,
    };
  }
  throw new HooksError('USAGE', `install: agent-hooks is not a dependency of this project and ${copy.why}; add it to the project (npm i -D agent-hooks) so every clone runs node_modules/.bin/${BIN_NAME}, or install it globally`);
}

/**
 * The project's own agent-hooks bin, relative to `base`: `node_modules/.bin/agent-hooks` when the
 * project's package.json depends on agent-hooks or that bin is there (a workspace root above may hold
 * it: the nearest one up to the repository root is used). Undefined when the project has none.
 */
export function projectDependency(base: string): string | undefined {
  if (dependsOnUs(path.join(base, 'package.json'))) return `node_modules/.bin/${BIN_NAME}`;
  for (let dir = base; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', 'agent-hooks', 'package.json'))) {
      return path.relative(base, path.join(dir, 'node_modules', '.bin', BIN_NAME)).split(path.sep).join('/');
    }
    // Never above the repository: a folder outside it is not the project's, and may be anyone's.
    if (existsSync(path.join(dir, '.git')) || path.dirname(dir) === dir) return undefined;
  }
}

const GLOBAL_FOLDERS = /\/(pnpm\/global\/[^/]+|yarn\/global|\.bun\/install\/global)$/;

/** Where the running copy lives: a global install, a project's dependency, or npx's cache. */
export function copyKind(bin: string): { kind: 'global' } | { kind: 'local' | 'transient'; why: string } {
  if (isTransient(bin)) return { kind: 'transient', why: `this copy (${bin}) is in npx's cache, which npm may clear` };
  const root = packageRoot(bin);
  const parts = root.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at > 0) {
    const owner = parts.slice(0, at).join(path.sep) || path.sep;
    // npm's global installs sit in <prefix>/lib/node_modules, with no package.json beside it; pnpm's,
    // yarn's and bun's global folders have one, and are known by their place.
    if (existsSync(path.join(owner, 'package.json')) && !GLOBAL_FOLDERS.test(owner.split(path.sep).join('/'))) {
      return { kind: 'local', why: `this copy (${root}) is a dependency of the project ${owner}` };
    }
  }
  return { kind: 'global' };
}

/** The repository root above `cwd` (the nearest `.git`), else `cwd` itself. */
export function gitRoot(cwd: string): string {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return cwd;
  }
}

/**
 * Codex and Copilot run hooks in the session's folder and name no project folder, so their entries
 * find the repository root themselves (where their project settings are read from), else the cwd.
 */
export const GIT_ROOT_DIR = { shell: '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"', base: gitRoot };

function dependsOnUs(file: string): boolean {
  try {
    const pkg: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isRecord(pkg)) return false;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((key) => isRecord(pkg[key]) && (pkg[key] as Record<string, unknown>)['agent-hooks'] !== undefined);
  } catch {
    return false;
  }
}
