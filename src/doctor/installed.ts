// `hooks doctor`'s look at the agents' own settings: for every agent with agent-hooks installed (in
// this project or for the user), the command its entries run must resolve, start and answer, as the
// agent would run it. A stale path (a moved global install, a clone before `npm ci`, a path from
// someone else's machine) fails open in every agent: the agent proceeds with every guard off.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AGENTS } from '../install/agents/index.js';
import { label } from '../install/index.js';
import { isOurPlugin } from '../install/opencode-plugin.js';
import { isOurClinePlugin } from '../install/cline-plugin.js';
import { isOurPiExtension } from '../install/pi-extension.js';
import { isOurOpenclawFile } from '../install/openclaw-plugin.js';

/** The agents served by a generated plugin (its runner is a path in a JS string, not a shell command). */
const PLUGIN_AGENTS = ['opencode', 'cline', 'pi', 'omp', 'openclaw'];
import { isOurCommand } from '../install/shell.js';
import { isOurHttpHandler } from '../install/serve.js';
import { isRecord } from '../json.js';
import { isInside, realOrSelf } from '../paths.js';
import { readSafely } from '../fs/write-safely.js';
import type { AgentTarget, Scope, Where } from '../install/target.js';
import type { Finding } from './finding.js';
import { findOnPath } from './on-path.js';
import { checkHttpPorts } from './serve.js';

/** How long `<launcher> --version` may take before doctor calls it unresponsive. */
const ANSWER_TIMEOUT_MS = 15_000;

/** One installed agent: where its entries are and what they run. */
export interface Installed {
  agent: string;
  scope: Scope;
  file: string;
  /** The shell text that starts agent-hooks, as the entries have it (before ` run `). */
  launchers: string[];
  /** True when the entry on the tool-gating event blocks on a runner error. */
  failClosed: boolean;
  /** Launchers written as one machine's absolute path. */
  machinePaths: string[];
  /** Entries of ours that call `hooks serve` over HTTP (install --serve --http). */
  http?: boolean;
  /** The loopback ports those entries post to. */
  httpPorts?: number[];
}

/** Every finding about the agents' installed entries, for the project in `cwd` and the user. */
export function checkInstalled(where: Where): Finding[] {
  const findings: Finding[] = [];
  // Several agents usually run the same copy: each real file is started once.
  const answered = new Map<string, string | undefined>();
  const unreadable: Finding[] = [];
  for (const found of findInstalled(where, unreadable)) findings.push(...checkOne(found, where, answered));
  return [...unreadable, ...findings];
}

/** The agents with entries of ours, in the project and in the user's home. */
export function findInstalled(where: Where, unreadable: Finding[] = []): Installed[] {
  const found: Installed[] = [];
  for (const agent of AGENTS) {
    for (const scope of ['project', 'user'] as const) {
      // An agent whose settings only load a plugin of ours (OpenClaw): the plugin's code names the runner.
      const settings = agent.file(scope, where);
      const file = agent.companions === undefined ? settings : agent.companions.files(settings)[0]!;
      let text: string | undefined;
      try {
        // A project's file is read only inside the project (a link out of it is the repository's doing).
        text = scope === 'project' ? readSafely(file, { root: where.cwd }) : readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
          unreadable.push({ level: 'warning', where: `${label(file, where)} (${agent.name} ${scope})`, message: `not checked: ${(error as Error).message}`, fix: 'look at the file; agent-hooks install refuses it too' });
        }
        continue;
      }
      if (text === undefined) continue;
      const installed = PLUGIN_AGENTS.includes(agent.name) ? readPlugin(text, file) : readJsonEntries(text, agent.name);
      if (installed !== undefined && (installed.launchers.length > 0 || installed.http === true)) found.push({ agent: agent.name, scope, file, ...installed });
    }
  }
  return found;
}

// --- internal ---

function checkOne(found: Installed, where: Where, answered: Map<string, string | undefined>): Finding[] {
  const agent = AGENTS.find((a) => a.name === found.agent)!;
  const at = `${label(found.file, where)} (${found.agent} ${found.scope})`;
  const findings: Finding[] = [];
  const reinstall = `npx agent-hooks install ${found.agent}${found.scope === 'user' ? ' --user' : ''}`;
  for (const launcher of found.launchers) {
    if (found.scope === 'project' && found.machinePaths.includes(launcher)) {
      findings.push({
        level: 'warning',
        where: at,
        message: `the entries run ${launcher}, an absolute path of one machine, in a file teams commit: in a teammate's clone it does not exist and every guard is off`,
        fix: `${reinstall} (writes a path relative to the project)`,
      });
    }
    const answer = answers(launcher, agent, found, where, answered);
    if (answer !== undefined) findings.push({ level: 'error', where: at, message: `the entries run ${launcher}, which ${answer}: the agent proceeds with every guard off`, fix: fixFor(found, reinstall) });
  }
  if (found.httpPorts !== undefined && found.httpPorts.length > 0) findings.push(...checkHttpPorts(found.httpPorts, at));
  if (!found.failClosed) {
    findings.push({
      level: 'warning',
      where: at,
      // Cline's plugin blocks on a runner that fails, is missing or times out whatever the switch: only a
      // hook's own error inside the runner lets a call go on, so "guards fail open" would overstate it.
      message:
        found.agent === 'cline' || found.agent === 'pi' || found.agent === 'omp' || found.agent === 'openclaw'
          ? `a hook's own error does not block: ${agent.failure.open}`
          : `guards fail open: if the runner errors${['claude-code', 'cursor', 'opencode', 'goose'].includes(found.agent) ? ' or is missing' : ''}, ${agent.failure.open}`,
      fix: `${reinstall} --fail-closed (${agent.failure.closed})`,
    });
  }
  return findings;
}

function fixFor(found: Installed, reinstall: string): string {
  return found.scope === 'project'
    ? `install the project's dependencies (npm ci), or add agent-hooks (npm i -D agent-hooks) and run ${reinstall}`
    : `install agent-hooks globally (npm i -g agent-hooks) and run ${reinstall}`;
}

/**
 * Whether the launcher resolves, starts and answers; undefined when it does, else what went wrong.
 * A project's settings and its node_modules are the repository's, and inspecting a repository must
 * never run its code: the launcher is never handed to a shell, only the forms install writes are
 * resolved, and a bin inside the project is checked without running it (an agent-hooks package, by
 * its package.json). A bin outside the project (a global install) is run with --version.
 */
function answers(launcher: string, agent: AgentTarget, found: Installed, where: Where, answered: Map<string, string | undefined>): string | undefined {
  const base = agent.projectDir.base(where.cwd);
  // The plugin's runner is a path already (or the name on PATH), read out of a JS string literal.
  const file = PLUGIN_AGENTS.includes(found.agent) && path.isAbsolute(launcher) ? launcher : resolveLauncher(launcher, base, where.env);
  if (file === undefined) return 'is not a command agent-hooks writes (edited by hand?), so doctor did not run it';
  if (file === null) return 'does not resolve (agent-hooks is not on PATH)';
  let real: string;
  try {
    real = realpathSync(file);
    accessSync(real, constants.X_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EACCES' ? `is not executable (${file})` : `does not resolve (stale path: ${file} does not exist)`;
  }
  const owner = agentHooksPackage(real);
  if (found.scope === 'project' && isInside(realOrSelf(base), real)) {
    return owner === undefined ? `resolves to ${file}, which is not agent-hooks (no agent-hooks package.json above it)` : undefined;
  }
  if (answered.has(real)) return answered.get(real);
  const problem = runVersion(real, where.env);
  answered.set(real, problem);
  return problem;
}

function runVersion(real: string, env: NodeJS.ProcessEnv): string | undefined {
  const r = spawnSync(real, ['--version'], { env, encoding: 'utf8', timeout: ANSWER_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error !== undefined) return `could not be started (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})`;
  if (r.signal !== null) return `did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`;
  if (r.status !== 0) return `failed (exit ${r.status}: ${firstLine(r.stderr)})`;
  if (!/\d+\.\d+\.\d+/.test(r.stdout)) return `answered something that is not agent-hooks' version (${firstLine(r.stdout) || 'nothing'})`;
  return undefined;
}

const SAFE_PATH = /^[A-Za-z0-9_/.,:@%+=-]+$/;
/** The project-folder prefixes install writes (see each agent's projectDir.shell). */
// goose's is its plugin folder's, three below the project: "$PLUGIN_ROOT/../../..".
const PROJECT_PREFIX = /^("\$[A-Z_]+"|"\$PLUGIN_ROOT\/\.\.\/\.\.\/\.\."|"\$\{[A-Z_]+:-\.\}"|"\$\(git rev-parse --show-toplevel 2>\/dev\/null \|\| pwd\)")\/(.+)$/;

/**
 * The file a launcher names: the project-relative forms, `agent-hooks` on PATH, or one absolute path
 * (bare or single-quoted). undefined: not a form install writes; null: not on PATH.
 */
function resolveLauncher(launcher: string, base: string, env: NodeJS.ProcessEnv): string | null | undefined {
  const project = PROJECT_PREFIX.exec(launcher);
  if (project !== null) return SAFE_PATH.test(project[2]!) ? path.resolve(base, project[2]!) : undefined;
  if (launcher === 'agent-hooks') return findOnPath(launcher, env) ?? null;
  const word = /^'([^']*)'$/.exec(launcher)?.[1] ?? (SAFE_PATH.test(launcher) ? launcher : undefined);
  return word !== undefined && path.isAbsolute(word) ? word : undefined;
}

/** The folder of the agent-hooks package holding `file`, or undefined when it is in none. */
function agentHooksPackage(file: string): string | undefined {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      const pkg: unknown = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      // A package.json without a name only sets the module type of its folder (agent-hooks' own bin/ has one).
      if (!isRecord(pkg) || pkg.name !== undefined) return isRecord(pkg) && pkg.name === 'agent-hooks' ? dir : undefined;
    } catch {
      // no package.json here: keep walking
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}


/** Our commands in a JSON settings file, and whether the tool-gating one is fail-closed. */
function readJsonEntries(text: string, agent: string): Omit<Installed, 'agent' | 'scope' | 'file'> | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const launchers = new Set<string>();
  let gate: boolean | undefined;
  // An install --serve of only http handlers (Claude Code's, for a config without SessionStart) runs no launcher.
  let http = false;
  const httpPorts: number[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth > 64) return;
    if (Array.isArray(value)) for (const v of value) visit(v, depth + 1);
    else if (isRecord(value)) {
      // install --serve: an http handler of ours gates PreToolUse by the agent's onFailure alone (a runner error is a 500).
      if (isOurHttpHandler(value)) {
        http = true;
        httpPorts.push(Number(/^http:\/\/127\.0\.0\.1:(\d+)\//.exec(String(value.url))?.[1]));
        if (/[?&]event=pre-tool-use&/.test(String(value.url))) gate = (gate ?? true) && value.onFailure === 'block';
      }
      for (const raw of Object.values(value)) {
        // install --serve wraps our command in agent-hooks-client: the launcher is the wrapped command's.
        const v = typeof raw === 'string' ? withoutClient(raw) : raw;
        if (typeof v === 'string' && isOurCommand(v)) {
          const at = v.indexOf(' run ');
          if (at > 0) launchers.add(v.slice(0, at));
          if (/ run pre-tool-use /.test(v)) {
            // The flag covers the runner's errors; a missing runner is blocked only by the agent's own switch.
            const own = agent === 'claude-code' ? value.onFailure === 'block' : agent === 'cursor' ? value.failClosed === true : true;
            gate = (gate ?? true) && v.includes('--on-error block') && own;
          }
        } else visit(v, depth + 1);
      }
    }
  };
  visit(doc, 0);
  const all = [...launchers];
  return { launchers: all, failClosed: gate === true, machinePaths: all.filter((l) => path.isAbsolute(unquote(l))), http, ...(httpPorts.length === 0 ? {} : { httpPorts }) };
}

/** A generated plugin's (opencode, Cline, pi, omp) runner (as a shell word) and its FAIL_CLOSED switch. */
function readPlugin(text: string, file: string): Omit<Installed, 'agent' | 'scope' | 'file'> | undefined {
  if (!isOurPlugin(text) && !isOurClinePlugin(text) && !isOurPiExtension(text, 'pi') && !isOurPiExtension(text, 'omp') && !isOurOpenclawFile(text)) return undefined;
  const relative = /const HOOKS_BIN = fileURLToPath\(new URL\(("(?:[^"\\]|\\.)*"), import\.meta\.url\)\);/.exec(text);
  const literal = /const HOOKS_BIN = ("(?:[^"\\]|\\.)*");/.exec(text);
  let bin: string | undefined;
  if (relative !== null) bin = path.resolve(path.dirname(file), JSON.parse(relative[1]!) as string);
  else if (literal !== null) bin = JSON.parse(literal[1]!) as string;
  if (bin === undefined) return undefined;
  // Only a path written into the file is one machine's; the relative form is resolved here.
  const machinePaths = relative === null && path.isAbsolute(bin) ? [bin] : [];
  return { launchers: [bin], failClosed: /const FAIL_CLOSED = true;/.test(text), machinePaths };
}

function withoutClient(command: string): string {
  const client = /agent-hooks-client'? (?:--when-down [a-z]+ )?/.exec(command);
  return client === null ? command : command.slice(client.index + client[0].length);
}

function unquote(word: string): string {
  return word.replace(/^'(.*)'$/, '$1');
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

