// Shared test helpers: throwaway projects, an isolated environment, events from sample files, the real CLI.
import { spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventFromClaudePayload } from '../src/dialects/payload.js';
import { cli } from '../src/cli/main.js';
import { createRunner } from '../src/engine.js';
import { defaultLoaders } from 'cosmiconfig';
import { isJsFile, LOCAL_CONFIG_NAME, SEARCH_PLACES } from '../src/config/load.js';
import { updateTrustStore } from '../src/trust/store.js';
import { trustRecord } from '../src/trust/coverage.js';
import type { HooksConfig } from '../src/config/schema.js';
import type { HandlerSpec } from '../src/config/resolve.js';
import type { Decision, Outcome } from '../src/decide/combine.js';
import type { Dialect } from '../src/dialects/dialect.js';
import type { HookEvent } from '../src/types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'hooks');
export const EXAMPLES = path.join(ROOT, 'hooks-examples');

/** A fresh folder with these files (paths relative to it); returns its absolute path. */
export function tmpProject(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-test-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  return dir;
}

/**
 * process.env with HOME and the XDG folders pointing into `home`, and the managed layer at a file that
 * is not there, so no real user, managed or trust state leaks in. The config files in `home` as they are
 * now count as trusted (as if the user had run `hooks trust` there), and so do those of the folder
 * `trust` names; pass `{ trust: false }` to test the gate itself. A file written later is untrusted until `trustProject` is called again.
 * The cache folder starts with a warm CLI code cache (see `seedCodeCache`); `{ codeCache: false }` leaves it empty, as
 * a user's first run finds it.
 */
export function isolatedEnv(home: string, extra: Record<string, string> = {}, options: { trust?: boolean | string; codeCache?: boolean } = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['HOOKS_SKIP', 'HOOKS_DISABLE', 'HOOKS_ON_ERROR', 'HOOKS_DEBUG', 'CLAUDE_PROJECT_DIR', 'HOOKS_NO_CACHE', 'FORCE_COLOR']) delete env[name];
  const isolated = {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    AGENT_HOOKS_MANAGED_CONFIG: path.join(home, '.managed-agent-hooks.json'),
    ...extra,
  };
  if (options.codeCache !== false && extra.XDG_CACHE_HOME === undefined) seedCodeCache(isolated.XDG_CACHE_HOME!);
  if (options.trust !== false) trustProject(home, isolated);
  // A project folder apart from `home`: its files as they are now count as trusted too.
  if (typeof options.trust === 'string') trustProject(options.trust, isolated);
  return isolated;
}

let warm: { entries: { name: string; body: Buffer }[] } | null | undefined;
/**
 * Puts a warm V8 code cache of the built CLI into `cacheHome` (an XDG_CACHE_HOME), signed under a user key of that
 * home's own. A fresh home compiles the CLI cold on each of its first two hook runs and writes the cache on the
 * second (~0.3 CPU-s a run against ~0.18 warm), and most tests make a home for a handful of runs: some 700 runs a
 * suite. One cache is made per test process; each home gets it re-signed (an entry is "AHCODE01", the HMAC-SHA256
 * of the rest under the key, the rest: src/cli/launch.ts), so no two homes share a key, as no two users do. A
 * user's first run is what test/cli/code-cache.test.ts is for, which also checks that a seeded home is warm.
 * Nothing is seeded when the CLI is not built or made no cache: the runs are only slower.
 */
export function seedCodeCache(cacheHome: string): void {
  if (warm === undefined) warm = makeWarmCodeCache();
  if (warm === null) return;
  const dir = path.join(cacheHome, 'agent-hooks');
  if (existsSync(path.join(dir, 'config', 'key'))) return;
  const key = randomBytes(32);
  mkdirSync(path.join(dir, 'code'), { recursive: true, mode: 0o700 });
  mkdirSync(path.join(dir, 'config'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(dir, 'config', 'key'), key.toString('hex'), { mode: 0o600 });
  for (const { name, body } of warm.entries) {
    writeFileSync(path.join(dir, 'code', name), Buffer.concat([CODE_MAGIC, createHmac('sha256', key).update(body).digest(), body]), { mode: 0o600 });
  }
}

const CODE_MAGIC = Buffer.from('AHCODE01');

function makeWarmCodeCache(): { entries: { name: string; body: Buffer }[] } | null {
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-warm-'));
  const cache = path.join(home, '.cache');
  const env = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, '.state'), XDG_CACHE_HOME: cache, AGENT_HOOKS_MANAGED_CONFIG: path.join(home, '.managed.json') };
  const input = JSON.stringify({ session_id: 's', cwd: home, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
  // The CLI writes its code cache only on a run whose config came from the config cache: the second one.
  for (let i = 0; i < 2; i++) spawnSync(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'run', 'pre-tool-use', '--dialect', 'claude-code'], { cwd: home, env, input });
  const code = path.join(cache, 'agent-hooks', 'code');
  const entries = (existsSync(code) ? readdirSync(code) : [])
    .map((name) => ({ name, bytes: readFileSync(path.join(code, name)) }))
    .filter(({ bytes }) => bytes.subarray(0, CODE_MAGIC.length).equals(CODE_MAGIC))
    .map(({ name, bytes }) => ({ name, body: bytes.subarray(CODE_MAGIC.length + 32) }));
  rmSync(home, { recursive: true, force: true });
  return entries.length > 0 ? { entries } : null;
}

/** Records the project config files in `dir` (as they are now, with the files they cover) as trusted in `env`'s trust store. */
export function trustProject(dir: string, env: NodeJS.ProcessEnv): void {
  const files = [...SEARCH_PLACES, LOCAL_CONFIG_NAME].map((name) => path.join(dir, name)).filter((f) => existsSync(f) && statSync(f).isFile());
  if (files.length === 0) return;
  updateTrustStore(env, { trust: files.map((file) => trustRecordOf(file)) });
}

/** `trustRecord` of a config file as it is now, parsed synchronously (JSON, else YAML; JS is not run). */
export function trustRecordOf(file: string) {
  const bytes = readFileSync(file);
  let config: unknown;
  if (!isJsFile(file)) {
    const text = bytes.toString('utf8');
    try {
      config = JSON.parse(text);
    } catch {
      try {
        config = defaultLoaders['.yaml'](file, text);
      } catch {
        config = undefined;
      }
    }
    if (path.basename(file) === 'package.json') {
      const hooks = (config as { hooks?: unknown } | undefined)?.hooks as Record<string, unknown> | undefined;
      config = hooks !== undefined && typeof hooks === 'object' && hooks !== null && 'hooks' in hooks ? hooks : { hooks };
    }
  }
  return trustRecord(file, bytes, config);
}

/** A canonical event from a Claude-format payload. */
export function event(name: string, payload: Record<string, unknown> = {}): HookEvent {
  return eventFromClaudePayload({ session_id: 'test-session', cwd: '/home/dev/project', ...payload }, name);
}

/** A preToolUse on Bash with this command. */
export function bash(command: string, extra: Record<string, unknown> = {}): HookEvent {
  return event('preToolUse', { tool_name: 'Bash', tool_input: { command, ...extra }, tool_use_id: 'toolu_test' });
}

/** The sample event shipped in hooks-examples/events/<name>.json. */
export function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(EXAMPLES, 'events', `${name}.json`), 'utf8')) as Record<string, unknown>;
}

/** A runner over an inline config in a throwaway project with an isolated environment. */
export async function runnerWith(config: HooksConfig, options: { env?: Record<string, string>; handlers?: HandlerSpec[] } = {}) {
  const dir = tmpProject();
  return createRunner({
    cwd: dir,
    config,
    env: isolatedEnv(dir, options.env),
    ...(options.handlers === undefined ? {} : { handlers: options.handlers }),
  });
}

/** Runs the built CLI (`bin/hooks.js`) as a real process. */
export function runCli(args: string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const cwd = options.cwd ?? ROOT;
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), ...args], {
    cwd,
    input: options.input ?? '',
    env: options.env ?? isolatedEnv(tmpProject()),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, ms: performance.now() - started };
}

/** The fixture hook in `lang` as a shell-form command. */
export function fixture(lang: 'bash' | 'python' | 'node', name = 'reply'): string {
  const file = { bash: `${name}.sh`, python: `${name}.py`, node: `${name}.mjs` }[lang];
  return JSON.stringify(path.join(FIXTURES, file));
}

/**
 * The CLI in-process (no build needed), with captured output: the same argv, cwd, env, stdin and exit code as
 * runCli's process, and the same defaults (the repository, a throwaway home). With `answers`, stdin is a terminal
 * and each question the command asks gets the next answer (the questions are returned).
 */
export async function cliInProcess(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; answers?: string[] } = {}) {
  let stdout = '';
  let stderr = '';
  const questions: string[] = [];
  const answers = options.answers === undefined ? undefined : [...options.answers];
  const code = await cli(args, {
    ...(answers === undefined ? {} : { stdinIsTTY: true, prompt: async (question: string) => (questions.push(question), answers.shift() ?? '') }),
    cwd: options.cwd ?? ROOT,
    env: options.env ?? isolatedEnv(tmpProject()),
    readStdin: async () => options.input ?? '',
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr, ...(answers === undefined ? {} : { questions }) };
}

/** For a dialect's table tests: its captured payloads, events from them, bare decisions, and answers. */
export function dialectKit(dialect: Dialect, payloadFolder: string) {
  const load = (file: string) => JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'payloads', payloadFolder, file), 'utf8')) as Record<string, unknown>;
  return {
    load,
    ev: (file: string, name?: string) => dialect.toEvent(load(file), name),
    decide: (event: HookEvent, decision: Outcome, extra: Partial<Decision> = {}): Decision => ({
      decision, event, additionalContext: [], results: [], warnings: [], skipped: [], steps: [], ...extra,
    }),
    json: (d: Decision) => {
      const a = dialect.answer(d);
      return { ...a, json: a.stdout === '' ? undefined : (JSON.parse(a.stdout) as Record<string, any>) };
    },
  };
}

let nodeCopy: string | undefined;

/**
 * A node binary another user (uid 65534 in the tests that run as one) can execute: this process's own, or
 * one copy of it in a folder open to all when a folder above it is closed to others. CI runs the other
 * Node lines from binaries cached under the checkout, which it clones into a 0700 folder.
 */
export function nodeForOtherUsers(): string {
  if (openToOthers(process.execPath)) return process.execPath;
  if (nodeCopy === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-node-'));
    chmodSync(dir, 0o755);
    nodeCopy = path.join(dir, 'node');
    copyFileSync(process.execPath, nodeCopy);
    chmodSync(nodeCopy, 0o755);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return nodeCopy;
}

/** The file and every folder above it can be entered (and it run) by users other than its owner. */
function openToOthers(file: string): boolean {
  const real = realpathSync(file);
  if ((statSync(real).mode & 0o001) === 0) return false;
  for (let dir = path.dirname(real); ; dir = path.dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) return true;
  }
}

