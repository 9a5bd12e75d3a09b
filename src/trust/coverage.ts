// What `hooks trust` records for a config file besides its bytes: the state of every project file its
// commands run (src/trust/scripts.ts) and, for JavaScript (the config itself or a script run by node,
// tsx, deno, bun), of every local module it imports (src/trust/imports.ts). Nothing is run or imported.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { isJsFile, readExtendsForTrust, readForTrust } from '../config/load.js';
import { expandClaudeShape } from '../config/claude-shape.js';
import { realOrSelf } from '../paths.js';
import { EXTENDS_COVER_PREFIX, observeCover, type Covers } from './covers.js';
import { candidates, JS_SOURCE, relativeSpecifiers } from './imports.js';
import { scriptsOfCommand } from './scripts.js';
import { digest, updateTrustStore, type TrustStore } from './store.js';

export interface Coverage {
  /** sha256 of the config's bytes. */
  sha256: string;
  /** Covered files (relative to the config's folder, sorted) and their states now. */
  covers: Covers;
  /** Why each covered file is covered: the command or the module that loads it. */
  why: Record<string, string>;
  /** What is not covered and why, one line each (outside the project, computed at run time, limits). */
  notes: string[];
}

/** Modules followed per config at most: a graph larger than this is not a hooks config's. */
const MAX_MODULES = 500;
/** Bytes of a module read for its imports. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** The coverage of one config file as it is now (read with the same reader as the loader). */
export async function coverageOf(file: string): Promise<Coverage> {
  return coverageFor(file, await readForTrust(file));
}

/** Records these config files as trusted, as they are now, with their coverage. */
export async function trustFiles(env: NodeJS.ProcessEnv, files: readonly string[]): Promise<TrustStore> {
  const trust = await Promise.all(
    files.map(async (file) => {
      const read = await readForTrust(file);
      const coverage = coverageFor(file, read);
      // What it extends, as the loader finds it now (from the cache: nothing is fetched here).
      if (read.config !== undefined) Object.assign(coverage.covers, extendsCoverage(file, await readExtendsForTrust(file, read.config, env, false)).covers);
      return { file, ...coverage };
    }),
  );
  return updateTrustStore(env, { trust: trust.map(({ file, sha256, covers }) => ({ file, sha256, covers })) });
}

/** What the trust store records for a config file with these bytes and this parsed content (undefined for JS). */
export function trustRecord(file: string, bytes: Uint8Array | string, config: unknown): { file: string; sha256: string; covers: Covers } {
  const sha256 = digest(bytes);
  return { file, sha256, covers: coverageFor(file, { sha256, config, isJs: isJsFile(file) }).covers };
}

/** The coverage of a config file already read: its digest, and its parsed content unless it is JavaScript. */
export function coverageFor(file: string, r: { sha256: string; config?: unknown; isJs: boolean }, projectDir?: string): Coverage {
  // A file reached through extends: its hooks run in the project folder (their `cwd` is relative to the file).
  const fileDir = path.dirname(file);
  const dir = projectDir ?? fileDir;
  const root = realOrSelf(dir);
  const covers: Covers = {};
  const why: Record<string, string> = {};
  const notes: string[] = [];
  /** Files whose own loads are followed: `cwd` is where a shell script's relative paths resolve (the hook's folder). */
  const modules: { file: string; kind: SourceKind; cwd: string }[] = [];
  const rel = (abs: string) => path.relative(dir, abs).split(path.sep).join('/');

  const cover = (abs: string, reason: string, options: { js?: boolean; absolute?: boolean; cwd?: string } = {}) => {
    const key = rel(abs);
    if (key === '' || Object.hasOwn(covers, key)) return;
    const state = observeCover(dir, key, root);
    if (state.startsWith('outside:')) {
      // Spelled as an absolute path outside the project (`/usr/bin/python3`): the system's, not the project's.
      if (options.absolute === true) return;
      notes.push(`${key} (${reason}) resolves outside the project (${state.slice(8)}): not hashed; review it yourself`);
    }
    covers[key] = state;
    why[key] = reason;
    if (!state.startsWith('sha256:')) return;
    const kind = options.js === true ? 'js' : sourceKind(abs);
    if (kind !== undefined) modules.push({ file: abs, kind, cwd: options.cwd ?? path.dirname(abs) });
  };

  /**
   * Every file Python may load for `dotted` found from `folder`, present or missing: the source, a
   * sourceless `.pyc`, an extension module (`.so`), the cached bytecode in `__pycache__` it reads instead
   * of the source (an unchecked-hash `.pyc` is never compared with it), and so for each package on the way.
   */
  const coverPython = (folder: string, dotted: string, reason: string) => {
    let at = folder;
    for (const part of dotted.split('.')) {
      if (!/^\w+$/.test(part)) return;
      for (const candidate of [part, ...pythonFiles(part), path.join(part, '__init__.py')]) cover(path.join(at, candidate), reason);
      at = path.join(at, part);
      if (kindOf(at) !== 'dir') return;
      for (const candidate of pythonFiles('__init__')) cover(path.join(at, candidate), reason);
    }
  };

  if (r.isJs) {
    notes.push('JavaScript config: what its commands run is decided by its code; string literals in it that read as commands are followed, a command built at run time is not');
    modules.push({ file, kind: 'js', cwd: dir });
  } else if (r.config !== undefined) {
    for (const hook of commandsOf(r.config, file)) {
      const cwd = hook.cwd === undefined ? dir : path.resolve(fileDir, hook.cwd);
      const found = scriptsOfCommand(hook.run, { cwd, projectDir: dir, ...(hook.path === undefined ? {} : { path: hook.path }) });
      for (const s of found.scripts) cover(s.file, `run by ${hook.key}`, { js: s.js, absolute: s.absolute, cwd });
      for (const u of found.unknown) notes.push(`${hook.key}: ${u}`);
      for (const m of found.pythonModules ?? []) {
        notes.push(`${hook.key}: python -m ${m.name} when found on sys.path elsewhere than in the hook's folder (${rel(m.cwd) || '.'}), whose files for it are covered`);
        coverPython(m.cwd, `${m.name}.__main__`, `run by ${hook.key}`);
      }
    }
    for (const key of cwdOverrides(r.config, file)) {
      notes.push(`${key}: moves another layer's hook to another folder; the files it runs from there are covered only by that layer's trust, as its own folder had them`);
    }
  }

  // Modules and scripts, breadth first: what each loads or runs, within the project.
  const seen = new Set<string>();
  let bare = false;
  while (modules.length > 0) {
    const { file: module, kind, cwd } = modules.shift()!;
    if (seen.has(module)) continue;
    seen.add(module);
    if (seen.size > MAX_MODULES) {
      notes.push(`more than ${MAX_MODULES} local modules and scripts: what the rest load is not covered`);
      break;
    }
    const source = readSource(module);
    if (source === undefined) continue;
    if (kind === 'python') {
      // Python puts the script's own folder first on sys.path: a module there (even one named like the
      // standard library's) is what `import x` loads, so each place is covered, present or missing.
      for (const name of pythonImports(source)) coverPython(path.dirname(module), name, `imported by ${rel(module)}`);
      continue;
    }
    if (kind === 'shell') {
      // What a script runs or sources by a relative path resolves from the hook's folder, as for the command itself.
      for (const s of scriptsOfCommand({ command: source }, { cwd, projectDir: dir }).scripts) cover(s.file, `run by ${rel(module)}`, { js: s.js, absolute: s.absolute, cwd });
      continue;
    }
    if (/\b(?:from|import|require)\s*\(?\s*['"`][^./'"`]/.test(source)) bare = true;
    if (/\b(?:import|require)\s*\(\s*[^'"`\s)]/.test(source)) notes.push(`${rel(module)}: imports a module whose name is computed at run time; that module is not covered`);
    for (const specifier of relativeSpecifiers(source)) {
      for (const candidate of candidates(module, specifier, kindOf)) {
        cover(candidate, `imported by ${rel(module)}`, { js: JS_SOURCE.test(candidate) || !/\.[^/]+$/.test(candidate) });
      }
    }
    // A JS config's commands are values its code makes: the ones written out as literals are read like a JSON config's.
    if (r.isJs) {
      for (const literal of commandLiterals(source)) {
        // A lone path is as often data (`new URL('./out', import.meta.url)`) as a program: only a script or an executable counts.
        const lone = !/\s/.test(literal.trim());
        for (const s of scriptsOfCommand({ command: literal }, { cwd: dir, projectDir: dir }).scripts) {
          if (lone && !SCRIPT_NAME.test(s.file) && !isExecutable(s.file)) continue;
          cover(s.file, `named in ${rel(module)}: ${JSON.stringify(literal.length > 60 ? `${literal.slice(0, 57)}...` : literal)}`, { js: s.js, absolute: s.absolute });
        }
      }
    }
  }
  if (bare) notes.push('packages it imports (node_modules) are not covered');

  const sorted = Object.keys(covers).sort();
  return { sha256: r.sha256, covers: Object.fromEntries(sorted.map((k) => [k, covers[k]!])), why, notes: [...new Set(notes)] };
}

// --- internal ---

interface CommandHook {
  key: string;
  run: { command: string; args?: string[]; shell?: 'powershell' };
  cwd?: string;
  path?: string;
}

/** Every command hook of a parsed (not yet validated) config, with its key path, cwd and PATH. */
function commandsOf(config: unknown, file: string): CommandHook[] {
  const expanded = expandClaudeShape(config, file);
  const c = expanded.config as { hooks?: unknown; defaults?: { env?: Record<string, unknown> } } | undefined;
  const hooks = typeof c?.hooks === 'object' && c.hooks !== null ? (c.hooks as Record<string, unknown>) : {};
  const defaultPath = typeof c?.defaults?.env?.PATH === 'string' ? c.defaults.env.PATH : undefined;
  const out: CommandHook[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry: unknown, index) => {
      if (typeof entry !== 'object' || entry === null) return;
      const e = entry as Record<string, unknown>;
      if (typeof e.command !== 'string') return;
      const key = expanded.keys.get(event)?.[index] ?? `hooks.${event}[${index}]`;
      const run: CommandHook['run'] = { command: e.command };
      if (Array.isArray(e.args)) run.args = e.args.map(String);
      if (e.shell === 'powershell') run.shell = 'powershell';
      const hook: CommandHook = { key, run };
      if (typeof e.cwd === 'string') hook.cwd = e.cwd;
      const env = typeof e.env === 'object' && e.env !== null ? (e.env as Record<string, unknown>) : {};
      const pathValue = typeof env.PATH === 'string' ? env.PATH : defaultPath;
      if (pathValue !== undefined) hook.path = pathValue;
      out.push(hook);
    });
  }
  // An MCP server started for an mcp_tool hook is a command of the repository's too (exec form, as Claude Code starts it).
  const servers = (expanded.config as { mcpServers?: unknown } | undefined)?.mcpServers;
  for (const [name, server] of Object.entries(typeof servers === 'object' && servers !== null ? (servers as Record<string, unknown>) : {})) {
    const sv = server as Record<string, unknown> | null;
    if (typeof sv?.command !== 'string') continue;
    const hook: CommandHook = { key: `mcpServers.${name}`, run: { command: sv.command, args: Array.isArray(sv.args) ? sv.args.map(String) : [] } };
    if (typeof sv.cwd === 'string') hook.cwd = sv.cwd;
    const env = typeof sv.env === 'object' && sv.env !== null ? (sv.env as Record<string, unknown>) : {};
    if (typeof env.PATH === 'string') hook.path = env.PATH;
    out.push(hook);
  }
  return out;
}

/** Literals that may be a command: with a space, or spelled as a path (`./hook.sh`, `$CLAUDE_PROJECT_DIR/...`). Bounded. */
function commandLiterals(source: string): string[] {
  const out = new Set<string>();
  for (const m of source.matchAll(/(['"`])((?:\\.|(?!\1)[^\\\n])*)\1/g)) {
    if (out.size >= 5_000) break;
    const raw = m[2]!;
    if (raw.length > 1_000 || (m[1] === '`' && raw.includes('${'))) continue;
    const text = raw.replace(/\\(["'`\\])/g, '$1');
    if (/\s/.test(text.trim()) || /^(?:\.{1,2}\/|"?\$)/.test(text)) out.add(text);
  }
  return [...out];
}

type SourceKind = 'js' | 'python' | 'shell';

/** Whether a script's own loads are followed, by its name or its `#!` line. */
function sourceKind(file: string): SourceKind | undefined {
  if (JS_SOURCE.test(file)) return 'js';
  if (/\.pyw?$/i.test(file)) return 'python';
  if (/\.(?:sh|bash|zsh|ksh)$/i.test(file)) return 'shell';
  if (/\.[^/.]+$/.test(path.basename(file))) return undefined;
  const first = (readSource(file, 256) ?? '').split('\n')[0]!;
  if (!first.startsWith('#!')) return undefined;
  if (/\bpython[\d.]*\b/.test(first)) return 'python';
  if (/\b(?:node|deno|bun|tsx)\b/.test(first)) return 'js';
  if (/\/(?:env\s+)?(?:ba|da|z|k)?sh\b/.test(first)) return 'shell';
  return undefined;
}

/**
 * Dotted names of a Python file's absolute imports (`import a.b, c` → a.b, c; `from d.e import f` → d.e.f,
 * since `f` may be a submodule of the package `d.e`).
 */
export function pythonImports(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/^[ \t]*(?:import[ \t]+([\w. \t,]+)|from[ \t]+(\w[\w.]*)[ \t]+import\b[ \t]*(\([^)]*\)|[^\n#;]*))/gm)) {
    const words = (list: string) => list.replace(/[()]/g, '').split(',').map((part) => part.trim().split(/\s+/)[0]!).filter((name) => /^\w[\w.]*$/.test(name));
    if (m[1] !== undefined) for (const name of words(m[1])) names.add(name);
    else {
      names.add(m[2]!);
      for (const name of words(m[3] ?? '')) names.add(`${m[2]!}.${name}`);
    }
  }
  return [...names];
}

/** Where a module `name` may be in one folder besides its package: source, sourceless bytecode, extension, cached bytecode. */
function pythonFiles(name: string): string[] {
  return [`${name}.py`, `${name}.pyc`, `${name}*.so`, path.join('__pycache__', `${name}.*.pyc`)];
}

const SCRIPT_NAME = /\.(?:py|pyw|[cm]?[jt]s|[jt]sx|sh|bash|zsh|rb|pl|pm|php|lua)$/i;

function isExecutable(file: string): boolean {
  const s = statSync(file, { throwIfNoEntry: false });
  return s !== undefined && s.isFile() && (s.mode & 0o111) !== 0;
}

/** Key paths of entries that change another hook's `cwd` (a local override): where its relative scripts resolve moves. */
function cwdOverrides(config: unknown, file: string): string[] {
  const expanded = expandClaudeShape(config, file);
  const hooks = (expanded.config as { hooks?: unknown } | undefined)?.hooks;
  if (typeof hooks !== 'object' || hooks === null) return [];
  return Object.entries(hooks as Record<string, unknown>).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((e: unknown, index) => {
      const entry = e as Record<string, unknown> | null;
      return entry !== null && typeof entry === 'object' && entry.command === undefined && entry.builtin === undefined && typeof entry.cwd === 'string' ? [expanded.keys.get(event)?.[index] ?? `hooks.${event}[${index}]`] : [];
    }),
  );
}

function kindOf(file: string): 'file' | 'dir' | 'absent' {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? 'absent' : s.isDirectory() ? 'dir' : 'file';
}

/** A module's text, when it is a regular file (a FIFO at an import's name must not hang `hooks trust`). */
function readSource(file: string, limit = MAX_SOURCE_BYTES): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(stats.size, limit));
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** An extended file as `extendsCoverage` needs it (a ConfigLayer from the loader). */
export interface ExtendedFile {
  file: string;
  real?: string;
  config: unknown;
  sha256?: string;
  via?: readonly { file: string; extends: string }[];
  problem?: string;
}

/**
 * What a project file's trust covers of what it extends: the bytes of each extended file (by its real path,
 * wherever it is: in node_modules, in the git cache) and the files their commands run, as the project
 * file's own covered files (keys relative to its folder, or `extends:<absolute path>` outside it).
 */
export function extendsCoverage(projectFile: string, extended: readonly ExtendedFile[]): Pick<Coverage, 'covers' | 'why' | 'notes'> {
  const dir = path.dirname(projectFile);
  const root = realOrSelf(dir);
  const covers: Covers = {};
  const why: Record<string, string> = {};
  const notes: string[] = [];
  for (const e of extended) {
    const chain = (e.via ?? []).map((s) => JSON.stringify(s.extends)).join(' → ');
    if (e.real === undefined || e.problem !== undefined) {
      notes.push(`extends ${chain}: ${e.problem ?? 'not loaded'}`);
      continue;
    }
    const key = `${EXTENDS_COVER_PREFIX}${e.real}`;
    covers[key] = observeCover(dir, key, root);
    why[key] = `extended: ${chain}`;
    const own = coverageFor(e.file, { sha256: e.sha256 ?? '', config: e.config, isJs: false }, dir);
    const rekeyed: string[] = [];
    for (const [rel, state] of Object.entries(own.covers)) {
      // Outside the project (a pinned checkout in the cache): covered by its absolute path, hashed all the same.
      const k = state.startsWith('outside:') ? `${EXTENDS_COVER_PREFIX}${state.slice('outside:'.length)}` : rel;
      if (k !== rel) rekeyed.push(rel);
      covers[k] = k === rel ? state : observeCover(dir, k, root);
      why[k] = `${own.why[rel] ?? 'run'} in ${e.file}`;
    }
    for (const note of own.notes) if (!rekeyed.some((r) => note.startsWith(`${r} (`))) notes.push(`${e.file}: ${note}`);
  }
  return { covers, why, notes };
}
