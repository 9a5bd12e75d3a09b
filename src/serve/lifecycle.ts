// One server per user: a pid file taken with O_EXCL is the lock, and a status probe over the socket
// tells a live server from a stale file. Background starts, stops, status, and the service units.
import { spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { socketProblem, type ServePaths } from './paths.js';
import type { ServerStats } from './server.js';

/** A background server (started by `start` or by the client) exits after this long without an event. */
export const DEFAULT_IDLE_MINUTES = 30;
/** The log is moved to serve.log.1 past this size (one old file is kept). */
const MAX_LOG_BYTES = 1024 * 1024;

/** The running server's status, asked over the socket; undefined when none answers, or the socket may not be ours (the token is never sent there). */
export function probe(paths: ServePaths, token: string | undefined, timeoutMs = 1_000): Promise<ServerStats | undefined> {
  if (token === undefined || !existsSync(paths.socket) || socketProblem(paths) !== undefined) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const req = http.request(
      { socketPath: paths.socket, path: '/v1/status', method: 'GET', headers: { host: 'localhost', authorization: `Bearer ${token}` }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as ServerStats) : undefined);
          } catch {
            resolve(undefined);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

export type Lock = { release(): void };

/**
 * Takes the per-user lock (the pid file), or says who holds it. A pid file whose process is gone, or
 * whose process no longer answers, is stale and is taken over; so is a socket nobody listens on.
 */
export async function takeLock(paths: ServePaths, token: string): Promise<{ lock: Lock } | { running: ServerStats }> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const fd = openSync(paths.pid, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      // A socket left by a server that died: nobody answers on it, so it goes.
      if (existsSync(paths.socket) && (await probe(paths, token)) === undefined) unlinkQuietly(paths.socket);
      return {
        lock: {
          release: () => {
            if (readPid(paths) === process.pid) unlinkQuietly(paths.pid);
          },
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new HooksError('USAGE', `hooks serve: cannot write ${paths.pid}: ${(error as Error).message}`, { file: paths.pid });
    }
    const running = await probe(paths, token);
    if (running !== undefined) return { running };
    const pid = readPid(paths);
    if (pid === undefined || !alive(pid)) {
      unlinkQuietly(paths.pid);
      continue;
    }
    // Held by a live process that does not answer yet: a server starting up. Wait for it.
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = readPid(paths);
  throw new HooksError('USAGE', `hooks serve: ${paths.pid} names process ${pid ?? '?'}, which is alive but does not answer on ${paths.socket}; stop it, or remove the pid file if it is not agent-hooks`);
}

export function readPid(paths: ServePaths): number | undefined {
  try {
    const pid = Number(readFileSync(paths.pid, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Starts a detached server (`hooks serve --idle <minutes>`) with its output in the log, and waits until it answers. */
export async function startBackground(paths: ServePaths, token: string, argv: { bin: string; args: string[] }, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<ServerStats> {
  rotateLog(paths.log);
  const fd = openSync(paths.log, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    const child = spawn(process.execPath, [argv.bin, ...argv.args], { detached: true, stdio: ['ignore', fd, fd], env, cwd: '/' });
    child.unref();
  } finally {
    closeSync(fd);
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const stats = await probe(paths, token);
    if (stats !== undefined) return stats;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new HooksError('USAGE', `hooks serve start: the server did not answer within ${timeoutMs / 1000} s; see ${paths.log}`);
}

/** Asks the server to stop (SIGTERM: it finishes the events in flight) and waits until it is gone. */
export async function stopServer(paths: ServePaths, token: string | undefined, timeoutMs = 90_000): Promise<number | undefined> {
  const stats = await probe(paths, token);
  const pid = stats?.pid ?? readPid(paths);
  if (pid === undefined || !alive(pid)) {
    unlinkQuietly(paths.pid);
    return undefined;
  }
  // Only a process that answered as our server, or that our pid file names, is signalled.
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive(pid)) throw new HooksError('USAGE', `hooks serve stop: process ${pid} is still running after ${timeoutMs / 1000} s`);
  return pid;
}

/** An append-only log line writer (0600), moved aside once past 1 MiB. */
export function fileLog(file: string): (line: string) => void {
  return (line) => {
    try {
      rotateLog(file);
      const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
      try {
        writeSync(fd, `${new Date().toISOString()} ${line}\n`);
      } finally {
        closeSync(fd);
      }
    } catch {
      // A log that cannot be written must not take the server down.
    }
  };
}

function rotateLog(file: string): void {
  try {
    if (statSync(file).size > MAX_LOG_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // No log yet.
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * Why the server cannot run on this platform, in one line, or undefined. Its client is a POSIX shell
 * script that talks over a Unix socket; Windows has neither the shell nor (for Node) socket files.
 */
export function platformProblem(platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return undefined;
  return 'hooks serve runs on Linux and macOS only: its client is a POSIX shell script over a Unix socket; on Windows, install without --serve (each event runs hooks run) — see docs/platforms.md';
}

/** What a service unit must carry that the service manager does not give: the programs' folders and the port. */
export interface UnitOptions {
  /** The folders the unit's PATH holds, in order (`unitPath`). */
  path: string[];
  /** The loopback port, or undefined for a socket-only server (`--no-http`). */
  port: number | undefined;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Programs a hook command or a starter guard commonly names; their folders go on the unit's PATH. */
const UNIT_PROGRAMS = ['node', 'python3', 'python', 'bash', 'git', 'sh'];

/**
 * The PATH a service unit runs with. systemd and launchd start a service with a bare system PATH, so a
 * Homebrew or nvm `node`/`python3` the installing shell found is not found there, and a fail-closed
 * guard then blocks every command. The unit gets the folders where the installing shell finds each of
 * UNIT_PROGRAMS (node's own first), then the system's. Only absolute folders that only their owner can
 * write, and none inside `project` (the folder the command runs in: a repository's `node_modules/.bin`
 * or `.venv/bin` must not become every project's): the unit outlives the shell it was printed from.
 */
export function unitPath(env: NodeJS.ProcessEnv, nodeBin: string, platform: NodeJS.Platform, project?: string): string[] {
  const dirs: string[] = [path.dirname(nodeBin)];
  for (const program of UNIT_PROGRAMS) {
    const found = findProgram(program, env.PATH, project);
    if (found !== undefined) dirs.push(path.dirname(found));
  }
  const system = platform === 'darwin' ? ['/opt/homebrew/bin', '/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'] : ['/usr/local/bin', '/usr/bin', '/bin'];
  // A control character would end the unit's line (and start another one of someone's choosing).
  return [...new Set([...dirs, ...system])].filter((dir) => !CONTROL.test(dir));
}

/** A systemd user unit (Linux) or a launchd agent (macOS) running `hooks serve` in the foreground. */
export function serviceUnit(platform: NodeJS.Platform, bin: string, paths: ServePaths, options: UnitOptions, node = process.execPath): string {
  for (const [what, value] of [['node', node], ['the runner', bin], ['the log', paths.log]] as const) {
    if (CONTROL.test(value)) throw new HooksError('USAGE', `cannot print a unit: the path of ${what} holds a control character (${JSON.stringify(value)})`);
  }
  const serveArgs = ['serve', '--idle', '0', ...(options.port === undefined ? ['--no-http'] : ['--port', String(options.port)])];
  const PATH = options.path.join(':');
  if (platform === 'darwin') {
    const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<!-- ~/Library/LaunchAgents/dev.agent-hooks.serve.plist; then: launchctl load -w ~/Library/LaunchAgents/dev.agent-hooks.serve.plist -->
<plist version="1.0">
<dict>
  <key>Label</key><string>dev.agent-hooks.serve</string>
  <key>ProgramArguments</key>
  <array>${[node, bin, ...serveArgs].map((a) => `<string>${esc(a)}</string>`).join('')}</array>
  <key>EnvironmentVariables</key>
  <dict><key>PATH</key><string>${esc(PATH)}</string></dict>
  <key>RunAtLoad</key><true/>
  <key>KeepAlive</key><true/>
  <key>StandardErrorPath</key><string>${esc(paths.log)}</string>
  <key>StandardOutPath</key><string>${esc(paths.log)}</string>
</dict>
</plist>
`;
  }
  // systemd expands %-specifiers everywhere (a literal % is %%) and, on ExecStart= only, $VAR (a literal
  // $ is $$); inside double quotes a backslash escapes " and \\.
  const quote = (text: string) => (/^[A-Za-z0-9_/.:@%+=-]+$/.test(text) ? text : `"${text.replace(/(["\\])/g, '\\$1')}"`);
  const arg = (s: string) => quote(s.replace(/%/g, '%%').replace(/\$/g, '$$$$'));
  const env = (s: string) => quote(s.replace(/%/g, '%%'));
  return `# ~/.config/systemd/user/agent-hooks.service; then: systemctl --user enable --now agent-hooks
[Unit]
Description=agent-hooks server (hooks serve): one resident runner for every agent hook event

[Service]
Type=simple
# The folders where the shell that printed this unit finds node, python3, git...: systemd's own PATH
# has no Homebrew, nvm or ~/.local folder. Print the unit again after moving them.
Environment=${env(`PATH=${PATH}`)}
ExecStart=${[node, bin, ...serveArgs].map(arg).join(' ')}
Restart=on-failure
# SIGTERM lets the events in flight finish; hooks may take their full timeout.
TimeoutStopSec=90
SuccessExitStatus=143
KillMode=mixed

[Install]
WantedBy=default.target
`;
}

/** The first executable `name` in PATH's absolute folders, writable by its owner alone, not inside `project`. */
function findProgram(name: string, PATH: string | undefined, project: string | undefined): string | undefined {
  const inside = project === undefined ? undefined : `${path.resolve(project).replace(/\/+$/, '')}/`;
  for (const dir of (PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    if (inside !== undefined && `${path.resolve(dir)}/`.startsWith(inside)) continue;
    const file = path.join(dir, name);
    try {
      const st = statSync(file);
      if (!st.isFile() || (st.mode & 0o111) === 0) continue;
      if ((statSync(dir).mode & 0o022) !== 0 || (st.mode & 0o022) !== 0) continue;
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
