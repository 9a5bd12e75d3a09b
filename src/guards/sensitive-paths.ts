// Guard `sensitive-paths`: blocks file tools and shell commands that touch credentials, keys and
// auth files, and writes to the files that decide which hooks run (agent-hooks' own config, every
// agent's hook settings). What it cannot judge is `unverifiable`, blocked by default: the guard
// never fails open on an input it does not understand.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import type { Guard, HandlerFn, HookInput, ReplyObject } from '../types.js';
import { hasGlobMagic } from './sensitive-paths/glob.js';
import { type Access, compileJudge, type JudgeContext, type PathVerdict, resolvePath } from './sensitive-paths/judge.js';
import type { SensitivePathsOptions, SensitivePathsOptionsInput as OptionsInput } from './sensitive-paths/options.js';
import { roughTargets, shellTargets, type Target } from './sensitive-paths/shell.js';
import { isUnresolved, judgeUnresolved } from './sensitive-paths/unresolved.js';

export type { Access, JudgeContext, PathVerdict } from './sensitive-paths/judge.js';
export { resolvePath } from './sensitive-paths/judge.js';
export { globToRegExp, compileGlob } from './sensitive-paths/glob.js';
export type { SensitivePathsOptions } from './sensitive-paths/options.js';
export type { Target } from './sensitive-paths/shell.js';

const NO_OPTIONS: OptionsInput = {};

/** Resolves `path` (with `~`, `$HOME`, `..`, relative) and says whether the guard blocks it for this access. */
export function judgePath(path: string, context: JudgeContext, options: OptionsInput = NO_OPTIONS): PathVerdict {
  return compileJudge(options, context.home).judge(path, context);
}

export interface CallVerdict {
  verdict: 'allow' | 'block' | 'ask';
  kind?: string;
  path?: string;
  reason?: string;
}

/**
 * Judges one tool call as the guard does (file tools and shell commands). Pure apart from the
 * environment it reads for agent-hooks' own paths; never throws.
 */
export function judgeToolCall(
  input: HookInput,
  options: OptionsInput = NO_OPTIONS,
  {
    tool,
    home = options.home ?? homedir(),
    env = process.env,
    realpath = realTarget,
  }: { tool?: string; home?: string; env?: NodeJS.ProcessEnv; realpath?: ((resolved: string) => string | undefined) | false } = {},
): CallVerdict {
  const unverifiable = (why: string): CallVerdict => {
    const setting = options.unverifiable ?? 'block';
    if (setting === 'allow') return { verdict: 'allow' };
    return { verdict: setting, kind: 'unverifiable', reason: `sensitive-paths: unverifiable: ${oneLine(why)}` };
  };
  try {
    const judge = compileJudge(options, home, env);
    const cwd = typeof input.cwd === 'string' && input.cwd !== '' ? input.cwd : process.cwd();
    const found = findTargetsOf(input, tool);
    const selfSetting = (options.categories as Record<string, boolean | 'block' | 'ask' | undefined> | undefined)?.['self-protection'];
    const selfAction = selfSetting === false ? undefined : selfSetting === 'ask' ? 'ask' : 'block';
    let ask: CallVerdict | undefined;
    let linksFollowed = 0;
    for (const target of found.targets) {
      const base = target.cwd === undefined ? cwd : posix.resolve(cwd, target.cwd === '~' || target.cwd.startsWith('~/') ? home + target.cwd.slice(1) : target.cwd);
      const context: JudgeContext = { cwd: base, home, access: target.access, ...(target.recursive ? { recursive: true } : {}), ...(target.dotGlob ? { dotGlob: true } : {}) };
      if (target.rule !== undefined) {
        if (selfAction === undefined) continue;
        const result: CallVerdict = { verdict: selfAction, kind: 'self-protection', path: oneLine(target.path), reason: `sensitive-paths: self-protection: ${oneLine(target.rule)}` };
        if (selfAction === 'block') return result;
        ask ??= result;
        continue;
      }
      if (target.mention) {
        if (selfAction === undefined) continue;
        const result: CallVerdict = { verdict: selfAction, kind: 'self-protection', path: target.path, reason: `sensitive-paths: self-protection: interpreter code names ${oneLine(target.path)}` };
        if (selfAction === 'block') return result;
        ask ??= result;
        continue;
      }
      let verdict = judge.judge(target.path, context);
      // `${HOME%/}/.config/agent-hooks/config.json`, `$PWD/../.claude.json`: judged on what the word says literally.
      if (verdict.verdict === 'allow' && (target.unresolved || isUnresolved(target.path))) {
        verdict = judgeUnresolved(target.path, context, judge, env, selfAction) ?? verdict;
      }
      // A link planted in the repository (`notes.md -> ~/.ssh/id_rsa`) is judged where it leads.
      if (verdict.verdict === 'allow' && realpath && linksFollowed < 32 && !hasGlobMagic(target.path)) {
        linksFollowed++;
        const resolved = resolvePath(target.path, base, home);
        const real = realpath(resolved);
        if (real !== undefined && real !== resolved) {
          const viaLink = judge.judge(real, context);
          if (viaLink.verdict !== 'allow') verdict = { ...viaLink, path: `${resolved} → ${viaLink.path}` };
        }
      }
      if (verdict.verdict === 'allow') continue;
      if (verdict.kind === 'unverifiable') {
        const result = unverifiable(verdict.path);
        if (result.verdict === 'block') return result;
        if (result.verdict === 'ask') ask ??= result;
        continue;
      }
      const result: CallVerdict = { verdict: verdict.verdict, kind: verdict.kind, path: verdict.path, reason: `sensitive-paths: ${verdict.kind}: ${oneLine(verdict.path)}` };
      if (verdict.verdict === 'block') return result;
      ask ??= result;
    }
    if (found.error !== undefined) return unverifiable(`command could not be parsed (${found.error})`);
    return ask ?? { verdict: 'allow' };
  } catch (error) {
    // A bug here must not let the call through: the whole point of the guard is to fail closed.
    return unverifiable(`internal error: ${(error as Error)?.message ?? String(error)}`);
  }
}

export const sensitivePaths: Guard<SensitivePathsOptions> = {
  id: 'sensitive-paths',
  summary: 'Blocks reads and writes of SSH keys, cloud credentials, keyrings, .env files, private keys and auth files, and writes to hook settings.',
  events: ['preToolUse'],
  // Grep tools read the files under `path` (hidden ones excluded, as ripgrep does by default).
  match: ['read', 'write', 'edit', 'apply_patch', 'exec', 'Grep', 'grep', 'search_file_content'],
  options: async () => (await import('./sensitive-paths/options.js')).sensitivePathsOptions,
  create(options, context) {
    const env = context?.env ?? process.env;
    // The runner's HOME (a library caller's or the server's env for this run), as homedir() reads this process's.
    const home = options.home ?? (env.HOME || homedir());
    const handler: HandlerFn = (input, handlerContext): ReplyObject | undefined => {
      const verdict = judgeToolCall(input, options, { ...(handlerContext.tool !== undefined ? { tool: handlerContext.tool } : {}), home, env });
      if (verdict.verdict === 'allow') return undefined;
      return { decision: verdict.verdict, reason: verdict.reason ?? 'sensitive-paths' };
    };
    return handler;
  },
};

/**
 * Where `resolved` really leads, following symbolic links in it (a dangling last link too, since
 * a write creates its target). Undefined when nothing on the way is a link or it cannot be read.
 */
export function realTarget(resolved: string): string | undefined {
  let path = resolved;
  try {
    for (let hop = 0; hop < 16; hop++) {
      let dir = path;
      let rest = '';
      let stat = lstatSync(dir, { throwIfNoEntry: false });
      while (stat === undefined) {
        const parent = posix.dirname(dir);
        if (parent === dir) return undefined;
        rest = rest === '' ? posix.basename(dir) : `${posix.basename(dir)}/${rest}`;
        dir = parent;
        stat = lstatSync(dir, { throwIfNoEntry: false });
      }
      if (!stat.isSymbolicLink()) {
        const real = realpathSync.native(dir);
        const full = rest === '' ? real : posix.join(real, rest);
        return full === resolved ? undefined : full;
      }
      const next = posix.resolve(posix.dirname(dir), readlinkSync(dir));
      path = rest === '' ? next : posix.join(next, rest);
    }
  } catch {
    // Unreadable (permissions, a loop): judged as written, which the caller already did.
  }
  return undefined;
}

function oneLine(text: string): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ↵ ');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

// --- finding the paths in a tool input ---

const READ_TOOLS = new Set(['read', 'Read', 'read_file', 'read_many_files', 'view', 'NotebookRead', 'readFile', 'cat', 'Grep', 'grep', 'search_file_content']);
const EXEC_TOOLS = new Set(['exec', 'Bash', 'bash', 'shell', 'Shell', 'run_shell_command', 'local_shell', 'run_terminal_cmd', 'runTerminalCommand']);
const PATH_FIELDS = ['file_path', 'path', 'absolute_path', 'notebook_path', 'filePath', 'file', 'target_file', 'filename'] as const;

/** Every path the tool call would touch, with the access it needs. */
export function findTargets(input: HookInput, canonicalTool?: string): Target[] {
  return findTargetsOf(input, canonicalTool).targets;
}

function findTargetsOf(input: HookInput, canonicalTool?: string): { targets: Target[]; error?: string } {
  const tool = canonicalTool ?? (typeof input.tool_name === 'string' ? input.tool_name : '');
  const args = input.tool_input !== null && typeof input.tool_input === 'object' ? (input.tool_input as Record<string, unknown>) : {};
  if (tool === 'apply_patch') return { targets: patchTargets(args) };
  if (EXEC_TOOLS.has(tool)) {
    if (typeof args.command !== 'string') return Array.isArray(args.command) ? argvTargets(args.command) : { targets: [] };
    const shell = shellTargets(args.command);
    return shell.ok ? { targets: shell.targets } : { targets: shell.targets, error: shell.error };
  }
  // Anything that is not a known reader is judged as a write: the stricter reading.
  const access: Access = READ_TOOLS.has(tool) ? 'read' : 'write';
  return { targets: fieldPaths(args).map((path) => ({ path, access })) };
}

/** Codex's exec may come as an argv array: judged as the command line it amounts to. */
function argvTargets(argv: unknown[]): { targets: Target[]; error?: string } {
  if (!argv.every((a): a is string => typeof a === 'string')) return { targets: [], error: 'command is not a list of strings' };
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const shell = shellTargets(quoted);
  return shell.ok ? { targets: shell.targets } : { targets: shell.targets, error: shell.error };
}

function fieldPaths(args: Record<string, unknown>): string[] {
  const paths: string[] = [];
  for (const field of PATH_FIELDS) {
    const value = args[field];
    if (typeof value === 'string' && value !== '') paths.push(value);
  }
  for (const list of [args.paths, args.edits, args.files]) {
    if (!Array.isArray(list)) continue;
    for (const item of list.slice(0, 1000)) {
      if (typeof item === 'string') paths.push(item);
      else if (item && typeof item === 'object') {
        for (const field of PATH_FIELDS) {
          const value = (item as Record<string, unknown>)[field];
          if (typeof value === 'string' && value !== '') paths.push(value);
        }
      }
    }
  }
  return paths;
}

/** Codex puts the whole patch in `command` (older builds: `input` or `patch`). */
function patchTargets(args: Record<string, unknown>): Target[] {
  const text = [args.command, args.input, args.patch].find((v): v is string => typeof v === 'string');
  const targets: Target[] = [];
  if (text) {
    for (const match of text.matchAll(/^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+?)\s*$/gm)) {
      targets.push({ path: match[1]!, access: 'write' });
    }
  }
  return [...targets, ...fieldPaths(args).map((path) => ({ path, access: 'write' as const }))];
}

/** Kept for callers that judged a raw command line before the shell layer existed. */
export { roughTargets };
