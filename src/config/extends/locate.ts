// Where an `extends` entry points, as a file to read, or one line saying why it is refused. Nothing is
// parsed here and git is never run unless the caller asks to fetch (an explicit step, never `hooks run`).
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../../paths.js';
import { unsafeOwnership } from '../../fs/private.js';
import { cachedTree, extendsCacheDir, fetchGitSource } from './git.js';
import { EXTENDS_DATA, type ExtendsSource } from './source.js';

/** The names looked for in a package or repository named without a file. */
export const EXTENDS_DEFAULT_FILES = ['.hooksrc.json', '.hooksrc.yaml', '.hooksrc.yml', 'hooks.json'];

export interface LocateContext {
  /** The file that names the entry. */
  from: string;
  /** The layer it belongs to: a project or local layer's entries must stay inside `root`. */
  layer: string;
  /**
   * Where a project's extended files may be (the project folder, with its node_modules); undefined for the
   * user and managed layers, which may name any file of the user's.
   */
  root?: string;
  env: NodeJS.ProcessEnv;
  /** Fetch a git source missing from the cache (`hooks trust`), instead of reporting it; a function decides per source. */
  fetch?: FetchPolicy;
}

/** Whether to fetch a git source missing from the cache: always, never, or as a function decides (and, say, records it). */
export type FetchPolicy = boolean | ((source: Extract<ExtendsSource, { kind: 'git' }>) => boolean);

export type Located = { file: string; real: string; source: ExtendsSource } | { problem: string };

export function locateExtends(source: ExtendsSource, ctx: LocateContext): Located {
  const fromDir = path.dirname(ctx.from);
  const confined = ctx.root !== undefined;
  if (source.kind === 'path') {
    if (source.path.startsWith('~')) {
      if (confined) return { problem: `"${source.path}": a ${ctx.layer} file may only extend files inside its project (${ctx.root}), not in your home folder` };
      return checked(path.join(ctx.env.HOME ?? '', source.path.slice(1)), source, ctx, ctx.root);
    }
    return checked(path.resolve(fromDir, source.path), source, ctx, inGitTree(ctx.from, ctx.env) ?? ctx.root);
  }
  if (source.kind === 'package') {
    // Node's lookup: node_modules in the naming file's folder, then in each folder above it.
    const stop = ctx.root === undefined ? undefined : realOr(ctx.root);
    for (let dir = fromDir; ; dir = path.dirname(dir)) {
      const pkg = path.join(dir, 'node_modules', source.name);
      if (isDir(pkg)) {
        if (source.subpath !== undefined) return checked(path.join(pkg, source.subpath), source, ctx, ctx.root);
        const found = EXTENDS_DEFAULT_FILES.map((n) => path.join(pkg, n)).find((f) => exists(f));
        if (found === undefined) return { problem: `package ${source.name} (${pkg}) has none of ${EXTENDS_DEFAULT_FILES.join(', ')}; name the file: "${source.name}/<file>.json"` };
        return checked(found, source, ctx, ctx.root);
      }
      if (stop !== undefined && realOr(dir) === stop) break;
      if (path.dirname(dir) === dir) break;
    }
    return { problem: `package ${source.name} is not installed in a node_modules folder ${confined ? `of ${ctx.root}` : `above ${fromDir}`} (run npm install)` };
  }
  let tree = cachedTree(source, ctx.env);
  if (tree === undefined) {
    if (!(typeof ctx.fetch === 'function' ? ctx.fetch(source) : ctx.fetch === true)) {
      // A project's source is fetched by the review, which asks first (the repository chose the URL); the user's
      // and the managed layer's by --fetch.
      const how = ctx.layer === 'project' || ctx.layer === 'local' ? 'review the project (it asks before it fetches): npx agent-hooks trust' : 'fetch it (once, then it is used offline): npx agent-hooks trust --fetch';
      return { problem: `${source.url}#${source.commit.slice(0, 12)} is not fetched yet, so its hooks do not run; ${how}` };
    }
    const fetched = fetchGitSource(source, ctx.env);
    if ('problem' in fetched) return fetched;
    tree = fetched.tree;
  }
  const file = source.path === undefined ? EXTENDS_DEFAULT_FILES.map((n) => path.join(tree!, n)).find((f) => exists(f)) : path.join(tree, source.path);
  if (file === undefined) return { problem: `${source.url}#${source.commit.slice(0, 12)} has none of ${EXTENDS_DEFAULT_FILES.join(', ')} at its root; name the file after the hash: #<commit>:path/policy.json` };
  return checked(file, source, ctx, tree);
}

/** The checkout folder a file of the extends cache is in, if it is in one. */
function inGitTree(file: string, env: NodeJS.ProcessEnv): string | undefined {
  const cache = realOr(extendsCacheDir(env));
  const real = realOr(file);
  if (!isInside(cache, real) || real === cache) return undefined;
  const [entry] = path.relative(cache, real).split(path.sep);
  return path.join(cache, entry!, 'tree');
}

/** A located file, once its real path stays where it must and it is a regular, data-only file that is safe to read. */
function checked(file: string, source: ExtendsSource, ctx: LocateContext, within: string | undefined): Located {
  let real: string;
  try {
    real = realpathSync.native(file);
  } catch {
    return { problem: `${file}: not found` };
  }
  if (within !== undefined && !isInside(realOr(within), real)) {
    return { problem: `${file} leads to ${real}, outside ${within}: a ${ctx.layer} file may only extend files inside its project (or a pinned git source)` };
  }
  if (!EXTENDS_DATA.test(file)) return { problem: `${file}: an extended file must be JSON or YAML (.json, .yaml, .yml): a JavaScript config would run code` };
  let stats;
  try {
    stats = statSync(real);
  } catch (error) {
    return { problem: `${file}: ${(error as Error).message}` };
  }
  if (!stats.isFile()) return { problem: `${file}: not a regular file` };
  // A managed file is root's; what it extends must not be open to others either. The others must be yours.
  const unsafe = ctx.layer === 'managed' ? ((stats.mode & 0o022) !== 0 ? `writable by group or others (mode ${(stats.mode & 0o777).toString(8)})` : undefined) : unsafeOwnership(stats);
  if (unsafe !== undefined) return { problem: `${file}: skipped: the file is ${unsafe}` };
  return { file, real, source };
}

function realOr(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return path.resolve(p);
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}
