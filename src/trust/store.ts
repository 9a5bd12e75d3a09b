// The trust store: which project config files the user trusted, by absolute path and the sha256 of the
// exact bytes, with the state of every file they cover (src/trust/covers.ts: the scripts their commands
// run, a JS config's imports). Kept in `stateDir(env)/trust.json` (dir 0700, file 0600). Any change to
// the bytes or to a covered file makes the config untrusted again (the direnv / mise model).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { stateDir } from '../paths.js';
import { privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';
import { COVER_STATE, firstChange, observeCovers, type Covers } from './covers.js';

export interface TrustEntry {
  sha256: string;
  /** ISO time of the `hooks trust` that recorded it. */
  trustedAt: string;
  /**
   * The covered files and their states when trusted. Absent in an entry written by a version before
   * covers: such an entry trusts nothing until `hooks trust` records it again (see `checkTrust`).
   */
  covers?: Covers;
}

export interface TrustStore {
  file: string;
  entries: Record<string, TrustEntry>;
  /** Why the store on disk was not used (not ours, open to others, damaged); undefined when fine or absent. */
  problem?: string;
}

const FORMAT = 1;

/** The trust store's path: `$XDG_STATE_HOME/agent-hooks/trust.json`. */
export function trustFile(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), 'trust.json');
}

/** sha256 (hex) of a file's bytes. */
export function digest(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads the store. A store that is not the user's own (or not private) counts as empty: nothing is trusted. */
export function readTrustStore(env: NodeJS.ProcessEnv): TrustStore {
  const file = trustFile(env);
  const entries: Record<string, TrustEntry> = Object.create(null);
  const text = readPrivateFile(file);
  if (text === undefined) return { file, entries };
  try {
    const data = JSON.parse(text) as { format?: unknown; files?: unknown };
    if (data.format !== FORMAT || typeof data.files !== 'object' || data.files === null) throw new Error('unknown format');
    for (const [name, entry] of Object.entries(data.files as Record<string, unknown>)) {
      const e = entry as Partial<TrustEntry> | null;
      if (path.isAbsolute(name) && typeof e?.sha256 === 'string' && /^[0-9a-f]{64}$/.test(e.sha256)) {
        entries[name] = { sha256: e.sha256, trustedAt: typeof e.trustedAt === 'string' ? e.trustedAt : '' };
        const covers = readCovers(e.covers);
        if (covers !== undefined) entries[name].covers = covers;
      }
    }
    return { file, entries };
  } catch (error) {
    return { file, entries, problem: `${file}: ${(error as Error).message}; nothing is trusted until "hooks trust" rewrites it` };
  }
}

/** A covers map as stored; anything malformed in it makes the whole entry trust nothing (undefined). */
function readCovers(value: unknown): Covers | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const covers: Covers = {};
  for (const [rel, state] of Object.entries(value)) {
    if (rel === '' || path.isAbsolute(rel) || typeof state !== 'string' || !COVER_STATE.test(state)) return undefined;
    covers[rel] = state;
  }
  return covers;
}

/** True when exactly these bytes of this file were trusted (its covered files not looked at: see `checkTrust`). */
export function isTrusted(store: TrustStore, file: string, sha256: string): boolean {
  return Object.hasOwn(store.entries, file) && store.entries[file]!.sha256 === sha256;
}

export interface TrustCheck {
  trusted: boolean;
  /** Why not, when the bytes were trusted but something since is not as it was: the rest of a sentence after the file's name. */
  why?: string;
  /** The covered files' states now (absent when the bytes do not match: nothing was looked at). */
  covers?: Covers;
}

/**
 * Whether `file` (in folder `dir`) with these bytes may run: its bytes were trusted, by an entry that
 * records its covered files, and each of them is as it was then.
 */
export function checkTrust(store: TrustStore, file: string, sha256: string, dir: string): TrustCheck {
  if (!isTrusted(store, file, sha256)) return { trusted: false };
  const recorded = store.entries[file]!.covers;
  if (recorded === undefined) {
    return { trusted: false, why: 'was trusted by an older agent-hooks, whose trust did not cover the scripts its commands run' };
  }
  const covers = observeCovers(dir, Object.keys(recorded));
  const change = firstChange(recorded, covers);
  return change === undefined ? { trusted: true, covers } : { trusted: false, why: `is no longer trusted: ${change} since "npx agent-hooks trust"`, covers };
}

/** Records (or forgets) files and writes the store; throws a one-line `HooksError` when it cannot. */
export function updateTrustStore(env: NodeJS.ProcessEnv, change: { trust?: { file: string; sha256: string; covers: Covers }[]; untrust?: string[] }): TrustStore {
  const store = readTrustStore(env);
  const now = new Date().toISOString();
  for (const { file, sha256, covers } of change.trust ?? []) store.entries[file] = { sha256, trustedAt: now, covers };
  for (const file of change.untrust ?? []) delete store.entries[file];
  const dir = path.dirname(store.file);
  const problem = privateDir(dir);
  if (problem !== undefined) throw new HooksError('USAGE', `cannot write the trust store: ${problem}`, { file: store.file });
  const sorted = Object.fromEntries(Object.entries(store.entries).sort(([a], [b]) => a.localeCompare(b)));
  try {
    writePrivateFile(store.file, `${JSON.stringify({ format: FORMAT, files: sorted }, null, 2)}\n`);
  } catch (error) {
    throw new HooksError('USAGE', `cannot write the trust store ${store.file}: ${(error as Error).message}`, { file: store.file });
  }
  return { file: store.file, entries: sorted };
}
