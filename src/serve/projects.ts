// Each project's runner, loaded once and kept while the files it came from stay as they were.
//
// A runner is keyed by where the project search starts (the event's cwd). Before each event the files
// that decide the config are stat'ed: every config name the search could find between the start and
// where the search stops, the local layer, `.git` (where the search stops), the user and managed
// layers and the trust store. Any change in one of them (bytes, inode, size, times, mode, owner, a file
// appearing or going) loads the config again through the same loader as `hooks run`, which hashes
// every layer and asks the trust store afresh: what runs is always what `hooks run` would run now.
import { statSync, type BigIntStats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_CONFIG_NAME, SEARCH_PLACES, managedConfigPath } from '../config/load.js';
import { createRunner, type Runner } from '../engine.js';
import { userConfigFile } from '../paths.js';
import { trustFile } from '../trust/store.js';

/** Projects kept at once; the least recently used goes first. */
const MAX_PROJECTS = 256;

interface Entry {
  runner: Promise<Runner>;
  watched: readonly string[];
  stamps: readonly string[];
}

export interface ProjectStats {
  projects: number;
  loads: number;
}

export class Projects {
  private readonly entries = new Map<string, Entry>();
  private loads = 0;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The runner for a project search starting at `start` (an absolute folder); a config error rejects, every time it is asked for. */
  runner(start: string): Promise<Runner> {
    const entry = this.entries.get(start);
    if (entry !== undefined) {
      const stamps = entry.watched.map(stamp);
      if (same(stamps, entry.stamps)) {
        // Most recently used goes last.
        this.entries.delete(start);
        this.entries.set(start, entry);
        return entry.runner;
      }
    }
    return this.load(start);
  }

  stats(): ProjectStats {
    return { projects: this.entries.size, loads: this.loads };
  }

  private load(start: string): Promise<Runner> {
    const watched = watchList(start, this.env);
    // Stamped before reading: a change made while loading shows as a change at the next event.
    const stamps = watched.map(stamp);
    this.loads++;
    const runner = createRunner({ cwd: start, env: this.env });
    // A failed load is kept too (the same error for every event until a file changes), but never unhandled.
    runner.catch(() => {});
    this.entries.delete(start);
    this.entries.set(start, { runner, watched, stamps });
    if (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
    return runner;
  }
}

/** Every path whose state can change which config `hooks run` would load from `start`. */
export function watchList(start: string, env: NodeJS.ProcessEnv): string[] {
  const files = [managedConfigPath(env), userConfigFile(env), trustFile(env)];
  const home = path.resolve(env.HOME || os.homedir());
  // The loader stops at the first folder with a config; watching the folders above it as well costs
  // a few stats and can only cause an extra load.
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    files.push(`${dir}${path.sep}`, path.join(dir, '.git'), path.join(dir, LOCAL_CONFIG_NAME));
    for (const name of SEARCH_PLACES) files.push(path.join(dir, name));
    if (dir === home || path.dirname(dir) === dir || exists(path.join(dir, '.git'))) break;
  }
  return files;
}

/** What a path is now: a folder by owner and mode (its entries are watched one by one), a file by everything a change touches. */
function stamp(file: string): string {
  let s: BigIntStats | undefined;
  try {
    s = statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return '?';
  }
  if (s === undefined) return '-';
  if (s.isDirectory()) return `d${s.uid}:${s.mode}`;
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}:${s.uid}`;
}

function exists(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false }) !== undefined;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
