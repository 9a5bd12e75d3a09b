// Kills a hook's whole process tree. Hooks run in their own process group (POSIX), so one signal reaches
// the shell, the script and every child it left behind (Node's own kill reaches only the direct child).
import { execFile } from 'node:child_process';
import path from 'node:path';

/** Signals the process group led by `pid`; on Windows, `taskkill /T /F` the tree. Never throws. */
export function killTree(pid: number, signal: 'SIGTERM' | 'SIGKILL'): void {
  if (process.platform === 'win32') {
    const taskkill = path.join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'taskkill.exe');
    execFile(taskkill, ['/pid', String(pid), '/T', '/F'], () => {});
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone. EPERM: a member changed user; nothing more we can do.
  }
}

/** True while any process of the group led by `pid` exists (POSIX; on Windows, assume it does). */
export function groupExists(pid: number): boolean {
  if (process.platform === 'win32') return true;
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
