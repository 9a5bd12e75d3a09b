// `hooks report`'s core: read the audit logs named, count what falls in the window, and say what was read.
import { closeSync } from 'node:fs';
import { openLog, readLines, type LineOptions } from './lines.js';
import { parseRecord, SKIP_REASONS, type SkipReason } from './record.js';
import { Tally, type Counts, type Notable, type Row, type Timing } from './tally.js';

/** One log, as the report read it (or did not). */
export interface FileSummary {
  path: string;
  status: 'read' | 'missing' | 'refused';
  /** Why it was refused (a symlink, not a regular file, another user's file). */
  why?: string;
  /** The file's size and how many bytes of it were read (less when only its tail was). */
  size?: number;
  bytesRead?: number;
  lines: number;
  /** Records inside the window, and records read but older than it. */
  records: number;
  outside: number;
  skipped: Record<SkipReason, number>;
}

/** The `--json` shape (docs/report.md): `version` changes when a field changes meaning or goes away. */
export interface Report {
  version: 1;
  since: string;
  until: string;
  files: FileSummary[];
  totals: Counts;
  byHook: Row[];
  byTool: Row[];
  byProject: Row[];
  bySession: Row[];
  slowest: Timing[];
  latest: Notable[];
  /** Keys beyond the per-group cap, counted under "(other)". */
  overflow: number;
  /** True when only the tail of a log was read and the window may start before it (doctor's summary). */
  partial: boolean;
}

export interface LogToRead {
  path: string;
  /** For a path inside a project: no folder between the two may be a symlink (as the writer checks). */
  projectDir?: string;
}

export interface ReportOptions {
  since: Date;
  now: Date;
  /** Read at most this many bytes from the end of each log (doctor); the default reads it all. */
  tailBytes?: number;
  lines?: Pick<LineOptions, 'maxLineBytes' | 'chunkBytes'>;
}

const noSkips = (): Record<SkipReason, number> => Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as Record<SkipReason, number>;

/** Reads each log once (a path named twice is read once) and counts the records from `since` on. */
export function buildReport(logs: LogToRead[], options: ReportOptions): Report {
  const tally = new Tally();
  const since = options.since.getTime();
  const sinceIso = options.since.toISOString();
  const files: FileSummary[] = [];
  let partial = false;
  const seen = new Set<string>();
  for (const log of logs) {
    if (seen.has(log.path)) continue;
    seen.add(log.path);
    const summary: FileSummary = { path: log.path, status: 'read', lines: 0, records: 0, outside: 0, skipped: noSkips() };
    files.push(summary);
    const opened = openLog(log.path, log.projectDir);
    if ('missing' in opened) {
      summary.status = 'missing';
      continue;
    }
    if ('refused' in opened) {
      summary.status = 'refused';
      summary.why = opened.refused;
      continue;
    }
    const start = options.tailBytes === undefined ? 0 : Math.max(0, opened.size - options.tailBytes);
    let oldestRead = Number.POSITIVE_INFINITY;
    try {
      const counts = readLines(
        opened.fd,
        (line) => {
          if (olderThan(line, sinceIso)) {
            summary.outside++;
            oldestRead = Math.min(oldestRead, since - 1);
            return;
          }
          const parsed = parseRecord(line);
          if ('skip' in parsed) {
            summary.skipped[parsed.skip]++;
            return;
          }
          const r = parsed.record;
          if (r.at < oldestRead) oldestRead = r.at;
          if (r.at < since) {
            summary.outside++;
            return;
          }
          summary.records++;
          tally.add(r);
        },
        { ...options.lines, start },
      );
      summary.lines = counts.lines;
      summary.skipped['too-long'] += counts.tooLong;
      summary.size = opened.size;
      summary.bytesRead = counts.bytes;
    } finally {
      closeSync(opened.fd);
    }
    // Only a tail was read, and nothing in it is older than the window: the window may reach further back.
    if (start > 0 && !(oldestRead < since)) partial = true;
  }
  return {
    version: 1,
    since: options.since.toISOString(),
    until: options.now.toISOString(),
    files,
    totals: tally.totals,
    byHook: tally.byHook.sorted(),
    byTool: tally.byTool.sorted(),
    byProject: tally.byProject.sorted(),
    bySession: tally.bySession.sorted(),
    slowest: tally.slowest(),
    latest: tally.latest(),
    overflow: tally.byHook.overflow + tally.byTool.overflow + tally.byProject.overflow + tally.bySession.overflow + tally.timingOverflow,
    partial,
  };
}

const PREFIX = '{"v":1,"ts":"';
const ISO_LENGTH = '2026-11-21T23:50:01.123Z'.length;

/**
 * A line as the guard writes it, `{"v":1,"ts":"<toISOString()>"`, with a time before the window: passed over
 * without parsing it (JSON.parse is nearly all of a report's time, and most of a long log is older than the
 * window). Two such times compare as strings as they do as times. Anything else is parsed whole.
 */
function olderThan(line: string, sinceIso: string): boolean {
  if (!line.startsWith(PREFIX) || line.charCodeAt(PREFIX.length + ISO_LENGTH) !== 0x22 || sinceIso.length !== ISO_LENGTH) return false;
  const ts = line.slice(PREFIX.length, PREFIX.length + ISO_LENGTH);
  return ts[4] === '-' && ts[10] === 'T' && ts[23] === 'Z' && ts < sinceIso;
}

/** Lines that could not be counted in a file (empty lines, which torn writes leave, are not among them). */
export function unreadable(file: FileSummary): number {
  return SKIP_REASONS.filter((r) => r !== 'empty').reduce((n, r) => n + file.skipped[r], 0);
}
