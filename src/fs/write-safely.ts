// Writing files that may sit in a repository someone else controls (an agent's settings in a cloned
// project) or in a folder others can write (a shared /tmp), without ever being redirected by it.
// Generic on purpose: install uses it today; the audit log, the trust store and the cache can too.
//
// The rules, each against an attack seen on earlier versions:
// - The file and its folder are resolved (symlinks followed) and must stay inside `root`, so a
//   settings path that is a symlink out of the project is refused, not written through.
// - New bytes go to a temporary file with a random name in the target's own folder, opened with
//   O_CREAT|O_EXCL|O_NOFOLLOW: a symlink planted at a predictable temporary name cannot redirect the
//   write, and a name already taken is an error, never reused. The temporary file is renamed over the
//   target, so readers never see half a file.
// - The target keeps its mode; a file without the owner's write bit is refused with one line, never
//   silently replaced. A file or folder owned by another user is refused (git's safe.directory idea).
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { isInside, realOrSelf } from '../paths.js';

export interface SafeTarget {
  /** The path as given (for messages). */
  file: string;
  /** Where the bytes really are: symlinks resolved, inside the root. */
  real: string;
  /** The existing file's stats, undefined when there is none yet. */
  stats: Stats | undefined;
}

export interface SafeOptions {
  /** The folder the file must resolve into (the project, the home folder, the state dir). */
  root: string;
  /** Allow a file that resolves outside `root` (an explicit user choice, e.g. `--allow-outside`). */
  allowOutside?: boolean;
  /** How the user could allow it, said in the refusal (e.g. "pass --allow-outside if you mean it"). */
  outsideHint?: string;
  /** Mode of a file that did not exist (default 0644; existing files keep theirs). */
  mode?: number;
}

const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/**
 * Where `file` really is, checked: inside `root` (after symlinks), owned by us, a regular file. A
 * file that does not exist yet is checked through its nearest existing ancestor folder.
 */
export function resolveTarget(file: string, options: SafeOptions): SafeTarget {
  const root = realOrSelf(options.root);
  let stats: Stats | undefined;
  let real: string;
  try {
    real = realpathSync(file);
    stats = statSync(real);
  } catch (error) {
    if (code(error) !== 'ENOENT') throw fail(file, 'cannot resolve it', error);
    // A dangling symlink at the path itself: writing through it would create its target wherever it points.
    if (isLink(file)) throw new HooksError('CONFIG_UNREADABLE', `${file}: is a symlink to a missing file; agent-hooks will not create its target (remove the link first)`, { file });
    real = path.join(realAncestor(path.dirname(file)), path.basename(file));
  }
  if (options.allowOutside !== true && !isInside(root, real)) {
    throw new HooksError(
      'CONFIG_UNREADABLE',
      `${file}: resolves to ${real}, outside ${options.root}; agent-hooks will not write there${options.outsideHint === undefined ? '' : ` (${options.outsideHint})`}`,
      { file },
    );
  }
  if (stats !== undefined) {
    if (!stats.isFile()) throw new HooksError('CONFIG_UNREADABLE', `${file}: is not a regular file; agent-hooks will not replace it`, { file });
    // Root too: a root-run install in someone else's checkout is exactly the case to refuse.
    if (uid !== undefined && stats.uid !== uid) {
      throw new HooksError('CONFIG_UNREADABLE', `${file}: is owned by another user (uid ${stats.uid}); agent-hooks will not write it`, { file });
    }
  }
  return { file, real, stats };
}

/** The file's text after the same checks as a write; undefined when it does not exist. */
export function readSafely(file: string, options: SafeOptions): string | undefined {
  const target = resolveTarget(file, options);
  if (target.stats === undefined) return undefined;
  try {
    return readFileSync(target.real, 'utf8');
  } catch (error) {
    throw fail(file, 'cannot read it', error);
  }
}

/**
 * Replaces the file's bytes (creating it and its folders if needed), keeping its mode. Refuses a
 * read-only file, one outside the root, one owned by another user.
 */
export function writeSafely(file: string, text: string | Buffer, options: SafeOptions): void {
  const target = resolveTarget(file, options);
  refuseReadOnly(target);
  const dir = path.dirname(target.real);
  makeFolders(dir, options);
  checkFolder(dir, file);
  const mode = target.stats === undefined ? (options.mode ?? 0o644) : target.stats.mode & 0o7777;
  try {
    replaceFile(target.real, typeof text === 'string' ? Buffer.from(text, 'utf8') : text, mode);
  } catch (error) {
    throw fail(file, 'cannot write it', error);
  }
}

/**
 * Puts `bytes` at `real` with `mode`, through a temporary file with a random name in the same folder,
 * opened O_CREAT|O_EXCL|O_NOFOLLOW, then renamed over it: a symlink planted at a predictable name
 * cannot redirect the write, a name already taken is never reused, and readers never see half a file.
 * Throws the system error; the caller says which file it was.
 */
export function replaceFile(real: string, bytes: Buffer, mode: number): void {
  const temporary = path.join(path.dirname(real), `.${path.basename(real)}.agent-hooks-${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fchmodSync(fd, mode);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, real);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    try {
      unlinkSync(temporary);
    } catch {
      // already renamed
    }
    throw error;
  }
}

/** Deletes the file after the same checks as a write; nothing when it does not exist. */
export function removeSafely(file: string, options: SafeOptions): void {
  const target = resolveTarget(file, options);
  if (target.stats === undefined) return;
  refuseReadOnly(target);
  try {
    unlinkSync(target.real);
  } catch (error) {
    throw fail(file, 'cannot remove it', error);
  }
}

// --- internal ---

function refuseReadOnly(target: SafeTarget): void {
  if (target.stats !== undefined && (target.stats.mode & 0o200) === 0) {
    throw new HooksError(
      'CONFIG_UNREADABLE',
      `${target.file}: is read-only (mode ${octal(target.stats.mode)}); agent-hooks will not replace it (chmod u+w it if you want the change)`,
      { file: target.file },
    );
  }
}

/** Creates the missing folders one at a time, each inside the root, never through a symlink. */
function makeFolders(dir: string, options: SafeOptions): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw fail(dir, 'cannot create the folder', error);
  }
  const real = realOrSelf(dir);
  if (options.allowOutside !== true && !isInside(realOrSelf(options.root), real)) {
    throw new HooksError('CONFIG_UNREADABLE', `${dir}: resolves to ${real}, outside ${options.root}; agent-hooks will not write there`, { file: dir });
  }
}

/** The folder the temporary file goes in: ours (or root's), so nobody else can swap names in it. */
function checkFolder(dir: string, file: string): void {
  const stats = statSync(dir);
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) {
    throw new HooksError('CONFIG_UNREADABLE', `${file}: its folder ${dir} is owned by another user (uid ${stats.uid}); agent-hooks will not write there`, { file });
  }
  // A folder others can write, without the sticky bit, lets them rename our temporary file away.
  if ((stats.mode & 0o002) !== 0 && (stats.mode & 0o1000) === 0) {
    throw new HooksError('CONFIG_UNREADABLE', `${file}: its folder ${dir} is writable by everyone (mode ${octal(stats.mode)}); agent-hooks will not write there`, { file });
  }
}

function realAncestor(dir: string): string {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      const real = realpathSync(d);
      return path.join(real, path.relative(d, dir));
    } catch (error) {
      if (code(error) !== 'ENOENT') throw fail(d, 'cannot resolve it', error);
      // A dangling symlink among the folders would be created through: refuse it.
      if (isLink(d)) throw new HooksError('CONFIG_UNREADABLE', `${d}: is a symlink to a missing folder; agent-hooks will not create its target`, { file: d });
      if (path.dirname(d) === d) return dir;
    }
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}


function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function octal(mode: number): string {
  return `0${(mode & 0o7777).toString(8)}`;
}

function fail(file: string, what: string, error: unknown): HooksError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new HooksError('CONFIG_UNREADABLE', `${file}: ${what} (${reason})`, { file });
}
