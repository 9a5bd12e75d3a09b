// A process started ahead for a command hook's next run, so that run does not wait for a spawn. Node spawns
// with fork (libuv 1.46 has no posix_spawn on Linux), and fork copies the spawning process's page tables: a
// spawn costs a millisecond or two before the hook runs a line, and the cheapest hooks take only four. A
// long-lived runner (`hooks serve`) runs the same hooks again and again, so once a hook's run is over it
// starts the next run's process: a launcher with the hook's argv, in `/` and a process group of its own,
// blocked on its stdin. The next run writes a header (the hook's folder and its whole environment, in order)
// and then the payload; the launcher sets that environment, changes to that folder and execs the hook, which
// reads the payload from the same stdin. From the exec on, it is the hook in every way a spawn gives it: the
// same pid and group, argv, environment, folder and pipes, and nothing else open. The run lists it with the
// watchdog as it lists a spawned hook. A spare that waits needs no watchdog: when its runner dies, its stdin
// closes and it exits without running anything.
//
// The launcher is perl, because a shell cannot be one: sh sets PWD, resets IFS, OPTIND and PPID, and drops
// names it cannot hold (`a-b`), so the hook's environment would not be what a spawn gives. perl sets the
// environment as told, in order, reads an exact number of bytes (so none of the payload), and says on fd 3
// (close-on-exec) that it execs, or that its chdir or exec failed. A launcher that never said the first
// (killed, or stopped until the run's timeout) or said the second ran nothing of the hook, and the run is done
// again by a spawn, which answers with its own exact error (a folder gone, a script missing or no longer
// executable). Anything else a spare cannot reproduce exactly (a NUL in the folder or environment, the
// launcher writing anything before its run, a spare that died) means no spare: the run spawns, as every run
// did before. No /usr/bin/perl, no spares.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { killTree } from './kill-tree.js';
import type { ProcessSpec } from './spec.js';

export const LAUNCHER = '/usr/bin/perl';
/** Nothing of the hook's (PERL5OPT there could load a module into the launcher), no locale, no locale warning. */
const LAUNCHER_ENV = { PERL_BADLANG: '0' };

// F_SETFD is 2 and FD_CLOEXEC 1 on Linux, macOS and the BSDs; the numbers spare the launcher loading Fcntl.
// Exit 125 without an exec: its stdin closed before the header was whole (let go, or its runner died).
const CODE = [
  "open(my $r, '>&=', 3) or exit 125; fcntl($r, 2, 1) or exit 125;",
  'sub rd { my ($n) = @_; my $b = ""; while (length($b) < $n) { my $k = sysread(STDIN, $b, $n - length($b), length($b)); exit 125 unless $k; } $b }',
  "my ($dir, @env) = split /\\0/, rd(unpack('N', rd(4)));",
  '%ENV = (); for my $e (@env) { my ($k, $v) = split /=/, $e, 2; $ENV{$k} = $v; }',
  "chdir($dir) or do { syswrite($r, 'x'); exit 127 };",
  "syswrite($r, 'e'); { exec { $ARGV[0] } @ARGV; }",
  "syswrite($r, 'x'); exit 127;",
].join('\n');

/** A spare given to a run: the hook's process once `header` has been written to its stdin. */
export interface Taken {
  sub: ChildProcess;
  header: Buffer;
  /**
   * True when nothing of the hook ran: the launcher's chdir or exec failed, or it ended (killed, or stopped
   * and then killed) before it got to it. Read once the process has closed.
   */
  ranNothing: () => boolean;
}

interface Spare {
  key: string;
  sub: ChildProcess;
  dirty: boolean;
  /** What the launcher said on fd 3: `e` as it execs, `x` when the exec failed. */
  said: string;
  idle: NodeJS.Timeout;
  onOutput: () => void;
  onExit: () => void;
}

export class Spares {
  readonly #byKey = new Map<string, Spare>();
  readonly #launcher: string | undefined;
  readonly #max: number;
  readonly #idleMs: number;
  #closed = false;

  constructor(options: { launcher?: string; max?: number; idleMs?: number } = {}) {
    const launcher = options.launcher ?? LAUNCHER;
    this.#launcher = process.platform !== 'win32' && existsSync(launcher) ? launcher : undefined;
    this.#max = options.max ?? 8;
    this.#idleMs = options.idleMs ?? 5 * 60_000;
  }

  /** False where there is no launcher: every run spawns. */
  get available(): boolean {
    return this.#launcher !== undefined;
  }

  /** The spare for this run, taken out; undefined when there is none it can be run with exactly. */
  take(spec: ProcessSpec): Taken | undefined {
    const key = keyOf(spec);
    const spare = key === undefined ? undefined : this.#byKey.get(key);
    if (spare === undefined) return undefined;
    this.#forget(spare);
    const header = spare.dirty || spare.sub.exitCode !== null || spare.sub.signalCode !== null ? undefined : headerFor(spec);
    if (header === undefined) {
      this.#discard(spare);
      return undefined;
    }
    const { sub } = spare;
    sub.stdout?.off('data', spare.onOutput);
    sub.stderr?.off('data', spare.onOutput);
    sub.off('exit', spare.onExit);
    held(sub, true);
    // One that was stopped while it waited would hold the run until its timeout (and then be run again).
    try {
      process.kill(-sub.pid!, 'SIGCONT');
    } catch {
      // Gone: the run finds out, and spawns.
    }
    return { sub, header, ranNothing: () => !spare.said.startsWith('e') || spare.said.includes('x') };
  }

  /** Starts the spare for this hook's next run, unless one is there (called once a run of it is over). */
  prepare(spec: ProcessSpec): void {
    const key = this.#launcher === undefined || this.#closed ? undefined : keyOf(spec);
    if (key === undefined || this.#byKey.has(key)) return;
    let sub: ChildProcess;
    try {
      // In `/`: the launcher starts nowhere near the repository; the hook's folder comes with its run.
      sub = spawn(this.#launcher!, ['-e', CODE, '--', ...argvOf(spec)], { cwd: '/', env: LAUNCHER_ENV, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
    } catch {
      return;
    }
    sub.on('error', () => {});
    sub.stdin?.on('error', () => {});
    if (sub.pid === undefined) return;
    const oldest = this.#byKey.values().next().value;
    if (this.#byKey.size >= this.#max && oldest !== undefined) this.#discard(oldest);
    const spare: Spare = {
      key,
      sub,
      dirty: false,
      said: '',
      idle: setTimeout(() => this.#discard(spare), this.#idleMs).unref(),
      // The launcher writes nothing before its exec; whatever came would be read as the hook's.
      onOutput: () => {
        spare.dirty = true;
      },
      onExit: () => this.#forget(spare),
    };
    sub.stdout?.on('data', spare.onOutput);
    sub.stderr?.on('data', spare.onOutput);
    sub.stdio[3]?.on('data', (chunk: Buffer) => {
      spare.said += chunk.toString('latin1');
    });
    sub.once('exit', spare.onExit);
    // A spare waiting keeps nothing alive: a runner that is done exits, and its spares see their stdin close.
    held(sub, false);
    this.#byKey.set(key, spare);
  }

  /** The pids of the spares waiting (for tests and status). */
  pids(): number[] {
    return [...this.#byKey.values()].map((spare) => spare.sub.pid!);
  }

  /** Ends every spare, and starts none after (a run still finishing would). */
  close(): void {
    this.#closed = true;
    for (const spare of [...this.#byKey.values()]) this.#discard(spare);
  }

  /** Off the list, its idle timer stopped: taken, ended, or gone by itself. */
  #forget(spare: Spare): void {
    if (this.#byKey.get(spare.key) === spare) this.#byKey.delete(spare.key);
    clearTimeout(spare.idle);
  }

  #discard(spare: Spare): void {
    this.#forget(spare);
    killTree(spare.sub.pid!, 'SIGKILL');
  }
}

/** What a spare must match: the same argv (the folder and the environment go in the header). */
function keyOf(spec: ProcessSpec): string | undefined {
  if (spec.shell !== undefined) return undefined;
  return JSON.stringify(argvOf(spec));
}

/** Whether the spare's process and pipes keep the runner's event loop alive: only once a run has it. */
function held(sub: ChildProcess, on: boolean): void {
  for (const handle of [sub, ...sub.stdio]) {
    const h = handle as { ref?: () => void; unref?: () => void } | null;
    if (on) h?.ref?.();
    else h?.unref?.();
  }
}

/** The argv a spawn gives the hook: the shell form is Node's `shell: true` on POSIX. */
function argvOf(spec: ProcessSpec): string[] {
  return spec.args === undefined ? ['/bin/sh', '-c', spec.command] : [spec.command, ...spec.args];
}

/** The hook's folder, then its whole environment in order (`NAME=value`), NUL-separated, after their length; undefined when one cannot be sent. */
function headerFor(spec: ProcessSpec): Buffer | undefined {
  if (spec.cwd.includes('\0')) return undefined;
  // Against this process's folder, as a spawn's chdir would take it (the launcher is in `/`).
  const fields = [path.resolve(spec.cwd)];
  for (const [name, value] of Object.entries(spec.env)) {
    if (value === undefined) continue;
    if (!sendable(name, value)) return undefined;
    fields.push(`${name}=${value}`);
  }
  const body = Buffer.from(fields.join('\0'));
  const header = Buffer.allocUnsafe(4 + body.length);
  header.writeUInt32BE(body.length, 0);
  body.copy(header, 4);
  return header;
}

/** A variable the header carries exactly: a name perl reads back as the same name, nothing cut at a NUL. */
function sendable(name: string, value: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0') && !value.includes('\0');
}
