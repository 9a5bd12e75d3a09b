// The counting behind `hooks report`: decisions by hook, tool, project and session, hook timings, the latest
// decisions. Memory is bounded whatever the log holds: a group keeps at most MAX_KEYS keys of at most
// MAX_KEY_LENGTH characters (the rest count under "(other)"), timings are a histogram, not a list.
import type { AuditRecord } from './record.js';

export interface Counts {
  /** Event records (by hook: the runs of that hook). */
  events: number;
  blocked: number;
  asked: number;
  /** `modify`: the hook or the run rewrote the input, prompt or output. */
  rewritten: number;
  /** `halt`: the agent was stopped. */
  halted: number;
  /** Hook records with a failure (timeout, crash, bad reply). */
  failed: number;
  /** Shadow mode: hooks that would have blocked, asked, rewritten or halted, had they been applied. */
  shadow: number;
}

export interface Row extends Counts {
  key: string;
}

export interface Timing {
  hook: string;
  count: number;
  p50: number;
  p95: number;
  max: number;
}

export interface Notable {
  ts: string;
  decision: string;
  decidedBy?: string;
  event: string;
  tool?: string;
  project?: string;
  sessionId?: string;
  reason?: string;
}

export const MAX_KEYS = 5000;
export const MAX_KEY_LENGTH = 512;
export const MAX_REASON_LENGTH = 500;
export const OTHER = '(other)';
export const UNKNOWN = '(unknown)';
/** The tool of an event that is not about a tool (stop, userPromptSubmit). */
export const NO_TOOL = '(none)';
const NOTABLE_KEPT = 10;

const zero = (): Counts => ({ events: 0, blocked: 0, asked: 0, rewritten: 0, halted: 0, failed: 0, shadow: 0 });

const OUTCOMES: Record<string, keyof Counts> = { block: 'blocked', ask: 'asked', modify: 'rewritten', halt: 'halted' };
/** A log's word as a count, own keys only: "constructor" or "__proto__" in a hostile log is no decision. */
const byOutcome = (word: string | undefined): keyof Counts | undefined => (word !== undefined && Object.hasOwn(OUTCOMES, word) ? OUTCOMES[word] : undefined);

class Group {
  readonly rows = new Map<string, Counts>();
  overflow = 0;
  at(raw: string): Counts {
    const key = raw.length > MAX_KEY_LENGTH ? `${raw.slice(0, MAX_KEY_LENGTH)}…` : raw;
    let row = this.rows.get(key);
    if (row === undefined) {
      if (this.rows.size >= MAX_KEYS && key !== OTHER) {
        this.overflow++;
        return this.at(OTHER);
      }
      row = zero();
      this.rows.set(key, row);
    }
    return row;
  }
  sorted(): Row[] {
    return [...this.rows].map(([key, c]) => ({ key, ...c })).sort(byWeight);
  }
}

function weight(c: Counts): number {
  return c.blocked + c.asked + c.rewritten + c.halted + c.failed;
}

function byWeight(a: Row, b: Row): number {
  return weight(b) - weight(a) || b.events - a.events || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Milliseconds in buckets: exact to the millisecond below 100 ms, then 1% wide. The number of buckets is
 * bounded (a hostile `ms` of 1e300 lands in one bucket), and so are p50/p95's error.
 */
class Histogram {
  readonly buckets = new Map<number, number>();
  count = 0;
  max = 0;
  add(ms: number): void {
    this.count++;
    if (ms > this.max) this.max = ms;
    const b = bucketOf(ms);
    this.buckets.set(b, (this.buckets.get(b) ?? 0) + 1);
  }
  quantile(q: number): number {
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (const b of [...this.buckets.keys()].sort((x, y) => x - y)) {
      seen += this.buckets.get(b)!;
      if (seen >= rank) return Math.min(valueOf(b), this.max);
    }
    return this.max;
  }
}

const STEP = Math.log(1.01);
function bucketOf(ms: number): number {
  return ms < 100 ? Math.round(ms) : 100 + Math.floor(Math.log(ms / 100) / STEP);
}
function valueOf(bucket: number): number {
  return bucket <= 100 ? bucket : Math.round(100 * Math.exp((bucket - 100 + 1) * STEP));
}

export class Tally {
  readonly totals = zero();
  readonly byHook = new Group();
  readonly byTool = new Group();
  readonly byProject = new Group();
  readonly bySession = new Group();
  readonly timings = new Map<string, Histogram>();
  timingOverflow = 0;
  notable: (Notable & { at: number })[] = [];
  /** The oldest and newest record counted (ms since the epoch). */
  oldest = Number.POSITIVE_INFINITY;
  newest = Number.NEGATIVE_INFINITY;

  add(r: AuditRecord): void {
    if (r.at < this.oldest) this.oldest = r.at;
    if (r.at > this.newest) this.newest = r.at;
    const places = [this.byTool.at(r.tool ?? NO_TOOL), this.byProject.at(r.project ?? UNKNOWN), this.bySession.at(r.sessionId ?? UNKNOWN), this.totals];
    if (r.kind === 'hook') {
      const hook = this.byHook.at(r.hook!);
      hook.events++;
      const kind = byOutcome(r.outcome);
      if (kind !== undefined) hook[kind]++;
      const failed = r.failure !== undefined;
      const shadow = byOutcome(r.wouldHave) !== undefined;
      for (const c of [hook, ...places]) {
        if (failed) c.failed++;
        if (shadow) c.shadow++;
      }
      if (r.ms !== undefined) this.timing(r.hook!).add(r.ms);
      return;
    }
    const kind = byOutcome(r.decision);
    for (const c of places) {
      c.events++;
      if (kind !== undefined) c[kind]++;
    }
    if (kind !== undefined) this.remember(r);
  }

  private timing(hook: string): Histogram {
    const key = hook.length > MAX_KEY_LENGTH ? `${hook.slice(0, MAX_KEY_LENGTH)}…` : hook;
    let h = this.timings.get(key);
    if (h === undefined) {
      if (this.timings.size >= MAX_KEYS && key !== OTHER) {
        this.timingOverflow++;
        return this.timing(OTHER);
      }
      h = new Histogram();
      this.timings.set(key, h);
    }
    return h;
  }

  private remember(r: AuditRecord): void {
    const cut = (s: string | undefined, n: number) => (s === undefined ? undefined : s.length > n ? `${s.slice(0, n)}…` : s);
    const item: Notable & { at: number } = {
      at: r.at,
      ts: new Date(r.at).toISOString(),
      decision: r.decision!,
      event: cut(r.event, MAX_KEY_LENGTH)!,
      ...(r.decidedBy === undefined ? {} : { decidedBy: cut(r.decidedBy, MAX_KEY_LENGTH) }),
      ...(r.tool === undefined ? {} : { tool: cut(r.tool, MAX_KEY_LENGTH) }),
      ...(r.project === undefined ? {} : { project: cut(r.project, MAX_KEY_LENGTH) }),
      ...(r.sessionId === undefined ? {} : { sessionId: cut(r.sessionId, MAX_KEY_LENGTH) }),
      ...(r.reason === undefined ? {} : { reason: cut(r.reason, MAX_REASON_LENGTH) }),
    };
    this.notable.push(item);
    // Sorted and cut now and then, not per record: logs are mostly in time order already.
    if (this.notable.length >= NOTABLE_KEPT * 4) this.trimNotable();
  }

  private trimNotable(): void {
    this.notable.sort((a, b) => b.at - a.at);
    this.notable.length = Math.min(this.notable.length, NOTABLE_KEPT);
  }

  /** The latest decisions that blocked, asked, rewrote or halted, newest first. */
  latest(): Notable[] {
    this.trimNotable();
    return this.notable.map(({ at: _at, ...rest }) => rest);
  }

  slowest(): Timing[] {
    return [...this.timings]
      .map(([hook, h]) => ({ hook, count: h.count, p50: h.quantile(0.5), p95: h.quantile(0.95), max: h.max }))
      .sort((a, b) => b.p95 - a.p95 || b.max - a.max || (a.hook < b.hook ? -1 : 1));
  }
}
