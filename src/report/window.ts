// The report's time window: `--days N` (default 7) or `--since` a date, a date-time or a duration back.
import { HooksError } from '../errors.js';

export interface Window {
  since: Date;
  /** How the text says it: "last 7 days", "since 2026-11-20". */
  label: string;
}

const DAY = 86_400_000;
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: DAY };

export function reportWindow(flags: { days?: string; since?: string }, now: Date): Window {
  if (flags.days !== undefined && flags.since !== undefined) throw new HooksError('USAGE', '--days and --since say the same thing: give one');
  if (flags.since !== undefined) {
    const since = flags.since.trim();
    const back = /^(\d+)([mhd])$/.exec(since);
    if (back !== null) return { since: new Date(now.getTime() - Number(back[1]) * UNITS[back[2]!]!), label: `last ${since}` };
    // ISO 8601 only: Date.parse reads other shapes differently from one engine to the next.
    if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(since)) {
      const at = Date.parse(since.replace(' ', 'T'));
      if (Number.isFinite(at)) return { since: new Date(at), label: `since ${since}` };
    }
    throw new HooksError('USAGE', `--since: expected a date (2026-11-20), a date-time (2026-11-20T08:00Z) or a duration (12h, 3d, 90m), got "${flags.since}"`);
  }
  const raw = flags.days ?? '7';
  const days = /^\d{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 1)) throw new HooksError('USAGE', `--days: expected a whole number of days, 1 or more, got "${raw}"`);
  return { since: new Date(now.getTime() - days * DAY), label: days === 1 ? 'last day' : `last ${days} days` };
}
