// Whose environment a served event's hooks get. One server answers every session of every project, so
// the environment it was started with is one session's (the client starts it from inside an agent): its
// PATH shims, its secrets, its project folder. `hooks run` gives hooks the agent's own environment, and so
// must the server: the client sends its environment after the event (the event, a NUL, then `env -0`;
// header `X-Hooks-Env: nul`), and that event's hooks get exactly it. Without it (Claude
// Code's http hooks carry none) the hooks get the server's own, which a server started by the client
// keeps to the few names that locate the user's files (`serverEnv`). The token never reaches a hook.
import { HooksError } from '../errors.js';

/** The header that says the body starts with the sender's environment, and how it is written. */
export const ENV_HEADER = 'x-hooks-env';
export const ENV_FORMAT = 'nul';

/**
 * The most environment a request may carry after its event, over the event's own limit. Linux holds a
 * process's arguments and environment together to ARG_MAX (2 MiB by default), so `env -0` prints no
 * more; past it the server refuses the request (413) and the client judges the event itself.
 */
export const ENV_MAX_BYTES = 2 * 1024 * 1024;

/** Set by agent-hooks-client on the `serve start` it runs: the server's environment is then a session's. */
export const AUTOSTARTED = 'AGENT_HOOKS_SERVE_AUTOSTARTED';

/** Set by an agent for one session's hooks; never the server's to pass on. */
export const SESSION_VARIABLES = ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'CLAUDE_ENV_FILE', 'CLAUDE_CODE_ENTRYPOINT'];

/** Kept out of every hook's environment: the server's own secret and the client's own switches. */
const NEVER_PASSED = ['AGENT_HOOKS_TOKEN', AUTOSTARTED];

/**
 * What a server started by the client keeps of that session's environment: where the user's files are
 * (config, state, trust store, managed layer, locale). Everything else (PATH with a project's shims,
 * secrets, a per-run switch such as HOOKS_SKIP) was that session's. PATH becomes the system's.
 */
const LOCATORS = /^(HOME|USER|LOGNAME|SHELL|TMPDIR|LANG|LC_[A-Z_]+|TZ|XDG_(CONFIG|STATE|CACHE|DATA|RUNTIME)_(HOME|DIR)|AGENT_HOOKS_[A-Z_]+)$/;
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The environment the server runs with and gives to hooks of events that bring none. */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const autostarted = env[AUTOSTARTED] === '1';
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (SESSION_VARIABLES.includes(name) || NEVER_PASSED.includes(name)) continue;
    if (autostarted && !LOCATORS.test(name)) continue;
    kept[name] = value;
  }
  if (autostarted) kept.PATH = SYSTEM_PATH;
  return kept;
}

/** The event and the environment it came with; `env` undefined when the request brought none. */
export interface SessionRequest {
  event: Buffer;
  env?: NodeJS.ProcessEnv;
}

/**
 * Splits a request's body: with `X-Hooks-Env: nul`, the event, a NUL (no JSON text holds one), then the
 * sender's environment as `env -0` prints it (`NAME=value` entries, each ended by a NUL). Throws a
 * one-line `HooksError` when the header names another format or the environment is not whole (none at
 * all: the client's `env -0` failed): an event must never run with an environment half read.
 */
export function sessionRequest(header: string | string[] | undefined, body: Buffer): SessionRequest {
  if (header === undefined) return { event: body };
  if (header !== ENV_FORMAT) throw new HooksError('USAGE', `${ENV_HEADER}: expected "${ENV_FORMAT}", got "${String(header).slice(0, 20)}"`);
  const end = body.indexOf(0);
  if (end === -1) throw new HooksError('USAGE', 'no environment after the event (a NUL, then env -0)');
  // Only the environment is decoded here: the event stays bytes, for the size bound before any parse (answer.ts).
  const block = body.subarray(end + 1).toString('utf8');
  if (block === '') throw new HooksError('USAGE', "an empty environment after the event: the client's env -0 failed?");
  if (!block.endsWith('\0')) throw new HooksError('USAGE', 'the environment after the event is cut short (its last entry has no NUL)');
  // No prototype: a name such as __proto__ is a name like any other.
  const env: NodeJS.ProcessEnv = Object.create(null) as NodeJS.ProcessEnv;
  for (const entry of block.slice(0, -1).split('\0')) {
    const eq = entry.indexOf('=');
    // `env -0` never writes an entry without a name: anything else is not its output.
    if (eq <= 0) throw new HooksError('USAGE', `the environment after the event has an entry that is not NAME=value ("${oneLine(entry)}")`);
    env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return { event: body.subarray(0, end), env: hookEnvOf(env) };
}

function hookEnvOf(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const name of NEVER_PASSED) delete env[name];
  return env;
}

function oneLine(text: string): string {
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
