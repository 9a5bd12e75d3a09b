// Which sandboxes this machine has: a PATH lookup (a few stat calls) and, for docker, one connect to
// its socket. Cached per process, so a long-running runner (serve mode) pays once.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { SandboxKind } from './options.js';

export type Presence = { present: true; binary: string } | { present: false; why: string };

const cache = new Map<string, Promise<Presence>>();

/**
 * Whether `kind` can run here; `env` gives PATH and DOCKER_HOST. A program inside `untrusted` (the
 * project) or writable by others is never used: a repository could plant a fake `bwrap` there.
 */
export function detect(kind: SandboxKind, env: NodeJS.ProcessEnv, untrusted?: string): Promise<Presence> {
  const key = `${kind}\0${env.PATH ?? ''}\0${kind === 'docker' ? (env.DOCKER_HOST ?? '') : ''}\0${untrusted ?? ''}`;
  let found = cache.get(key);
  if (found === undefined) {
    found = detectUncached(kind, env, untrusted);
    cache.set(key, found);
  }
  return found;
}

/** Forgets what was detected (tests change PATH between cases). */
export function forgetDetected(): void {
  cache.clear();
}

async function detectUncached(kind: SandboxKind, env: NodeJS.ProcessEnv, untrusted: string | undefined): Promise<Presence> {
  const binary = onPath(kind, env.PATH, untrusted);
  if (binary === undefined) return { present: false, why: `${kind} is not on PATH` };
  if (kind === 'unshare') {
    const why = userNamespacesOff();
    return why === undefined ? { present: true, binary } : { present: false, why };
  }
  if (kind === 'docker') {
    const why = await dockerDaemonDown(env.DOCKER_HOST);
    return why === undefined ? { present: true, binary } : { present: false, why };
  }
  return { present: true, binary };
}

/**
 * The first executable file called `name` in `PATH`'s absolute folders that is not inside
 * `untrusted` and not writable by group or others (after following links).
 */
export function onPath(name: string, PATH: string | undefined, untrusted?: string): string | undefined {
  const inside = untrusted === undefined ? undefined : `${safeReal(untrusted).replace(/\/+$/, '')}/`;
  for (const dir of (PATH ?? '').split(path.delimiter)) {
    // A relative PATH entry would resolve against the agent's cwd: a repository could plant a fake sandbox there.
    if (!dir.startsWith('/')) continue;
    const file = path.join(dir, name);
    try {
      const real = realpathSync(file);
      const st = statSync(real);
      if (!st.isFile() || (st.mode & 0o111) === 0) continue;
      if ((st.mode & 0o022) !== 0 || (inside !== undefined && real.startsWith(inside))) continue;
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function safeReal(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** Why unprivileged user namespaces are switched off on this kernel, or undefined when they work. */
function userNamespacesOff(): string | undefined {
  if (process.getuid?.() === 0) return undefined;
  const knobs: [string, string][] = [
    ['/proc/sys/kernel/unprivileged_userns_clone', '0'],
    ['/proc/sys/user/max_user_namespaces', '0'],
    ['/proc/sys/kernel/apparmor_restrict_unprivileged_userns', '1'],
  ];
  for (const [file, off] of knobs) {
    let value: string;
    try {
      value = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    if (value === off) return `user namespaces are switched off (${file} is ${off})`;
  }
  return undefined;
}

/** Why the docker daemon cannot be reached, or undefined when its socket answers a connect. */
function dockerDaemonDown(dockerHost: string | undefined): Promise<string | undefined> {
  let target: net.NetConnectOpts;
  const host = dockerHost ?? 'unix:///var/run/docker.sock';
  if (host.startsWith('unix://')) target = { path: host.slice('unix://'.length) };
  else if (host.startsWith('tcp://')) {
    const url = new URL(host.replace(/^tcp:/, 'http:'));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else return Promise.resolve(undefined); // ssh:// and others: the docker client knows how; trust it to fail loudly
  return new Promise((resolve) => {
    const socket = net.connect(target);
    const done = (why: string | undefined): void => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(500, () => done(`the docker daemon does not answer at ${host}`));
    socket.once('connect', () => done(undefined));
    socket.once('error', (error) => done(`the docker daemon is not running (${host}: ${(error as NodeJS.ErrnoException).code ?? error.message})`));
  });
}
