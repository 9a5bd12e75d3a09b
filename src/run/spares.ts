// A process started ahead for a command hook's next run, so that run does not wait for a spawn. Node spawns
// with fork (libuv 1.46 has no posix_spawn on Linux), and fork copies the spawning process's page tables: a
// spawn costs a millisecond or two before the hook runs a line, and the cheapest hooks take only four. A
// long-lived runner (`hooks serve`) runs the same hooks again and again, so once a hook's run is over it
// starts the next run's process: a launcher, with the hook's argv, in its folder and a process group of its
// own, listed with the watchdog, blocked on its stdin. The next run writes a header (the hook's
// whole environment, in order) and then the payload; the launcher sets that environment and execs the hook,
// which reads the payload from the same stdin. From the exec on, it is the hook in every way a spawn gives it:
// the same pid and group, argv, environment, folder and pipes, and nothing else open.
//
// The launcher is perl, because a shell cannot be one: sh sets PWD, resets IFS, OPTIND and PPID, and drops
// names it cannot hold (`a-b`), so the hook's environment would not be what a spawn gives. perl sets the
// environment as told, in order, reads an exact number of bytes (so none of the payload), and says on fd 3
// (close-on-exec) that it execs, and that the exec failed: a launcher that never said the first (killed as
// the run began) or said the second ran nothing of the hook, and the run is done again by a spawn, which
// answers with its own exact error. Anything a spare cannot reproduce exactly (a
// changed or recreated folder, a NUL in the environment, the launcher writing anything before its run, a
// spare that died) means no spare: the run spawns, as every run did before. No /usr/bin/perl, no spares.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { killTree } from './kill-tree.js';
import type { ProcessSpec } from './process.js';
import { watchGroup } from './watchdog.js';

export const LAUNCHER = '/usr/bin/perl';
/** Nothing of the hook's: PERL5OPT there could load a module into the launcher. No locale, no locale warning. */
const LAUNCHER_ENV = { PERL_BADLANG: '0' };

// F_SETFD is 2 and FD_CLOEXEC 1 on Linux, macOS and the BSDs; the numbers spare the launcher loading Fcntl.
// Exit 125 without an exec: its stdin closed before the header was whole (the spare was let go).
const CODE = [
  "open(my $r, '>&=', 3) or exit 125; fcntl($r, 2, 1) or exit 125;",
  'sub rd { my ($n) = @_; my $b = ""; while (length($b) < $n) { my $k = sysread(STDIN, $b, $n - length($b), length($b)); exit 125 unless $k; } $b }',
  "my $n = unpack('N', rd(4));",
  '%ENV = (); for my $e (split /\\0/, $n ? rd($n) : "") { my ($k, $v) = split /=/, $e, 2; $ENV{$k} = $v; }',
  "syswrite($r, 'e'); { exec { $ARGV[0] } @ARGV; }",
  "syswrite($r, 'x'); exit 127;",
].join('\n');

/** A spare given to a run: the hook's process once `header` has been written to its stdin. */
export interface Taken {
  sub: ChildProcess;
  header: Buffer;
  /** Takes its group off the watchdog's list (the run's to call, once it is done with it). */
  release: () => void;
  /**
   * True when nothing of the hook ran: the launcher's exec failed, or it ended (killed) before it got to it.
   * Read once the process has closed.
   */
  ranNothing: () => boolean;
}

interface Spare {
  key: string;
  sub: ChildProcess;
  folder: string;
  release: () => void;
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
    this.#byKey.delete(spare.key);
    clearTimeout(spare.idle);
    const header = spare.dirty || spare.sub.exitCode !== null || spare.sub.signalCode !== null ? undefined : headerFor(spec.env);
    if (header === undefined || folderOf(spec.cwd) !== spare.folder) {
      this.#discard(spare);
      return undefined;
    }
    spare.sub.stdout?.off('data', spare.onOutput);
    spare.sub.stderr?.off('data', spare.onOutput);
    spare.sub.off('exit', spare.onExit);
    return { sub: spare.sub, header, release: spare.release, ranNothing: () => !spare.said.startsWith('e') || spare.said.includes('x') };
  }

  /** Starts the spare for this hook's next run, unless one is there (call it once the hook has started). */
  prepare(spec: ProcessSpec): void {
    const key = this.#launcher === undefined || this.#closed ? undefined : keyOf(spec);
    if (key === undefined || this.#byKey.has(key)) return;
    const folder = folderOf(spec.cwd);
    if (folder === undefined) return;
    let sub: ChildProcess;
    try {
      sub = spawn(this.#launcher!, ['-e', CODE, '--', ...argvOf(spec)], { cwd: spec.cwd, env: LAUNCHER_ENV, stdio: ['pipe', 'pipe', 'pipe', 'pipe'], detached: true });
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
      folder,
      release: watchGroup(sub.pid),
      dirty: false,
      said: '',
      idle: setTimeout(() => this.#discard(spare), this.#idleMs).unref(),
      // The launcher writes nothing before its exec; whatever came would be read as the hook's.
      onOutput: () => {
        spare.dirty = true;
      },
      onExit: () => {
        if (this.#byKey.get(key) === spare) this.#byKey.delete(key);
        clearTimeout(spare.idle);
        spare.release();
      },
    };
    sub.stdout?.on('data', spare.onOutput);
    sub.stderr?.on('data', spare.onOutput);
    sub.stdio[3]?.on('data', (chunk: Buffer) => {
      spare.said += chunk.toString('latin1');
    });
    sub.once('exit', spare.onExit);
    this.#byKey.set(key, spare);
  }

  /** The pids of the spares waiting (for tests and status). */
  pids(): number[] {
    return [...this.#byKey.values()].map((spare) => spare.sub.pid!);
  }

  /** Ends every spare, and starts none after (a run still finishing would); their groups leave the watchdog's list as they exit. */
  close(): void {
    this.#closed = true;
    for (const spare of [...this.#byKey.values()]) this.#discard(spare);
  }

  #discard(spare: Spare): void {
    if (this.#byKey.get(spare.key) === spare) this.#byKey.delete(spare.key);
    clearTimeout(spare.idle);
    killTree(spare.sub.pid!, 'SIGKILL');
  }
}

/** What a spare must match: the same program, arguments and folder (the environment goes in the header). */
function keyOf(spec: ProcessSpec): string | undefined {
  if (spec.shell !== undefined) return undefined;
  return JSON.stringify([spec.cwd, ...argvOf(spec)]);
}

/** The argv a spawn gives the hook: the shell form is Node's `shell: true` on POSIX. */
function argvOf(spec: ProcessSpec): string[] {
  return spec.args === undefined ? ['/bin/sh', '-c', spec.command] : [spec.command, ...spec.args];
}

/** The folder by device and inode: a folder deleted and made again under the same name is not the spare's. */
function folderOf(cwd: string): string | undefined {
  try {
    const stat = statSync(cwd);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/** The hook's whole environment, in order (`NAME=value`, NUL-separated), after its length; undefined when it cannot be sent. */
function headerFor(env: ProcessSpec['env']): Buffer | undefined {
  const entries: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (!sendable(name, value)) return undefined;
    entries.push(`${name}=${value}`);
  }
  const body = Buffer.from(entries.join('\0'));
  const header = Buffer.allocUnsafe(4 + body.length);
  header.writeUInt32BE(body.length, 0);
  body.copy(header, 4);
  return header;
}

/** A variable the header carries exactly: a name perl reads back as the same name, nothing cut at a NUL. */
function sendable(name: string, value: string): boolean {
  return name !== '' && !name.includes('=') && !name.includes('\0') && !value.includes('\0');
}
