// A machine of its own for a locked setup: `install --managed` writes /etc/claude-code and
// /etc/agent-hooks, which every agent and runner on the host reads, and the test adds a user to
// /etc/passwd. Each command here runs in a private mount namespace (unshare -m, as root) whose /etc is
// an overlay: the host's /etc below, this machine's own folder above, where every write goes. The
// host's /etc is never written, so tests running beside it (other e2e files, other engineers) never
// see its managed settings, and nothing is left to restore.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Why a locked machine cannot be made here (not root, no unshare), or undefined. */
export function machineUnavailable(): string | undefined {
  if (process.geteuid?.() !== 0) return 'the locked setup is made by root (install --managed), and this runs as another user';
  const probe = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs none /mnt'], { encoding: 'utf8' });
  if (probe.status !== 0) return `a private mount namespace (unshare -m, mount) is not available here: ${(probe.stderr || probe.error?.message || '').trim()}`;
  const setpriv = spawnSync('setpriv', ['--version'], { encoding: 'utf8' });
  if (setpriv.status !== 0) return 'setpriv (util-linux) is not installed';
  return undefined;
}

export interface Machine {
  /** Root-owned 0755 folder holding everything: the /etc folders' stand-ins and the runner prefix. */
  root: string;
  /** Where install --managed copies the runner. */
  prefix: string;
  /** The host path of what the machine wrote at `/etc/<rel>`. */
  etc(rel: string): string;
  /** argv that runs `argv` in the machine's namespace, as root or (with `user`) as that uid/gid. */
  wrap(argv: string[], user?: { uid: number; gid: number }): string[];
  /** Runs it and waits. */
  run(argv: string[], options?: { user?: { uid: number; gid: number }; env?: NodeJS.ProcessEnv; input?: string; cwd?: string; timeoutMs?: number }): Promise<{ code: number | null; stdout: string; stderr: string }>;
  remove(): void;
}

/**
 * `binds` shows host folders inside the machine at `<root>/<name>` (bind mounts): a program the test user
 * runs may live under a folder only root may enter (CI clones into a 0700 folder), and a bind under the
 * machine's 0755 root reaches it without opening that folder to anyone.
 */
export function makeMachine(binds: Record<string, string> = {}): Machine {
  const root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-locked-'));
  chmodSync(root, 0o755);
  const upper = path.join(root, 'etc');
  const work = path.join(root, 'etc-work');
  for (const d of [upper, work]) mkdirSync(d, { mode: 0o755 });
  chmodSync(upper, 0o755);
  const prefix = path.join(root, 'opt');
  const quote = (p: string) => `'${p.replace(/'/g, `'\\''`)}'`;
  const mounts = Object.entries(binds)
    .map(([name, from]) => {
      const to = path.join(root, name);
      mkdirSync(to, { mode: 0o755 });
      return `mount --bind ${quote(from)} ${quote(to)} && `;
    })
    .join('');
  const script = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc && ${mounts}exec "$@"`;
  const wrap = (argv: string[], user?: { uid: number; gid: number }) => [
    'unshare', '-m', '--propagation', 'private', 'sh', '-c', script, 'machine',
    ...(user === undefined ? [] : ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups']),
    ...argv,
  ];
  return {
    root,
    prefix,
    etc: (rel) => path.join(upper, rel),
    wrap,
    run(argv, options = {}) {
      const [command, ...args] = wrap(argv, options.user);
      return new Promise((resolve, reject) => {
        const child = spawn(command!, args, { env: options.env ?? process.env, cwd: options.cwd ?? root, stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
        child.stdin.end(options.input ?? '');
      });
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
