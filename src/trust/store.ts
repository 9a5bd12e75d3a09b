// The trust store: which project config files the user trusted, by absolute path and the sha256 of the
// exact bytes. Kept in `stateDir(env)/trust.json` (dir 0700, file 0600). Any change to the bytes makes
// the file untrusted again (the direnv / mise model).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { HooksError } from '../errors.js';
import { stateDir } from '../paths.js';
import { privateDir, readPrivateFile, writePrivateFile } from '../fs/private.js';

export interface TrustEntry {
  sha256: string;
  /** ISO time of the `hooks trust` that recorded it. */
  trustedAt: string;
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
      }
    }
    return { file, entries };
  } catch (error) {
    return { file, entries, problem: `${file}: ${(error as Error).message}; nothing is trusted until "hooks trust" rewrites it` };
  }
}

/** True when exactly these bytes of this file were trusted. */
export function isTrusted(store: TrustStore, file: string, sha256: string): boolean {
  return Object.hasOwn(store.entries, file) && store.entries[file]!.sha256 === sha256;
}

/** Records (or forgets) files and writes the store; throws a one-line `HooksError` when it cannot. */
export function updateTrustStore(env: NodeJS.ProcessEnv, change: { trust?: { file: string; sha256: string }[]; untrust?: string[] }): TrustStore {
  const store = readTrustStore(env);
  const now = new Date().toISOString();
  for (const { file, sha256 } of change.trust ?? []) store.entries[file] = { sha256, trustedAt: now };
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
