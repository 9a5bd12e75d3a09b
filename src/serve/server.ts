// The server: one HTTP handler behind two listeners, loopback TCP (agents with HTTP hooks) and a Unix
// socket (the command-only client). Every request is checked before its body is read: the Host must
// name this server (DNS rebinding), no browser may send it (an Origin or Sec-Fetch header: CSRF), and
// it must carry the per-user token (another local user), and over TCP come from a socket of the server's own
// user where the kernel says so (peer.ts: a token an HTTP hook sent to a squatter is no use to them).
// Bodies are capped; slow clients are cut off.
import { timingSafeEqual } from 'node:crypto';
import { chmodSync, unlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { EVENT_LIMITS } from '../json.js';
import { VERSION } from '../version.js';
import { answerEvent } from './answer.js';
import { refuseJavaScriptConfigs } from './elsewhere.js';
import { runProcess, type ProcessRunner } from '../run/process.js';
import { LAUNCHER, Spares } from '../run/spares.js';
import { socketOwner, type End, type Owner } from './peer.js';
import { Projects } from './projects.js';
import type { TelemetryHub } from '../telemetry/index.js';
import type { RunOutcome } from '../telemetry/record.js';
import { telemetryWanted, type TelemetryConfig } from '../telemetry/settings.js';
import { PAGE_PREFIX, type Page } from './page/page.js';
import { pageEvent, redactor } from './page/record.js';
import { ENV_HEADER, ENV_MAX_BYTES, sessionRequest, type SessionRequest } from './session-env.js';

export interface ServerOptions {
  env: NodeJS.ProcessEnv;
  token: string;
  /** Loopback TCP; undefined: no TCP listener. Port 0 takes any free port. */
  tcp?: { host: string; port: number };
  /** The Unix socket's path; undefined: no socket. */
  socket?: string;
  /** Exit after this long with no request and none in flight; 0: never. */
  idleMs: number;
  /** The server's own log (one line each). */
  log(line: string): void;
  /** Called once the server has shut down by itself (idle). */
  onIdle?(): void;
  /** Request limits; tests lower them. */
  limits?: Partial<Limits>;
  /** The live page (src/serve/page): its routes under /page, and every decision recorded for it. */
  page?: Page;
}

export interface Limits {
  /** Largest event accepted (the same as `hooks run`'s stdin limit), the environment sent after it apart. */
  maxEventBytes: number;
  /** Largest environment a client may send after its event (session-env.ts). */
  maxEnvBytes: number;
  /** The request's headers must have arrived within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request (headers and body) must have arrived within this. */
  requestTimeoutMs: number;
  /** Requests answered at once; more get 503. */
  maxInFlight: number;
}

const DEFAULT_LIMITS: Limits = { maxEventBytes: EVENT_LIMITS.maxBytes, maxEnvBytes: ENV_MAX_BYTES, headersTimeoutMs: 5_000, requestTimeoutMs: 30_000, maxInFlight: 512 };

/** Separates stdout, stderr and the exit code in an answer to the client (JSON never holds it raw). */
export const RECORD_SEPARATOR = '\u001e';

export interface RunningServer {
  /** The TCP port actually bound (when there is a TCP listener). */
  port?: number;
  socket?: string;
  /** Stops listening, lets every event in flight finish (up to `graceMs`, then cancels them), and resolves when all is closed. */
  close(graceMs?: number): Promise<void>;
  stats(): ServerStats;
}

export interface ServerStats {
  pid: number;
  version: string;
  port?: number;
  socket?: string;
  startedAt: string;
  served: number;
  refused: number;
  /** Connections taken over TCP (an HTTP hook that keeps its connection open pays the owner check once). */
  tcpConnections: number;
  inFlight: number;
  projects: number;
  loads: number;
  /** The pids of the spares waiting: command hooks' next runs, started ahead (src/run/spares.ts). */
  spares: number[];
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const projects = new Projects(options.env);
  // A JS config's code (and what it imports) could patch this process's answers for every project: it is
  // never imported here, and its project's events are run by `hooks run` (elsewhere.ts).
  const importsJavaScript = refuseJavaScriptConfigs();
  // The server runs the same hooks again and again: each one's next run is started ahead, so an event does not
  // wait for a spawn (a fork of the whole server). AGENT_HOOKS_SERVE_SPARES=0 turns it off: a way out, and the
  // bench's baseline.
  const spares = options.env.AGENT_HOOKS_SERVE_SPARES === '0' ? undefined : new Spares();
  if (spares === undefined) options.log('spares off (AGENT_HOOKS_SERVE_SPARES=0): each command hook is spawned as its event comes');
  else if (!spares.available) options.log(`spares unavailable (no ${LAUNCHER}): each command hook is spawned as its event comes`);
  const runHook: ProcessRunner = (spec) => runProcess(spec, spares);
  const tokenBytes = Buffer.from(options.token, 'utf8');
  const inFlight = new Set<AbortController>();
  const startedAt = new Date().toISOString();
  let served = 0;
  let tcpConnections = 0;
  let refused = 0;
  let closing: Promise<void> | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  const refusals = rateLimited(options.log);
  // OpenTelemetry (src/telemetry): loaded on the first event that has it configured; one exporter, batching, for the server's life.
  let telemetry: Promise<TelemetryHub | undefined> | undefined;
  const telemetryWarnings = new Set<string>();
  const warn = (line: string) => {
    if (telemetryWarnings.has(line)) return;
    telemetryWarnings.add(line);
    options.log(line);
  };
  const page = options.page;
  const clean = page === undefined ? undefined : redactor();
  const observe = (outcome: RunOutcome, config: TelemetryConfig | undefined): void => {
    if (page !== undefined && clean !== undefined) page.record(pageEvent(outcome.decision, { agent: outcome.dialect, project: outcome.projectDir, ms: outcome.endedAt - outcome.startedAt, now: outcome.endedAt, clean }));
    if (!telemetryWanted(options.env, config)) return;
    telemetry ??= import('../telemetry/index.js').then(
      (m) => m.createTelemetryHub(),
      (error: unknown) => void warn(`telemetry: not loaded: ${error instanceof Error ? error.message : String(error)}`),
    );
    // Never a rejection left unhandled: an export is a warning at worst.
    void telemetry.then((hub) => hub?.record(outcome, { env: options.env, config, warn })).catch((error: unknown) => warn(`telemetry: ${error instanceof Error ? error.message : String(error)}`));
  };
  let port: number | undefined;

  const armIdle = () => {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
    if (options.idleMs > 0 && inFlight.size === 0 && closing === undefined) {
      idleTimer = setTimeout(() => {
        options.log(`idle for ${Math.round(options.idleMs / 1000)} s: shutting down`);
        void close().then(() => options.onIdle?.());
      }, options.idleMs);
      idleTimer.unref();
    }
  };

  /** Each TCP connection's two ends, as it arrived, and its owner, asked for once (see ownerRefusal). */
  const ends = new WeakMap<Socket, { client: End; server: End }>();
  const owners = new WeakMap<Socket, Promise<Owner | 'no-addresses'>>();

  const refuse = (res: http.ServerResponse, transport: 'tcp' | 'socket', refusal: Refusal): void => {
    refused++;
    refusals(`refused a ${transport} request: ${refusal.why}`);
    reply(res, refusal.status, refusal.why, true);
  };

  /** The page's requests: a browser's, so checked as a browser's (pageRefusal), then owned as the API's are. */
  const pageRequest = (req: http.IncomingMessage, res: http.ServerResponse, transport: 'tcp' | 'socket', page: Page) => {
    const denied = pageRefusal(req, transport, port, options.tcp?.host);
    if (denied !== undefined) return refuse(res, transport, denied);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (transport === 'socket') return page.handle(req, res, url);
    let owner = owners.get(req.socket);
    if (owner === undefined) owners.set(req.socket, (owner = ownerOf(req.socket, ends.get(req.socket))));
    void owner.then((found) => {
      if (req.destroyed || res.destroyed || req.socket.destroyed) return;
      const notOurs = ownerRefusal(found, false);
      if (notOurs !== undefined) return refuse(res, transport, notOurs);
      page.handle(req, res, url);
    });
  };

  const handler = (transport: 'tcp' | 'socket') => (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (page !== undefined && isPagePath(req.url)) return pageRequest(req, res, transport, page);
    // The cheap checks first: a request without the token never costs a look at the socket table.
    const checked = checkRequest(req, transport, port, options.tcp?.host, tokenBytes);
    if ('status' in checked) return refuse(res, transport, checked);
    if (transport === 'socket') return respond(req, res, checked.path);
    let owner = owners.get(req.socket);
    if (owner === undefined) owners.set(req.socket, (owner = ownerOf(req.socket, ends.get(req.socket))));
    void owner.then((found) => {
      // The client left while its owner was asked for: there is nobody to answer, and nothing runs for it.
      if (req.destroyed || res.destroyed || req.socket.destroyed) {
        refused++;
        return;
      }
      const denied = ownerRefusal(found, checked.secretPath);
      if (denied !== undefined) return refuse(res, transport, denied);
      respond(req, res, checked.path);
    });
  };

  function respond(req: http.IncomingMessage, res: http.ServerResponse, path: string): void {
    let url: URL;
    try {
      url = new URL(path, 'http://localhost');
    } catch {
      return reply(res, 400, 'bad request: the path is not a URL path', true);
    }
    if (url.pathname === '/v1/status' && req.method === 'GET') return reply(res, 200, JSON.stringify(stats()), false, 'application/json');
    // A one-time code for the live page (`hooks serve page`): only a holder of the token gets one.
    if (url.pathname === '/v1/page-code' && req.method === 'POST') {
      return page === undefined ? reply(res, 404, 'the live page is off (hooks serve --no-page)', false) : reply(res, 200, JSON.stringify(page.code()), false, 'application/json');
    }
    if (url.pathname !== '/v1/run') return reply(res, 404, 'not found: POST /v1/run or GET /v1/status', false);
    if (req.method !== 'POST') return reply(res, 405, 'method not allowed: POST an event to /v1/run', false);
    if (closing !== undefined) return reply(res, 503, 'the server is shutting down', true);
    if (inFlight.size >= limits.maxInFlight) return reply(res, 503, `busy: ${inFlight.size} events in flight`, false);
    const declared = Number(req.headers['content-length'] ?? 0);
    // An event `hooks run` would judge must fit with the environment the client sends after it.
    const maxBody = limits.maxEventBytes + (req.headers[ENV_HEADER] === undefined ? 0 : 1 + limits.maxEnvBytes);
    if (declared > maxBody) {
      refusals(`refused a request of ${declared} bytes (limit ${maxBody})`);
      return reply(res, 413, `the request is larger than ${maxBody} bytes`, true);
    }
    const controller = new AbortController();
    inFlight.add(controller);
    armIdle();
    void serveEvent(req, res, url, controller, maxBody).finally(() => {
      inFlight.delete(controller);
      served++;
      armIdle();
    });
  }

  async function serveEvent(req: http.IncomingMessage, res: http.ServerResponse, url: URL, controller: AbortController, maxBody: number): Promise<void> {
    // The agent gave up (its timeout, or it was stopped): the hooks still running are killed.
    res.on('close', () => {
      if (!res.writableFinished) controller.abort(new Error('the client went away'));
    });
    try {
      const body = await readBody(req, maxBody);
      if (body === undefined) {
        refusals(`refused a request larger than ${maxBody} bytes`);
        return reply(res, 413, `the request is larger than ${maxBody} bytes`, true);
      }
      // The client sends its session's environment after the event: that event's hooks get it (session-env.ts).
      let sent: SessionRequest;
      try {
        sent = sessionRequest(req.headers[ENV_HEADER], body);
      } catch (error) {
        refusals(`refused an event: ${(error as Error).message}`);
        return reply(res, 400, `bad request: ${(error as Error).message}`, true);
      }
      // Each part against its own limit: the event against `hooks run`'s, whatever the environment's size.
      const tooLarge =
        sent.event.length > limits.maxEventBytes
          ? `the event is larger than ${limits.maxEventBytes} bytes`
          : body.length - sent.event.length - 1 > limits.maxEnvBytes
            ? `the environment after the event is larger than ${limits.maxEnvBytes} bytes`
            : undefined;
      if (tooLarge !== undefined) {
        refusals(`refused an event: ${tooLarge}`);
        return reply(res, 413, tooLarge, true);
      }
      const onError = url.searchParams.get('onError') === 'block' || options.env.HOOKS_ON_ERROR === 'block' ? 'block' : 'continue';
      const answer = await answerEvent(
        {
          body: sent.event,
          hookEnv: sent.env,
          event: url.searchParams.get('event') ?? undefined,
          dialect: url.searchParams.get('dialect') ?? undefined,
          onError,
          // `?cwd=` for clients that cannot send the header (the gateway's http interceptor).
          cwd: absoluteHeader(req.headers['x-hooks-cwd']) ?? absoluteHeader(url.searchParams.get('cwd') ?? undefined),
          signal: controller.signal,
          runProcess: runHook,
          log: options.log,
          observe,
        },
        projects,
        options.env,
      );
      if (url.searchParams.get('client') === '1') {
        // The client prints stdout and stderr and exits with the code: exactly what `hooks run` would have done.
        return reply(res, 200, frame(answer), false);
      }
      return httpAnswer(res, answer);
    } catch (error) {
      options.log(`error answering an event: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) reply(res, 500, 'agent-hooks: the server failed to answer this event', true);
    }
  }

  function stats(): ServerStats {
    return {
      pid: process.pid,
      version: VERSION,
      ...(port === undefined ? {} : { port }),
      ...(options.socket === undefined ? {} : { socket: options.socket }),
      startedAt,
      served,
      refused,
      tcpConnections,
      inFlight: inFlight.size,
      ...projects.stats(),
      spares: spares?.pids() ?? [],
    };
  }

  const servers: http.Server[] = [];
  const serverOptions: http.ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // An HTTP hook's connection kept across the pauses of a turn: each new one costs the owner check.
    keepAliveTimeout: 65_000,
    // Timeouts are checked this often (Node's default, 30 s, would let a slow client sit that long).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    maxHeaderSize: 16 * 1024,
  };
  try {
    if (options.tcp !== undefined) {
      const server = http.createServer(serverOptions, handler('tcp'));
      await listen(server, { host: options.tcp.host, port: options.tcp.port, exclusive: true });
      port = (server.address() as AddressInfo).port;
      servers.push(server);
    }
    if (options.socket !== undefined) {
      const server = http.createServer(serverOptions, handler('socket'));
      // Created 0600 from the start (the umask is the process's; the folder is 0700 anyway).
      const umask = process.umask(0o177);
      try {
        await listen(server, { path: options.socket, exclusive: true });
      } finally {
        process.umask(umask);
      }
      chmodSync(options.socket, 0o600);
      servers.push(server);
    }
  } catch (error) {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    importsJavaScript();
    throw error;
  }
  const sockets = new Set<Socket>();
  for (const server of servers) {
    const tcp = server.address() !== null && typeof server.address() === 'object';
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      if (!tcp) return;
      tcpConnections++;
      const { remoteAddress, remotePort, localAddress, localPort } = socket;
      if (remoteAddress !== undefined && remotePort !== undefined && localAddress !== undefined && localPort !== undefined) {
        ends.set(socket, { client: { address: remoteAddress, port: remotePort }, server: { address: localAddress, port: localPort } });
      }
    });
    server.on('clientError', (_error, socket: Socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }
  armIdle();

  function close(graceMs = 60_000): Promise<void> {
    closing ??= (async () => {
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      const closed = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      for (const s of servers) s.closeIdleConnections();
      // Events in flight finish; past the grace they are cancelled (their hooks killed) and answered as such.
      const deadline = Date.now() + graceMs;
      while (inFlight.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const c of inFlight) c.abort(new Error('the server is shutting down'));
      while (inFlight.size > 0) await new Promise((r) => setTimeout(r, 20));
      for (const s of servers) s.closeIdleConnections();
      for (const socket of sockets) socket.destroy();
      await Promise.all(closed);
      spares?.close();
      // What is batched is sent (within 5 s: a collector that does not answer must not hold the shutdown).
      if (telemetry !== undefined) await telemetry.then((hub) => hub?.close(5_000)).catch((error: unknown) => options.log(`telemetry: ${error instanceof Error ? error.message : String(error)}`));
      importsJavaScript();
      if (options.socket !== undefined) {
        try {
          unlinkSync(options.socket);
        } catch {
          // Already gone.
        }
      }
    })();
    return closing;
  }

  return {
    ...(port === undefined ? {} : { port }),
    ...(options.socket === undefined ? {} : { socket: options.socket }),
    close,
    stats,
  };
}

/**
 * stdout, stderr and the exit code for the client, split by RECORD_SEPARATOR. Neither text may hold
 * the separator (JSON never does; a hook's plain text might) nor NUL (a shell variable cannot): they
 * become U+FFFD, so the exit code is always the last field and always the runner's.
 */
export function frame(answer: { stdout: string; stderr: string; exitCode: number }): string {
  const clean = (text: string) => text.replace(/[\u0000\u001e]/g, '\ufffd');
  return `${clean(answer.stdout)}${RECORD_SEPARATOR}${clean(answer.stderr)}${RECORD_SEPARATOR}${answer.exitCode}`;
}

type Refusal = { status: number; why: string };

/**
 * Who the kernel says owns the client's socket (see peer.ts); never rejects. A socket the table does
 * not list is asked for once more (a table printed while it changes can skip a line).
 */
async function ownerOf(socket: Socket, ends: { client: End; server: End } | undefined): Promise<Owner | 'no-addresses'> {
  if (typeof process.getuid !== 'function') return 'unknown';
  // Taken as the connection arrived: a socket reset since has no addresses left to look up.
  if (ends === undefined) return 'no-addresses';
  const { client, server } = ends;
  let owner = await socketOwner(client, server).catch((): Owner => 'unknown');
  if (owner === 'gone' && !socket.destroyed) owner = await socketOwner(client, server).catch((): Owner => 'unknown');
  return owner;
}

/**
 * A refusal unless the client's socket is this server's user's. A socket still missing from the table
 * is refused: the client is not there to be answered anyway. Where the kernel cannot say (off Linux)
 * the header's token is taken alone, but never a secret path: a URL sits on a command line (the
 * gateway's `--interceptor`), which other users can read in `ps`.
 */
function ownerRefusal(owner: Owner | 'no-addresses', secretPath: boolean): Refusal | undefined {
  const me = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (owner === 'no-addresses') return { status: 403, why: 'a connection whose addresses could not be read: its owner cannot be told' };
  if (owner === 'unknown') return secretPath ? { status: 403, why: 'a secret-path request on a system where the kernel cannot say who owns the connection: use the Authorization header' } : undefined;
  if (owner === 'gone') return { status: 403, why: "a connection whose client socket the kernel does not list (closed, or not a live socket): its owner cannot be told" };
  return me === undefined || owner.uid === me ? undefined : { status: 403, why: `a connection from another user's socket (uid ${owner.uid}): only uid ${me} may drive this server, token or not` };
}

function isPagePath(url: string | undefined): boolean {
  return url !== undefined && (url === PAGE_PREFIX || url.startsWith(`${PAGE_PREFIX}/`) || url.startsWith(`${PAGE_PREFIX}?`) || url.startsWith(`${PAGE_PREFIX}#`));
}

/**
 * The page is meant for a browser, so the API's rule against browsers cannot hold for it; what holds
 * instead: this server's Host (DNS rebinding), no other origin (an Origin header, when there is one,
 * is this server's own), and no request another site started (Sec-Fetch-Site, when there is one, is
 * "same-origin", or "none" for an address typed or opened from a terminal). The data also needs the
 * page's session key (page.ts) and, over TCP, the owner check.
 */
export function pageRefusal(req: http.IncomingMessage, transport: 'tcp' | 'socket', port: number | undefined, bound: string | undefined): Refusal | undefined {
  const host = req.headers.host;
  if (host === undefined || !hostAllowed(host, transport, port, bound)) {
    return { status: 403, why: `Host ${host === undefined ? 'missing' : `"${oneLine(host)}"`}: only 127.0.0.1 or localhost${port === undefined ? '' : `:${port}`} is served` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return { status: 403, why: `a page request from another origin (${oneLine(origin)})` };
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, why: `a page request another site started (Sec-Fetch-Site: ${oneLine(String(site))})` };
  return undefined;
}

/** `/i/<token>/rest`: the token and the path after it; anything else: undefined. */
const SECRET_PATH = /^\/i\/([^/?#]*)(\/[^]*)?$/;

/**
 * Why a request is refused before anything of it is read, or the path to serve (a secret path's token
 * taken off). The token comes from `Authorization: Bearer` or, for clients that cannot send a header
 * (the Docker MCP gateway's http interceptor), from the path: `/i/<token>/v1/run?...`.
 */
function checkRequest(req: http.IncomingMessage, transport: 'tcp' | 'socket', port: number | undefined, bound: string | undefined, tokenBytes: Buffer): Refusal | { path: string; secretPath: boolean } {
  // A page in a browser always sends Origin on a POST (and Sec-Fetch-* on everything): no agent does.
  if (req.headers.origin !== undefined) return { status: 403, why: `a request with an Origin header (${oneLine(req.headers.origin)}): browsers may not drive the server` };
  // Any Sec-Fetch-* header (Dest and User alone too): only a browser sends them, and no agent does.
  if (Object.keys(req.headers).some((name) => name.startsWith('sec-fetch-'))) return { status: 403, why: 'a request from a browser (Sec-Fetch headers)' };
  const host = req.headers.host;
  if (host === undefined || !hostAllowed(host, transport, port, bound)) {
    // DNS rebinding: a name that resolves to 127.0.0.1 still arrives with its own Host.
    return { status: 403, why: `Host ${host === undefined ? 'missing' : `"${oneLine(host)}"`}: only 127.0.0.1 or localhost${port === undefined ? '' : `:${port}`} is served` };
  }
  const secret = SECRET_PATH.exec(req.url ?? '');
  const auth = req.headers.authorization;
  // One token per request: a secret path's, else the header's (a path that carries one is never served without it).
  const given = secret !== null ? Buffer.from(secret[1]!, 'utf8') : typeof auth === 'string' && auth.startsWith('Bearer ') ? Buffer.from(auth.slice(7).trim(), 'utf8') : undefined;
  // Constant time over the token's bytes; only a length (public: 64 hex digits) is told apart early.
  // Neither the path nor the token given is ever put in a refusal or a log line.
  if (given === undefined || given.length === 0 || given.length !== tokenBytes.length || !timingSafeEqual(given, tokenBytes)) {
    return { status: 401, why: given === undefined || given.length === 0 ? 'no token (Authorization: Bearer <token>, or the path /i/<token>/...)' : 'a wrong token' };
  }
  return secret === null ? { path: req.url ?? '/', secretPath: false } : { path: secret[2] ?? '/', secretPath: true };
}

function hostAllowed(host: string, transport: 'tcp' | 'socket', port: number | undefined, bound: string | undefined): boolean {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // An address the user asked for with --host is its own name too (never a wildcard: any name would do).
  if (bound !== undefined && !['0.0.0.0', '::', '127.0.0.1'].includes(bound)) names.push(bound.includes(':') ? `[${bound}]` : bound);
  // curl names no port over a Unix socket; over TCP the port must be this server's.
  if (transport === 'socket' && names.includes(host)) return true;
  return names.some((name) => host === `${name}:${port}`);
}

function httpAnswer(res: http.ServerResponse, answer: { stdout: string; stderr: string; exitCode: number }): void {
  // An HTTP hook reads the 2xx body as it reads a command's stdout on exit 0; it has no exit code. Every
  // blocking answer carries its block in that JSON; an exit 1 (the runner's own error) is a non-2xx,
  // which the agent treats as a failing hook (and blocks on with onFailure "block"), as it does exit 1.
  if (answer.exitCode === 1) return reply(res, 500, answer.stderr.trim() || 'agent-hooks: the runner failed', false);
  if (answer.exitCode === 2 && answer.stdout.trim() === '') {
    return reply(res, 200, JSON.stringify({ decision: 'block', reason: answer.stderr.trim() || 'blocked by agent-hooks' }), false, 'application/json');
  }
  reply(res, 200, answer.stdout, false, answer.stdout === '' ? 'text/plain' : 'application/json');
}

function reply(res: http.ServerResponse, status: number, body: string, closeConnection: boolean, type = 'text/plain; charset=utf-8'): void {
  if (res.headersSent || res.destroyed) return;
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, {
    'content-type': type,
    'content-length': bytes.length,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(closeConnection ? { connection: 'close' } : {}),
  });
  res.end(bytes);
}

/** The body, or undefined when it is larger than `max` (the connection is then closed). */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    // Gone before a listener was here: no 'aborted' or 'close' is coming any more, and nothing must wait for one.
    if (req.destroyed) return reject(new Error('the request was aborted'));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('the request was aborted')));
    // 'close' without 'end' first: destroyed (a reset) before its body was read, complete or not.
    req.on('close', () => reject(new Error('the request was aborted')));
  });
}

function absoluteHeader(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value.startsWith('/') && !value.includes('\0') ? value : undefined;
}

function oneLine(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
}

/** At most one line a second about refused requests: someone hammering the port must not fill the disk. */
function rateLimited(log: (line: string) => void): (line: string) => void {
  let windowStart = 0;
  let dropped = 0;
  return (line) => {
    const now = Date.now();
    if (now - windowStart < 1_000) {
      dropped++;
      return;
    }
    windowStart = now;
    log(dropped > 0 ? `${line} (and ${dropped} more refused since the last line)` : line);
    dropped = 0;
  };
}

function listen(server: http.Server, where: { host?: string; port?: number; path?: string; exclusive: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
