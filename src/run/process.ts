// Runs one command hook as a real process, with node:child_process through cross-spawn (which resolves
// Windows' .cmd shims and shebangs the way execa did, and on POSIX is a plain spawn). execa was the runner
// here until server mode: under `hooks serve` its per-hook bookkeeping was most of what a command hook cost
// beyond the hook itself, and in a cold run its 200 KB were a fifth of the CLI to load. Everything it did
// for us (the kill, the limits, the drain) was already ours.
import { spawn } from 'cross-spawn';
import type { ChildProcess } from 'node:child_process';
import { isDirectory } from '../fs/is-directory.js';
import type { ProcessEnd } from '../reply/interpret.js';
import { wholeMs } from './duration.js';
import { groupExists, killTree } from './kill-tree.js';
import { missingScript, missingScriptAnswer } from './missing-script.js';
import type { Spares } from './spares.js';
import type { ProcessSpec } from './spec.js';
import { startWatchdog, watchGroup } from './watchdog.js';

export type { ProcessSpec } from './spec.js';

/**
 * Bytes kept of each stream; the rest is read and dropped. Over the stdout limit the reply cannot be read
 * (`output-too-large`, unless the hook exits 2: a block); over the stderr limit a block's reason ends with a marker.
 */
export const OUTPUT_LIMITS = { stdout: 8 * 1024 * 1024, stderr: 1024 * 1024 };
/** After SIGTERM, how long the tree gets before SIGKILL. */
export const KILL_GRACE_MS = 500;
/** After the hook exits, how long its leftover children may keep our pipes open. */
export const DRAIN_MS = 200;

/** Keeps the first `limit` bytes of a stream and counts the rest. */
class Capped {
  readonly chunks: Buffer[] = [];
  kept = 0;
  dropped = 0;
  constructor(readonly limit: number) {}
  add(chunk: Buffer): boolean {
    const room = this.limit - this.kept;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
      return true;
    }
    if (room > 0) this.chunks.push(chunk.subarray(0, room));
    this.kept += Math.max(room, 0);
    this.dropped += chunk.length - Math.max(room, 0);
    return false;
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks, this.kept);
  }
}

/** What runs a command hook to its end: `runProcess`, with or without spares. */
export type ProcessRunner = (spec: ProcessSpec) => Promise<ProcessEnd>;

/**
 * Runs the hook to its end; every way it can end is a value, never an exception. With `spares` (a long-lived
 * runner), the hook's next run gets a process started ahead (src/run/spares.ts).
 */
export async function runProcess(spec: ProcessSpec, spares?: Spares): Promise<ProcessEnd> {
  const end = await runOnce(spec, spares);
  // Once this run is over, not while it runs: on two cores, a launcher starting beside the hook slows it down.
  if (spares !== undefined && end.kind !== 'not-found' && end.kind !== 'cancelled') setTimeout(() => spares.prepare(spec), 0).unref();
  return end;
}

async function runOnce(spec: ProcessSpec, spares: Spares | undefined): Promise<ProcessEnd> {
  if (spec.signal?.aborted) return { kind: 'cancelled' };
  const missing = missingScript(spec.command, spec.args, spec.cwd);
  if (missing !== undefined) return { kind: 'not-found', message: missing };
  const posix = process.platform !== 'win32';
  // Before the hook's clock starts: starting the watchdog is not the hook's time.
  if (posix) startWatchdog(KILL_GRACE_MS);
  const timeoutMs = wholeMs(spec.timeoutMs);
  // A spare (src/run/spares.ts) is the hook's process already started: only a long-lived runner has them.
  const taken = spares?.take(spec);
  let sub: ChildProcess;
  if (taken !== undefined) sub = taken.sub;
  else {
    try {
      sub = spawn(spec.command, spec.args ?? [], {
        // The POSIX shell (/bin/sh), as Claude Code runs shell-form hooks on Linux and macOS (2.1.328 spawns
        // with `shell: true` there, whatever `shell: "bash"` says; checked with the real CLI).
        shell: spec.args === undefined ? (spec.shell === 'powershell' ? 'pwsh' : true) : false,
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        // Its own process group, so a timeout can kill everything the hook started.
        detached: posix,
        windowsHide: true,
      });
    } catch (error) {
      // Node refuses some spawns outright (a NUL byte in an argument or the environment, E2BIG).
      return { kind: 'not-found', message: `${spec.command}: could not start (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  let startError: NodeJS.ErrnoException | undefined;
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // `on`, not `once`: an 'error' with no listener would throw in the runner; the first one is the one that counts.
    sub.on('error', (error: NodeJS.ErrnoException) => {
      startError ??= error;
    });
    sub.once('close', (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal }));
  });
  const pid = sub.pid;
  // If the runner is SIGKILLed while this hook runs, the watchdog kills its group (see watchdog.ts).
  const release = posix && pid !== undefined ? watchGroup(pid) : () => {};
  // A hook that exits without reading its stdin closes the pipe under us: EPIPE is expected, not an error.
  sub.stdin?.on('error', () => {});
  if (taken !== undefined) sub.stdin?.write(taken.header);
  sub.stdin?.end(typeof spec.input === 'string' ? Buffer.from(spec.input) : spec.input);
  const stdout = new Capped(OUTPUT_LIMITS.stdout);
  const stderr = new Capped(OUTPUT_LIMITS.stderr);
  let stdoutOverflow = false;
  let drain: NodeJS.Timeout | undefined;
  const stopPipes = () => {
    sub.stdout?.destroy();
    sub.stderr?.destroy();
  };
  // Past a limit the rest is read and dropped, not a reason to stop the hook: it may still exit 2, which must
  // block. Its timeout bounds how long it may write.
  sub.stdout?.on('data', (chunk: Buffer) => {
    if (!stdout.add(chunk)) stdoutOverflow = true;
  });
  sub.stderr?.on('data', (chunk: Buffer) => void stderr.add(chunk));
  // Once stopped (timeout or cancel), SIGKILL reaches the group at TERM + grace even when the leader is already
  // gone: a member that ignores SIGTERM and has let go of our pipes must not outlive its hook. The run waits for it.
  let stopped: 'timeout' | 'cancelled' | undefined;
  let killed: Promise<void> | undefined;
  const stop = (why: 'timeout' | 'cancelled') => {
    if (stopped !== undefined) return;
    stopped = why;
    if (drain !== undefined) clearTimeout(drain);
    if (pid === undefined) return;
    killTree(pid, 'SIGTERM');
    killed = new Promise((resolve) => {
      const finish = () => {
        clearInterval(poll);
        clearTimeout(grace);
        killTree(pid, 'SIGKILL');
        // A child that escaped the group (setsid) may still hold the pipes: stop waiting for them.
        stopPipes();
        resolve();
      };
      const grace = setTimeout(finish, KILL_GRACE_MS);
      // A group that is gone before the grace is over needs no more waiting.
      const poll = setInterval(() => {
        if (!groupExists(pid)) finish();
      }, 25);
    });
  };
  const timer = setTimeout(() => stop('timeout'), timeoutMs);
  const onCancel = () => stop('cancelled');
  spec.signal?.addEventListener('abort', onCancel, { once: true });
  // A hook that exits but leaves a background child writing to our pipes must not hold the runner.
  // (Once stopped, the kill path owns the timing: the group keeps its full grace before SIGKILL.)
  let exitedInTime = false;
  sub.once('exit', () => {
    if (stopped !== undefined) return;
    // Its answer is in: a timeout during the drain below only stops what it left behind.
    exitedInTime = true;
    drain = setTimeout(() => {
      if (pid !== undefined) killTree(pid, 'SIGKILL');
      // After the next poll, not now: a loop that was busy past DRAIN_MS (a loaded machine, a host running other
      // work) runs this timer before it reads the pipes, and the hook's answer still unread in them (a deny)
      // would be dropped. What the hook wrote before it exited is in the pipe and is read in that poll.
      setImmediate(stopPipes);
    }, DRAIN_MS);
  });

  const result = await closed;
  clearTimeout(timer);
  if (drain !== undefined) clearTimeout(drain);
  spec.signal?.removeEventListener('abort', onCancel);
  if (killed !== undefined) await killed;
  release();
  // Its spare never got to the hook (its chdir or exec failed, it was killed first, or stopped past the
  // timeout), so nothing of it ran: a spawn runs it, with its whole timeout, or says exactly why it cannot.
  if (taken?.ranNothing() === true && stopped !== 'cancelled') return runProcess(spec);

  const exitCode = result.code ?? undefined;
  if (stdoutOverflow && exitCode !== 2) return { kind: 'too-large', stream: 'stdout', limit: OUTPUT_LIMITS.stdout };
  if (stopped === 'timeout' && !exitedInTime) return { kind: 'timeout', timeoutMs };
  if (stopped === 'cancelled') return { kind: 'cancelled' };
  if (startError !== undefined && pid === undefined) return { kind: 'not-found', message: couldNotStart(spec, startError) };
  const errBytes = stderr.bytes();
  if (exitCode === undefined || exitCode < 0) {
    if (result.signal !== null) return { kind: 'signal', signal: result.signal, stderr: errBytes.toString('utf8') };
    return { kind: 'not-found', message: startError === undefined ? `${spec.command}: could not start` : couldNotStart(spec, startError) };
  }
  // The interpreter's own "cannot open" answer (python3 exits 2, node 1) is not the hook's decision.
  const notFound = missingScriptAnswer(exitCode, errBytes, spec.cwd);
  if (notFound !== undefined) return { kind: 'not-found', message: notFound };
  return {
    kind: 'exited',
    exitCode,
    stdout: stdout.bytes(),
    stderr: errBytes,
    ...(stderr.dropped > 0 ? { stderrDropped: stderr.dropped } : {}),
    ...(stdoutOverflow ? { stdoutDropped: stdout.dropped } : {}),
  };
}

/** Why the spawn itself failed, naming what is missing: the program, or the folder it was to run in. */
function couldNotStart(spec: ProcessSpec, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT' && !isDirectory(spec.cwd)) return `${spec.command}: its working folder ${spec.cwd} does not exist`;
  if (error.code === 'ENOENT') return `${spec.command}: not found`;
  if (error.code === 'EACCES') return `${spec.command}: not executable`;
  return `${spec.command}: could not start (${error.code ?? error.message})`;
}
