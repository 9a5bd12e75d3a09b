// Asking after real processes, for the tests that kill them.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach } from 'vitest';

/** True while the pid runs. A zombie waiting for a slow init to reap it is dead for our purpose. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '');
  } catch {
    return true;
  }
}

/** Polls until the pid is gone (the kernel reaps asynchronously, and slowly on a loaded machine), up to `ms`. */
export async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !alive(pid);
}

/** Polls until `check` holds, up to `ms`; throws when it never does. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** True once a hook has written something to `file` (its pid, say). */
export const written = (file: string): boolean => existsSync(file) && readFileSync(file, 'utf8').trim() !== '';

/**
 * Reads the pid a hook wrote to `file` and kills that process after the test if it is still alive,
 * so a failing test leaves nothing behind. Call once per test file, at the top level.
 */
export function pidReader(): (file: string) => number {
  const leftovers: number[] = [];
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });
  return (file) => {
    const pid = Number(readFileSync(file, 'utf8').trim());
    leftovers.push(pid);
    return pid;
  };
}

/** The options every runProcess call in these tests shares: a folder, the env plus extras, `{}` on stdin. */
export function base(dir: string, extra: Record<string, string> = {}) {
  return { cwd: dir, env: { ...process.env, ...extra }, input: '{}' };
}
