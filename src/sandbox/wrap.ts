// The command lines that run an argv inside each sandbox. Pure: the same plan gives the same argv.
import { LAUNCH, LAUNCH_NAME } from './launch.js';
import type { SandboxKind } from './options.js';
import type { Mount } from './protect.js';
import { UNSHARE_SETUP } from './unshare-setup.js';

export interface SandboxPlan {
  kind: SandboxKind;
  /** Absolute path of the sandbox program (bwrap, unshare, docker). */
  binary: string;
  /** Where the command starts. */
  cwd: string;
  /** Folders the command may write: the project first. */
  writable: string[];
  /**
   * What is bound after them, in order: inside the writable folders, what the host runs (read-only,
   * placeholders for what is missing, their folders pinned); elsewhere, what is hidden.
   */
  mounts?: Mount[];
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
  const mounts = plan.mounts ?? [];
  const placeholders = mounts.filter((m) => m.kind === 'dir' || m.kind === 'file').flatMap((m) => [m.kind === 'dir' ? 'd' : 'f', m.path]);
  return ['/bin/sh', '-c', LAUNCH, LAUNCH_NAME, String(placeholders.length), ...placeholders, '--', ...sandboxArgv(plan, mounts, argv)];
}

function sandboxArgv(plan: SandboxPlan, mounts: readonly Mount[], argv: readonly string[]): string[] {
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
        ...mounts.flatMap((m) => {
          switch (m.kind) {
            case 'pin':
              return ['--bind', m.path, m.path];
            case 'hide':
              return ['--perms', '0555', '--tmpfs', m.path, '--remount-ro', m.path];
            case 'hide-file':
              return ['--ro-bind', '/dev/null', m.path];
            default:
              return ['--ro-bind', m.path, m.path];
          }
        }),
        '--unsetenv', 'SSH_AUTH_SOCK',
        '--chdir', plan.cwd,
        '--',
        ...argv,
      ];
    case 'unshare': {
      const notes = [...plan.writable.map((w) => `w:${w}`), ...mounts.map((m) => `${m.kind === 'pin' ? 'p' : m.kind === 'hide' || m.kind === 'hide-file' ? 'h' : 'r'}:${m.path}`)];
      return [
        plan.binary,
        '--user', '--map-root-user', '--mount', '--pid', '--fork', '--kill-child', '--ipc', '--uts',
        ...(plan.network ? [] : ['--net']),
        '--',
        '/bin/sh', '-c', UNSHARE_SETUP, 'agent-hooks-sandbox',
        plan.tmp, plan.cwd, String(plan.uid), String(plan.gid), plan.binary, String(notes.length), ...notes,
        '--',
        ...argv,
      ];
    }
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
        // The host's files are not in the container: only what is kept inside the writable folders matters.
        ...mounts.flatMap((m) =>
          m.kind === 'hide' || m.kind === 'hide-file' ? [] : ['--mount', `type=bind,source=${m.path},target=${m.path}${m.kind === 'pin' ? '' : ',readonly'}`],
        ),
        '--workdir', plan.cwd,
        plan.image ?? '',
        ...argv,
      ];
  }
}

/** Why `plan` cannot be built safely, or undefined. */
export function planProblem(plan: SandboxPlan): string | undefined {
  for (const p of [plan.cwd, ...plan.writable, ...(plan.mounts ?? []).map((m) => m.path)]) {
    if (!p.startsWith('/') || /[\0-\x1f\x7f]/.test(p)) return `the folder ${JSON.stringify(p)} is not an absolute path without control characters`;
    // docker's --mount is comma-separated key=value: such a path would smuggle in mount options.
    if (plan.kind === 'docker' && /[,"=:]/.test(p)) return `the folder ${JSON.stringify(p)} holds a character docker's --mount cannot take (, " = :)`;
  }
  if (plan.kind === 'docker' && (plan.image === undefined || plan.image === '' || plan.image.startsWith('-'))) return 'docker needs options.docker.image';
  return undefined;
}
