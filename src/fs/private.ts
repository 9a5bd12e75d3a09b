// Reading and writing agent-hooks' own private files (trust store, cache) so that nothing planted in a
// shared or hostile directory is followed: no-follow opens, owner and mode checks, and writes through
// write-safely's exclusive temporary file and rename.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, type Stats } from 'node:fs';
import { HooksError } from '../errors.js';
import { replaceFile } from './write-safely.js';

/** The effective uid, or undefined where there is none (Windows): owner checks are then skipped. */
export function euid(): number | undefined {
  return typeof process.geteuid === 'function' ? process.geteuid() : undefined;
}

/** Why a file or directory is not safe to take orders from, or undefined when it is ours and not writable by others. */
export function unsafeOwnership(stats: Stats): string | undefined {
  const me = euid();
  if (me !== undefined && stats.uid !== me) return `owned by uid ${stats.uid}, not by you (uid ${me})`;
  if ((stats.mode & 0o022) !== 0) return `writable by ${(stats.mode & 0o002) !== 0 ? 'others' : 'group'} (mode ${(stats.mode & 0o777).toString(8)})`;
  return undefined;
}

/**
 * A private folder of ours (0700: trust store, cache, install backups), created when missing. Returns
 * why it cannot be used, or undefined. One that is a symlink, not ours, or open to others is refused,
 * never repaired.
 */
export function privateDir(dir: string): string | undefined {
  let stats: Stats;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stats = lstatSync(dir);
  } catch (error) {
    return `${dir}: cannot create it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (stats.isSymbolicLink() || !stats.isDirectory()) return `${dir}: is not a plain folder; agent-hooks will not keep its files there`;
  const me = euid();
  if (me !== undefined && stats.uid !== me) return `${dir}: is owned by another user (uid ${stats.uid}); agent-hooks will not keep its files there`;
  if ((stats.mode & 0o077) !== 0) {
    return `${dir}: is ${(stats.mode & 0o022) !== 0 ? 'writable' : 'readable'} by group or others (mode 0${(stats.mode & 0o777).toString(8)}); chmod 700 it`;
  }
  return undefined;
}

/** `privateDir`, throwing its reason as a one-line `HooksError`; returns the folder. */
export function privateFolder(dir: string): string {
  const problem = privateDir(dir);
  if (problem !== undefined) throw new HooksError('CONFIG_UNREADABLE', problem, { file: dir });
  return dir;
}

/**
 * The file's text, when it is a regular file of ours that no one else may write (with `secret`: nor
 * read, as a key must be); else undefined.
 */
export function readPrivateFile(file: string, options: { secret?: boolean } = {}): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || unsafeOwnership(stats) !== undefined) return undefined;
    if (options.secret === true && (stats.mode & 0o077) !== 0) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Writes `text` to `file` (mode 0600) without following anything planted at its name or a temporary name. Throws on failure. */
export function writePrivateFile(file: string, text: string): void {
  replaceFile(file, Buffer.from(text, 'utf8'), 0o600);
}
