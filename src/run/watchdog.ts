// What a SIGKILL of the runner leaves behind. Hooks run in process groups of their own (so a timeout can kill
// a whole tree), which also means nothing kills them when the runner dies without running its own code: Node
// cannot set PR_SET_PDEATHSIG, and a SIGKILL runs no handler. So the first command hook of a run starts one tiny
// `sh` watchdog in its own group, holding two pipes from the runner: on its stdin the runner writes `+<group>`
// as a hook starts and `-<group>` once it is done with it; the other is never written to, only closed. The
// watchdog waits for that close (the runner ended, or died) and only then reads its stdin: when groups are still
// listed (the runner died), it sends them TERM, then KILL after the grace period. A runner that ends normally
// has released every group, so the watchdog just exits. POSIX only; on Windows a killed runner leaves its hooks.
//
// Why it reads nothing until the end: a line read as it comes wakes the watchdog up, twice per hook, and on two
// cores that was measured to delay the runner's answer by up to a millisecond (the runner and the hook wait
// for a core while the watchdog takes one).
import { spawn, type ChildProcess } from 'node:child_process';

// Plain sh string handling, no subprocess per line; its stdout and stderr go nowhere.
const SCRIPT = `
trap '' INT TERM HUP
read -r ignored <&3
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

interface Watchdog {
  process: ChildProcess;
  /** Groups listed and not yet released, and how many it has been told about in all. */
  live: number;
  listed: number;
}

/** The watchdog new hooks are listed with. */
let current: Watchdog | undefined;
let broken = false;
/**
 * Its list is only read at the end, so it waits in the pipe: past this many hooks, new ones go to a fresh
 * watchdog (in a long-lived process: the server's hook host, the library API). The old one ends with the
 * last of its own hooks.
 */
const RETIRE_AFTER = 1000;

/**
 * Starts the watchdog if it is not running yet. Called before a hook is spawned, so that no moment exists in
 * which a hook runs and the watchdog does not. Never throws: when it cannot start, hooks run as before.
 */
export function startWatchdog(graceMs: number): void {
  if (process.platform === 'win32' || broken) return;
  if (current !== undefined && current.listed < RETIRE_AFTER) return;
  // Full: it keeps the hooks it has (and ends with the last of them); new ones go to a fresh one.
  current = undefined;
  try {
    const started = spawn('/bin/sh', ['-c', SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GRACE: (Math.max(graceMs, 100) / 1000).toFixed(1) },
    });
    const fail = () => {
      broken = true;
    };
    started.on('error', fail);
    // Neither the process nor its pipes may keep the runner alive.
    started.unref();
    for (const pipe of [started.stdin, started.stdio[3]]) {
      pipe?.on('error', fail);
      (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    }
    current = { process: started, live: 0, listed: 0 };
  } catch {
    broken = true;
  }
}

/** Lists the process group led by `pid` with the watchdog; returns the call that takes it off again. */
export function watchGroup(pid: number): () => void {
  const mine = current;
  if (mine === undefined || broken) return () => {};
  try {
    mine.process.stdin?.write(`+${pid}\n`);
  } catch {
    return () => {};
  }
  mine.live++;
  mine.listed++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mine.live--;
    try {
      if (!broken) mine.process.stdin?.write(`-${pid}\n`);
      if (mine.live > 0 || (mine === current && mine.listed < RETIRE_AFTER)) return;
      // Nothing of its own live, and full or already replaced: ending its pipes ends it quietly (all was released).
      if (mine === current) current = undefined;
      mine.process.stdin?.end();
      (mine.process.stdio[3] as NodeJS.WritableStream | null)?.end();
    } catch {
      // The watchdog is gone; nothing to release.
    }
  };
}

/** The watchdog's pid, if one runs (for tests). */
export function watchdogPid(): number | undefined {
  return current?.process.pid;
}
