// Sandbox routing (ai4j's routeTo): rewrites an exec tool call so that its command runs inside
// bubblewrap, unshare or docker instead of on the host. Never runs anything itself.
import { existsSync, lstatSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { detect } from './detect.js';
import { SANDBOX_KINDS, type SandboxKind, type SandboxOptions } from './options.js';
import { shellJoin } from './quote.js';
import { type SandboxPlan, planProblem, wrapArgv } from './wrap.js';

export type { SandboxKind, SandboxOptions } from './options.js';
export type { SandboxPlan } from './wrap.js';
export { wrapArgv } from './wrap.js';
export { shellJoin, shellQuote } from './quote.js';
export { forgetDetected } from './detect.js';

/** Where the command is to run. */
export interface RouteContext {
  /** The project folder: writable inside the sandbox. */
  projectDir: string | undefined;
  /** The tool call's working directory. */
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
  const project = where.projectDir !== undefined ? path.resolve(where.projectDir) : undefined;
  if (project === undefined) return { ok: false, reason: 'no project folder is known, so nothing could be made writable' };
  if (project === '/' || project === path.resolve(home)) {
    return { ok: false, reason: `the project folder is ${project === '/' ? '/' : 'your home folder'}; a sandbox that may write all of it protects nothing` };
  }
  const writable = [project, ...(options.writable ?? []).map((w) => (w === '~' ? home : w.startsWith('~/') ? path.join(home, w.slice(2)) : path.resolve(w)))];
  const cwd = where.cwd !== undefined && where.cwd.startsWith('/') ? path.resolve(where.cwd) : project;

  const tried: string[] = [];
  for (const kind of options.use ?? defaultOrder(options)) {
    if (kind === 'docker' && options.docker?.image === undefined) {
      tried.push('docker is not configured (options.docker.image)');
      continue;
    }
    const presence = await detect(kind, where.env, project);
    if (!presence.present) {
      tried.push(presence.why);
      continue;
    }
    const plan: SandboxPlan = {
      kind,
      binary: presence.binary,
      cwd,
      writable,
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
    'A failed connection or a "Read-only file system" error comes from the sandbox, not from the command.'
  );
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
