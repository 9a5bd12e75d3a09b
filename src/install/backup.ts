// The state of a settings file before install or uninstall changed it, kept in the user's state dir
// ($XDG_STATE_HOME/agent-hooks/install/), never beside the file: a backup in the repository is a
// name a hostile repository can plant a symlink at, and one more file to keep out of git.
//
// One record per settings file: the bytes before (null: there was no file) and after the last change
// agent-hooks made. Consecutive installs chain (the "before" stays the state before the first of
// them), so uninstall can give back the original bytes exactly while the file is still as we left it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { privateFolder } from '../fs/private.js';
import { readSafely, writeSafely } from '../fs/write-safely.js';
import { isRecord } from '../json.js';
import { stateDir } from '../paths.js';

export interface BackupRecord {
  file: string;
  before: string | null;
  after: string | null;
  at: string;
}

/** Where the record for `file` lives. */
export function backupPath(file: string, env: NodeJS.ProcessEnv): string {
  const id = createHash('sha256').update(path.resolve(file)).digest('hex').slice(0, 16);
  return path.join(stateDir(env), 'install', `${path.basename(file)}-${id}.json`);
}

/** The record for `file`, or undefined when there is none (or it is unreadable: then it is ignored). */
export function readBackup(file: string, env: NodeJS.ProcessEnv): BackupRecord | undefined {
  const where = backupPath(file, env);
  let text: string | undefined;
  try {
    text = readSafely(where, { root: path.dirname(where) });
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || value.file !== path.resolve(file)) return undefined;
    const ok = (v: unknown) => v === null || typeof v === 'string';
    if (!ok(value.before) || !ok(value.after)) return undefined;
    return value as unknown as BackupRecord;
  } catch {
    return undefined;
  }
}

/**
 * Records a change of `file` from `before` to `after`; returns the record's path. `chain` (install):
 * when the file is still what we wrote last, the older "before" is kept, so the record goes back to
 * the state before agent-hooks' first change rather than to one of its own installs.
 */
export function recordChange(file: string, before: string | undefined, after: string | undefined, env: NodeJS.ProcessEnv, chain: boolean): string {
  const where = backupPath(file, env);
  privateFolder(stateDir(env));
  privateFolder(path.dirname(where));
  const previous = readBackup(file, env);
  // Still the bytes we wrote last time: the state before that change is the one worth keeping.
  const original = chain && previous !== undefined && previous.after === (before ?? null) ? previous.before : (before ?? null);
  const record: BackupRecord = { file: path.resolve(file), before: original, after: after ?? null, at: new Date().toISOString() };
  writeSafely(where, `${JSON.stringify(record, null, 2)}\n`, { root: path.dirname(where), mode: 0o600 });
  return where;
}
