// Where the server keeps its files, and the per-user secret every request must carry.
import { randomBytes, randomInt } from 'node:crypto';
import { closeSync, constants, lstatSync, openSync, writeSync, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { euid, privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';
import { stateDir } from '../paths.js';
import { exists } from '../fs/exists.js';

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
  /** The loopback port this user's server listens on (0600), chosen at random on first use. */
  port: string;
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
    port: path.join(dir, 'port'),
  };
}

/**
 * Ports a first start picks from: below Linux's ephemeral range (32768-60999), so an outgoing
 * connection does not take it, and above the well-known services.
 */
export const PORT_RANGE = { min: 20_000, max: 32_767 } as const;

/**
 * The loopback port, the same for every start of one user's server (an `--http` install names it):
 * `AGENT_HOOKS_SERVE_PORT`, else the one in the private `port` file, else a free one picked at random
 * now and kept there. Never derived from the uid: a port anyone can compute is a port anyone can take
 * first (and two users whose uids were equal mod 800 shared one).
 */
export async function servePort(paths: ServePaths, env: NodeJS.ProcessEnv): Promise<number> {
  const given = env.AGENT_HOOKS_SERVE_PORT;
  if (given !== undefined && given !== '') {
    const port = Number(given);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new HooksError('USAGE', `AGENT_HOOKS_SERVE_PORT: expected a port number, got "${given}"`);
    return port;
  }
  prepareDirs(paths);
  const kept = readPort(paths);
  if (kept !== undefined) return kept;
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = randomInt(PORT_RANGE.min, PORT_RANGE.max + 1);
    if (!(await portFree(port))) continue;
    writeExclusive(paths.port, `${port}\n`, () => readPort(paths) !== undefined, 'a private file of yours holding a port number');
    // Lost a race with another start: take the one that won.
    return readPort(paths) ?? port;
  }
  throw new HooksError('USAGE', `hooks serve: found no free loopback port in ${PORT_RANGE.min}-${PORT_RANGE.max} after 20 tries; set AGENT_HOOKS_SERVE_PORT`);
}

/**
 * The kept port; undefined when there is none yet. A file that is there but not a private file of ours
 * holding a port is refused with its name, never replaced (someone else may have written it).
 */
export function readPort(paths: ServePaths): number | undefined {
  const text = readPrivateFile(paths.port);
  if (text === undefined) {
    if (!exists(paths.port)) return undefined;
    throw new HooksError('USAGE', `hooks serve: ${paths.port} is not a private file of yours (ours, not writable by others); remove it and start again`, { file: paths.port });
  }
  const port = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || port < 1 || port > 65535) throw new HooksError('USAGE', `hooks serve: ${paths.port}: expected a port number, got "${text.trim().slice(0, 20)}"; remove it and start again`, { file: paths.port });
  return port;
}


/** True when nothing listens on 127.0.0.1:port now (a listener bound and closed again). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
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

/**
 * Why the socket may not be this user's server's, or undefined when it is safe to send the token to:
 * its folder a folder of ours (not a link) that no one else may enter, the socket a socket of ours. The
 * client script makes the same checks (bin/agent-hooks-client). A socket not there is no problem here
 * (nothing to connect to).
 */
export function socketProblem(paths: ServePaths): string | undefined {
  const dir = path.dirname(paths.socket);
  const me = euid();
  let stats: Stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (!stats.isDirectory() || (me !== undefined && stats.uid !== me)) return `its folder ${dir} is not a folder of yours`;
  if ((stats.mode & 0o077) !== 0) return `its folder ${dir} is not mode 0700`;
  try {
    stats = lstatSync(paths.socket);
  } catch {
    return undefined;
  }
  if (!stats.isSocket()) return `${paths.socket} is not a socket`;
  if (me !== undefined && stats.uid !== me) return `the socket ${paths.socket} is not yours`;
  return undefined;
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
    writeExclusive(paths.token, `${token}\n`, () => readToken(paths) !== undefined, 'a private token file of yours (mode 0600, 64 hex digits)');
    // Lost a race with another start: take the one that won.
    token = readToken(paths) ?? token;
  }
  const curlrc = `# written by agent-hooks serve: how the client reaches the server (keep private)\nunix-socket = ${JSON.stringify(paths.socket)}\nheader = "Authorization: Bearer ${token}"\n`;
  if (readPrivateFile(paths.curlConfig, { secret: true }) !== curlrc) writePrivateFile(paths.curlConfig, curlrc);
  return token;
}

/** Creates `file` (0600) unless it is there; one that is there must pass `sound`, else it is refused (never repaired). */
function writeExclusive(file: string, text: string, sound: () => boolean, what: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    writeSync(fd, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new HooksError('USAGE', `hooks serve: cannot write ${file}: ${(error as Error).message}`, { file });
    // A file that is there but not sound (not ours, open to others, damaged) is refused, never repaired.
    if (!sound()) throw new HooksError('USAGE', `hooks serve: ${file} is not ${what}; remove it and start again`, { file });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
