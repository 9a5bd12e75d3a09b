// Sandbox routing (ai4j's routeTo): rewrites an exec tool call so that its command runs inside
// bubblewrap, unshare or docker instead of on the host. Never runs anything itself.
import { existsSync, lstatSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isInside, realOrSelf } from '../paths.js';
import { detect } from './detect.js';
import { hiddenFolders, writableProblem } from './host.js';
import { SANDBOX_KINDS, type SandboxKind, type SandboxOptions } from './options.js';
import { type Mount, protectWritable } from './protect.js';
import { shellJoin } from './quote.js';
import { type SandboxPlan, planProblem, wrapArgv } from './wrap.js';

export type { SandboxKind, SandboxOptions } from './options.js';
export type { SandboxPlan } from './wrap.js';
export { wrapArgv } from './wrap.js';
export { shellJoin, shellQuote } from './quote.js';
export { forgetDetected } from './detect.js';

/** Where the command is to run. */
export interface RouteContext {
  /** The session's project folder (declared, or the config's folder): writable inside the sandbox. */
  projectDir: string | undefined;
  /** The tool call's working directory: where the command starts, inside a writable folder. */
  cwd: string | undefined;
  /** Environment for PATH, HOME and DOCKER_HOST. */
  env: NodeJS.ProcessEnv;
}

export type Routed =
  | { ok: true; kind: SandboxKind; updatedInput: Record<string, unknown>; context: string }
  | { ok: false; reason: string };

/** The order sandboxes are tried in when `use` is not set. */
export function defaultOrder(options: SandboxOptions): SandboxKind[] {
  return options.docker?.image !== undefined ? [...SANDBOX_KINDS] : ['bwrap', 'unshare'];
}

/**
 * The tool input with its `command` wrapped in the first sandbox of `options.use` present here, or
 * why it cannot be (then the caller blocks: a command meant for a sandbox never runs without one).
 */
export async function routeToSandbox(toolInput: Record<string, unknown>, options: SandboxOptions, where: RouteContext): Promise<Routed> {
  const command = toolInput.command;
  let argv: string[];
  const shell = options.shell ?? (existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh');
  if (typeof command === 'string') argv = [shell, '-c', command];
  else if (Array.isArray(command) && command.length > 0 && command.every((a) => typeof a === 'string')) argv = command as string[];
  else return { ok: false, reason: 'the command is neither a string nor an argv array' };

  const home = absoluteOrUndefined(where.env.HOME) ?? os.homedir();
  if (where.projectDir === undefined) {
    return { ok: false, reason: 'no project folder is known (no CLAUDE_PROJECT_DIR or HOOKS_PROJECT_DIR, and no project config), so nothing could be made writable' };
  }
  const asked = [where.projectDir, ...(options.writable ?? []).map((w) => (w === '~' ? home : w.startsWith('~/') ? path.join(home, w.slice(2)) : w))];
  const writable: string[] = [];
  for (const folder of asked) {
    const problem = writableProblem(path.resolve(folder), where.env);
    if (problem !== undefined) return { ok: false, reason: problem };
    // Symlinks resolved: what is bound is the folder itself, and what is kept inside it is found there.
    const real = realOrSelf(folder);
    if (!isDir(real)) return { ok: false, reason: `the ${writable.length === 0 ? 'project' : 'writable'} folder ${folder} does not exist` };
    if (!writable.includes(real)) writable.push(real);
  }
  let cwd = writable[0]!;
  if (where.cwd !== undefined) {
    const real = where.cwd.startsWith('/') ? realOrSelf(where.cwd) : undefined;
    if (real === undefined || !writable.some((w) => isInside(w, real))) {
      return { ok: false, reason: `the command would start in ${where.cwd}, outside the folders it may write (${writable.join(', ')}); the tool call's folder chooses where a command starts, never what it may write` };
    }
    cwd = real;
  }
  const kept = protectWritable(writable);
  if ('problem' in kept) return { ok: false, reason: kept.problem };
  // What lies in a folder the sandbox replaces with an empty one (/run, a private /tmp) is hidden already;
  // a mount there would only create its folders in that empty one.
  const replaced = ['/run', '/var/run', ...((options.tmp ?? 'private') === 'private' ? ['/tmp'] : [])];
  const mounts: Mount[] = [...kept.mounts, ...hidden(where.env).filter((m) => !replaced.some((r) => isInside(r, m.path)))];

  const tried: string[] = [];
  for (const kind of options.use ?? defaultOrder(options)) {
    if (kind === 'docker' && options.docker?.image === undefined) {
      tried.push('docker is not configured (options.docker.image)');
      continue;
    }
    const presence = await detect(kind, where.env, writable[0]);
    if (!presence.present) {
      tried.push(presence.why);
      continue;
    }
    const plan: SandboxPlan = {
      kind,
      binary: presence.binary,
      cwd,
      writable,
      mounts,
      network: options.network ?? false,
      tmp: options.tmp ?? 'private',
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
      ...(options.docker?.image !== undefined ? { image: options.docker.image } : {}),
      varRunIsDir: isRealDir('/var/run'),
    };
    const problem = planProblem(plan);
    if (problem !== undefined) return { ok: false, reason: `${kind}: ${problem}` };
    const wrapped = wrapArgv(plan, argv);
    const updatedInput = { ...toolInput, command: typeof command === 'string' ? shellJoin(wrapped) : wrapped };
    return { ok: true, kind, updatedInput, context: describe(plan) };
  }
  return { ok: false, reason: `no sandbox is available (${tried.join('; ')})` };
}

/** What the model is told about where its command ran. */
function describe(plan: SandboxPlan): string {
  const network = plan.network ? 'with network access' : 'with no network access';
  const tmp = plan.tmp === 'private' ? ' and a private, empty /tmp' : '';
  const rest = plan.kind === 'docker' ? `every other file is the image's (${plan.image}), read-only` : 'every other file is read-only';
  return (
    `agent-hooks ran this command in a sandbox (${plan.kind}) ${network}: it can write only ${plan.writable.join(', ')}${tmp}; ${rest}. ` +
    (plan.mounts?.some((m) => m.kind !== 'hide' && m.kind !== 'hide-file')
      ? 'Inside the project, what the host runs stays read-only (hook configs and their scripts, .git/hooks and .git/config, agent and editor settings, .envrc, its agent-hooks). '
      : '') +
    'A failed connection or a "Read-only file system" error comes from the sandbox, not from the command.'
  );
}

/** What the sandbox hides, outermost only (a folder inside a hidden one is hidden with it). */
function hidden(env: NodeJS.ProcessEnv): Mount[] {
  const folders = hiddenFolders(env);
  return folders
    .filter((f) => !folders.some((g) => g !== f && isInside(g, f)))
    .map((f) => ({ kind: isDir(f) ? 'hide' : 'hide-file', path: f }));
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isRealDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function absoluteOrUndefined(value: string | undefined): string | undefined {
  return value !== undefined && value.startsWith('/') ? value : undefined;
}
