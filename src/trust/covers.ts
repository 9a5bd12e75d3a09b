// What trust covers besides a config's own bytes: the files its commands run and, for a JS config, the
// modules it imports. Each is recorded by its path relative to the config's folder and its state then;
// the config is trusted only while every one is still in that state. This is on the cold path of every
// `hooks run`: a few opens and hashes, nothing loaded.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { isInside } from '../paths.js';

/**
 * A covered file's state, as one string so states compare exactly:
 * `sha256:<hex>` (a regular file inside the project, by its bytes), `absent` (nothing there: a file
 * created there later is a change), `outside:<realpath>` (leads out of the project: not hashed, reported),
 * `other` (a folder, FIFO, device...: never read).
 * A path whose last part holds `*` (`guards/__pycache__/policy.*.pyc`) stands for every file of its
 * folder that part matches: `absent` when none does, else `sha256:` over their names and states.
 */
export type CoverState = string;

/** Covered files, by path relative to the config's folder (`/` separators). */
export type Covers = Record<string, CoverState>;

export const COVER_STATE = /^(sha256:[0-9a-f]{64}|absent|other|outside:\/.*)$/;

/**
 * A covered path that is absolute, wherever it is: a file the config extends (src/config/extends), or one
 * run by an extended file's hooks outside the project (a pinned git checkout in the cache). Hashed like any
 * other: trust covers the bytes of everything a project extends.
 */
export const EXTENDS_COVER_PREFIX = 'extends:';

/** The state of `rel` under `dir` now. `root` is the realpath of the project folder (computed when not given). */
export function observeCover(dir: string, rel: string, root = realOrDir(dir)): CoverState {
  if (rel.startsWith(EXTENDS_COVER_PREFIX)) {
    const file = rel.slice(EXTENDS_COVER_PREFIX.length);
    if (!path.isAbsolute(file)) return 'other';
    let real: string;
    try {
      real = realpathSync.native(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'other';
    }
    return observeFile(path.dirname(real), path.basename(real), path.dirname(real));
  }
  return path.basename(rel).includes('*') ? observePattern(dir, rel, root) : observeFile(dir, rel, root);
}

/** Where `rel` really is, when that is inside the project; else its state (absent, outside, other). */
function locate(dir: string, rel: string, root: string): { real: string } | CoverState {
  let real: string;
  try {
    real = realpathSync.native(path.resolve(dir, rel));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A loop or a denied folder is not absent.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return 'other';
    // Missing: where it would be, judged by its nearest folder that exists (a link out of the project included).
    const where = wouldBe(path.resolve(dir, rel));
    return isInside(root, where) ? 'absent' : `outside:${where}`;
  }
  return isInside(root, real) ? { real } : `outside:${real}`;
}

function observeFile(dir: string, rel: string, root: string): CoverState {
  const located = locate(dir, rel, root);
  if (typeof located === 'string') return located;
  const { real } = located;
  let fd: number | undefined;
  try {
    // No following: a link swapped in since the realpath leads nowhere but to an error.
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return 'other';
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; ) hash.update(chunk.subarray(0, n));
    return `sha256:${hash.digest('hex')}`;
  } catch {
    return 'other';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The state of each covered path now. */
export function observeCovers(dir: string, rels: Iterable<string>): Covers {
  const root = realOrDir(dir);
  const out: Covers = {};
  for (const rel of rels) out[rel] = observeCover(dir, rel, root);
  return out;
}

/** The first covered file whose state differs from the one recorded, said as a user would ("guards/check.py changed"). */
export function firstChange(recorded: Covers, now: Covers): string | undefined {
  for (const [rel, was] of Object.entries(recorded)) {
    const is = now[rel];
    if (is !== was) return describeChange(rel, was, is ?? 'absent');
  }
  return undefined;
}

export function describeChange(rel: string, was: CoverState, is: CoverState): string {
  if (was === 'absent') return `${rel} appeared`;
  if (is === 'absent') return `${rel} was deleted`;
  if (is.startsWith('outside:')) return `${rel} now leads outside the project (${is.slice('outside:'.length)})`;
  if (is === 'other') return `${rel} is no longer a regular file`;
  return `${rel} changed`;
}

/** A covered state in a few words, for `hooks trust` and `--list`. */
export function describeState(state: CoverState): string {
  if (state.startsWith('sha256:')) return `sha256 ${state.slice(7, 19)}`;
  if (state.startsWith('outside:')) return `outside the project (${state.slice(8)}): not hashed`;
  if (state === 'absent') return 'missing (trusted as missing: a file created there makes the config untrusted)';
  return 'not a regular file: not read';
}

/** Files matched by one pattern at most: more is not a module's cache, and is a change in itself. */
const MAX_MATCHES = 64;

/** The state of every file a pattern path matches (see CoverState), judged with their folder. */
function observePattern(dir: string, rel: string, root: string): CoverState {
  const folder = observeFolder(dir, path.dirname(rel), root);
  if (folder !== 'dir') return folder;
  let names: string[];
  try {
    names = readdirSync(path.resolve(dir, path.dirname(rel)));
  } catch {
    return 'other';
  }
  const glob = new RegExp(`^${path.basename(rel).split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');
  const matched = names.filter((name) => glob.test(name)).sort();
  if (matched.length === 0) return 'absent';
  if (matched.length > MAX_MATCHES) return 'other';
  const hash = createHash('sha256');
  for (const name of matched) hash.update(`${name}\0${observeFile(dir, path.join(path.dirname(rel), name), root)}\n`);
  return `sha256:${hash.digest('hex')}`;
}

/** A pattern's folder: `dir` when it is a folder inside the project, else its state as a covered path. */
function observeFolder(dir: string, rel: string, root: string): CoverState | 'dir' {
  const located = locate(dir, rel, root);
  if (typeof located === 'string') return located;
  const { real } = located;
  try {
    return fstatIsDir(real) ? 'dir' : 'absent';
  } catch {
    return 'other';
  }
}

function fstatIsDir(real: string): boolean {
  const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    return fstatSync(fd).isDirectory();
  } finally {
    closeSync(fd);
  }
}

/** Where a missing path would be: its nearest existing ancestor's realpath, with the rest appended. */
function wouldBe(file: string): string {
  const rest: string[] = [];
  for (let at = file; ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync.native(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return file;
      rest.push(path.basename(at));
    }
  }
}

function realOrDir(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return path.resolve(dir);
  }
}
