// The command lines that run an argv inside each sandbox. Pure: the same plan gives the same argv.
import type { SandboxKind } from './options.js';
import { UNSHARE_SETUP } from './unshare-setup.js';

export interface SandboxPlan {
  kind: SandboxKind;
  /** Absolute path of the sandbox program (bwrap, unshare, docker). */
  binary: string;
  /** Where the command starts. */
  cwd: string;
  /** Folders the command may write: the project first. */
  writable: string[];
  network: boolean;
  tmp: 'private' | 'read-only';
  /** The caller's uid and gid, which the command runs as. */
  uid: number;
  gid: number;
  /** Docker only. */
  image?: string;
  /** Whether the host has /var/run as a folder of its own (not a link to /run). */
  varRunIsDir?: boolean;
}

/** `argv` run inside the sandbox `plan` describes: `argv` travels as separate arguments, never as code. */
export function wrapArgv(plan: SandboxPlan, argv: readonly string[]): string[] {
  switch (plan.kind) {
    case 'bwrap':
      return [
        plan.binary,
        '--die-with-parent',
        '--new-session',
        '--unshare-all',
        ...(plan.network ? ['--share-net'] : []),
        '--ro-bind', '/', '/',
        '--dev', '/dev',
        '--proc', '/proc',
        '--tmpfs', '/run',
        ...(plan.varRunIsDir ? ['--tmpfs', '/var/run'] : []),
        ...(plan.tmp === 'private' ? ['--tmpfs', '/tmp', '--setenv', 'TMPDIR', '/tmp'] : []),
        ...plan.writable.flatMap((w) => ['--bind', w, w]),
        '--unsetenv', 'SSH_AUTH_SOCK',
        '--chdir', plan.cwd,
        '--',
        ...argv,
      ];
    case 'unshare':
      return [
        plan.binary,
        '--user', '--map-root-user', '--mount', '--pid', '--fork', '--kill-child', '--ipc', '--uts',
        ...(plan.network ? [] : ['--net']),
        '--',
        '/bin/sh', '-c', UNSHARE_SETUP, 'agent-hooks-sandbox',
        plan.tmp, plan.cwd, String(plan.uid), String(plan.gid), plan.binary, String(plan.writable.length), ...plan.writable,
        '--',
        ...argv,
      ];
    case 'docker':
      return [
        plan.binary, 'run', '--rm', '-i', '--init',
        '--network', plan.network ? 'bridge' : 'none',
        '--read-only',
        '--cap-drop', 'ALL',
        '--security-opt', 'no-new-privileges',
        '--user', `${plan.uid}:${plan.gid}`,
        ...(plan.tmp === 'private' ? ['--tmpfs', '/tmp', '--env', 'TMPDIR=/tmp'] : []),
        ...plan.writable.flatMap((w) => ['--mount', `type=bind,source=${w},target=${w}`]),
        '--workdir', plan.cwd,
        plan.image ?? '',
        ...argv,
      ];
  }
}

/** Why `plan` cannot be built safely, or undefined. */
export function planProblem(plan: SandboxPlan): string | undefined {
  for (const p of [plan.cwd, ...plan.writable]) {
    if (!p.startsWith('/') || /[\0-\x1f\x7f]/.test(p)) return `the folder ${JSON.stringify(p)} is not an absolute path without control characters`;
    // docker's --mount is comma-separated key=value: such a path would smuggle in mount options.
    if (plan.kind === 'docker' && /[,"=:]/.test(p)) return `the folder ${JSON.stringify(p)} holds a character docker's --mount cannot take (, " = :)`;
  }
  if (plan.kind === 'docker' && (plan.image === undefined || plan.image === '' || plan.image.startsWith('-'))) return 'docker needs options.docker.image';
  return undefined;
}
