// Runs one command hook as a real process. The only module that uses execa.
import { execa } from 'execa';
import type { ProcessEnd } from '../reply/interpret.js';
import { killTree } from './kill-tree.js';

export interface ProcessSpec {
  /** Shell form when `args` is absent (`sh -c command`), exec form (no shell) otherwise. */
  command: string;
  args?: string[];
  cwd: string;
  /** The whole environment of the hook. */
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input: string;
  timeoutMs: number;
  /** Aborts the hook (and kills its tree) when the whole run is cancelled. */
  signal?: AbortSignal;
}

export const OUTPUT_LIMITS = { stdout: 8 * 1024 * 1024, stderr: 1024 * 1024 };
/** After SIGTERM, how long the tree gets before SIGKILL. */
export const KILL_GRACE_MS = 500;
/** After the hook exits, how long its leftover children may keep our pipes open. */
export const DRAIN_MS = 200;

/** Runs the hook to its end; every way it can end is a value, never an exception. */
export async function runProcess(spec: ProcessSpec): Promise<ProcessEnd> {
  if (spec.signal?.aborted) return { kind: 'cancelled' };
  const timeout = AbortSignal.timeout(spec.timeoutMs);
  const signal = spec.signal === undefined ? timeout : AbortSignal.any([spec.signal, timeout]);
  const posix = process.platform !== 'win32';
  const sub = execa(spec.command, spec.args ?? [], {
    shell: spec.args === undefined,
    cwd: spec.cwd,
    env: spec.env,
    extendEnv: false,
    input: spec.input,
    // Its own process group, so a timeout can kill everything the hook started.
    detached: posix,
    cleanup: false,
    cancelSignal: signal,
    forceKillAfterDelay: false,
    maxBuffer: OUTPUT_LIMITS,
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
    encoding: 'utf8',
  });
  const pid = sub.pid;
  const timers: NodeJS.Timeout[] = [];
  const stopPipes = () => {
    sub.stdout?.destroy();
    sub.stderr?.destroy();
  };
  const onAbort = () => {
    if (pid === undefined) return;
    killTree(pid, 'SIGTERM');
    timers.push(
      setTimeout(() => {
        killTree(pid, 'SIGKILL');
        // A child that escaped the group (setsid) may still hold the pipes: stop waiting for them.
        stopPipes();
      }, KILL_GRACE_MS),
    );
  };
  signal.addEventListener('abort', onAbort, { once: true });
  // A hook that exits but leaves a background child writing to our pipes must not hold the runner.
  // (After an abort the kill path owns the timing: the group keeps its full grace before SIGKILL.)
  sub.once('exit', () => {
    if (signal.aborted) return;
    timers.push(
      setTimeout(() => {
        if (pid !== undefined) killTree(pid, 'SIGKILL');
        stopPipes();
      }, DRAIN_MS),
    );
  });

  const result = await sub;
  signal.removeEventListener('abort', onAbort);
  for (const t of timers) clearTimeout(t);

  if (result.isMaxBuffer) {
    if (pid !== undefined) killTree(pid, 'SIGKILL');
    const stream = result.stdout.length >= OUTPUT_LIMITS.stdout ? 'stdout' : 'stderr';
    return { kind: 'too-large', stream, limit: OUTPUT_LIMITS[stream] };
  }
  if (timeout.aborted) return { kind: 'timeout', timeoutMs: spec.timeoutMs };
  if (spec.signal?.aborted) return { kind: 'cancelled' };
  const code = (result as { code?: string }).code;
  if (code === 'ENOENT' || code === 'EACCES') {
    const what = code === 'ENOENT' ? 'not found' : 'not executable';
    return { kind: 'not-found', message: `${spec.command}: ${what}` };
  }
  if (result.exitCode === undefined) {
    if (result.signal !== undefined) return { kind: 'signal', signal: result.signal, stderr: result.stderr };
    return { kind: 'not-found', message: result.shortMessage ?? `${spec.command}: could not start` };
  }
  return { kind: 'exited', exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
}
