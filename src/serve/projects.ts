// Each project's runner, loaded once and kept while the files it came from stay as they were.
//
// A runner is keyed by where the project search starts (the event's cwd). Before each event the paths
// that decide the config are stat'ed: every config name the search could find from the start up to
// where it stops, the local layer, `.git` (where it stops), the user and managed layers and the trust
// store. Any change (bytes, inode, size, times, mode, owner, a file appearing or going) loads the
// config again through the same loader as `hooks run`, which hashes every layer and asks the trust
// store afresh: what runs is what `hooks run` would run.
// File times tick in steps of a few milliseconds: a change in the same tick as the stamp would look
// like no change, so while any watched path changed within the last second, every event reloads.
import { statSync, type BigIntStats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_CONFIG_NAME, SEARCH_PLACES, isJsFile, managedConfigPath } from '../config/load.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { createRunner, type Runner } from '../engine.js';
import { userConfigFile } from '../paths.js';
import { trustFile } from '../trust/store.js';

/** Projects kept at once; the least recently used goes first. */
const MAX_PROJECTS = 256;

interface Entry {
  runner: Promise<Runner>;
  watched: readonly string[];
  stamps: readonly string[];
  /** A watched path changed too recently for its stamp to be trusted (see above). */
  racy: boolean;
}

/** A change this recent may share its timestamp with the next one. */
const RACY_MS = 1_000;

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
    if (entry !== undefined && !entry.racy) {
      const stamps = entry.watched.map((file) => stamp(file).key);
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
    const now = Date.now();
    const stamped = watched.map(stamp);
    const stamps = stamped.map((s) => s.key);
    const racy = stamped.some((s) => s.mtimeMs > now - RACY_MS);
    this.loads++;
    const runner = createRunner({ cwd: start, env: this.env });
    // A failed load is kept too (the same error for every event until a file changes), but never unhandled.
    runner.catch(() => {});
    this.entries.delete(start);
    this.entries.set(start, { runner, watched, stamps, racy });
    if (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
    return runner;
  }
}

/**
 * Every path whose state can change which config `hooks run` would load from `start`. Every config
 * name is watched, there or not (a folder's own times would also move with every unrelated file in
 * it, and /tmp's all the time); a folder by its owner and mode (the loader refuses open ones).
 */
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

/** What a path is now: a folder by owner and mode, a file by everything a change touches. */
function stamp(file: string): { key: string; mtimeMs: number } {
  let s: BigIntStats | undefined;
  try {
    s = statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return { key: '?', mtimeMs: 0 };
  }
  if (s === undefined) return { key: '-', mtimeMs: 0 };
  if (s.isDirectory()) return { key: `d${s.uid}:${s.mode}`, mtimeMs: 0 };
  // ctime too: it moves on chmod, chown and renames, and cannot be set back by a program.
  return { key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}:${s.uid}`, mtimeMs: Number(s.mtimeMs > s.ctimeMs ? s.mtimeMs : s.ctimeMs) };
}

function exists(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false }) !== undefined;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The trusted JavaScript config among the layers, if any: `hooks run` would import it, the server never
 * does (its importer refuses, elsewhere.ts), so that project's events go to `hooks run`.
 */
export function javaScriptLayer(config: ResolvedConfig): string | undefined {
  return config.layers.find((l) => l.trust === 'trusted' && isJsFile(l.file))?.file;
}
