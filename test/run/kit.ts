// Asking after real processes, for the tests that kill them.
import { readFileSync } from 'node:fs';

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

/** Polls until the pid is gone (the kernel reaps asynchronously), up to `ms`. */
export async function gone(pid: number, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !alive(pid);
}
