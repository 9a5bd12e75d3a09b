// Shared by the server's tests: a server in-process over an isolated home, and raw requests to it.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { ensureToken, servePaths } from '../../src/serve/paths.js';
import { startServer, type RunningServer, type ServerOptions } from '../../src/serve/server.js';
import { afterEach } from 'vitest';
import { isolatedEnv, tmpProject } from '../helpers.js';

export interface Served {
  server: RunningServer;
  env: NodeJS.ProcessEnv;
  home: string;
  token: string;
  logs: string[];
  /** A request over TCP; headers default to a good Host and the token. */
  tcp(pathAndQuery: string, body?: string, headers?: Record<string, string | undefined>, method?: string): Promise<Reply>;
  /** A request over the Unix socket. */
  unix(pathAndQuery: string, body?: string, headers?: Record<string, string | undefined>, method?: string): Promise<Reply>;
}

export interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export async function serve(options: { home?: string; env?: Record<string, string>; limits?: ServerOptions['limits']; trust?: boolean; host?: string } = {}): Promise<Served> {
  const home = options.home ?? tmpProject();
  const env = isolatedEnv(home, options.env ?? {}, { trust: options.trust ?? true });
  delete env.XDG_RUNTIME_DIR;
  const paths = servePaths(env);
  const token = ensureToken(paths);
  const logs: string[] = [];
  const server = await startServer({
    env,
    token,
    tcp: { host: options.host ?? '127.0.0.1', port: 0 },
    socket: paths.socket,
    idleMs: 0,
    log: (line) => logs.push(line),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
  });
  const send = (where: { port: number } | { socketPath: string }, host: string) => (p: string, body = '', headers: Record<string, string | undefined> = {}, method = 'POST') =>
    request({ ...where, path: p, method, headers: clean({ host, authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }) }, body);
  return {
    server,
    env,
    home,
    token,
    logs,
    tcp: send({ port: server.port!, host: options.host ?? '127.0.0.1' } as { port: number }, `${options.host ?? '127.0.0.1'}:${server.port}`),
    unix: send({ socketPath: paths.socket }, 'localhost'),
  };
}

function clean(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));
}

export function request(options: http.RequestOptions, body: string | Buffer = ''): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...options, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The client's framing: stdout, stderr, exit code. */
export function unframe(body: string): { stdout: string; stderr: string; code: number } {
  const [stdout, stderr, code] = body.split('\u001e');
  return { stdout: stdout!, stderr: stderr!, code: Number(code) };
}

/** A raw TCP connection that writes `text` and reports when (and whether) the server closed it. */
export function rawSocket(port: number, text: string): Promise<{ closedAfterMs: number; data: string }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let data = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    socket.on('data', (d) => (data += d.toString()));
    socket.on('close', () => resolve({ closedAfterMs: performance.now() - started, data }));
    socket.on('error', () => {});
  });
}

export const claudeBash = (command: string, cwd: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 's-1', hook_event_name: 'PreToolUse', cwd, tool_name: 'Bash', tool_input: { command }, tool_use_id: 'toolu_1', ...extra });

export const userConfig = (env: NodeJS.ProcessEnv) => path.join(env.XDG_CONFIG_HOME!, 'agent-hooks', 'config.json');

/** The path of a PreToolUse run answered in Claude Code's format. */
export const RUN = '/v1/run?event=pre-tool-use&dialect=claude-code';

/** A `serve` whose servers are closed after each test of the file that calls this. */
export function serversClosedAfterEach(): (options?: Parameters<typeof serve>[0]) => Promise<Served> {
  const running: Served[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.server.close(1_000)));
  });
  return async (options = {}) => {
    const s = await serve(options);
    running.push(s);
    return s;
  };
}
