// Where a session's metadata bag lives between events: one private file per session in the user's state
// dir (`~/.local/state/agent-hooks/metadata/<sha256 of the session id>.json`, 0600 in a 0700 folder).
//
// Everything here is untrusted input on the way in (a session id comes from the event, a file may be
// corrupt, truncated or planted) and nothing here may stop a run: a problem is returned as one line for
// the run's warnings, the bag starts empty, and the guards run as always.
import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readdirSync, readSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { privateDir, unsafeOwnership, writePrivateFile } from '../fs/private.js';
import { isRecord } from '../json.js';
import { stateDir } from '../paths.js';
import { bagProblem, mergeBag, METADATA_LIMITS, type Bag } from './bag.js';
import { now } from '../clock.js';

/** What a run loads the bag from and saves its changes to. */
export interface MetadataStore {
  /** The session's bag; a problem (corrupt file, unsafe file) is said, and the bag is then empty. */
  load(sessionId: string): { bag: Bag; problem?: string };
  /** Applies this run's changes (a `null` value removes the key) to the bag as stored now; a problem is said. */
  save(sessionId: string, changes: Bag): Promise<string | undefined>;
  /** Forgets the session (sessionEnd), and prunes sessions gone stale. */
  remove(sessionId: string): string | undefined;
}

const FORMAT_VERSION = 1;
const FILE_NAME = /^[0-9a-f]{64}\.json$/;
/** Beyond this a file cannot hold a bag within the cap (JSON escapes at most sextuple a byte), so it is not read. */
const MAX_FILE_BYTES = METADATA_LIMITS.maxBytes * 6 + 4096;
const LOCK_WAIT_MS = 2000;
const LOCK_STALE_MS = 10_000;

/** The folder of the session files: `stateDir(env)/metadata`. */
export function metadataDir(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), 'metadata');
}

/**
 * The session's file. The name is the SHA-256 of the id, so no session id (`../../.bashrc`, a NUL, 10 kB
 * of text) can name a path outside the folder, and two ids never share a file.
 */
export function sessionFile(dir: string, sessionId: string): string {
  return path.join(dir, `${createHash('sha256').update(sessionId, 'utf8').digest('hex')}.json`);
}

/** The store in the user's state dir. */
export function fileStore(env: NodeJS.ProcessEnv): MetadataStore {
  const dir = metadataDir(env);
  return {
    load(sessionId) {
      const file = sessionFile(dir, sessionId);
      // Most sessions never keep metadata: no file is the common case, and is answered without an exception.
      if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return { bag: {} };
      return readSessionFile(file, sessionId);
    },
    async save(sessionId, changes) {
      const problem = privateDir(dir);
      if (problem !== undefined) return `metadata not saved: ${problem}`;
      const file = sessionFile(dir, sessionId);
      const isNew = !existsSync(file);
      const result = await withLock(file, () => {
        // Merged onto the bag as stored now, not as this run loaded it: a concurrent event of the session
        // may have saved keys since.
        const current = readSessionFile(file, sessionId);
        const bag = mergeBag(current.bag, changes);
        const tooBig = bagProblem(bag);
        if (tooBig !== undefined) return `metadata not saved to ${file}: ${tooBig}`;
        try {
          writePrivateFile(file, `${JSON.stringify({ v: FORMAT_VERSION, sessionId, updatedAt: new Date().toISOString(), metadata: bag })}\n`);
        } catch (error) {
          return `metadata not saved to ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
        }
        return undefined;
      });
      if (isNew) pruneStale(dir);
      return result;
    },
    remove(sessionId) {
      const file = sessionFile(dir, sessionId);
      pruneStale(dir);
      try {
        // Only a regular file: the name is ours, whatever sits there goes, but never through a link's target.
        const stats = lstatSync(file);
        if (stats.isFile() || stats.isSymbolicLink()) unlinkSync(file);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') return `metadata of the session not removed (${file}: ${code ?? (error as Error).message})`;
      }
      return undefined;
    },
  };
}

/** A store that lives as long as the object (library hosts, `hooks test`): sessions never touch the disk. */
export function memoryStore(initial: Record<string, Bag> = {}): MetadataStore {
  const bags = new Map<string, Bag>(Object.entries(initial));
  return {
    load: (sessionId) => ({ bag: bags.get(sessionId) ?? {} }),
    async save(sessionId, changes) {
      const bag = mergeBag(bags.get(sessionId) ?? {}, changes);
      const problem = bagProblem(bag);
      if (problem !== undefined) return `metadata not saved: ${problem}`;
      bags.set(sessionId, bag);
      return undefined;
    },
    remove(sessionId) {
      bags.delete(sessionId);
      return undefined;
    },
  };
}

/**
 * The bag stored in `file` for `sessionId`. Never throws: a missing file is an empty bag; a file that is
 * not a private regular file of ours, too large, not JSON, of another shape or another session, or a
 * bag over the limits is an empty bag and a problem naming the file.
 */
export function readSessionFile(file: string, sessionId: string): { bag: Bag; problem?: string } {
  const ignored = (why: string) => ({ bag: {}, problem: `metadata file ${file} ignored: ${why}; the session's metadata starts empty` });
  let text: string;
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile()) return ignored('not a regular file');
    const unsafe = unsafeOwnership(stats);
    if (unsafe !== undefined) return ignored(unsafe);
    if (stats.size > MAX_FILE_BYTES) return ignored(`${stats.size} bytes, larger than any bag within the cap`);
    const buffer = Buffer.alloc(stats.size);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    text = buffer.subarray(0, read).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { bag: {} };
    return ignored(code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE' ? 'it is a symbolic link' : `cannot read it (${code ?? (error as Error).message})`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    return ignored('not JSON (a torn or foreign write?)');
  }
  if (!isRecord(stored) || stored.v !== FORMAT_VERSION) return ignored(`not a metadata file of format ${FORMAT_VERSION}`);
  if (stored.sessionId !== sessionId) return ignored('it belongs to another session');
  const problem = bagProblem(stored.metadata);
  if (problem !== undefined) return ignored(`its bag is unusable: ${problem}`);
  return { bag: stored.metadata as Bag };
}

// --- internal ---

/**
 * Runs `fn` holding `<file>.lock` (created O_EXCL), so that two events of one session saving at once
 * both keep their keys. A lock older than LOCK_STALE_MS is a crashed run's and is broken. After
 * LOCK_WAIT_MS the save goes ahead without it: the write is atomic either way, only a concurrent key could be lost.
 */
async function withLock(file: string, fn: () => string | undefined): Promise<string | undefined> {
  const lock = `${file}.lock`;
  const deadline = now() + LOCK_WAIT_MS;
  let fd: number | undefined;
  for (;;) {
    try {
      fd = openSync(lock, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') break;
      if (lockIsStale(lock)) {
        try {
          unlinkSync(lock);
        } catch {
          // Another run broke it first.
        }
        continue;
      }
      if (now() > deadline) break;
      await sleep(5 + Math.random() * 10);
    }
  }
  try {
    return fn();
  } finally {
    if (fd !== undefined) {
      closeSync(fd);
      try {
        unlinkSync(lock);
      } catch {
        // Broken as stale by another run: nothing to release.
      }
    }
  }
}

function lockIsStale(lock: string): boolean {
  try {
    return Date.now() - lstatSync(lock).mtimeMs > LOCK_STALE_MS;
  } catch {
    return false;
  }
}

/** Removes session files (and left-over locks) not touched for METADATA_LIMITS.staleMs. Best effort, never throws. */
function pruneStale(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const today = Date.now();
  for (const name of names.slice(0, 10_000)) {
    if (!FILE_NAME.test(name) && !FILE_NAME.test(name.replace(/\.lock$/, ''))) continue;
    const file = path.join(dir, name);
    try {
      const stats = lstatSync(file);
      if ((stats.isFile() || stats.isSymbolicLink()) && today - stats.mtimeMs > METADATA_LIMITS.staleMs) unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}
