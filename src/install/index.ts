// `hooks install` / `hooks uninstall` as functions: read the agent's file, plan the new text, and
// (unless it is a dry run) write it with a backup. The outcome is a value the command prints.
import path from 'node:path';
import { DEFAULT_TIMEOUT_SECONDS } from '../config/resolve.js';
import { getAgent } from './agents/index.js';
import { hooksBin } from './bin.js';
import { unifiedDiff } from './diff.js';
import { readIfExists, writeWithBackup } from './files.js';
import type { Scope, Where } from './target.js';

export { AGENT_NAMES } from './agents/index.js';
export type { Scope, Where } from './target.js';

/**
 * Seconds each agent entry waits for `hooks run`. The runner enforces every hook's own timeout (30 s by
 * default) and then still has to kill the hook's process tree and answer; an agent that gives up first
 * kills the runner instead, fails open, and loses the runner's report and any `onFailure: "block"`.
 * Twice the per-hook default leaves that margin.
 */
export const DEFAULT_ENTRY_TIMEOUT = 2 * DEFAULT_TIMEOUT_SECONDS;

export interface Request {
  agent: string | undefined;
  scope: Scope;
  where: Where;
  dryRun: boolean;
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
  /** Where the old file was copied before it changed. */
  backup?: string;
  /** Why nothing changed, when that is worth saying. */
  why?: 'installed' | 'missing' | 'none';
  note?: string;
}

export function install(request: Request & { timeoutSeconds?: number; bin?: string }): Outcome {
  const agent = getAgent(request.agent);
  const file = agent.file(request.scope, request.where);
  const before = readIfExists(file);
  const { text, entries } = agent.install(before, file, {
    bin: request.bin ?? hooksBin(),
    timeoutSeconds: request.timeoutSeconds ?? DEFAULT_ENTRY_TIMEOUT,
  });
  if (text === before) return { file, action: 'unchanged', entries, diff: '', why: 'installed' };
  return {
    ...commit(file, before, text, request),
    action: before === undefined ? 'created' : 'updated',
    entries,
    ...(agent.note === undefined ? {} : { note: agent.note }),
  };
}

export function uninstall(request: Request): Outcome {
  const agent = getAgent(request.agent);
  const file = agent.file(request.scope, request.where);
  const before = readIfExists(file);
  if (before === undefined) return { file, action: 'unchanged', diff: '', why: 'missing' };
  const { text, removed } = agent.uninstall(before, file);
  if (text === before) return { file, action: 'unchanged', diff: '', why: 'none' };
  return { ...commit(file, before, text, request), action: text === undefined ? 'removed' : 'updated', removed };
}

function commit(file: string, before: string | undefined, after: string | undefined, request: Request): { file: string; diff: string; backup?: string } {
  const diff = unifiedDiff(before, after, label(file, request.where));
  if (request.dryRun) return { file, diff };
  const backup = writeWithBackup(file, after);
  return { file, diff, ...(backup === undefined ? {} : { backup }) };
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
