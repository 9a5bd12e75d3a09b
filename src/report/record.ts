// One line of the audit log (docs/guards/audit-log.md, record format v1) as the report reads it. The line is
// untrusted: anything that is not a well-formed v1 record is a counted skip with its reason, never a throw.

/** What the report keeps of a record; every string is as written (printing makes it safe, see printable.ts). */
export interface AuditRecord {
  kind: 'hook' | 'event';
  /** Milliseconds since the epoch, from `ts`. */
  at: number;
  event: string;
  tool?: string;
  sessionId?: string;
  project?: string;
  /** Hook records: the hook's id, outcome and failure kind. */
  hook?: string;
  outcome?: string;
  failure?: string;
  /** Shadow mode: what the hook would have answered. */
  wouldHave?: string;
  /** Event records: the combined decision and the hook that made it. */
  decision?: string;
  decidedBy?: string;
  reason?: string;
  ms?: number;
}

/** Why a line was not counted. */
export type SkipReason = 'empty' | 'too-long' | 'not-json' | 'not-a-record' | 'unknown-version';

export const SKIP_REASONS: readonly SkipReason[] = ['empty', 'too-long', 'not-json', 'not-a-record', 'unknown-version'];

export type ParsedLine = { record: AuditRecord } | { skip: SkipReason };

const RECORD_VERSION = 1;

/** A record from one line (without its newline), or why it is skipped. */
export function parseRecord(line: string): ParsedLine {
  if (line.trim() === '') return { skip: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { skip: 'not-json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { skip: 'not-a-record' };
  const r = value as Record<string, unknown>;
  if (r.v !== RECORD_VERSION) return { skip: typeof r.v === 'number' ? 'unknown-version' : 'not-a-record' };
  if (r.kind !== 'hook' && r.kind !== 'event') return { skip: 'not-a-record' };
  const at = typeof r.ts === 'string' ? Date.parse(r.ts) : Number.NaN;
  if (!Number.isFinite(at) || typeof r.event !== 'string') return { skip: 'not-a-record' };
  const record: AuditRecord = { kind: r.kind, at, event: r.event };
  // Optional fields of the wrong type are left out rather than failing the record: the counts still hold.
  const text = (key: keyof AuditRecord & string) => {
    const v = r[key];
    if (typeof v === 'string') (record as unknown as Record<string, unknown>)[key] = v;
  };
  text('tool');
  text('sessionId');
  text('project');
  text('reason');
  if (typeof r.ms === 'number' && Number.isFinite(r.ms) && r.ms >= 0) record.ms = r.ms;
  if (r.kind === 'hook') {
    if (typeof r.hook !== 'string' || typeof r.outcome !== 'string') return { skip: 'not-a-record' };
    text('hook');
    text('outcome');
    text('failure');
    text('wouldHave');
  } else {
    if (typeof r.decision !== 'string') return { skip: 'not-a-record' };
    text('decision');
    text('decidedBy');
  }
  return { record };
}
