// `hooks serve`: one resident runner per user, so an event costs a request instead of a Node start.
import path from 'node:path';
import { HooksError } from '../../errors.js';
import { hooksBin } from '../../install/bin.js';
import { DEFAULT_IDLE_MINUTES, fileLog, platformProblem, probe, readPid, serviceUnit, startBackground, stopServer, takeLock, unitPath } from '../../serve/lifecycle.js';
import { ownerCheckProblem } from '../../serve/peer.js';
import { ensureToken, prepareDirs, readToken, servePaths, servePort, socketProblem } from '../../serve/paths.js';
import { describeHolder, portHolder } from '../../serve/port-holder.js';
import { closeInheritedFds } from '../../serve/inherited-fds.js';
import { serverEnv } from '../../serve/session-env.js';
import { startServer, type RunningServer } from '../../serve/server.js';
import type { Page } from '../../serve/page/page.js';
import type { Command } from '../command.js';
import type { CliContext } from '../context.js';

export const command: Command = {
  help: `Usage: hooks serve [start|stop|status|token] [options]

Runs one long-lived agent-hooks server for your user: every project and every session of every
agent, with the same engine and the same answers as "hooks run", without starting Node per event.
It listens on a Unix socket (0600 in a 0700 folder) for agent-hooks-client, which every --serve
install runs, and on 127.0.0.1 for Claude Code's type "http" hooks (install --serve --http: only
for a machine where no other user can bind loopback ports). Every request must carry your token
(a 0600 file in the state folder); a request without it, for another Host, from a browser
(Origin / Sec-Fetch headers) or, on Linux, over TCP from another user's socket is refused. Each
event the client sends runs its hooks with that session's own environment.

  hooks serve          run in the foreground until SIGTERM / Ctrl-C (for systemd or launchd)
  hooks serve start    start it in the background (logs in the state folder), unless one runs
  hooks serve stop     stop it: events in flight finish first
  hooks serve status   is it running, since when, how many events it answered (exit 3: not running);
                       --json for scripts ({"running": true, "pid", "port", "url", "socket", ...})
  hooks serve page     print a link to the live page (events as they happen, filters, per-hook
                       latency and block rate, history): one-time, valid 2 minutes
  hooks serve token    print the token (for AGENT_HOOKS_TOKEN, which Claude Code puts in the header,
                       or for a client that cannot send one: the path /i/<token>/v1/run?...)

Options:
  --port <n>           loopback port (default: AGENT_HOOKS_SERVE_PORT, else the one kept in the
                       state folder's "port" file, picked at random and free on first use)
  --host <address>     listen on another address than 127.0.0.1 (only if you mean it: every
                       request still needs the token, but the port is then reachable from outside)
  --no-http            the Unix socket only (command-only agents)
  --no-page            no live page and no page history (docs/live-page.md)
  --idle <minutes>     exit after this long without an event; 0 never (default: 0 in the
                       foreground, ${DEFAULT_IDLE_MINUTES} for "start" and for a server the client started)
  --print-unit         print a systemd user unit (a launchd plist on macOS) and exit: it runs the
                       server on the port above (or --no-http), with a PATH holding the folders
                       where this shell finds node, python3, python, bash, git and sh

Files ($XDG_STATE_HOME/agent-hooks/serve, 0700): token, port, serve.pid (one server per user),
serve.log, client.curlrc, page.db (the page's history); the socket is $XDG_RUNTIME_DIR/agent-hooks/serve.sock when there is a
runtime folder, else serve.sock beside them.

Examples:
  agent-hooks serve start
  agent-hooks install claude-code --user --serve
  agent-hooks serve --print-unit > ~/.config/systemd/user/agent-hooks.service
`,
  args: {
    positional: ['action'],
    flags: { port: 'string', host: 'string', 'no-http': 'boolean', 'no-page': 'boolean', idle: 'string', 'print-unit': 'boolean', json: 'boolean' },
  },
  async run(args, ctx) {
    const paths = servePaths(ctx.env);
    const action = args.positional.action;
    const unsupported = platformProblem(process.platform);
    if (unsupported !== undefined && action !== 'status') throw new HooksError('USAGE', unsupported);
    if (args.flags.json === true && action !== 'status') throw new HooksError('USAGE', '--json goes with "hooks serve status"');
    const host = typeof args.flags.host === 'string' ? args.flags.host : '127.0.0.1';
    const http = args.flags['no-http'] !== true;
    const port = () => (args.flags.port === undefined ? servePort(paths, ctx.env) : Promise.resolve(portOf(args.flags.port)));
    if (args.flags['print-unit'] === true) {
      // The port the client and the installed http hooks use (kept in the state folder), fixed in the unit.
      const unit = { path: unitPath(ctx.env, process.execPath, process.platform, ctx.cwd), port: http ? await port() : undefined };
      ctx.stdout(serviceUnit(process.platform, hooksBin(), paths, unit));
      return 0;
    }
    switch (action) {
      case undefined:
        return foreground(ctx, { port: http ? await port() : 0, host, http, page: args.flags['no-page'] !== true, idleMinutes: args.flags.idle === undefined ? 0 : minutesOf(args.flags.idle) });
      case 'start': {
        prepareDirs(paths);
        const token = ensureToken(paths);
        const running = await probe(paths, token);
        if (running !== undefined) {
          ctx.stdout(`agent-hooks serve: already running (pid ${running.pid}${running.port === undefined ? '' : `, port ${running.port}`})\n`);
          return 0;
        }
        const idle = args.flags.idle === undefined ? DEFAULT_IDLE_MINUTES : minutesOf(args.flags.idle);
        const wanted = http ? await port() : 0;
        const stats = await startBackground(
          paths,
          token,
          { bin: hooksBin(), args: ['serve', '--port', String(wanted), '--host', host, '--idle', String(idle), ...(http ? [] : ['--no-http']), ...(args.flags['no-page'] === true ? ['--no-page'] : [])] },
          ctx.env,
        );
        ctx.stdout(`agent-hooks serve: started (pid ${stats.pid}${stats.port === undefined ? '' : `, port ${stats.port}`}, socket ${paths.socket}); log ${paths.log}\n`);
        const unchecked = stats.port === undefined ? undefined : ownerCheckProblem();
        if (unchecked !== undefined) ctx.stderr(`agent-hooks serve: ${unchecked}\n`);
        if (http && stats.port === undefined) ctx.stderr(`agent-hooks serve: ${portTaken(wanted, host)}\n`);
        return 0;
      }
      case 'stop': {
        const pid = await stopServer(paths, readToken(paths));
        ctx.stdout(pid === undefined ? 'agent-hooks serve: not running\n' : `agent-hooks serve: stopped (pid ${pid})\n`);
        return 0;
      }
      case 'status': {
        const json = args.flags.json === true;
        const problem = socketProblem(paths);
        if (problem !== undefined) {
          ctx.stdout(json ? `${JSON.stringify({ running: false, problem, socket: paths.socket }, null, 2)}\n` : `agent-hooks serve: not asked: the socket may not be your server's (${problem}); nothing was sent to it\n`);
          return 3;
        }
        const stats = await probe(paths, readToken(paths));
        if (stats === undefined) {
          const pid = readPid(paths);
          ctx.stdout(json ? `${JSON.stringify({ running: false, ...(pid === undefined ? {} : { stalePid: pid }), log: paths.log }, null, 2)}\n` : `agent-hooks serve: not running${pid === undefined ? '' : ` (a stale pid file names ${pid})`}\n`);
          return 3;
        }
        if (json) {
          const url = stats.port === undefined ? null : `http://127.0.0.1:${stats.port}/v1/run`;
          ctx.stdout(`${JSON.stringify({ running: true, ...stats, url, spares: stats.spares ?? [], log: paths.log }, null, 2)}\n`);
          return 0;
        }
        ctx.stdout(
          `agent-hooks serve: running (pid ${stats.pid}, version ${stats.version}, since ${stats.startedAt})\n` +
            `  http:    ${stats.port === undefined ? 'off' : `http://127.0.0.1:${stats.port}/v1/run`}\n` +
            `  socket:  ${stats.socket ?? 'off'}\n` +
            `  events:  ${stats.served} answered, ${stats.inFlight} in flight, ${stats.refused} requests refused, ${stats.tcpConnections} TCP connections\n` +
            `  configs: ${stats.projects} projects loaded (${stats.loads} loads)\n` +
            // An older server's stats have no spares.
            `  spares:  ${(stats.spares ?? []).length} waiting (command hooks' next runs, started ahead; pids ${(stats.spares ?? []).join(' ') || 'none'})\n` +
            `  log:     ${paths.log}\n`,
        );
        return 0;
      }
      case 'token':
        ctx.stdout(`${ensureToken(paths)}\n`);
        return 0;
      case 'page': {
        const problem = socketProblem(paths);
        if (problem !== undefined) throw new HooksError('USAGE', `hooks serve page: the socket may not be your server's (${problem}); nothing was sent to it`);
        const token = readToken(paths);
        const stats = await probe(paths, token);
        if (stats === undefined || token === undefined) throw new HooksError('USAGE', 'hooks serve page: the server is not running ("hooks serve start")');
        if (stats.port === undefined) throw new HooksError('USAGE', 'hooks serve page: the server has no loopback HTTP listener (started with --no-http, or its port is taken: "hooks serve status"); a browser cannot reach a Unix socket');
        const { pageCode } = await import('../../serve/page/client.js');
        const code = await pageCode(paths.socket, token);
        ctx.stdout(`http://127.0.0.1:${stats.port}/page/#code=${code}\n`);
        ctx.stderr('agent-hooks serve: open this link within 2 minutes; it works once (the page then keeps its own key for this tab)\n');
        return 0;
      }
      default:
        throw new HooksError('USAGE', `hooks serve: unknown action "${action}"; expected start, stop, status, page or token`);
    }
  },
};

async function foreground(ctx: CliContext, options: { port: number; host: string; http: boolean; page: boolean; idleMinutes: number }): Promise<number> {
  const paths = servePaths(ctx.env);
  prepareDirs(paths);
  const token = ensureToken(paths);
  const taken = await takeLock(paths, token);
  // The server outlives the session that started it (the client starts one from inside an agent):
  // that session's project folder, PATH and secrets must not become every project's (session-env.ts).
  const env = serverEnv(ctx.env);
  if ('running' in taken) throw new HooksError('USAGE', `hooks serve: already running (pid ${taken.running.pid}); one server per user ("hooks serve status")`);
  const log = ctx.stderrIsTTY ? (line: string) => ctx.stderr(`${new Date().toISOString()} ${line}\n`) : fileOrStderr(ctx, paths.log);
  // A hook's crash is a value, never an exception; should anything else escape, it is logged and the
  // server goes on answering (each event is independent of the others).
  const onCrash = (error: unknown) => log(`internal error (the server goes on): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  // Whatever the starter left open (not close-on-exec) would reach every hook and spare.
  const closed = closeInheritedFds();
  if (closed.length > 0) log(`closed descriptors inherited from the starter (${closed.join(', ')}): hooks get only stdin, stdout and stderr`);
  // The page's history: SQLite in the state folder where Node has it, else in memory (said once).
  let page: Page | undefined;
  if (options.page) {
    const { createPage } = await import('../../serve/page/page.js');
    const { openStore } = await import('../../serve/page/store.js');
    const store = openStore(path.join(paths.dir, 'page.db'));
    if (store.note !== undefined) log(`live page: ${store.note}`);
    page = createPage(store, log);
  }
  try {
    const start = (http: boolean) =>
      startServer({
        ...(page === undefined ? {} : { page }),
        env,
        token,
        ...(http ? { tcp: { host: options.host, port: options.port } } : {}),
        socket: paths.socket,
        idleMs: options.idleMinutes * 60_000,
        log,
        onIdle: stopped,
      });
    let server: RunningServer;
    try {
      server = await start(options.http);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !options.http) throw error;
      // Someone else on the port (another user, squatting or not) must not keep the socket's clients
      // from their server: it serves the socket alone and says who holds the port.
      log(`http off: ${portTaken(options.port, options.host)}; the Unix socket still serves agent-hooks-client`);
      server = await start(false);
    }
    log(`listening (pid ${process.pid})${server.port === undefined ? '' : ` on http://${options.host}:${server.port}`} and ${paths.socket}`);
    // Off Linux the TCP owner check has no table to read: said once here, not silently skipped per request.
    const unchecked = server.port === undefined ? undefined : ownerCheckProblem();
    if (unchecked !== undefined) log(unchecked);
    if (ctx.signal.aborted) stopped();
    ctx.signal.addEventListener('abort', () => {
      log('stopping: finishing the events in flight');
      void server.close().then(stopped);
    });
    await done;
    page?.close();
    log(`stopped after ${server.stats().served} events`);
    return 0;
  } finally {
    taken.lock.release();
  }
}

/** Port N on host is held by ... : what to do about it. */
export function portTaken(port: number, host: string): string {
  return `port ${port} on ${host} is ${describeHolder(portHolder(port))}; http hooks cannot reach this server (remove the "port" file in the state folder to pick another at the next start, then reinstall --http; or set AGENT_HOOKS_SERVE_PORT)`;
}

/** In the background stdout and stderr already go to the log; the log lines carry the time. */
function fileOrStderr(ctx: CliContext, file: string): (line: string) => void {
  return ctx.env.AGENT_HOOKS_SERVE_LOG === 'stderr' ? (line) => ctx.stderr(`${new Date().toISOString()} ${line}\n`) : fileLog(file);
}

function portOf(value: string | boolean): number {
  const port = Number(value);
  if (typeof value !== 'string' || !Number.isInteger(port) || port < 0 || port > 65535) throw new HooksError('USAGE', `--port: expected a port number, got "${String(value)}"`);
  return port;
}

function minutesOf(value: string | boolean): number {
  const minutes = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(minutes) || minutes < 0) throw new HooksError('USAGE', `--idle: expected minutes (0: never), got "${String(value)}"`);
  return minutes;
}
