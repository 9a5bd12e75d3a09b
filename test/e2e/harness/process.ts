// Child processes of the e2e tests (agents, fake servers): spawned in their own process group,
// tracked by PID, killed by PID (the whole group) on timeout and in afterAll. Plus bounded waits.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

const live = new Set<number>();

export function track(pid: number): void {
  live.add(pid);
}

export function untrack(pid: number): void {
  live.delete(pid);
}

/** Kills the process group of every tracked PID (for afterAll). */
export function killTracked(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  live.clear();
}

/** Polls `probe` until it returns something other than undefined/false; throws after timeoutMs. */
export async function waitFor<T>(probe: () => T | undefined | false, options: { timeoutMs: number; what: string; everyMs?: number }): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/**
 * Runs a command to its end (or until timeoutMs, when its whole group is killed), with stdin
 * closed at once. Never rejects on a non-zero exit: the test looks at the result.
 */
export function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    if (child.pid === undefined) {
      child.on('error', reject);
      return;
    }
    const pid = child.pid;
    track(pid);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      untrack(pid);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Leftover grandchildren (a shell the agent started, an MCP helper) go with the group.
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // nothing left
      }
      untrack(pid);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** A loopback port free at the time of asking (for a server the test starts on it next). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
