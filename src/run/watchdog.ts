// What a SIGKILL of the runner leaves behind. Hooks run in process groups of their own (so a timeout can kill
// a whole tree), which also means nothing kills them when the runner dies without running its own code: Node
// cannot set PR_SET_PDEATHSIG, and a SIGKILL runs no handler. So the first command hook of a run starts one tiny
// `sh` watchdog in its own group, holding a pipe from the runner. The runner lists `+<group>` as a hook starts
// and `-<group>` once it is done with it. When the pipe closes (the runner ended, or died) and groups are still
// listed, the watchdog sends them TERM, then KILL after the grace period. A runner that ends normally has
// released every group, so the watchdog just exits. POSIX only; on Windows a killed runner leaves its hooks.
//
// Where the list goes: a file, which the watchdog reads only once the pipe closes. A line down the pipe woke
// the watchdog up, twice per hook, and on two cores that was measured to delay the runner's answer by up to a
// millisecond. (Lines left unread in the pipe instead fill it: a socket pair, which Node's pipes are, takes
// only about 280 small writes.) The file is created O_EXCL and 0600 in the temp folder and unlinked as soon as
// the watchdog holds it open. Where no file can be created, the lines go down the pipe and are read as they come.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Plain sh string handling, no subprocess per line; its stdout and stderr go nowhere. With LIST_ON_3 it sleeps
// until the pipe closes (nothing is written to it), then reads the list from the file on fd 3.
const SCRIPT = `
trap '' INT TERM HUP
if [ -n "$LIST_ON_3" ]; then
  while IFS= read -r ignored; do :; done
  exec <&3
fi
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
  /** The list file (append only), or undefined: the lines go down the pipe. */
  list: number | undefined;
  /** Groups listed and not yet released, and how many it has been told about in all. */
  groups: Set<number>;
  listed: number;
  /** It died, or its list could not be written: nothing more is sent to it. */
  failed: boolean;
}

/** The watchdog new hooks are listed with. */
let current: Watchdog | undefined;
/** Which watchdog each live group is listed with (a group moves when its watchdog dies). */
const owners = new Map<number, Watchdog>();
/** When live groups were last handed from a dead watchdog to a fresh one. */
let rehomedAt = 0;
/** /bin/sh cannot be started here: hooks run without a watchdog. */
let unavailable = false;
/** Past this many hooks, new ones go to a fresh watchdog (long-lived runners: the server's hook host, the library API); the old one ends with the last of its own. */
const RETIRE_AFTER = 1000;

/**
 * Starts the watchdog if none is ready for the next hook. Called before a hook is spawned, so that no moment
 * exists in which a hook runs and the watchdog does not. Never throws: when it cannot start, hooks run as before.
 */
export function startWatchdog(graceMs: number): void {
  if (process.platform === 'win32' || unavailable) return;
  if (current !== undefined && !current.failed && current.listed < RETIRE_AFTER) return;
  // Full or failed: it keeps the hooks it has (and ends with the last of them); new ones go to a fresh one.
  const old = current;
  current = undefined;
  if (old !== undefined && old.groups.size === 0) end(old);
  const file = listFile();
  let reader: number | undefined;
  try {
    if (file !== undefined) reader = openSync(file.path, 'r');
    const started = spawn('/bin/sh', ['-c', SCRIPT], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore', reader ?? 'ignore'],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GRACE: (Math.max(graceMs, 100) / 1000).toFixed(1), ...(reader === undefined ? {} : { LIST_ON_3: '1' }) },
    });
    const watchdog: Watchdog = { process: started, list: reader === undefined ? undefined : file?.fd, groups: new Set(), listed: 0, failed: false };
    const fail = () => {
      watchdog.failed = true;
      if (current === watchdog) current = undefined;
    };
    // No /bin/sh: there will never be one in this process.
    started.on('error', () => {
      unavailable = true;
      fail();
    });
    // Gone before its time (killed, OOM): its live groups are listed with a fresh one at once. Once a second
    // at most: watchdogs that die as they start must not become a loop of spawns.
    started.on('exit', () => {
      fail();
      if (watchdog.groups.size === 0 || Date.now() - rehomedAt < 1_000) return;
      rehomedAt = Date.now();
      rehome(watchdog, graceMs);
    });
    started.stdin?.on('error', fail);
    // Neither the process nor its pipe may keep the runner alive.
    started.unref();
    (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    current = watchdog;
  } catch {
    unavailable = true;
    if (file !== undefined) quietly(() => closeSync(file.fd));
  } finally {
    // The watchdog holds its own descriptor now; the name is needed by no one.
    if (reader !== undefined) quietly(() => closeSync(reader!));
    if (file !== undefined) quietly(() => unlinkSync(file.path));
  }
}

/** A new, empty file only this process can have opened (O_EXCL: never a file or link someone put there), or undefined. */
function listFile(): { path: string; fd: number } | undefined {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_APPEND;
  for (let attempt = 0; attempt < 5; attempt++) {
    const file = path.join(os.tmpdir(), `agent-hooks-watchdog-${process.pid}-${Math.random().toString(36).slice(2)}`);
    try {
      return { path: file, fd: openSync(file, flags, 0o600) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
  }
  return undefined;
}

/** Lists the process group led by `pid` with the watchdog; returns the call that takes it off again. */
export function watchGroup(pid: number): () => void {
  const mine = current;
  if (mine === undefined || !tell(mine, `+${pid}\n`)) return () => {};
  mine.groups.add(pid);
  mine.listed++;
  owners.set(pid, mine);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const owner = owners.get(pid) ?? mine;
    owners.delete(pid);
    owner.groups.delete(pid);
    tell(owner, `-${pid}\n`);
    // Nothing of its own live, and full or replaced: ending it now is quiet (all it knows of was released).
    if (owner.groups.size === 0 && (owner !== current || owner.listed >= RETIRE_AFTER)) {
      if (owner === current) current = undefined;
      end(owner);
    }
  };
}

/** Lists the live groups of a watchdog that died with a fresh one, which now answers for them. */
function rehome(dead: Watchdog, graceMs: number): void {
  startWatchdog(graceMs);
  const heir = current;
  for (const group of dead.groups) {
    if (heir === undefined || !tell(heir, `+${group}\n`)) break;
    heir.groups.add(group);
    heir.listed++;
    owners.set(group, heir);
  }
  dead.groups.clear();
  end(dead);
}

/** Writes a line of the list; false (and the watchdog failed) when it cannot. */
function tell(watchdog: Watchdog, line: string): boolean {
  if (watchdog.failed) return false;
  try {
    if (watchdog.list !== undefined) writeSync(watchdog.list, line);
    else watchdog.process.stdin?.write(line);
    return true;
  } catch {
    watchdog.failed = true;
    if (current === watchdog) current = undefined;
    return false;
  }
}

/** Closes its pipe (it reads the list and exits) and the list. */
function end(watchdog: Watchdog): void {
  quietly(() => watchdog.process.stdin?.end());
  if (watchdog.list !== undefined) quietly(() => closeSync(watchdog.list!));
  watchdog.list = undefined;
  watchdog.failed = true;
}

function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // Closing what is already gone.
  }
}

/** The watchdog's pid, if one runs (for tests). */
export function watchdogPid(): number | undefined {
  return current?.process.pid;
}
