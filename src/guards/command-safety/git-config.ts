// Reads the git aliases a `git x` in the agent's command would expand: system, global (XDG and
// ~/.gitconfig) and the repository's config, in git's order (later wins), with their includes.
// Read files directly (no `git config` spawn): a few small reads cost far less than a process.
// Every file here can be written by the agent or shipped by an attacker, so each read is bounded
// and a file that cannot be read or parsed adds nothing.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseConfigParameters, parseGitConfig } from '../shell/git-aliases.js';

/** Bytes read from one config file; the rest is ignored. */
const MAX_FILE_BYTES = 1 << 20;
/** Config files read in all, includes counted; and how deep includes are followed. */
const MAX_FILES = 16;
const MAX_INCLUDE_DEPTH = 4;
/** Directories walked up from the working directory to find the repository. */
const MAX_UP = 64;

export function readGitAliases(cwd: string | undefined, home: string | undefined, env: NodeJS.ProcessEnv): Record<string, string> {
  const aliases: Record<string, string> = {};
  let files = 0;
  const read = (file: string, depth: number): void => {
    if (files >= MAX_FILES) return;
    files += 1;
    const text = readBounded(file);
    if (text === undefined) return;
    const parsed = parseGitConfig(text);
    for (const [name, value] of parsed.aliases) aliases[name] = value;
    if (depth >= MAX_INCLUDE_DEPTH) return;
    for (const include of parsed.includes) {
      const target = include.startsWith('~/') && home !== undefined ? path.join(home, include.slice(2)) : path.resolve(path.dirname(file), include);
      read(target, depth + 1);
    }
  };
  if (env.GIT_CONFIG_NOSYSTEM === undefined) read(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig', 0);
  if (env.GIT_CONFIG_GLOBAL !== undefined) read(env.GIT_CONFIG_GLOBAL, 0);
  else {
    const xdg = env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : home !== undefined ? path.join(home, '.config') : undefined;
    if (xdg !== undefined) read(path.join(xdg, 'git', 'config'), 0);
    if (home !== undefined) read(path.join(home, '.gitconfig'), 0);
  }
  const repo = repositoryConfig(cwd, env);
  if (repo !== undefined) read(repo, 0);
  // `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`: settings given in the environment.
  const count = Math.min(Number(env.GIT_CONFIG_COUNT ?? 0) || 0, 256);
  for (let i = 0; i < count; i += 1) {
    const key = /^alias\.(.+)$/i.exec(env[`GIT_CONFIG_KEY_${i}`] ?? '');
    const value = env[`GIT_CONFIG_VALUE_${i}`];
    if (key && value !== undefined) aliases[key[1]!.toLowerCase()] = value;
  }
  // `GIT_CONFIG_PARAMETERS`: what `git -c` passes down to the git commands it runs, read after the above.
  for (const { key, value } of parseConfigParameters(env.GIT_CONFIG_PARAMETERS ?? '') ?? []) {
    const alias = /^alias\.(.+)$/i.exec(key);
    if (alias) aliases[alias[1]!.toLowerCase()] = value;
  }
  return aliases;
}

/** The repository's config file: `$GIT_DIR/config`, or that of the `.git` found above `cwd` (a worktree's common dir). */
function repositoryConfig(cwd: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (env.GIT_DIR !== undefined && env.GIT_DIR !== '') return path.join(path.resolve(cwd ?? '/', env.GIT_DIR), 'config');
  if (cwd === undefined || !cwd.startsWith('/')) return undefined;
  let dir = cwd;
  for (let i = 0; i < MAX_UP; i += 1) {
    const dotGit = path.join(dir, '.git');
    const gitDir = gitDirOf(dotGit);
    if (gitDir !== undefined) {
      const common = readBounded(path.join(gitDir, 'commondir'))?.trim();
      return path.join(common ? path.resolve(gitDir, common) : gitDir, 'config');
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** `.git` as a folder, or a `gitdir: …` file (worktrees, submodules). */
function gitDirOf(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return undefined;
  }
  const line = /^gitdir:\s*(.+)$/m.exec(readBounded(dotGit) ?? '');
  return line ? path.resolve(path.dirname(dotGit), line[1]!.trim()) : undefined;
}

/**
 * A regular file's first MAX_FILE_BYTES as text; undefined when it is not there or not a regular
 * file (opened without blocking, so a FIFO planted as `.git/config` cannot stall the guard).
 */
function readBounded(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_FILE_BYTES));
    let n = 0;
    while (n < buffer.length) {
      const got = readSync(fd, buffer, n, buffer.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
