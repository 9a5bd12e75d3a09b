// Events the server does not judge itself: `hooks run`, spawned with the event on its stdin, judges them in a
// process of their own and its stdout, stderr and exit code are the answer. Two kinds go there:
// - every event of a project whose config is JavaScript: a config's code (and whatever it imports, which the
//   agent may have edited) never runs inside the server, where it could patch the answers of every project
//   and session (the server's own importer refuses JS configs: see refuseJavaScriptConfigs);
// - an event too large to judge on the server's one thread (see answer.ts): judging it here would hold
//   every other session's event behind it. Its `hooks run` runs at a lower priority, and at most
//   MAX_HEAVY at once (the rest wait their turn), so the other sessions keep their cores and the memory
//   such events take is bounded.
// Nothing is refused or skipped: the answer is exactly `hooks run`'s, for a Node start more.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { jsConfigImporter } from '../config/load.js';
import type { Answer } from '../dialects/dialect.js';
import { isDirectory } from '../fs/is-directory.js';
import { hooksBin } from '../install/bin.js';
import { EVENT_LIMITS } from '../json.js';
import { KILL_GRACE_MS } from '../run/process.js';
import { groupExists, killTree } from '../run/kill-tree.js';
import { startWatchdog, watchGroup } from '../run/watchdog.js';

export interface ElsewhereRequest {
  /** The event's bytes, as the agent sent them. */
  body: Buffer;
  event?: string | undefined;
  dialect?: string | undefined;
  onError: 'block' | 'continue';
  /** Where `hooks run` starts when the payload names no `cwd` (what the server's own search falls back to). */
  cwd: string;
  signal: AbortSignal;
  /** A heavy event: lower priority, and queued behind MAX_HEAVY others. */
  heavy: boolean;
}

/** Heavy events judged at once; more wait. Each may take hundreds of MiB (a 64 MiB event, parsed). */
export const MAX_HEAVY = 2;
/** How much lower a heavy event's `hooks run` runs (nice): the small events of other sessions go first. */
const HEAVY_NICENESS = 10;
/** `hooks run`'s answer may carry the whole event rewritten (a redacted tool output): room for that and more. */
const MAX_ANSWER_BYTES = 2 * EVENT_LIMITS.maxBytes + 1024 * 1024;

let bin: string | undefined;
let heavyRunning = 0;
const heavyQueue: (() => void)[] = [];

/** `hooks run <event> --dialect <d>` on the event, in a process of its own; every way it can end is an answer. */
export async function runElsewhere(request: ElsewhereRequest, env: NodeJS.ProcessEnv): Promise<Answer> {
  const failed = (why: string): Answer => ({ stdout: '', stderr: `agent-hooks: ${why}\n`, exitCode: request.onError === 'block' ? 2 : 1 });
  // They become arguments of `hooks run`: only names (the client checks the same), never a flag such as --config.
  for (const [what, value] of [['event', request.event], ['dialect', request.dialect]] as const) {
    if (value !== undefined && !/^[A-Za-z][A-Za-z-]*$/.test(value)) return failed(`${what} "${value.slice(0, 40)}": not an event or dialect name`);
  }
  if (request.heavy) {
    // A slot is taken, or handed over by the run that ends (so none is taken twice meanwhile).
    if (heavyRunning < MAX_HEAVY) heavyRunning++;
    else await new Promise<void>((resolve) => heavyQueue.push(resolve));
  }
  try {
    if (request.signal.aborted) return failed('the event was cancelled');
    bin ??= hooksBin();
    const args = [
      bin,
      'run',
      ...(request.event === undefined ? [] : [request.event]),
      ...(request.dialect === undefined ? [] : ['--dialect', request.dialect]),
      ...(request.onError === 'block' ? ['--on-error', 'block'] : []),
    ];
    const cwd = isDirectory(request.cwd) ? request.cwd : '/';
    return await spawnRun(args, cwd, request, env, failed);
  } finally {
    if (request.heavy) {
      const next = heavyQueue.shift();
      if (next === undefined) heavyRunning--;
      else next();
    }
  }
}

async function spawnRun(args: string[], cwd: string, request: ElsewhereRequest, env: NodeJS.ProcessEnv, failed: (why: string) => Answer): Promise<Answer> {
  const posix = process.platform !== 'win32';
  if (posix) startWatchdog(KILL_GRACE_MS);
  const sub = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: posix, windowsHide: true });
  const pid = sub.pid;
  if (pid !== undefined && request.heavy) {
    try {
      os.setPriority(pid, HEAVY_NICENESS);
    } catch {
      // Gone already, or not allowed: it runs at the server's priority.
    }
  }
  // If the server is SIGKILLed meanwhile, the watchdog ends the run and its hooks (a runner of its own).
  const release = posix && pid !== undefined ? watchGroup(pid) : () => {};
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let outBytes = 0;
  let errBytes = 0;
  let tooLarge = false;
  sub.stdout.on('data', (chunk: Buffer) => {
    outBytes += chunk.length;
    if (outBytes > MAX_ANSWER_BYTES) tooLarge = true;
    else out.push(chunk);
  });
  sub.stderr.on('data', (chunk: Buffer) => {
    errBytes += chunk.length;
    if (errBytes <= MAX_ANSWER_BYTES) err.push(chunk);
  });
  sub.stdin.on('error', () => {});
  sub.stdin.end(request.body);
  let startError: Error | undefined;
  let cancelled = false;
  // The agent gave up (or the server is shutting down): the run and every hook it started are ended.
  const cancel = () => {
    cancelled = true;
    if (pid === undefined) return;
    killTree(pid, 'SIGTERM');
    const grace = setTimeout(() => {
      if (groupExists(pid)) killTree(pid, 'SIGKILL');
    }, KILL_GRACE_MS);
    grace.unref();
  };
  request.signal.addEventListener('abort', cancel, { once: true });
  const closed = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    sub.on('error', (error) => {
      startError ??= error;
    });
    sub.once('close', (code, signal) => resolve({ code, signal }));
  });
  request.signal.removeEventListener('abort', cancel);
  release();
  if (cancelled) return failed('the event was cancelled');
  if (startError !== undefined && pid === undefined) return failed(`could not start hooks run for this event (${startError.message})`);
  if (tooLarge) return failed(`hooks run answered this event with more than ${MAX_ANSWER_BYTES} bytes`);
  if (closed.code === null) return failed(`hooks run for this event was ended by ${closed.signal ?? 'a signal'}`);
  return { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode: closed.code };
}

/**
 * From now on this process imports no JavaScript config: a trusted one is loaded as a layer that cannot be
 * read, which the server sees (javaScriptLayer) and sends its events to `hooks run`. Returns the call that
 * restores the importer (the last server of a process to close calls it; tests start several).
 */
export function refuseJavaScriptConfigs(): () => void {
  if (refusing++ === 0) {
    importer = jsConfigImporter.load;
    jsConfigImporter.load = () => Promise.reject(new Error('a JavaScript config is never imported by the server; its events are run by hooks run'));
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--refusing === 0 && importer !== undefined) jsConfigImporter.load = importer;
  };
}

let refusing = 0;
let importer: ((url: string) => Promise<unknown>) | undefined;
