// Whether this runner is locked: whether anything the invoking user can write decides if a managed
// guard runs. The agent runs as the user, with a shell; it can rewrite any file the user can write and
// start the agent again with any environment. So the runner's own code, the node it runs under and the
// managed layer must all be files the user cannot change, nor replace through a folder above them.
// Nothing here reads the environment: a variable the user sets cannot make a runner locked or not.
import { lstatSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../install/bin.js';
import { DEFAULT_MANAGED_CONFIG } from '../paths.js';
import { VENDORED } from '../vendor/names.js';

export interface LockState {
  locked: boolean;
  /** Why the runner is not locked, one line each (empty when it is). */
  reasons: string[];
}

/** Who asks, and what must be out of their reach. Every field has the running process's answer as default. */
export interface LockInputs {
  uid: number;
  /** The user's groups (effective and supplementary): a file writable by one of them is writable by the user. */
  groups: readonly number[];
  /** The runner's own code: its package root first, then files in it that run. */
  runner: readonly string[];
  /** The interpreter this process runs under. */
  node: string;
  /** The managed layer's file. */
  managed: string;
}

/**
 * The runner's lock state. Without `inputs`, the running process's own (computed once per process: a
 * few stats, on the cold path of every `hooks run`).
 */
export function lockState(inputs?: Partial<LockInputs>): LockState {
  if (inputs === undefined) return (shared[KEY] ??= compute(defaults()));
  return compute({ ...defaults(), ...inputs });
}

// The launcher (dist/bundle/main.js) and the CLI bundle each carry a copy of this module, in one
// process: the answer is kept on the global object so that a run computes it once.
const KEY = Symbol.for('agent-hooks.lock-state');
const shared = globalThis as { [KEY]?: LockState };

function defaults(): LockInputs {
  return { ...runningUser(), runner: runnerFiles(), node: process.execPath, managed: DEFAULT_MANAGED_CONFIG };
}

function runningUser(): { uid: number; groups: number[] } {
  const uid = typeof process.geteuid === 'function' ? process.geteuid() : ANYONE;
  const groups = typeof process.getgroups === 'function' ? [process.getegid!(), ...process.getgroups()] : [];
  return { uid, groups };
}

/**
 * Why the running user could change `file` (write it, or replace it or a folder above it), or
 * undefined; 'absent' when it is not there. What a locked runner asks of a file it trusts besides its
 * own code (its root-made code cache: src/lock/code-cache.ts).
 */
export function changeableByYou(file: string): string | undefined {
  const { uid, groups } = runningUser();
  if (uid === ANYONE) return 'this platform has no file owners';
  return new Who(uid, groups).canChange(file);
}

/** The package root, and what in it runs on a `hooks run`: the bin, the launcher, the CLI bundle and its vendor libraries. */
function runnerFiles(): string[] {
  let root: string;
  try {
    root = packageRoot();
  } catch {
    return [];
  }
  // The vendor libraries are code the CLI loads (zod checks every locked run's config; the MCP SDK
  // runs mcp_tool hooks; OpenTelemetry exports a run's outcome).
  return [root, ...['bin/hooks.js', 'dist/bundle/main.js', 'dist/bundle/cli.cjs', ...Object.values(VENDORED).map((file) => `dist/bundle/vendor/${file}`), 'node_modules'].map((f) => path.join(root, f))];
}

function compute(inputs: LockInputs): LockState {
  if (inputs.uid === ANYONE) return { locked: false, reasons: ['this platform has no file owners to lock with'] };
  if (inputs.uid === 0) return { locked: false, reasons: ['you are root (uid 0): root can write every file the lock depends on'] };
  const who = new Who(inputs.uid, inputs.groups);
  const reasons: string[] = [];
  if (inputs.runner.length === 0) reasons.push('runner: its package root (package.json of agent-hooks) was not found');
  else {
    const root = inputs.runner[0]!;
    const problem = who.canChange(root) ?? inputs.runner.slice(1).map((f) => who.canChange(f, { mayBeAbsent: true })).find((p) => p !== undefined);
    if (problem !== undefined) reasons.push(`runner ${root}: ${problem}`);
  }
  const node = who.canChange(inputs.node);
  if (node !== undefined) reasons.push(`node ${inputs.node}: ${node}`);
  const managed = who.canChange(inputs.managed);
  if (managed !== undefined) reasons.push(`managed layer ${inputs.managed}: ${managed}`);
  return { locked: reasons.length === 0, reasons };
}

/**
 * Why a user other than root could change the file at `file` (it, or a folder above it, is not root's,
 * or group or others may write it), or undefined: what `install --managed` asks of the node it names.
 */
export function openToUsers(file: string): string | undefined {
  return new Who(ANYONE, 'any').canChange(file);
}

/** No uid: every owner but root counts as a user's. */
const ANYONE = -1;

/** Answers "can this user change what this path is?" from owners and modes, along the whole folder chain. */
class Who {
  private readonly stats = new Map<string, Stats | undefined>();

  /** `uid` ANYONE with groups `any`: whether any user but root could. */
  constructor(
    private readonly uid: number,
    private readonly groups: readonly number[] | 'any',
  ) {}

  /**
   * Why the user can change the file at `file` (write it, or replace it or a folder above it), or
   * undefined. A link is followed: its own folders are checked, then its target's.
   */
  canChange(file: string, options: { mayBeAbsent?: boolean } = {}): string | undefined {
    const absolute = path.resolve(file);
    const leaf = this.stat(absolute);
    if (leaf === undefined) {
      if (options.mayBeAbsent === true) return this.folders(path.dirname(absolute));
      return 'absent';
    }
    const chain = this.folders(path.dirname(absolute));
    if (chain !== undefined) return chain;
    if (leaf.isSymbolicLink()) {
      let target: string;
      try {
        target = realpathSync(absolute);
      } catch {
        return 'a link that leads nowhere';
      }
      const problem = this.canChange(target);
      return problem === undefined ? undefined : `links to ${target}, which is ${problem.replace(/^is /, '')}`;
    }
    return this.entry(leaf, absolute, false);
  }

  /** Why the user can change what `dir` or a folder above it holds, or undefined. */
  private folders(dir: string): string | undefined {
    // From the root down: the first folder the user controls is the one to name.
    const chain: string[] = [];
    for (let d = dir; ; d = path.dirname(d)) {
      chain.unshift(d);
      if (path.dirname(d) === d) break;
    }
    for (const d of chain) {
      const stats = this.stat(d);
      if (stats === undefined) return `folder ${d} is absent`;
      if (stats.isSymbolicLink()) {
        let target: string;
        try {
          target = realpathSync(d);
        } catch {
          return `folder ${d} is a link that leads nowhere`;
        }
        const problem = this.folders(target);
        if (problem !== undefined) return problem;
        continue;
      }
      const problem = this.entry(stats, d, true);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }

  /**
   * Why the user can change this one entry, or undefined. A folder anyone may write but with the
   * sticky bit (/tmp) lets them add entries, not replace another user's: the entry below is checked itself.
   */
  private entry(stats: Stats, where: string, folder: boolean): string | undefined {
    const name = folder ? `folder ${where}` : 'it';
    const is = folder ? `${name} is` : 'is';
    if (this.uid === ANYONE ? stats.uid !== 0 : stats.uid === this.uid) return this.uid === ANYONE ? `${is} owned by uid ${stats.uid}, not root` : `${is} yours (uid ${this.uid}), so you can change it`;
    const sticky = folder && (stats.mode & 0o1000) !== 0;
    if ((stats.mode & 0o002) !== 0 && !sticky) return `${is} writable by everyone (mode ${mode(stats)})`;
    if ((stats.mode & 0o020) !== 0 && !sticky && (this.groups === 'any' || this.groups.includes(stats.gid))) return `${is} writable by ${this.groups === 'any' ? 'its' : 'your'} group ${stats.gid} (mode ${mode(stats)})`;
    return undefined;
  }

  private stat(file: string): Stats | undefined {
    if (!this.stats.has(file)) {
      let stats: Stats | undefined;
      try {
        stats = lstatSync(file);
      } catch {
        stats = undefined;
      }
      this.stats.set(file, stats);
    }
    return this.stats.get(file);
  }
}

function mode(stats: Stats): string {
  return (stats.mode & 0o7777).toString(8).padStart(4, '0');
}
