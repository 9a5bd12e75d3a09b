// Each project's runner, loaded once and kept while the files it came from stay as they were.
//
// A runner is keyed by where the project search starts (the event's cwd). What decides the config is
// checked before each event, exactly and cheaply: the user and managed layers and the trust store by
// their own stat, and every folder the search walks (from the start up to where it stops) by the
// folder's stat, which moves whenever an entry in it is made, removed or renamed. Only when a folder
// moved, or moved too recently to be sure (see below), is every config name in it looked at again;
// otherwise only the names that are there (the config, a package.json) are stat'ed. So an
// event costs a stat per folder and per file that exists, not one per name the search could find (13
// per folder: 45 to 73 stats an event for a project under /tmp, a tenth of the server's time under
// load). Any change (bytes, inode, size, times, mode, owner, a name appearing or going, a link
// re-pointed) loads the config again through the same loader as `hooks run`, which hashes every layer
// and asks the trust store afresh: what runs is what `hooks run` would run. (fs.watch could say
// "nothing changed" for free, but its news comes on the event loop after the event that follows the
// change may already be read: it is not exact, and the stats are.)
// File times tick in steps of a few milliseconds: a change in the same tick as the stamp would look
// like no change, so while a watched file changed within the last second every event reloads, and
// while a folder did, every name in it is looked at again.
import { lstatSync, statSync, type BigIntStats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_CONFIG_NAME, SEARCH_PLACES, isJsFile, managedConfigPath } from '../config/load.js';
import type { ResolvedConfig } from '../config/resolve.js';
import { createRunner, type Runner } from '../engine.js';
import { userConfigFile } from '../paths.js';
import { trustFile } from '../trust/store.js';

/** Projects kept at once; the least recently used goes first. */
const MAX_PROJECTS = 256;

/** The names in a folder whose presence or state can change what the search finds there: where it stops, the local layer, every config name. */
const NAMES = ['.git', LOCAL_CONFIG_NAME, ...SEARCH_PLACES];

interface Folder {
  dir: string;
  /** The folder itself: which one (device, inode), owner and mode (the loader refuses a folder open to others). */
  stamp: string;
  /** Its times: they move whenever an entry in it is made, removed or renamed. */
  times: string;
  /** Each of NAMES in it, as it is there ('-': not there). */
  names: string[];
}

/** What a load came from, as it was just before the load. */
interface Watched {
  files: readonly string[];
  stamps: readonly string[];
  folders: Folder[];
}

interface Entry {
  runner: Promise<Runner>;
  watched: Watched;
  /** A watched file changed too recently for its stamp to be trusted (see above). */
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
    if (entry !== undefined && !entry.racy && unchanged(entry.watched)) {
      // Most recently used goes last.
      this.entries.delete(start);
      this.entries.set(start, entry);
      return entry.runner;
    }
    return this.load(start);
  }

  stats(): ProjectStats {
    return { projects: this.entries.size, loads: this.loads };
  }

  private load(start: string): Promise<Runner> {
    // Stamped before reading: a change made while loading shows as a change at the next event.
    const { watched, racy } = watch(start, this.env);
    this.loads++;
    const runner = createRunner({ cwd: start, env: this.env });
    // A failed load is kept too (the same error for every event until a file changes), but never unhandled.
    runner.catch(() => {});
    this.entries.delete(start);
    this.entries.set(start, { runner, watched, racy });
    if (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
    return runner;
  }
}

/**
 * Everything whose state can change which config `hooks run` would load from `start`, stamped now: the
 * user and managed layers and the trust store, and each folder of the search with every name in it.
 * The loader stops at the first folder with a config; watching the folders above it as well costs a
 * stat each and can only cause an extra load.
 */
function watch(start: string, env: NodeJS.ProcessEnv): { watched: Watched; racy: boolean } {
  const now = Date.now();
  let racy = false;
  const files = [managedConfigPath(env), userConfigFile(env), trustFile(env)];
  const stamps = files.map((file) => {
    const s = stamp(file, lstatSync);
    racy ||= s.changedMs > now - RACY_MS;
    return s.key;
  });
  const folders: Folder[] = [];
  const home = path.resolve(env.HOME || os.homedir());
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const folder = stamp(dir, statSync);
    const names = NAMES.map((name) => {
      const s = stamp(path.join(dir, name), lstatSync);
      racy ||= s.changedMs > now - RACY_MS;
      return s.key;
    });
    folders.push({ dir, stamp: folder.key, times: folder.times ?? '', names });
    if (dir === home || path.dirname(dir) === dir || names[0] !== '-') break;
  }
  return { watched: { files, stamps, folders }, racy };
}

/** True when nothing watched has changed since it was stamped. */
function unchanged(watched: Watched): boolean {
  for (const [i, file] of watched.files.entries()) if (stamp(file, lstatSync).key !== watched.stamps[i]) return false;
  const now = Date.now();
  for (const folder of watched.folders) {
    const current = stamp(folder.dir, statSync);
    if (current.key !== folder.stamp) return false;
    if (current.times !== folder.times || current.changedMs > now - RACY_MS) {
      // An entry was made, removed or renamed in it (or may have been, within its times' tick): every name again.
      for (const [i, name] of NAMES.entries()) if (stamp(path.join(folder.dir, name), lstatSync).key !== folder.names[i]) return false;
      // Read before the names were: a change since moves the folder's times again (or it is still racy).
      folder.times = current.times ?? '';
      continue;
    }
    for (const [i, name] of NAMES.entries()) {
      // `.git` counts only by being there (where the search stops): a folder there goes or comes with its parent's times.
      if (folder.names[i] === '-' || (i === 0 && folder.names[0]!.startsWith('d'))) continue;
      if (stamp(path.join(folder.dir, name), lstatSync).key !== folder.names[i]) return false;
    }
  }
  return true;
}

/**
 * What a path is now, and when it last changed. A folder named in the search, by which one it is, owner
 * and mode, with its times apart (they move with its entries); a folder found at a name (`.git`), by which
 * one, owner and mode (its times move with every git command); a file by everything a change touches;
 * a symbolic link by itself and by what it points to (a dangling one is there, and may come to point
 * at a config). `lookup` is lstat for names (a link is seen as one), stat for the search's folders.
 */
function stamp(file: string, lookup: typeof lstatSync | typeof statSync, depth = 0): { key: string; changedMs: number; times?: string } {
  let s: BigIntStats | undefined;
  try {
    s = lookup(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return { key: '?', changedMs: 0 };
  }
  if (s === undefined) return { key: '-', changedMs: 0 };
  const changedMs = Number(s.mtimeMs > s.ctimeMs ? s.mtimeMs : s.ctimeMs);
  if (s.isSymbolicLink()) {
    const target = depth === 0 ? stamp(file, statSync, 1) : { key: '-', changedMs: 0 };
    return { key: `l${s.dev}:${s.ino}:${s.ctimeNs}>${target.key}`, changedMs: Math.max(changedMs, target.changedMs) };
  }
  if (s.isDirectory()) {
    if (lookup === statSync && depth === 0) return { key: `D${s.dev}:${s.ino}:${s.uid}:${s.mode}`, times: `${s.mtimeNs}:${s.ctimeNs}`, changedMs };
    return { key: `d${s.dev}:${s.ino}:${s.uid}:${s.mode}`, changedMs: 0 };
  }
  // ctime too: it moves on chmod, chown and renames, and cannot be set back by a program.
  return { key: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.mode}:${s.uid}`, changedMs };
}

/**
 * The trusted JavaScript config among the layers, if any: `hooks run` would import it, the server never
 * does (its importer refuses, elsewhere.ts), so that project's events go to `hooks run`.
 */
export function javaScriptLayer(config: ResolvedConfig): string | undefined {
  return config.layers.find((l) => l.trust === 'trusted' && isJsFile(l.file))?.file;
}
