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
import { now } from '../clock.js';

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
  groups: Set<Listing>;
  listed: number;
  /** It died, or its list could not be written: nothing more is sent to it. */
  failed: boolean;
}

/** One hook's group, and the watchdog answering for it now (it moves when that one dies). Per hook, not per pid: a pid is reused. */
interface Listing {
  pid: number;
  owner: Watchdog;
}

/** The watchdog new hooks are listed with. */
let current: Watchdog | undefined;
/** Watchdogs that died with groups still live, waiting for a fresh one to take those groups. */
const orphaned: Watchdog[] = [];
let adoption: NodeJS.Timeout | undefined;
let adoptedAt = -Infinity;
/** /bin/sh is not there to start: hooks run without a watchdog. Any other failure is tried again at the next hook. */
let unavailable = false;
/** Past this many hooks, new ones go to a fresh watchdog (long-lived runners: `hooks serve`, the library API); the old one ends with the last of its own. */
const RETIRE_AFTER = 1000;

/**
 * Starts the watchdog if none is ready for the next hook, and hands it the groups of any that died. Called
 * before a hook is spawned, so that no moment exists in which a hook runs and the watchdog does not. Never
 * throws: when it cannot start, hooks run as before.
 */
export function startWatchdog(graceMs: number): void {
  if (process.platform === 'win32' || unavailable) return;
  if (current === undefined || current.failed || current.listed >= RETIRE_AFTER) {
    // Full or failed: it keeps the hooks it has (and ends with the last of them); new ones go to a fresh one.
    if (current !== undefined && current.groups.size === 0) end(current);
    current = spawnWatchdog(graceMs);
  }
  if (current !== undefined && orphaned.length > 0) adopt(current);
}

function spawnWatchdog(graceMs: number): Watchdog | undefined {
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
    const fail = () => failed(watchdog);
    started.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'EACCES') unavailable = true;
      fail();
    });
    // Gone before its time (killed, out of memory): its live groups go to a fresh one.
    started.on('exit', () => {
      fail();
      if (watchdog.groups.size === 0) return;
      orphaned.push(watchdog);
      scheduleAdoption(graceMs);
    });
    started.stdin?.on('error', fail);
    // Neither the process nor its pipe may keep the runner alive.
    started.unref();
    (started.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    return watchdog;
  } catch {
    // EMFILE, EAGAIN: tried again at the next hook.
    if (file !== undefined) quietly(() => closeSync(file.fd));
    return undefined;
  } finally {
    // The watchdog holds its own descriptor now; the name is needed by no one.
    if (reader !== undefined) quietly(() => closeSync(reader!));
    if (file !== undefined) quietly(() => unlinkSync(file.path));
  }
}

/**
 * Orphaned groups are handed on at once, but at most once a second by the timer (watchdogs that die as they
 * start must not become a loop of spawns); a hook starting meanwhile hands them on too.
 */
function scheduleAdoption(graceMs: number): void {
  if (adoption !== undefined) return;
  adoption = setTimeout(() => {
    adoption = undefined;
    adoptedAt = now();
    startWatchdog(graceMs);
    if (orphaned.length > 0 && !unavailable) scheduleAdoption(graceMs);
  }, Math.max(0, adoptedAt + 1_000 - now()));
  adoption.unref();
}

/** Lists the live groups of the watchdogs that died with `heir`, which answers for them from now on. */
function adopt(heir: Watchdog): void {
  while (orphaned.length > 0) {
    const dead = orphaned[0]!;
    for (const listing of dead.groups) {
      if (!tell(heir, `+${listing.pid}\n`)) return;
      dead.groups.delete(listing);
      listing.owner = heir;
      heir.groups.add(listing);
      heir.listed++;
    }
    orphaned.shift();
    end(dead);
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
  const listing: Listing = { pid, owner: mine };
  mine.groups.add(listing);
  mine.listed++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const owner = listing.owner;
    owner.groups.delete(listing);
    tell(owner, `-${pid}\n`);
    // Nothing of its own live, and full, replaced or dead: ending it now is quiet (all it knows of was released).
    if (owner.groups.size === 0 && (owner !== current || owner.listed >= RETIRE_AFTER)) {
      if (owner === current) current = undefined;
      const waiting = orphaned.indexOf(owner);
      if (waiting >= 0) orphaned.splice(waiting, 1);
      end(owner);
    }
  };
}

/** Writes a line of the list; false (and the watchdog failed) when it cannot. */
function tell(watchdog: Watchdog, line: string): boolean {
  if (watchdog.failed) return false;
  try {
    if (watchdog.list !== undefined) writeSync(watchdog.list, line);
    else watchdog.process.stdin?.write(line);
    return true;
  } catch {
    failed(watchdog);
    return false;
  }
}

/** Nothing more is sent to it, and new hooks go to a fresh one. */
function failed(watchdog: Watchdog): void {
  watchdog.failed = true;
  if (current === watchdog) current = undefined;
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
