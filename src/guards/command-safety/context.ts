// Where a command runs: the event's working directory, the project root, home and temp dirs.
// Paths are compared in one canonical form, with the home directory spelled `~`.
import { normalizePath } from '../shell/paths.js';
import { DANGEROUS_TREE, classifyPath } from './paths.js';

/** What the host knows about where the command will run. Every field is optional. */
export interface JudgeContext {
  /** The event's `cwd`: the directory the agent runs the command in. */
  cwd?: string;
  /** The project root (`CLAUDE_PROJECT_DIR`, `HOOKS_PROJECT_DIR`, the config's folder). */
  projectDir?: string;
  /** The user's home directory, so `/home/dev/x` and `~/x` are the same path. */
  home?: string;
  /** `$TMPDIR`, a temp directory beside `/tmp`. */
  tmpDir?: string;
  /** Git aliases from the user's and the repository's git config (`p` → `push --force`). */
  gitAliases?: Readonly<Record<string, string>>;
}

export interface Where {
  /** The home directory, to spell paths under it with `~`. */
  home: string | undefined;
  /** Canonical working directory, when known. */
  cwd: string | undefined;
  /** Canonical project root, unless unknown or too broad to be a project (`/`, `~`, `/home`). */
  project: string | undefined;
  /** Directories below which deletes are fine: temp dirs, caches, `allowDeleteIn`. */
  scratch: string[];
  /** Directories that may themselves be deleted too (caches, `allowDeleteIn`). */
  scratchRoots: string[];
  /** Git aliases known from config files. */
  gitAliases: ReadonlyMap<string, string> | undefined;
}

const TEMP_DIRS = ['/tmp', '/var/tmp', '/private/tmp', '/private/var/folders', '/var/folders', '/dev/shm'];
/** Caches that tools rebuild on their own: deleting them costs a download, not work. */
const CACHE_DIRS = [
  '~/.cache', '~/Library/Caches', '~/.npm', '~/.npm/_npx', '~/.npm/_logs', '~/.cargo/registry', '~/.cargo/git',
  '~/.gradle/caches', '~/.m2/repository', '~/go/pkg/mod', '~/.pnpm-store', '~/.local/share/pnpm/store', '~/.yarn/cache',
  '~/.bun/install/cache', '~/.nuget/packages', '~/.ivy2/cache', '~/.sbt/boot', '~/.cache/pip', '~/.pyenv/cache',
  '~/.rustup/tmp', '~/.rustup/downloads', '~/.deno', '~/.expo', '~/.vscode-server/data/logs', '~/.docker/buildx',
  '/var/cache/apt', '/var/lib/apt/lists', '/var/cache/yum', '/var/cache/dnf', '/var/cache/apk', '/var/cache/pacman/pkg',
];

/** `/home/dev/x` → `~/x` when home is `/home/dev`; otherwise the normalized path. */
export function canonical(path: string, home: string | undefined): string {
  const normalized = normalizePath(path);
  if (home === undefined || home === '' || home === '/' || !home.startsWith('/')) return normalized;
  const h = normalizePath(home);
  if (normalized === h) return '~';
  return normalized.startsWith(`${h}/`) ? `~${normalized.slice(h.length)}` : normalized;
}

export function resolveWhere(context: JudgeContext = {}, allowDeleteIn: readonly string[] = []): Where {
  const { home } = context;
  const absolute = (p: string | undefined): string | undefined => (typeof p === 'string' && p.startsWith('/') ? canonical(p, home) : undefined);
  const cwd = absolute(context.cwd);
  const project = absolute(context.projectDir) ?? cwd;
  const broad = project !== undefined && DANGEROUS_TREE.has(classifyPath(project));
  const tmp = absolute(context.tmpDir);
  const extra = allowDeleteIn.map((p) => canonical(p, home));
  return {
    home,
    cwd,
    project: broad ? undefined : project,
    scratch: [...TEMP_DIRS, ...(tmp !== undefined && !DANGEROUS_TREE.has(classifyPath(tmp)) ? [tmp] : []), ...CACHE_DIRS, ...extra],
    scratchRoots: [...CACHE_DIRS, ...extra],
    gitAliases: context.gitAliases !== undefined ? new Map(Object.entries(context.gitAliases).map(([k, v]) => [k.toLowerCase(), v])) : undefined,
  };
}

/** `path` is `dir` or below it (both canonical). */
export function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** `path` is strictly below `dir`. */
export function below(path: string, dir: string): boolean {
  return path !== dir && within(path, dir);
}
