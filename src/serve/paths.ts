// Where the server keeps its files, and the per-user secret every request must carry.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { euid, privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';
import { stateDir } from '../paths.js';

/** A Unix socket path longer than this does not fit `sockaddr_un` (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 103;

export interface ServePaths {
  /** `$XDG_STATE_HOME/agent-hooks/serve` (0700): token, pid file, log. */
  dir: string;
  token: string;
  pid: string;
  log: string;
  /** `$XDG_RUNTIME_DIR/agent-hooks/serve.sock` when there is a runtime dir, else in `dir`. */
  socket: string;
  /** The curl config the command-only client reads (socket path and the Authorization header; 0600). */
  curlConfig: string;
}

export function servePaths(env: NodeJS.ProcessEnv): ServePaths {
  const dir = path.join(stateDir(env), 'serve');
  const runtime = env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? path.join(env.XDG_RUNTIME_DIR, 'agent-hooks') : dir;
  return {
    dir,
    token: path.join(dir, 'token'),
    pid: path.join(dir, 'serve.pid'),
    log: path.join(dir, 'serve.log'),
    socket: path.join(runtime, 'serve.sock'),
    curlConfig: path.join(dir, 'client.curlrc'),
  };
}

/**
 * The loopback port, the same for every start of one user's server (agents' settings name it):
 * `AGENT_HOOKS_SERVE_PORT`, else one derived from the uid so that two users of one machine do not collide.
 */
export function defaultPort(env: NodeJS.ProcessEnv): number {
  const given = env.AGENT_HOOKS_SERVE_PORT;
  if (given !== undefined && given !== '') {
    const port = Number(given);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HooksError('USAGE', `AGENT_HOOKS_SERVE_PORT: expected a port number, got "${given}"`);
    return port;
  }
  return 47_100 + ((euid() ?? 0) % 800);
}

/** The folders the server's files go in, created 0700; throws a one-line error when they are not private. */
export function prepareDirs(paths: ServePaths): void {
  for (const dir of new Set([paths.dir, path.dirname(paths.socket)])) {
    const problem = privateDir(dir);
    if (problem !== undefined) throw new HooksError('USAGE', `hooks serve: ${problem}`, { file: dir });
  }
  if (Buffer.byteLength(paths.socket) > MAX_SOCKET_PATH) {
    throw new HooksError('USAGE', `hooks serve: the socket path ${paths.socket} is longer than a Unix socket path may be (${MAX_SOCKET_PATH} bytes); set XDG_RUNTIME_DIR or XDG_STATE_HOME to a shorter folder`);
  }
}

const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

/** The token, when its file is a private regular file of ours (0600) holding one. */
export function readToken(paths: ServePaths): string | undefined {
  const text = readPrivateFile(paths.token, { secret: true })?.trim();
  return text !== undefined && TOKEN_SHAPE.test(text) ? text : undefined;
}

/** The token, created on first use (32 random bytes, hex, in a 0600 file); also (re)writes the client's curl config. */
export function ensureToken(paths: ServePaths): string {
  prepareDirs(paths);
  let token = readToken(paths);
  if (token === undefined) {
    token = randomBytes(32).toString('hex');
    writeExclusive(paths.token, `${token}\n`);
    // Lost a race with another start: take the one that won.
    token = readToken(paths) ?? token;
  }
  const curlrc = `# written by agent-hooks serve: how the client reaches the server (keep private)\nunix-socket = ${JSON.stringify(paths.socket)}\nheader = "Authorization: Bearer ${token}"\n`;
  if (readPrivateFile(paths.curlConfig, { secret: true }) !== curlrc) writePrivateFile(paths.curlConfig, curlrc);
  return token;
}

function writeExclusive(file: string, text: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new HooksError('USAGE', `hooks serve: cannot write ${file}: ${(error as Error).message}`, { file });
    // A file that is there but not a sound token (not ours, open to others, damaged) is refused, never repaired.
    if (readToken({ token: file } as ServePaths) === undefined) {
      throw new HooksError('USAGE', `hooks serve: ${file} is not a private token file of yours (mode 0600, 64 hex digits); remove it and start again`, { file });
    }
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

