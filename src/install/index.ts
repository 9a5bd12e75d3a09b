// `hooks install` / `hooks uninstall` as functions: read the agent's file, plan the new text, and
// (unless it is a dry run) write it with a backup. The outcome is a value the command prints.
import path from 'node:path';
import { HooksError } from '../errors.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../config/resolve.js';
import { readSafely, removeSafely, writeSafely, type SafeOptions } from '../fs/write-safely.js';
import { isInside } from '../paths.js';
import { getAgent } from './agents/index.js';
import { readBackup, recordChange } from './backup.js';
import { unifiedDiff } from './diff.js';
import { chooseLauncher, type Launcher, type LauncherChoice } from './launcher.js';
import type { AgentTarget, InstallOptions, Scope, Where } from './target.js';
import { serveNotes, serveRefusal, type ServeInstall } from './serve.js';

export { AGENT_NAMES } from './agents/index.js';
export type { Scope, Where } from './target.js';
export type { Launcher } from './launcher.js';

/**
 * Seconds each agent entry waits for `hooks run` at least. The runner enforces every hook's own timeout
 * and then still has to kill the hook's process tree and answer; an agent that gives up first kills the
 * runner instead, fails open, and loses the runner's report and any `onFailure: "block"`. Twice a builtin
 * guard's 30 s leaves that margin; claude-code --project entries wait for their chain's worst case
 * (src/install/plan.ts).
 */
export const DEFAULT_ENTRY_TIMEOUT = 2 * DEFAULT_TIMEOUT_SECONDS;

export interface Request {
  agent: string | undefined;
  scope: Scope;
  where: Where;
  dryRun: boolean;
  /** Write a settings file that resolves outside the project (or home folder, for --user). */
  allowOutside?: boolean;
}

export interface Outcome {
  file: string;
  action: 'created' | 'updated' | 'removed' | 'unchanged';
  /** Our entries in the file after an install. */
  entries?: number;
  /** Our entries an uninstall removed. */
  removed?: number;
  /** The unified diff of the change (empty when unchanged). */
  diff: string;
  /** Where the state before the change was recorded (in the user's state dir). */
  backup?: string;
  /** Why nothing changed, when that is worth saying. */
  why?: 'installed' | 'missing' | 'none';
  /** Lines worth telling the user (a trust step the agent asks for, what the entries run). */
  notes: string[];
}

export interface InstallRequest extends Request {
  timeoutSeconds?: number;
  failClosed?: boolean;
  /** `--serve`: entries that call `hooks serve` (the token file is named in the notes). */
  serve?: ServeInstall & { tokenFile: string };
  /** What the entries run; chosen from the scope and the project when not given (see launcher.ts). */
  launcher?: Launcher;
  /** The events to register, with matchers and timeouts (see plan.ts); absent: every event. */
  plan?: InstallOptions['plan'];
}

export function install(request: InstallRequest): Outcome {
  const agent = getAgent(request.agent);
  if (request.serve !== undefined && (agent.name === 'opencode' || agent.name === 'cline' || agent.name === 'pi' || agent.name === 'omp' || agent.name === 'openclaw')) throw new HooksError('USAGE', `install ${agent.name} --serve: the ${agent.name} plugin runs in-process already; install it without --serve`);
  const refused = request.serve === undefined ? undefined : serveRefusal(request.serve, request.scope);
  if (refused !== undefined) throw new HooksError('USAGE', `install ${agent.name}: ${refused}`);
  const file = agent.file(request.scope, request.where);
  const safety = safetyOf(file, request);
  const before = readSafely(file, safety);
  const choice: LauncherChoice =
    request.launcher === undefined ? chooseLauncher(request.scope, agent.projectDir.base(request.where.cwd)) : { launcher: request.launcher };
  const options: InstallOptions = {
    launcher: choice.launcher,
    timeoutSeconds: request.timeoutSeconds ?? DEFAULT_ENTRY_TIMEOUT,
    failClosed: request.failClosed === true,
    ...(request.plan === undefined ? {} : { plan: request.plan }),
    ...(request.serve === undefined ? {} : { serve: { whenDown: request.serve.whenDown, ...(request.serve.http === undefined ? {} : { http: request.serve.http }) } }),
  };
  const { text, entries } = agent.install(before, file, options, request.scope);
  const notes = [...(choice.note === undefined ? [] : [choice.note]), ...(request.serve === undefined ? [] : serveNotes(request.serve, request.serve.tokenFile))];
  // The companions first, so the settings never load a plugin that is not there yet.
  const companionDiffs = installCompanions(agent, file, options, request, safety);
  if (text === before && companionDiffs === '') return { file, action: 'unchanged', entries, diff: '', why: 'installed', notes };
  const main = text === before ? { file, diff: '' } : commit(file, before, text, request, safety, true);
  return {
    ...main,
    diff: main.diff + companionDiffs,
    action: before === undefined ? 'created' : 'updated',
    entries,
    notes: agent.note === undefined ? notes : [...notes, agent.note],
  };
}

/** Writes the agent's companion files that differ; their diffs. A file there that is not ours stops the install. */
function installCompanions(agent: AgentTarget, file: string, options: InstallOptions, request: Request, safety: SafeOptions): string {
  if (agent.companions === undefined) return '';
  const { files, render, isOurs } = agent.companions;
  const paths = files(file);
  const texts = render(file, options, request.scope);
  const befores = paths.map((p) => readSafely(p, safety));
  paths.forEach((p, i) => {
    const was = befores[i];
    if (was !== undefined && !isOurs(was)) throw new HooksError('CONFIG_INVALID', `${p}: exists and was not written by agent-hooks; move it away first`, { file: p });
  });
  return paths.map((p, i) => (befores[i] === texts[i] ? '' : commit(p, befores[i], texts[i], request, safety, true).diff)).join('');
}

/** Removes the agent's companion files that are ours; their diffs. */
function uninstallCompanions(agent: AgentTarget, file: string, request: Request, safety: SafeOptions): string {
  if (agent.companions === undefined) return '';
  const { files, isOurs } = agent.companions;
  return files(file)
    .map((p) => {
      const was = readSafely(p, safety);
      return was === undefined || !isOurs(was) ? '' : commit(p, was, undefined, request, safety, false).diff;
    })
    .join('');
}

export function uninstall(request: Request): Outcome {
  const agent = getAgent(request.agent);
  const file = agent.file(request.scope, request.where);
  const safety = safetyOf(file, request);
  const before = readSafely(file, safety);
  const { text: stripped, removed } = before === undefined ? { text: undefined, removed: 0 } : agent.uninstall(before, file);
  // The settings first, so they never load a plugin that is gone.
  if (before === undefined || removed === 0) {
    const companionDiffs = uninstallCompanions(agent, file, request, safety);
    if (companionDiffs === '') return { file, action: 'unchanged', diff: '', why: before === undefined ? 'missing' : 'none', notes: [] };
    return { file, action: 'removed', diff: companionDiffs, removed: 0, notes: [] };
  }
  const restored = original(file, before, agent, request.where.env);
  const text = restored === null ? stripped : restored;
  const main = commit(file, before, text, request, safety, false);
  return { ...main, diff: main.diff + uninstallCompanions(agent, file, request, safety), action: text === undefined ? 'removed' : 'updated', removed, notes: [] };
}

/**
 * The exact bytes the file had before agent-hooks touched it, when it is still what we last wrote
 * (nothing else changed it since) and those bytes hold nothing of ours: uninstall then gives them back
 * byte for byte (a compact entry stays compact; a file install created is deleted).
 */
function original(file: string, current: string, agent: AgentTarget, env: NodeJS.ProcessEnv): string | undefined | null {
  const record = readBackup(file, env);
  if (record === undefined || record.after !== current) return null;
  if (record.before === null) return undefined;
  return agent.uninstall(record.before, file).removed === 0 ? record.before : null;
}

function commit(file: string, before: string | undefined, after: string | undefined, request: Request, safety: SafeOptions, chain: boolean): { file: string; diff: string; backup?: string } {
  const diff = unifiedDiff(before, after, label(file, request.where));
  if (request.dryRun) return { file, diff };
  const backup = recordChange(file, before, after, request.where.env, chain);
  if (after === undefined) removeSafely(file, safety);
  else writeSafely(file, after, safety);
  // A file that did not exist has nothing to go back to worth naming (the record still says so).
  return { file, diff, ...(before === undefined ? {} : { backup }) };
}

/**
 * What the settings file must stay inside: the project for --project; the home folder for --user (or
 * the folder an agent's variable moved its settings to, when that is outside home).
 */
function safetyOf(file: string, request: Request): SafeOptions {
  const { cwd, home } = request.where;
  const root = request.scope === 'project' ? cwd : home !== '' && isInside(home, file) ? home : path.dirname(path.dirname(file));
  return { root, outsideHint: 'pass --allow-outside if you mean it', ...(request.allowOutside === true ? { allowOutside: true } : {}) };
}

/** The path as the user would type it: relative inside the project, `~/...` in the home folder. */
export function label(file: string, { cwd, home }: Where): string {
  const under = (dir: string) => {
    const rel = path.relative(dir, file);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : undefined;
  };
  const inProject = under(cwd);
  if (inProject !== undefined) return inProject;
  const inHome = home === '' ? undefined : under(home);
  return inHome === undefined ? file : `~/${inHome}`;
}
