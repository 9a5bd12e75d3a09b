// What a SIGKILL of the runner leaves behind. Hooks run in process groups of their own (so a timeout can kill
// a whole tree), which also means nothing kills them when the runner dies without running its own code: Node
// cannot set PR_SET_PDEATHSIG, and a SIGKILL runs no handler. So the first command hook of a run starts one tiny
// `sh` watchdog in its own group, holding a pipe from the runner: the runner writes `+<group>` as a hook starts
// and `-<group>` once it is done with it. When the pipe closes without a goodbye (the runner died), the watchdog
// sends TERM, then KILL after the grace period, to every group still listed. A runner that ends normally has
// released every group, so the watchdog just exits. POSIX only; on Windows a killed runner leaves its hooks.
import { spawn, type ChildProcess } from 'node:child_process';

// No subprocess per line: plain sh string handling. `exec >/dev/null` keeps a kill error from going anywhere.
const SCRIPT = `
trap '' INT TERM HUP
live=" "; done=" "
while IFS= read -r line; do
  case $line in
    +*) live="$live\${line#+} " ;;
    -*) done="$done\${line#-} " ;;
  esac
done
left=""
for g in $live; do case "$done" in *" $g "*) ;; *) left="$left $g" ;; esac; done
[ -z "$left" ] && exit 0
for g in $left; do kill -TERM -"$g" 2>/dev/null; done
sleep ${'$'}{GRACE}
for g in $left; do kill -KILL -"$g" 2>/dev/null; done
`;

let watchdog: ChildProcess | undefined;
let broken = false;
/** Groups listed and not yet released, and how many this watchdog has been told about in all. */
let live = 0;
let listed = 0;
/** The watchdog's lists only grow; in a long-lived process (the library API) a fresh one takes over now and then. */
const RETIRE_AFTER = 1000;

/**
 * Starts the watchdog if it is not running yet. Called before a hook is spawned, so that no moment exists in
 * which a hook runs and the watchdog does not. Never throws: when it cannot start, hooks run as before.
 */
export function startWatchdog(graceMs: number): void {
  if (process.platform === 'win32' || broken) return;
  try {
    if (watchdog === undefined) {
      watchdog = spawn('/bin/sh', ['-c', SCRIPT], {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GRACE: (Math.max(graceMs, 100) / 1000).toFixed(1) },
      });
      watchdog.on('error', () => {
        broken = true;
      });
      watchdog.stdin?.on('error', () => {
        broken = true;
      });
      // Neither the process nor its pipe may keep the runner alive.
      watchdog.unref();
      (watchdog.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    }
  } catch {
    broken = true;
  }
}

/** Lists the process group led by `pid` with the watchdog; returns the call that takes it off again. */
export function watchGroup(pid: number): () => void {
  if (watchdog === undefined || broken) return () => {};
  const mine = watchdog;
  try {
    mine.stdin?.write(`+${pid}\n`);
  } catch {
    return () => {};
  }
  live++;
  listed++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    live--;
    try {
      if (!broken) mine.stdin?.write(`-${pid}\n`);
      // Nothing live: closing its pipe ends it quietly (everything it knows of was released).
      if (mine === watchdog && live === 0 && listed >= RETIRE_AFTER) {
        mine.stdin?.end();
        watchdog = undefined;
        listed = 0;
      }
    } catch {
      // The watchdog is gone; nothing to release.
    }
  };
}

/** The watchdog's pid, if one runs (for tests). */
export function watchdogPid(): number | undefined {
  return watchdog?.pid;
}
