// Runs one fidelity case both ways: natively, the way Claude Code 2.1.328 runs the hooks of a settings entry
// (every matching handler in parallel, `/bin/sh -c <command>`, the event JSON on stdin, Claude's environment and
// timeout), and through the runner (`hooks run <event> --dialect claude-code`, with a config made from that same
// settings entry), as Claude Code would run it when the runner is its one hook command: the CLI in-process, or the
// built bin as a real process (RunnerVia).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliInProcess, seedCodeCache } from '../helpers.js';
import { combine, defaultTimeoutSeconds, matcherMatches, type Effect, type HookRun } from './claude-oracle.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS = path.join(ROOT, 'test', 'fixtures', 'claude-corpus');
export const SCRIPTS = path.join(CORPUS, 'scripts');
export const HOOKS_BIN = path.join(ROOT, 'bin', 'hooks.js');

/** A Claude Code handler entry (settings `hooks.<Event>[].hooks[]`). */
export interface ClaudeHandler {
  type: 'command' | 'http' | 'prompt' | 'agent' | 'mcp_tool';
  command?: string;
  /** http handlers: the URL the event is POSTed to (`$HTTP` is the test's server on 127.0.0.1). */
  url?: string;
  prompt?: string;
  /** Claude Code's permission-rule filter, e.g. `Bash(git push*)`, `Edit(*.ts)` (reference 1.3). */
  if?: string;
  timeout?: number;
  async?: boolean;
  shell?: string;
  statusMessage?: string;
  once?: boolean;
}

export interface ClaudeMatcherGroup {
  matcher?: string;
  hooks: ClaudeHandler[];
}

export type ClaudeHooks = Record<string, ClaudeMatcherGroup[]>;

export interface FidelityCase {
  id: string;
  /** Corpus script ids this case exercises (manifest.json). */
  scripts: string[];
  event: string;
  /** The event-specific payload fields; the common ones (session_id, cwd, ...) are added. */
  payload: Record<string, unknown>;
  /** The settings `hooks` object the scripts are registered under. */
  hooks: ClaudeHooks;
  /** Project files (relative paths). Corpus scripts are always copied to .claude/hooks/. */
  files?: Record<string, string>;
  /** A bash command run in the project before the event (e.g. `git init`). */
  setup?: string;
  /** Extra environment of the Claude process (hooks inherit it). */
  env?: Record<string, string>;
  /** What the case means to exercise: checked against the NATIVE effect, so a broken script or oracle shows. */
  expect: Partial<Effect>;
  /** One line: the decision this case exercises. */
  note: string;
}

let httpBase = 'http://127.0.0.1:9';
/** Where `$HTTP` in a case's http handler URLs points: the test's own server on 127.0.0.1. */
export function setHttpBase(url: string): void {
  httpBase = url;
}

/** The case's settings `hooks` with `$HTTP` filled in. */
export function hooksOf(c: FidelityCase): ClaudeHooks {
  return JSON.parse(JSON.stringify(c.hooks).replaceAll('$HTTP', httpBase)) as ClaudeHooks;
}

export interface CaseWorld {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  payload: Record<string, unknown>;
}

/**
 * The runner's cache folder (its V8 code cache, its config cache), one per test process and shared by every case's
 * runner side, seeded warm: a fresh one per case compiled the CLI cold on every `hooks run`, 350 times a suite. The
 * config cache is keyed on each config's path and bytes, so cases never see each other's entries.
 */
let sharedCache: string | undefined;
function runnerCacheDir(): string {
  if (sharedCache !== undefined) return sharedCache;
  sharedCache = mkdtempSync(path.join(os.tmpdir(), 'claude-fidelity-cache-'));
  seedCodeCache(sharedCache);
  return sharedCache;
}

/** A fresh project and HOME for one side of one case (the runner's side shares the test process's cache folder). */
export function makeWorld(c: FidelityCase, side: string): CaseWorld {
  const root = mkdtempSync(path.join(os.tmpdir(), `claude-fidelity-${side}-`));
  const dir = path.join(root, 'project');
  const home = path.join(root, 'home');
  mkdirSync(path.join(dir, '.claude', 'hooks'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const f of readdirSync(SCRIPTS)) copyFileSync(path.join(SCRIPTS, f), path.join(dir, '.claude', 'hooks', f));
  for (const [name, content] of Object.entries(c.files ?? {})) {
    const file = path.join(dir, name.replaceAll('$HOME/', '../home/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content.replaceAll('$PROJECT', dir));
  }
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: home,
    TMPDIR: path.join(root, 'tmp'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CACHE_HOME: side === 'native' ? path.join(home, '.cache') : runnerCacheDir(),
    AGENT_HOOKS_MANAGED_CONFIG: path.join(home, '.managed-agent-hooks.json'),
    GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid',
    GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
    // What Claude Code puts in a hook's environment (reference 1.5).
    CLAUDE_PROJECT_DIR: dir,
    CLAUDECODE: '1',
    CLAUDE_CODE_SESSION_ID: 'fidelity-session',
    ...c.env,
  };
  mkdirSync(env.TMPDIR!, { recursive: true });
  if (c.setup !== undefined) {
    const r = spawnSync('bash', ['-c', c.setup], { cwd: dir, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`case ${c.id}: setup failed: ${r.stderr}`);
  }
  const payload = {
    session_id: 'fidelity-session',
    transcript_path: path.join(home, '.claude', 'projects', 'p', 'fidelity-session.jsonl'),
    cwd: dir,
    permission_mode: 'default',
    hook_event_name: c.event,
    ...JSON.parse(JSON.stringify(c.payload).replaceAll('$PROJECT', dir)),
  };
  return { dir, home, env, payload };
}

/**
 * Runs `command` the way Claude Code 2.1.328 runs a shell-form hook on Linux: `/bin/sh -c` (seen with the real
 * CLI: /proc/$$/exe is dash, $0 is /bin/sh, with SHELL=/bin/bash and even with `"shell": "bash"` on the handler),
 * in its own process group, the event on stdin, a real timeout.
 */
export function runShell(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; input: string; timeoutMs: number; argv?: string[] }): Promise<HookRun> {
  return new Promise((resolve) => {
    const argv = options.argv ?? ['/bin/sh', '-c', command];
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ command, exitCode: timedOut ? null : code, stdout, stderr, timedOut });
    });
  });
}

/**
 * An http handler as Claude Code runs it (reference 1.7): POST the event; a 2xx body that is empty or a JSON
 * object is read like stdout on exit 0; any other body, a non-2xx status, a connection failure or a timeout is
 * a non-blocking error (here: exit 1). It never blocks by status code.
 */
export async function postHook(url: string, input: string, timeoutMs: number): Promise<HookRun> {
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: input, signal: AbortSignal.timeout(timeoutMs) });
    const body = await res.text();
    const ok = res.status >= 200 && res.status < 300 && (body.trim() === '' || body.trim().startsWith('{'));
    return { command: url, exitCode: ok ? 0 : 1, stdout: ok ? body : '', stderr: ok ? '' : `HTTP ${res.status}`, timedOut: false };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return { command: url, exitCode: timedOut ? null : 1, stdout: '', stderr: String(error), timedOut };
  }
}

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);
const globRe = (glob: string) => new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');

/**
 * Claude Code's `if` (reference 1.3): one permission rule; the handler is not spawned unless the call matches.
 * Bash rules test every piece of the command (split at ; && || | &, leading VAR=value dropped); `x:*` is the
 * prefix form; file rules without a slash match the file name in any folder. On an event without a tool, never.
 */
export function ifMatches(rule: string, event: string, payload: Record<string, unknown>): boolean {
  if (!TOOL_EVENTS.has(event)) return false;
  const m = /^([^()]+?)(?:\((.*)\))?$/s.exec(rule.trim());
  if (m === null) return true;
  const [, tool, pattern] = m;
  if (payload.tool_name !== tool) return false;
  if (pattern === undefined || pattern === '*' || pattern === '') return true;
  const input = (payload.tool_input ?? {}) as Record<string, unknown>;
  if (tool === 'Bash') {
    const pieces = String(input.command ?? '').split(/;|&&|\|\||\||&/).map((p) => p.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ''));
    const prefix = pattern.endsWith(':*') ? pattern.slice(0, -2) : undefined;
    return pieces.some((p) => (prefix !== undefined ? p.startsWith(prefix) : globRe(pattern).test(p)));
  }
  const file = String(input.file_path ?? input.notebook_path ?? '');
  return pattern.includes('/') ? globRe(pattern).test(file) : globRe(pattern).test(path.basename(file));
}

/** The handlers Claude Code would run for this event and payload, deduplicated as Claude Code does. */
export function selectHandlers(hooks: ClaudeHooks, event: string, payload: Record<string, unknown>): ClaudeHandler[] {
  const seen = new Set<string>();
  const out: ClaudeHandler[] = [];
  for (const group of hooks[event] ?? []) {
    if (!matcherMatches(event, group.matcher, payload)) continue;
    for (const h of group.hooks) {
      // prompt / agent / mcp_tool handlers need a model or an MCP server: not run offline (the cases that carry
      // one expect nothing of it).
      const key = h.type === 'command' ? h.command : h.type === 'http' ? h.url : undefined;
      if (key === undefined) continue;
      if (seen.has(key)) continue;
      if (h.if !== undefined && !ifMatches(h.if, event, payload)) continue;
      seen.add(key);
      out.push(h);
    }
  }
  return out;
}

export interface SideResult {
  effect: Effect;
  runs: HookRun[];
}

/** The case run natively, as Claude Code runs it. */
export async function runNative(c: FidelityCase, world: CaseWorld, timeoutScale = 1): Promise<SideResult> {
  const handlers = selectHandlers(hooksOf(c), c.event, world.payload);
  const input = JSON.stringify(world.payload);
  const runs = await Promise.all(
    handlers.map((h) => {
      const timeoutMs = (h.timeout ?? defaultTimeoutSeconds(c.event)) * 1000 * timeoutScale;
      return h.type === 'http' ? postHook(h.url!, input, timeoutMs) : runShell(h.command!, { cwd: world.dir, env: world.env, input, timeoutMs });
    }),
  );
  // An async handler runs in the background: Claude Code ignores its decision fields (reference 1.10).
  const counted = runs.filter((_, i) => handlers[i]!.async !== true);
  return { effect: sameRoot(combine(c.event, counted, world.payload), world), runs };
}

/** The two sides run in different temp folders: paths in texts are written relative to a common `<root>`. */
export function sameRoot<T>(value: T, world: CaseWorld): T {
  const root = path.dirname(world.dir);
  return JSON.parse(JSON.stringify(value).split(root).join('<root>')) as T;
}

/** Claude's event name in the config-key spelling (`PreToolUse` -> `preToolUse`). */
export const configKey = (event: string) => event[0]!.toLowerCase() + event.slice(1);

/** Does the built CLI have `hooks import claude-code` (the claude-settings branch)? */
let importSupport: boolean | undefined;
export function cliHasImport(): boolean {
  if (importSupport === undefined) {
    const r = spawnSync(process.execPath, [HOOKS_BIN, 'import', '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    importSupport = r.status === 0 && /claude/i.test(`${r.stdout}${r.stderr}`);
  }
  return importSupport;
}

/**
 * A `.hooksrc.json` made from a Claude `hooks` object by hand, for a CLI without `hooks import claude-code`:
 * each handler becomes a hook with the same command and timeout; an exact matcher becomes `match` (a name or a
 * list), any other matcher the `/regex/` form of the shared contract; non-tool events keep no matcher.
 */
export function translateByHand(hooks: ClaudeHooks): object {
  const out: Record<string, object[]> = {};
  const toolEvents = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);
  for (const [event, groups] of Object.entries(hooks)) {
    const list: object[] = [];
    for (const g of groups) {
      for (const h of g.hooks) {
        if (h.type !== 'command' || h.command === undefined) continue;
        const entry: Record<string, unknown> = { command: h.command };
        if (h.async === true) entry.async = true;
        if (h.if !== undefined) entry.if = h.if;
        if (h.timeout !== undefined) entry.timeout = h.timeout;
        const m = g.matcher;
        if (toolEvents.has(event) && m !== undefined && m !== '' && m !== '*') {
          if (/^[a-zA-Z0-9_|, -]+$/.test(m)) {
            const names = m.split(/[|,]/).map((s) => s.trim()).filter(Boolean);
            entry.match = names.length === 1 ? names[0] : names;
          } else entry.match = `/${m}/`;
        }
        list.push(entry);
      }
    }
    out[configKey(event)] = list;
  }
  return { hooks: out };
}

/**
 * Writes the runner's config for the case into the project with `hooks import claude-code`, called in-process: the
 * import is not what the corpus compares (the run below is a real process), and a process per case cost ~0.08 CPU-s
 * 176 times a suite.
 */
export async function writeRunnerConfig(c: FidelityCase, world: CaseWorld): Promise<{ how: 'import'; note?: string }> {
  const settingsFile = path.join(world.dir, '.claude', 'settings.json');
  writeFileSync(settingsFile, `${JSON.stringify({ hooks: hooksOf(c) }, null, 2)}\n`);
  const r = await cliInProcess(['import', 'claude-code', '--from', settingsFile], { cwd: world.dir, env: world.env });
  if (r.code === 0 && existsSync(path.join(world.dir, '.hooksrc.json'))) return { how: 'import', note: r.stderr.trim() || undefined };
  return { how: 'import', note: `hooks import claude-code failed (${r.code}): ${r.stderr.trim()}` };
}

/**
 * How the runner side runs: `cli()` in the test process with the argv, stdin, env and cwd Claude Code would give the
 * process (the default: the comparison is about the runner's decisions, and a process per case cost ~0.2 CPU-s 176
 * times a suite), or `node bin/hooks.js` as a real process, as Claude Code spawns it. The hooks the runner runs are
 * real processes either way. claude-corpus.test.ts runs a sample of cases both ways and requires the same reply.
 */
export type RunnerVia = 'in-process' | 'bin';

/**
 * The case through the runner: Claude Code runs `hooks run <Event> --dialect claude-code` as the one hook
 * (600 s, its default command timeout), and the oracle reads the runner's reply like any hook's.
 */
export async function runThroughRunner(c: FidelityCase, world: CaseWorld, trust: (dir: string, env: NodeJS.ProcessEnv) => void, via: RunnerVia = 'in-process'): Promise<SideResult & { config: { how: string; note?: string } }> {
  const config = await writeRunnerConfig(c, world);
  trust(world.dir, world.env);
  const args = ['run', c.event, '--dialect', 'claude-code'];
  // The same name both ways: Claude Code names the hook by its command in a blocking error's text.
  const command = `node ${HOOKS_BIN} ${args.join(' ')}`;
  const input = JSON.stringify(world.payload);
  let run: HookRun;
  if (via === 'bin') {
    run = await runShell(command, { cwd: world.dir, env: world.env, input, timeoutMs: defaultTimeoutSeconds(c.event) * 1000, argv: [process.execPath, HOOKS_BIN, ...args] });
  } else {
    const r = await cliInProcess(args, { cwd: world.dir, env: world.env, input });
    run = { command, exitCode: r.code, stdout: r.stdout, stderr: r.stderr, timedOut: false };
  }
  return { effect: sameRoot(combine(c.event, [run], world.payload), world), runs: [run], config };
}
