// Git sources of `extends`: fetched with the system git into the user's cache, only at an explicit step
// (`hooks trust`, `hooks trust --fetch`). Loading a config (the hot path of every tool call) only looks in
// the cache: it never runs git and never touches the network.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../../paths.js';
import { readPrivateFile, unsafeOwnership } from '../../fs/private.js';
import type { ExtendsSource } from './source.js';

type GitSource = Extract<ExtendsSource, { kind: 'git' }>;

/** `$XDG_CACHE_HOME/agent-hooks/extends`. */
export function extendsCacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(cacheDir(env), 'extends');
}

/** The folder of one repository at one commit: the checkout is `<entry>/tree`, verified when `<entry>/ok` is there. */
export function cacheEntry(source: GitSource, env: NodeJS.ProcessEnv): string {
  return path.join(extendsCacheDir(env), createHash('sha256').update(`${source.url}\0${source.commit}`).digest('hex').slice(0, 32));
}

/**
 * The checkout of a git source, when it was fetched and verified; never fetches. Only an entry this module
 * made counts (a 0700 folder of ours with a 0600 marker): XDG_CACHE_HOME can come from a project `.env`
 * (Gemini CLI loads it into the hooks' environment), and a repository's checkout (0755 folders, 0644 files)
 * must not stand in for the user's pinned policy.
 */
export function cachedTree(source: GitSource, env: NodeJS.ProcessEnv): string | undefined {
  const entry = cacheEntry(source, env);
  try {
    const stats = lstatSync(entry);
    if (!stats.isDirectory() || unsafeOwnership(stats) !== undefined || (stats.mode & 0o077) !== 0) return undefined;
  } catch {
    return undefined;
  }
  return readPrivateFile(path.join(entry, 'ok'), { secret: true })?.trim() === source.commit ? path.join(entry, 'tree') : undefined;
}

/** Variables that would point git at another repository than the one it is making (set inside a git hook, say). */
const REPOSITORY_VARIABLES = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_COMMON_DIR', 'GIT_NAMESPACE', 'GIT_PREFIX'];

function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, GIT_TERMINAL_PROMPT: '0' };
  for (const name of REPOSITORY_VARIABLES) delete out[name];
  return out;
}

/**
 * Git as this module runs it, in the user's environment (their credential helpers and ssh keys reach a
 * private repository), never prompting (a run has no terminal to ask on) and running no hooks.
 */
function git(args: string[], cwd: string, env: NodeJS.ProcessEnv): { ok: boolean; out: string; err: string } {
  const r = spawnSync('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'advice.detachedHead=false', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: gitEnv(env),
  });
  return { ok: r.status === 0, out: r.stdout ?? '', err: (r.stderr ?? '') + (r.error === undefined ? '' : r.error.message) };
}

/**
 * Fetches exactly the pinned commit into the cache (a fresh folder, renamed into place once verified).
 * Returns the checkout, or one line saying why not.
 */
export function fetchGitSource(source: GitSource, env: NodeJS.ProcessEnv): { tree: string } | { problem: string } {
  const cached = cachedTree(source, env);
  if (cached !== undefined) return { tree: cached };
  const entry = cacheEntry(source, env);
  const work = `${entry}.tmp-${process.pid}`;
  const tree = path.join(work, 'tree');
  const fail = (why: string) => {
    rmSync(work, { recursive: true, force: true });
    return { problem: `${source.url}#${source.commit}: ${why}` };
  };
  rmSync(work, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true, mode: 0o700 });
  if (!git(['init', '--quiet', tree], work, env).ok) return fail('git init failed (is git installed?)');
  // Only the pinned commit; servers that refuse an unadvertised commit get a full fetch instead.
  let fetched = git(['fetch', '--quiet', '--depth', '1', '--', source.url, source.commit], tree, env);
  if (!fetched.ok) fetched = git(['fetch', '--quiet', '--', source.url, '+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*'], tree, env);
  if (!fetched.ok) return fail(`git fetch failed: ${fetched.err.trim().split('\n').at(-1) ?? 'no output'}`);
  if (!git(['checkout', '--quiet', '--detach', source.commit], tree, env).ok) return fail('that commit is not in the repository');
  const head = git(['rev-parse', 'HEAD'], tree, env).out.trim();
  if (head !== source.commit) return fail(`checked out ${head || 'nothing'}, not the pinned commit`);
  const dirty = git(['status', '--porcelain', '--untracked-files=all'], tree, env);
  if (!dirty.ok || dirty.out.trim() !== '') return fail('the checkout does not match the commit');
  // The repository's metadata is not needed to read its files, and a .git folder could hold hooks.
  rmSync(path.join(tree, '.git'), { recursive: true, force: true });
  writeFileSync(path.join(work, 'ok'), `${source.commit}\n`, { mode: 0o600 });
  mkdirSync(path.dirname(entry), { recursive: true, mode: 0o700 });
  rmSync(entry, { recursive: true, force: true });
  try {
    renameSync(work, entry);
  } catch (error) {
    return fail(`cannot move the checkout into ${entry}: ${(error as Error).message}`);
  }
  return existsSync(path.join(entry, 'ok')) ? { tree: path.join(entry, 'tree') } : { problem: `${source.url}#${source.commit}: not cached` };
}
