// Reads a log file line by line in fixed chunks: memory stays bounded by the chunk and the longest line
// kept, however big the file (a multi-GB log) and whatever its lines hold (a line of gigabytes is skipped
// and counted, not gathered). Lines are split on the 0x0a byte, which never occurs inside a UTF-8 sequence,
// so a line is decoded whole even when a chunk boundary cuts a character.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { isInside } from '../paths.js';

export interface LineOptions {
  /** Byte offset to start at; a start inside a line skips to the next one (reading a file's tail). */
  start?: number;
  /** Longer lines are skipped and counted in `tooLong`. Default 1 MiB. */
  maxLineBytes?: number;
  /** Read size. Default 1 MiB; tests make it tiny to put boundaries everywhere. */
  chunkBytes?: number;
}

export interface LineCounts {
  /** Lines handed to `onLine` plus lines skipped as too long. */
  lines: number;
  tooLong: number;
  /** Bytes read from the file. */
  bytes: number;
}

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;

/** Calls `onLine` with each line of the open file `fd` (without its newline and a trailing CR). */
export function readLines(fd: number, onLine: (line: string) => void, options: LineOptions = {}): LineCounts {
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? 1024 * 1024);
  const start = options.start ?? 0;
  const counts: LineCounts = { lines: 0, tooLong: 0, bytes: 0 };
  // The part of a line begun in an earlier chunk; `dropping` while a too-long line runs on.
  let carry: Buffer[] = [];
  let carried = 0;
  let dropping = false;
  // Started mid-file: the first line is likely cut, so it is passed over (a start at a line's first byte
  // is known by the byte before it).
  let skipFirst = false;
  if (start > 0) {
    const before = Buffer.alloc(1);
    skipFirst = readSync(fd, before, 0, 1, start - 1) === 1 && before[0] !== 0x0a;
  }
  const emit = (piece: Buffer) => {
    counts.lines++;
    let line = carried === 0 ? piece.toString('utf8') : Buffer.concat([...carry, piece]).toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    onLine(line);
  };
  let position = start;
  for (;;) {
    const got = readSync(fd, chunk, 0, chunk.length, position);
    if (got === 0) break;
    position += got;
    counts.bytes += got;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl === -1 || nl >= got) break;
      if (skipFirst) skipFirst = false;
      else if (dropping || carried + (nl - from) > maxLine) {
        counts.lines++;
        counts.tooLong++;
      } else emit(chunk.subarray(from, nl));
      carry = [];
      carried = 0;
      dropping = false;
      from = nl + 1;
    }
    if (from < got && !dropping) {
      const rest = got - from;
      if (skipFirst || carried + rest > maxLine) {
        // Nothing of this line is kept: a line past the limit is counted once its end is found.
        dropping = !skipFirst;
        carry = [];
        carried = 0;
      } else {
        // A copy: the chunk buffer is reused by the next read.
        carry.push(Buffer.from(chunk.subarray(from, got)));
        carried += rest;
      }
    }
  }
  // A last line with no newline (a torn write, or one being appended right now) is still a line.
  if (!skipFirst) {
    if (dropping) {
      counts.lines++;
      counts.tooLong++;
    } else if (carried > 0) emit(Buffer.alloc(0));
  }
  return counts;
}

export type OpenLog = { fd: number; size: number } | { refused: string } | { missing: true };

/**
 * Opens a log to read, refusing what the writer refuses to write through (docs/guards/audit-log.md): a
 * symlink at the file, a symlinked folder between `projectDir` and a file inside the project, anything that
 * is not a regular file (a FIFO must not hang the report: O_NONBLOCK), a file another user owns.
 */
export function openLog(file: string, projectDir?: string): OpenLog {
  if (projectDir !== undefined && isInside(projectDir, file)) {
    for (let dir = path.dirname(file); dir !== projectDir && isInside(projectDir, dir); dir = path.dirname(dir)) {
      let linked = false;
      try {
        linked = lstatSync(dir).isSymbolicLink();
      } catch {
        // Not there: the open below says the file is missing.
      }
      if (linked) return { refused: `${dir} is a symbolic link` };
    }
  }
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { missing: true };
    if (code === 'ELOOP' || code === 'EMLINK' || code === 'EFTYPE') return { refused: 'it is a symbolic link' };
    return { refused: (error as Error).message };
  }
  const stat = fstatSync(fd);
  const uid = process.getuid?.();
  const why = !stat.isFile() ? 'it is not a regular file' : uid !== undefined && stat.uid !== uid ? `it is owned by uid ${stat.uid}, not by you (uid ${uid})` : undefined;
  if (why !== undefined) {
    closeSync(fd);
    return { refused: why };
  }
  return { fd, size: stat.size };
}
