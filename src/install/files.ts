// The only module here that touches the disk: read a settings file, write it back with a backup first.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HooksError } from '../errors.js';

export const BACKUP_SUFFIX = '.agent-hooks.bak';

/** The file's text, or undefined when there is none; any other read error names the file. */
export function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HooksError('CONFIG_UNREADABLE', `${file}: cannot read it (${(error as Error).message})`, { file });
  }
}

/**
 * Writes `after` (undefined: deletes the file), first copying an existing file to `<file>.agent-hooks.bak`.
 * Returns the backup's path, if one was made. The new text goes to a temporary file that is renamed
 * over the old one, so an agent reading the settings meanwhile never sees half a file.
 */
export function writeWithBackup(file: string, after: string | undefined): string | undefined {
  const target = resolveLink(file);
  let backup: string | undefined;
  let mode: number | undefined;
  try {
    mode = statSync(target).mode & 0o7777;
    backup = `${file}${BACKUP_SUFFIX}`;
    copyFileSync(target, backup);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw writeError(file, error);
  }
  try {
    if (after === undefined) {
      unlinkSync(target);
      return backup;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.agent-hooks-${process.pid}.tmp`;
    writeFileSync(temporary, after);
    if (mode !== undefined) chmodSync(temporary, mode);
    renameSync(temporary, target);
    return backup;
  } catch (error) {
    throw writeError(file, error);
  }
}

/** A settings file that is a symlink (dotfiles) is written through, so the link stays a link. */
function resolveLink(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function writeError(file: string, error: unknown): HooksError {
  return new HooksError('CONFIG_UNREADABLE', `${file}: cannot write it (${(error as Error).message})`, { file });
}
