// Path questions asked in several places, answered once.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** True when `target` is `dir` itself or inside it (a child folder named `..cache` counts as inside). */
export function isInside(dir: string, target: string): boolean {
  const rel = path.relative(dir, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * A path as the file system reads it, without resolving links: `/etc//shadow`, `/etc/./shadow` and
 * `/etc/x/../shadow/` are `/etc/shadow`. The agent chooses how a path is spelt; a rule must not depend on it.
 */
export function normalPath(p: string): string {
  if (p === '') return p;
  const normal = path.posix.normalize(p);
  return normal.length > 1 ? normal.replace(/\/+$/, '') : normal;
}

/** The path with symlinks resolved, or just made absolute while it does not exist yet. */
export function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

// Where agent-hooks keeps its own files. One answer each, so the guards that protect these files,
// the trust store and the config loader can never disagree about them.

function home(env: NodeJS.ProcessEnv): string {
  return env.HOME || os.homedir();
}

/** The system-wide managed layer (the loader's `AGENT_HOOKS_MANAGED_CONFIG` names another, except when locked). */
export const DEFAULT_MANAGED_CONFIG = '/etc/agent-hooks/managed.json';

/** An XDG base folder, or undefined when unset or relative: the XDG spec says a relative one is invalid (and one relative to wherever the agent runs would be the repository's). */
function xdg(value: string | undefined): string | undefined {
  return value !== undefined && path.isAbsolute(value) ? value : undefined;
}

/** `$XDG_CONFIG_HOME/agent-hooks` (default `~/.config/agent-hooks`): the user layer lives here. */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdg(env.XDG_CONFIG_HOME) ?? path.join(home(env), '.config'), 'agent-hooks');
}

/** The user layer's file. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(userConfigDir(env), 'config.json');
}

/** `$XDG_STATE_HOME/agent-hooks` (default `~/.local/state/agent-hooks`): trust store, audit log, metadata. */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdg(env.XDG_STATE_HOME) ?? path.join(home(env), '.local', 'state'), 'agent-hooks');
}

/** `$XDG_CACHE_HOME/agent-hooks` (default `~/.cache/agent-hooks`). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(xdg(env.XDG_CACHE_HOME) ?? path.join(home(env), '.cache'), 'agent-hooks');
}
