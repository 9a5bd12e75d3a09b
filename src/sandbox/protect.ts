// What stays read-only inside a sandbox's writable folders: everything there that the host runs or an
// agent reads as settings, so that a sandboxed command cannot plant code the host runs later
// (a hook script, a git hook, the runner, an agent's hook settings, an .envrc).
//
// A path is kept by a read-only bind mount onto itself. A bind mount cannot be renamed or removed, but
// the folder holding it can be renamed with the mount inside (the mount moves along): so every folder
// between the writable folder and a kept path is bound onto itself too ("pinned": still writable, but
// no longer renamable). A kept path that does not exist yet is given an empty placeholder (a folder or
// a file, created for the run and removed after it, see launch.ts): a mount needs a place to sit, and
// nothing can be created where a read-only mount sits.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { LOCAL_CONFIG_NAME, SEARCH_PLACES } from '../config/load.js';
import { isInside } from '../paths.js';

/**
 * One mount of the plan, applied in order after the writable folders:
 * `pin` binds a folder onto itself (writable), `ro` binds a path onto itself read-only, `dir`/`file`
 * are placeholders (created empty before the sandbox starts, then bound read-only), `hide` puts an
 * empty read-only folder in place of a folder, `hide-file` /dev/null in place of a file.
 */
export interface Mount {
  kind: 'pin' | 'ro' | 'dir' | 'file' | 'hide' | 'hide-file';
  path: string;
}

/** Kept read-only, with a placeholder when missing: agents' and editors' project settings, git's hooks. */
const SETTINGS_FOLDERS = ['.claude', '.codex', '.gemini', '.cursor', '.vscode', '.github/hooks'];
/** Kept read-only, with a placeholder when missing: run by a host program as soon as it appears. */
const RUN_FILES = ['.envrc'];
/**
 * Kept read-only when they exist. A new one runs nothing by itself: a config file needs `hooks trust`,
 * a new `.mcp.json` or mise file its program's own approval (a placeholder would be an empty config
 * that the host could read meanwhile, and agent-hooks would take for a broken one).
 */
const EXISTING_FILES = [...SEARCH_PLACES.filter((name) => name !== 'package.json'), LOCAL_CONFIG_NAME, '.mcp.json', '.mise.toml', 'mise.toml', '.mise.local.toml'];
/**
 * Kept read-only when they exist: what the git hooks of known hook managers run or read (husky's
 * scripts folder, pre-commit's, lefthook's and overcommit's configs and script folders). A missing
 * one gets no placeholder: an empty config would break the manager's hooks while the sandbox runs.
 */
const HOOK_MANAGER_PATHS = [
  '.husky',
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  ...['lefthook', 'lefthook-local'].flatMap((base) => ['', '.'].flatMap((dot) => ['yml', 'yaml', 'json', 'jsonc', 'toml'].map((ext) => `${dot}${base}.${ext}`))),
  '.lefthook',
  '.lefthook-local',
  '.overcommit.yml',
  '.git-hooks',
];
/** Script files a config names by extension, besides any path with a slash. */
const SCRIPT = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|php|lua|ps1)$/;

type Found = { mounts: Mount[] } | { problem: string };

/** The mounts that keep the host's files in `writable` (absolute real paths of folders) read-only. */
export function protectWritable(writable: readonly string[]): Found {
  const kept = new Map<string, 'ro' | 'dir' | 'file'>();
  for (const root of writable) {
    const problem = collect(root, kept);
    if (problem !== undefined) return { problem };
  }
  // A kept path inside another kept path is read-only already.
  const paths = [...kept.keys()].filter((p) => ![...kept.keys()].some((q) => q !== p && isInside(q, p)));
  const pins = new Set<string>();
  for (const p of paths) {
    const root = writable.filter((w) => isInside(w, p)).sort((a, b) => b.length - a.length)[0]!;
    for (let dir = path.dirname(p); dir !== root && isInside(root, dir); dir = path.dirname(dir)) {
      if (!paths.some((q) => isInside(q, dir))) pins.add(dir);
    }
  }
  const mounts: Mount[] = [...[...pins].map((p) => ({ kind: 'pin' as const, path: p })), ...paths.map((p) => ({ kind: kept.get(p)!, path: p }))];
  // Parents before children: a folder is pinned before what is bound inside it.
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { mounts };
}

function depth(p: string): number {
  return p.split('/').length;
}

/** Adds the paths kept in one writable folder; a problem when one of them cannot be kept. */
function collect(root: string, kept: Map<string, 'ro' | 'dir' | 'file'>): string | undefined {
  const wanted: { rel: string; missing: 'dir' | 'file' | 'skip' }[] = [
    ...SETTINGS_FOLDERS.map((rel) => ({ rel, missing: 'dir' as const })),
    ...RUN_FILES.map((rel) => ({ rel, missing: 'file' as const })),
    ...EXISTING_FILES.map((rel) => ({ rel, missing: 'skip' as const })),
    ...gitPaths(root),
    ...nodePaths(root),
    ...scriptPaths(root).map((rel) => ({ rel, missing: 'skip' as const })),
  ];
  for (const { rel, missing } of wanted) {
    const problem = keep(root, rel, missing, kept);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Keeps `root/rel`: read-only when it is there, else a placeholder at its first missing folder (an
 * empty read-only folder there keeps everything below it from being created), or nothing (`skip`).
 * A link on the way cannot be kept (the link itself could be replaced): a problem naming it.
 */
function keep(root: string, rel: string, missing: 'dir' | 'file' | 'skip', kept: Map<string, 'ro' | 'dir' | 'file'>): string | undefined {
  const parts = rel.split('/');
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = path.join(at, parts[i]!);
    const st = lstatSync(at, { throwIfNoEntry: false });
    const last = i === parts.length - 1;
    if (st === undefined) {
      if (missing !== 'skip') kept.set(at, last ? missing : 'dir');
      return undefined;
    }
    if (st.isSymbolicLink()) return `${at} is a symbolic link, which a sandboxed command could replace; the sandbox cannot keep what the host runs there read-only`;
    if (last) {
      kept.set(at, 'ro');
      return undefined;
    }
    if (!st.isDirectory()) return undefined; // a file where a folder would be: nothing can be created below it
  }
  return undefined;
}

/**
 * Git's hooks and config (which names the hooks folder, fsmonitor, filters and other commands git
 * runs), also of worktrees and submodules kept inside `.git`, the files those configs include, and the
 * files of the git hook managers whose installed hooks read them. A `.git` file (a linked worktree) is
 * kept itself; a missing `.git` gets a placeholder, so that no repository with its own hooks can be made here.
 */
function gitPaths(root: string): { rel: string; missing: 'dir' | 'file' | 'skip' }[] {
  const managers = HOOK_MANAGER_PATHS.map((rel) => ({ rel, missing: 'skip' as const }));
  const git = path.join(root, '.git');
  const st = lstatSync(git, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory()) return [{ rel: '.git', missing: 'dir' }, ...managers];
  const paths: { rel: string; missing: 'dir' | 'file' | 'skip' }[] = [
    { rel: '.git/hooks', missing: 'dir' },
    { rel: '.git/config', missing: 'file' },
    { rel: '.git/config.worktree', missing: 'skip' },
    ...managers,
  ];
  const configs = [path.join(git, 'config'), path.join(git, 'config.worktree')];
  for (const [folder, names] of [['worktrees', ['config.worktree']], ['modules', ['hooks', 'config']]] as const) {
    for (const entry of list(path.join(git, folder))) {
      for (const name of names) paths.push({ rel: `.git/${folder}/${entry}/${name}`, missing: 'skip' });
      configs.push(path.join(git, folder, entry, names[names.length - 1]!));
    }
  }
  // Every config git reads, with the files they include (a sandbox could add core.fsmonitor or
  // core.hooksPath to an included file inside the project), to a small bound.
  const seen = new Set<string>();
  for (let i = 0; i < configs.length && seen.size < MAX_GIT_CONFIGS; i++) {
    const file = configs[i]!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { key, value } of configEntries(read(file))) {
      if (value === '' || value.startsWith('~')) continue; // `~` is the home folder: outside
      if (key === 'include.path') {
        // Relative to the including file's folder; a missing one gets a placeholder (git skips a missing include, so one could be made).
        const target = path.resolve(path.dirname(file), value);
        if (isInside(root, target) && target !== root) {
          paths.push({ rel: path.relative(root, target), missing: 'file' });
          configs.push(target);
        }
      } else if (key === 'core.hookspath') {
        // Where git looks for hooks instead; husky's `.husky/_` runs the scripts in its parent (`_/h` runs `.husky/<hook>`).
        let target = path.resolve(root, value);
        if (path.basename(target) === '_') target = path.dirname(target);
        if (target !== root && isInside(root, target)) paths.push({ rel: path.relative(root, target), missing: 'dir' });
      }
    }
  }
  return paths;
}

/** How many git config files (with the ones they include) are read at most. */
const MAX_GIT_CONFIGS = 32;

/**
 * The entries of a git config text that name files: `include.path` (of `[include]` and every
 * `[includeIf "…"]`) and `core.hookspath`, with git's quoting, escapes and comments undone.
 * Lenient: an unreadable line is passed over (naming more than git reads costs only a read-only file).
 */
export function configEntries(text: string): { key: 'include.path' | 'core.hookspath'; value: string }[] {
  const out: { key: 'include.path' | 'core.hookspath'; value: string }[] = [];
  let section = '';
  for (let line of text.split(/\r?\n/)) {
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\](.*)$/.exec(line);
    if (header !== null) {
      section = header[1]!.toLowerCase().split('.')[0]!;
      line = header[2]!;
    }
    const entry = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=(.*)$/.exec(line);
    if (entry === null) continue;
    const name = entry[1]!.toLowerCase();
    if ((section === 'include' || section === 'includeif') && name === 'path') out.push({ key: 'include.path', value: configValue(entry[2]!) });
    else if (section === 'core' && name === 'hookspath') out.push({ key: 'core.hookspath', value: configValue(entry[2]!) });
  }
  return out;
}

/** A git config value as git reads it: quotes joined, escapes undone, a comment (`#`, `;`) outside quotes cut, unquoted outer spaces dropped. */
function configValue(raw: string): string {
  let out = '';
  let space = ''; // unquoted spaces, kept only when more follows
  let quoted = false;
  const add = (text: string) => {
    out += (out === '' ? '' : space) + text;
    space = '';
  };
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && i + 1 < raw.length) {
      const next = raw[++i]!;
      add(next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next);
    } else if (quoted) add(c);
    else if (c === '#' || c === ';') break;
    else if (c === ' ' || c === '\t') space += c;
    else add(c);
  }
  return out;
}

/** The project's own agent-hooks and its bin links, when the project uses them (settings run `node_modules/.bin/agent-hooks`). */
function nodePaths(root: string): { rel: string; missing: 'dir' | 'file' | 'skip' }[] {
  const bin = path.join(root, 'node_modules', '.bin');
  const linked = ['agent-hooks', 'hooks'].some((name) => lstatSync(path.join(bin, name), { throwIfNoEntry: false }) !== undefined);
  const installed = lstatSync(path.join(root, 'node_modules', 'agent-hooks'), { throwIfNoEntry: false }) !== undefined;
  if (!linked && !installed && !dependsOnUs(path.join(root, 'package.json'))) return [];
  return [
    { rel: 'node_modules/.bin', missing: 'dir' },
    { rel: 'node_modules/agent-hooks', missing: 'dir' },
  ];
}

function dependsOnUs(file: string): boolean {
  try {
    const pkg = JSON.parse(read(file)) as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some((key) => typeof pkg[key]?.['agent-hooks'] === 'string');
  } catch {
    return false;
  }
}

/**
 * Every existing file inside `root` that the project's hook configs name: the scripts their commands
 * run (`python3 hooks/guard.py`, `./check.sh`, `$CLAUDE_PROJECT_DIR/x.mjs`) and a JS config's local
 * imports. Read as text, without running or parsing the config: any word that is a relative path to
 * a file counts (naming more than is run costs only a read-only file). A script not at the top of the
 * project is kept with its whole folder (its helpers sit beside it).
 */
export function scriptPaths(root: string): string[] {
  const texts: string[] = [];
  for (const name of [...EXISTING_FILES, 'package.json']) {
    const text = read(path.join(root, name));
    if (text !== '') texts.push(commandText(name, text));
  }
  const found = new Set<string>();
  for (const word of referencedWords(texts.join('\n'))) {
    const file = path.resolve(root, word);
    if (file === root || !isInside(root, file)) continue;
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (st === undefined || !(st.isFile() || st.isSymbolicLink())) continue;
    const rel = path.relative(root, file);
    found.add(rel.includes('/') ? path.dirname(rel) : rel);
  }
  return [...found];
}

/**
 * The part of a config file that can name what runs: of a JSON file, its commands, args and working
 * folders (an `if` naming `src/app.ts` must not make src/ read-only); of package.json, its "hooks" key
 * only; of a YAML or JS file, all of it (a JS config's imports run too).
 */
function commandText(name: string, text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return name === 'package.json' ? '' : text;
  }
  if (name === 'package.json') parsed = (parsed as { hooks?: unknown } | null)?.hooks;
  const out: string[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (depth > 64 || value === null || typeof value !== 'object') return;
    for (const [key, inner] of Object.entries(value)) {
      if ((key === 'command' || key === 'cwd') && typeof inner === 'string') out.push(inner);
      else if (key === 'args' && Array.isArray(inner)) out.push(...inner.filter((a): a is string => typeof a === 'string'));
      else walk(inner, depth + 1);
    }
  };
  walk(parsed, 0);
  return out.join('\n');
}

/** The words of a config's text that could name a file relative to the project. */
export function referencedWords(text: string): string[] {
  const words = new Set<string>();
  // The project's folder spelled as a variable is the project itself.
  // Quotes join what they touch in a shell word ("$CLAUDE_PROJECT_DIR"/x is one path).
  const plain = text.replace(/\$\{?(?:CLAUDE_PROJECT_DIR|HOOKS_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR)\}?/g, '.').replace(/["']/g, '');
  for (const match of plain.matchAll(/[\w@%+=:,.~\/-]+/g)) {
    let word = match[0].replace(/^[=:,]+|[:,]+$/g, '');
    if (word.startsWith('/') || word.startsWith('~') || word.startsWith('-') || word.includes('://')) continue;
    word = word.replace(/^(?:\.\/)+/, '');
    if (word === '' || word === '.' || word.length > 1024) continue;
    if (word.includes('/') || SCRIPT.test(word)) words.add(word);
  }
  return [...words];
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function read(file: string): string {
  try {
    const st = lstatSync(file, { throwIfNoEntry: false });
    // A config is small; a huge or odd file is not read on every routed call.
    if (st === undefined || !st.isFile() || st.size > 1_000_000) return '';
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
