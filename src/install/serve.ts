// `hooks install <agent> --serve`: entries that hand each event to `hooks serve` instead of starting
// Node. Every agent gets its usual command wrapped in agent-hooks-client (curl over the Unix socket),
// which checks that the socket and its folder are this user's before it sends anything and runs the
// command in-process when no server answers. Claude Code's `type: "http"` handlers on the loopback port
// (token from $AGENT_HOOKS_TOKEN through its header interpolation) are an explicit opt-in (`--http`):
// an HTTP hook cannot check who answers, so another user listening on the port first would receive
// every event and the token, and be obeyed. What happens while the server is down is the install's
// explicit choice (`whenDown`).
import { HooksError } from '../errors.js';
import { eventSpec } from '../events/catalog.js';
import { isRecord } from '../json.js';
import type { EventName } from '../types.js';
import { BIN_NAME, type Launcher } from './launcher.js';
import { shellQuote } from './shell.js';
import { FAIL_CLOSED_EVENTS } from './fail-closed.js';

export const CLIENT_NAME = 'agent-hooks-client';
/** The environment variable Claude Code reads the token from (it interpolates only the names listed in allowedEnvVars). */
export const TOKEN_ENV = 'AGENT_HOOKS_TOKEN';

export type WhenDown = 'run' | 'block' | 'continue';

export interface ServeInstall {
  /** Claude Code's `type: "http"` handlers on this port (`--http`); absent: the client, over the socket. */
  http?: { port: number };
  /**
   * run: the client runs the event in-process (`hooks run`) and starts a server; block: the gated
   * events (preToolUse, userPromptSubmit) are blocked, the others go on; continue: everything goes on.
   */
  whenDown: WhenDown;
}

export function whenDownOf(value: string | boolean | undefined, http: boolean): WhenDown {
  if (value === undefined) return http ? 'block' : 'run';
  if (value !== 'run' && value !== 'block' && value !== 'continue') throw new HooksError('USAGE', `--when-down: expected run, block or continue, got "${String(value)}"`);
  if (value === 'run' && http) {
    throw new HooksError('USAGE', '--when-down run: Claude Code calls the server over HTTP and has no command to fall back to; choose block (the default: preToolUse and userPromptSubmit are blocked while the server is down) or continue');
  }
  return value;
}

/** The client's word beside the launcher: the same folder, the client's name. */
export function clientWord(launcher: Launcher, projectDir: string): string {
  if (launcher.kind === 'project') return `${projectDir}/${shellQuote(launcher.rel.replace(new RegExp(`${BIN_NAME}$`), CLIENT_NAME))}`;
  if (launcher.kind === 'path') return CLIENT_NAME;
  return shellQuote(launcher.bin.replace(/[^/]+$/, CLIENT_NAME));
}

/** `<client> [--when-down x] <the hooks run command>`: the wrapped command is what runs without a server. */
export function clientCommand(client: string, runCommand: string, event: EventName, whenDown: WhenDown): string {
  // block and continue apply to the gated events; every other event goes on while the server is down.
  const down = whenDown === 'run' ? 'run' : whenDown === 'block' && FAIL_CLOSED_EVENTS.has(event) ? 'block' : 'continue';
  return `${client}${down === 'run' ? '' : ` --when-down ${down}`} ${runCommand}`;
}

/** The URL a handler posts one event to. */
export function serveUrl(port: number, event: EventName, dialect: string, onErrorBlock = false): string {
  return `http://127.0.0.1:${port}/v1/run?event=${eventSpec(event).cli}&dialect=${dialect}${onErrorBlock ? '&onError=block' : ''}`;
}

/** Claude Code's `type: "http"` handler for one event. */
export function httpHandler(event: EventName, dialect: string, options: ServeInstall & { http: { port: number } }, timeoutSeconds: number, failClosed = false): Record<string, unknown> {
  // A failing server (down, a wrong token, a runner error answered non-2xx) blocks where the install says so.
  const gated = (options.whenDown === 'block' || failClosed) && FAIL_CLOSED_EVENTS.has(event);
  return {
    type: 'http',
    url: serveUrl(options.http.port, event, dialect, failClosed),
    headers: { Authorization: `Bearer $${TOKEN_ENV}` },
    allowedEnvVars: [TOKEN_ENV],
    timeout: timeoutSeconds,
    ...(gated ? { onFailure: 'block' } : {}),
  };
}

/** True for an http handler this install wrote (how uninstall and a new install find ours). */
export function isOurHttpHandler(handler: unknown): boolean {
  return (
    isRecord(handler) &&
    handler.type === 'http' &&
    typeof handler.url === 'string' &&
    /^http:\/\/127\.0\.0\.1:\d+\/v1\/run\?event=[a-z-]+&dialect=[a-z-]+(&onError=block)?$/.test(handler.url) &&
    Array.isArray(handler.allowedEnvVars) &&
    handler.allowedEnvVars.includes(TOKEN_ENV)
  );
}

/**
 * Why this `--serve` install is refused, if it is: an http handler names this user's port and wants
 * this user's token, so it never goes into a project's file, which teams commit (a teammate's events
 * would go to whatever listens on that port on their machine, and block when nothing answers).
 */
export function serveRefusal(options: ServeInstall, scope: string): string | undefined {
  if (options.http === undefined || scope !== 'project') return undefined;
  return 'install --serve --http writes your own port into the settings, and a project file is shared with everyone who clones it: use --user for http hooks, or --serve without --http (the command entries find each user\'s own server)';
}

/** What the user must know after a --serve install. */
export function serveNotes(options: ServeInstall, tokenFile: string): string[] {
  const notes = [`the entries call "agent-hooks serve" (start it with "agent-hooks serve start", or as a service: "agent-hooks serve --print-unit")`];
  if (options.http !== undefined) {
    notes.push(`--http is only for a machine where no other user can bind loopback ports: whoever listens on 127.0.0.1:${options.http.port} while your server is not there receives every event with your token, and Claude Code obeys its answers; elsewhere install --serve without --http (the client checks the socket is yours)`);
    notes.push(`Claude Code sends the token from $${TOKEN_ENV}: export it where claude starts, e.g. in your shell profile: export ${TOKEN_ENV}="$(cat ${shellQuote(tokenFile)})"`);
    notes.push(`while the server is down (or the token is missing) ${options.whenDown === 'block' ? 'PreToolUse and UserPromptSubmit are blocked (onFailure "block"); the other events go on' : 'every event goes on (a hook error notice)'}; SessionStart runs through agent-hooks-client, which starts the server`);
  } else {
    notes.push('the client sends nothing to a socket that is not yours (its folder 0700 and yours, the socket yours): it says so and does what --when-down says');
    notes.push(options.whenDown === 'run' ? 'while the server is down, each event runs in-process (hooks run) and the first one starts a server' : `while the server is down, ${options.whenDown === 'block' ? 'preToolUse and userPromptSubmit are blocked, the other events go on' : 'every event goes on with a warning'}`);
  }
  return notes;
}
