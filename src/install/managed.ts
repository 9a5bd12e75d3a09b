// `hooks install <agent> --managed`: a locked setup (src/lock). The runner is copied where only root can
// write, the agent's managed (system) hook settings run it by absolute path under an interpreter only
// root can change, and the policy is the managed layer /etc/agent-hooks/managed.json. Nothing of it goes
// through PATH, `#!/usr/bin/env node`, a file of the user's or `hooks serve` (a server the user could
// restart with switches): each event starts the locked runner itself.
// Run as root it does this; `--print` writes the same as a shell script for an admin or an MDM.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { replaceFile } from '../fs/write-safely.js';
import { MAKE_SHARED_CODE_CACHE, sharedCodeCacheFile } from '../lock/code-cache.js';
import { openToUsers } from '../lock/detect.js';
import { DEFAULT_MANAGED_CONFIG } from '../paths.js';
import { VERSION } from '../version.js';
import { getAgent } from './agents/index.js';
import { packageRoot } from './bin.js';
import { DEFAULT_ENTRY_TIMEOUT } from './index.js';
import { shellQuote } from './shell.js';

export const DEFAULT_PREFIX = '/opt/agent-hooks';

/** What the package needs to run (package.json's `files`): the CLI bundle carries its dependencies. */
const PACKAGE_PARTS = ['package.json', 'bin', 'dist', 'schema'];

/** The managed layer install writes when there is none: the three first-party guards. */
export const MANAGED_STARTER = {
  onUntrusted: 'warn',
  hooks: {
    preToolUse: [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths' }],
    postToolUse: [{ builtin: 'redact-secrets' }],
    userPromptSubmit: [{ builtin: 'redact-secrets' }],
  },
};

/** Each agent's machine-wide settings, and what a locked install can and cannot hold there. */
interface ManagedAgent {
  /** The settings file, per platform. */
  file(platform: NodeJS.Platform): string;
  /** The new settings text from the old (undefined: none) with entries running `command` for each event. */
  settings(before: string | undefined, file: string, runner: RunnerCommand): string;
  /** Other files the settings refer to (Codex: the hooks.json in its managed_dir). */
  extra?(runner: RunnerCommand): { file: string; text: string }[];
  /** Only printed: the layout is not one we have run the agent against. */
  printOnly?: string;
  /** What the agent then enforces, and what it does not. */
  notes: string[];
}

/** How the entries start the runner: an interpreter and the bin, both absolute. */
export interface RunnerCommand {
  node: string;
  bin: string;
}

const MANAGED_AGENTS: Record<string, ManagedAgent> = {
  'claude-code': {
    file: (platform) => (platform === 'darwin' ? '/Library/Application Support/ClaudeCode/managed-settings.json' : '/etc/claude-code/managed-settings.json'),
    settings(before, file, runner) {
      const { text } = getAgent('claude-code').install(before, file, { launcher: { kind: 'absolute', bin: runner.bin, node: runner.node }, timeoutSeconds: DEFAULT_ENTRY_TIMEOUT, failClosed: true }, 'user');
      // Only managed hooks run: a user's or a project's own Claude hooks (and their disableAllHooks) are ignored.
      return `${JSON.stringify({ ...(JSON.parse(text) as object), allowManagedHooksOnly: true }, null, 2)}\n`;
    },
    notes: [
      'Claude Code: allowManagedHooksOnly ignores every user, project, local and plugin hook, and disableAllHooks outside managed settings; onFailure "block" blocks PreToolUse and UserPromptSubmit when the runner is missing, crashes or times out',
    ],
  },
  cursor: {
    file: (platform) => (platform === 'darwin' ? '/Library/Application Support/Cursor/hooks.json' : '/etc/cursor/hooks.json'),
    settings(before, file, runner) {
      return getAgent('cursor').install(before, file, { launcher: { kind: 'absolute', bin: runner.bin, node: runner.node }, timeoutSeconds: DEFAULT_ENTRY_TIMEOUT, failClosed: true }, 'user').text;
    },
    notes: ['Cursor: the enterprise hooks.json runs beside the user\'s and the project\'s, which cannot be switched off from it (Cursor has no managed-only switch); failClosed blocks preToolUse and beforeSubmitPrompt when the runner fails'],
  },
  codex: {
    file: () => '/etc/codex/requirements.toml',
    settings: () => ['allow_managed_hooks_only = true', '', '[hooks]', 'managed_dir = "/etc/codex/hooks"', ''].join('\n'),
    extra: (runner) => [
      {
        file: '/etc/codex/hooks/hooks.json',
        text: getAgent('codex').install(undefined, '/etc/codex/hooks/hooks.json', { launcher: { kind: 'absolute', bin: runner.bin, node: runner.node }, timeoutSeconds: DEFAULT_ENTRY_TIMEOUT, failClosed: true }, 'user').text,
      },
    ],
    printOnly: 'the layout of Codex\'s requirements.toml [hooks] (managed_dir, allow_managed_hooks_only) is taken from its documentation and binary, not from a run: review the printed files before deploying them, and merge the keys into an existing requirements.toml rather than replace it',
    notes: ['Codex: allow_managed_hooks_only ignores non-managed hooks; Codex runs a tool call whose hook crashed or timed out (no fail-closed switch)'],
  },
};

export const MANAGED_AGENT_NAMES = Object.keys(MANAGED_AGENTS);

/** The agent's managed settings text with the locked entries (what planManaged puts in `settings.text`). */
export function managedSettings(agent: string, before: string | undefined, file: string, runner: RunnerCommand): string {
  const target = MANAGED_AGENTS[agent];
  if (target === undefined) throw new HooksError('USAGE', `install --managed: ${agent}: no managed hook settings to lock with`);
  return target.settings(before, file, runner);
}

export interface ManagedRequest {
  agent: string | undefined;
  /** Where the runner is copied (its package lands in `<prefix>/lib/node_modules/agent-hooks`, as `npm i -g --prefix` puts it). */
  prefix?: string;
  /** The interpreter the entries name; default the running node when only root can change it, else /usr/bin/node. */
  node?: string;
  platform?: NodeJS.Platform;
  /** The package to copy; default this one. */
  source?: string;
}

export interface ManagedPlan {
  agent: string;
  /** The package copied, and where to. */
  runner: { from: string; to: string };
  command: RunnerCommand;
  /** The agent's settings file and its new text. */
  settings: { file: string; text: string };
  /** Other files of the agent's the settings refer to. */
  extra: { file: string; text: string }[];
  /** The managed layer, written only when absent. */
  layer: { file: string; text: string; exists: boolean };
  printOnly?: string;
  notes: string[];
}

/** What a locked install of `agent` writes, from the machine as it is now (nothing is changed). */
export function planManaged(request: ManagedRequest): ManagedPlan {
  const name = request.agent;
  const agent = name === undefined ? undefined : MANAGED_AGENTS[name];
  if (name === undefined || agent === undefined) {
    const why = name === 'copilot' ? 'copilot: its machine policy files (/etc/github-copilot/policy.d) are not documented well enough to lock with; ' : name === undefined ? '' : `${name}: no managed hook settings to lock with; `;
    throw new HooksError('USAGE', `install --managed: ${why}agents that can be locked: ${MANAGED_AGENT_NAMES.join(', ')}`);
  }
  const prefix = path.resolve(request.prefix ?? DEFAULT_PREFIX);
  const to = path.join(prefix, 'lib', 'node_modules', 'agent-hooks');
  const command = { node: request.node ?? chooseNode(), bin: path.join(to, 'bin', 'hooks.js') };
  if (!path.isAbsolute(command.node)) throw new HooksError('USAGE', `--node: ${command.node}: give an absolute path (never a name looked up on PATH)`);
  const file = agent.file(request.platform ?? process.platform);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  const layerExists = existsSync(DEFAULT_MANAGED_CONFIG);
  return {
    agent: name,
    runner: { from: request.source ?? packageRoot(), to },
    command,
    settings: { file, text: agent.settings(before, file, command) },
    extra: agent.extra?.(command) ?? [],
    layer: { file: DEFAULT_MANAGED_CONFIG, text: `${JSON.stringify(MANAGED_STARTER, null, 2)}\n`, exists: layerExists },
    ...(agent.printOnly === undefined ? {} : { printOnly: agent.printOnly }),
    notes: [
      ...agent.notes,
      `the entries run ${shellQuote(command.node)} ${shellQuote(command.bin)} directly, not through hooks serve: a server is the user's to restart with other switches`,
    ],
  };
}

/**
 * The interpreter: the running node when no user but root can change it (nor a folder above it), else
 * /usr/bin/node if that holds. A node under a home folder (nvm) or a user-writable prefix is refused:
 * whoever can replace it runs in place of every guard.
 */
function chooseNode(): string {
  const running = realpathSync(process.execPath);
  const problem = openToUsers(running);
  if (problem === undefined) return running;
  if (existsSync('/usr/bin/node') && openToUsers('/usr/bin/node') === undefined) return '/usr/bin/node';
  throw new HooksError('USAGE', `install --managed: node ${running} ${problem}, and there is no /usr/bin/node only root can change; install node as root (e.g. the distribution's package) or pass --node <path>`);
}

/** Carries the plan out: must run as root. Returns one line per thing done. */
export function applyManaged(plan: ManagedPlan): string[] {
  if (plan.printOnly !== undefined) throw new HooksError('USAGE', `install ${plan.agent} --managed: ${plan.printOnly}; use --print`);
  if (typeof process.geteuid === 'function' && process.geteuid() !== 0) {
    throw new HooksError('USAGE', 'install --managed writes files only root may write (that is the point): run it as root, or add --print for the commands and files to hand to an administrator or an MDM');
  }
  const nodeProblem = openToUsers(plan.command.node);
  if (nodeProblem !== undefined) throw new HooksError('USAGE', `install --managed: node ${plan.command.node} ${nodeProblem}: a user could replace the interpreter every guard runs under`);
  const done: string[] = [];
  copyRunner(plan.runner.from, plan.runner.to);
  done.push(`runner copied to ${plan.runner.to} (root-owned, not writable by group or others)`);
  if (!plan.layer.exists) {
    writeRootFile(plan.layer.file, plan.layer.text);
    done.push(`managed layer ${plan.layer.file} written (command-safety, sensitive-paths, redact-secrets)`);
  } else done.push(`managed layer ${plan.layer.file} kept as it is`);
  for (const x of plan.extra) writeRootFile(x.file, x.text);
  writeRootFile(plan.settings.file, plan.settings.text);
  done.push(`${plan.agent} managed settings ${plan.settings.file} written`);
  done.push(makeCodeCache(plan.command));
  return done;
}

/** The sample events the cache is made on: the ones a locked install's entries send. */
const CODE_CACHE_EVENTS: [string, object][] = [
  ['pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status' } }],
  ['pre-tool-use', { hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/tmp/notes.txt' } }],
  ['post-tool-use', { hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_response: { stdout: 'nothing to commit', stderr: '' } }],
  ['user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'run the tests' }],
];

/**
 * The locked runner's V8 code cache (src/lock/code-cache.ts), made by root beside the copied bundle:
 * the copied runner, under the node the entries name, runs each sample event once with the starter
 * managed layer, in an empty home of its own (never root's config, nor the machine's managed layer,
 * whose command hooks are not run on made-up events). Without it a locked runner compiles the CLI on
 * every run; so a failure here is a line of the install's, not its end. Must run as root.
 */
export function makeCodeCache(command: RunnerCommand): string {
  const bundle = path.join(path.dirname(path.dirname(command.bin)), 'dist', 'bundle', 'cli.cjs');
  const file = sharedCodeCacheFile(bundle);
  const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-code-cache-'));
  try {
    writeFileSync(path.join(home, 'managed.json'), JSON.stringify(MANAGED_STARTER));
    const env = {
      PATH: '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_CACHE_HOME: path.join(home, 'cache'),
      XDG_STATE_HOME: path.join(home, 'state'),
      AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'),
      // A locked run checks its config on every run: the cache holds that code too.
      HOOKS_NO_CACHE: '1',
      [MAKE_SHARED_CODE_CACHE]: '1',
    };
    for (const [event, payload] of CODE_CACHE_EVENTS) {
      const input = JSON.stringify({ session_id: 'install', cwd: home, ...payload });
      const r = spawnSync(command.node, [command.bin, 'run', event, '--dialect', 'claude-code'], { cwd: home, env, input, encoding: 'utf8', timeout: 120_000 });
      if (r.status !== 0) return `code cache not made: the runner's ${event} run ended with ${r.status ?? r.signal}: ${(r.stderr || r.error?.message || '').trim().split('\n')[0]} (a locked runner compiles its code on every run)`;
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  if (!existsSync(file)) return `code cache not made: ${file} was not written (a locked runner compiles its code on every run)`;
  return `code cache ${file} made for ${command.node} (${Math.round(statSync(file).size / 1024)} KB, root-owned, 0644)`;
}

/** The plan as a POSIX shell script an administrator runs as root (or an MDM deploys). */
export function printManaged(plan: ManagedPlan): string {
  const lines = [
    '#!/bin/sh',
    `# agent-hooks ${VERSION}: a locked install for ${plan.agent}. Run as root.`,
    ...(plan.printOnly === undefined ? [] : [`# NOTE: ${plan.printOnly}`]),
    'set -eu',
    'umask 022',
    `# The runner, where only root can write (or copy this package: cp -R ${PACKAGE_PARTS.map((p) => shellQuote(path.join(plan.runner.from, p))).join(' ')} ${shellQuote(plan.runner.to)}/)`,
    `npm install -g --prefix ${shellQuote(path.dirname(path.dirname(path.dirname(plan.runner.to))))} agent-hooks@${VERSION}`,
    `chown -R root:root ${shellQuote(plan.runner.to)}`,
    `chmod -R go-w ${shellQuote(plan.runner.to)}`,
    `test -x ${shellQuote(plan.command.node)}  # the interpreter the entries name: root-owned, not writable by others`,
    `install -d -m 0755 -o root -g root ${shellQuote(path.dirname(plan.layer.file))} ${shellQuote(path.dirname(plan.settings.file))}`,
    `# The policy (the managed layer); an existing one is kept`,
    `[ -e ${shellQuote(plan.layer.file)} ] || cat > ${shellQuote(plan.layer.file)} <<'AGENT_HOOKS_EOF'`,
    plan.layer.text.trimEnd(),
    'AGENT_HOOKS_EOF',
    `chmod 0644 ${shellQuote(plan.layer.file)}`,
    `# ${plan.agent}'s managed settings`,
    `cat > ${shellQuote(plan.settings.file)} <<'AGENT_HOOKS_EOF'`,
    plan.settings.text.trimEnd(),
    'AGENT_HOOKS_EOF',
    `chmod 0644 ${shellQuote(plan.settings.file)}`,
    ...plan.extra.flatMap((x) => [`install -d -m 0755 -o root -g root ${shellQuote(path.dirname(x.file))}`, `cat > ${shellQuote(x.file)} <<'AGENT_HOOKS_EOF'`, x.text.trimEnd(), 'AGENT_HOOKS_EOF', `chmod 0644 ${shellQuote(x.file)}`]),
    `# The locked runner's code cache, made by root beside its bundle (again after upgrading node: it is made for one node)`,
    `${shellQuote(plan.command.node)} ${shellQuote(plan.command.bin)} install ${plan.agent} --managed --code-cache --prefix ${shellQuote(path.dirname(path.dirname(path.dirname(plan.runner.to))))} --node ${shellQuote(plan.command.node)}`,
    ...plan.notes.map((n) => `# ${n}`),
    '# Then, as each user: agent-hooks doctor (it says "locked: yes", or every reason it is not)',
  ];
  return `${lines.join('\n')}\n`;
}

/** A fresh copy of the package at `to`: root-owned, nothing in it writable by group or others. */
function copyRunner(from: string, to: string): void {
  makeRootFolders(path.dirname(to));
  const staging = `${to}.new-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o755 });
  for (const part of PACKAGE_PARTS) {
    const source = path.join(from, part);
    if (existsSync(source)) cpSync(source, path.join(staging, part), { recursive: true, dereference: true });
  }
  closeModes(staging);
  rmSync(to, { recursive: true, force: true });
  cpSync(staging, to, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  closeModes(to);
}

/** chmod go-w over a tree (root made it, so root owns it). */
function closeModes(dir: string): void {
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink()) return;
  chmodSync(dir, stats.mode & 0o7755);
  if (stats.isDirectory()) for (const entry of readdirSync(dir)) closeModes(path.join(dir, entry));
}

/** Creates the folders (0755) and checks that no user but root can change them or any folder above. */
function makeRootFolders(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  const problem = openToUsers(dir);
  if (problem !== undefined) throw new HooksError('CONFIG_UNREADABLE', `${dir}: ${problem}; a locked install needs folders only root can change`, { file: dir });
}

function writeRootFile(file: string, text: string): void {
  makeRootFolders(path.dirname(file));
  replaceFile(file, Buffer.from(text, 'utf8'), 0o644);
}
