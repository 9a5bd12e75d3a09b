// The page's history: every event the server answered, kept across restarts in an embedded SQLite
// file (node:sqlite, in Node 22.13+, 23.4+, 24 and later), with an index per filter so a query stays
// fast at a million events. Where Node has no node:sqlite (Node 20), a bounded in-memory store takes
// its place and says so, once, in the log and on the page: never an exception.
import { closeSync, constants, fstatSync, lstatSync, openSync } from 'node:fs';
import type { Filters } from './filters.js';
import type { PageEvent, PageHook } from './record.js';

export interface HookStats {
  hook: string;
  runs: number;
  /** Runs whose outcome blocked or halted. */
  blocks: number;
  p50: number;
  p95: number;
  max: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'memory';
  /** One line for the page and the log when the history is not kept across restarts (or why). */
  readonly note?: string;
  /** Stores the events and gives each its id (in place). */
  add(events: PageEvent[]): void;
  /** Newest first. */
  query(filters: Filters): PageEvent[];
  /** Per hook, over the latest `window` hook runs of the events the filters keep. */
  stats(filters: Filters, window?: number): HookStats[];
  /** The values seen lately, for the filters' suggestions. */
  facets(): Record<'project' | 'session' | 'agent' | 'hook', string[]>;
  count(): number;
  close(): void;
}

export const STATS_WINDOW = 10_000;
const FACET_WINDOW = 5_000;
const BLOCKING = new Set(['block', 'halt']);

/** The bounded in-memory store (Node without node:sqlite): the latest `max` events, lost at a restart. */
export class MemoryStore implements Store {
  readonly kind = 'memory' as const;
  private events: PageEvent[] = [];
  private next = 1;
  constructor(
    readonly note: string | undefined,
    private readonly max = 10_000,
  ) {}
  add(events: PageEvent[]): void {
    for (const e of events) {
      e.id = this.next++;
      this.events.push(e);
    }
    if (this.events.length > this.max) this.events.splice(0, this.events.length - this.max);
  }
  query(filters: Filters): PageEvent[] {
    const out: PageEvent[] = [];
    for (let i = this.events.length - 1; i >= 0 && out.length < filters.limit; i--) {
      const e = this.events[i]!;
      if (filters.before !== undefined && e.id >= filters.before) continue;
      if (matches(e, filters)) out.push(e);
    }
    return out;
  }
  stats(filters: Filters, window = STATS_WINDOW): HookStats[] {
    const runs: PageHook[] = [];
    for (let i = this.events.length - 1; i >= 0 && runs.length < window; i--) {
      const e = this.events[i]!;
      // Newest first, an event's hooks too: the order the SQLite store reads them in (its index, backwards).
      if (matches(e, filters)) for (let k = e.hooks.length - 1; k >= 0; k--) if (filters.hook === undefined || e.hooks[k]!.id === filters.hook) runs.push(e.hooks[k]!);
    }
    return summarize(runs.slice(0, window).map((h) => ({ hook: h.id, outcome: h.outcome, ms: h.ms })));
  }
  facets(): Record<'project' | 'session' | 'agent' | 'hook', string[]> {
    const recent = this.events.slice(-FACET_WINDOW);
    const distinct = (values: string[]) => [...new Set(values)].filter((v) => v !== '').sort().slice(0, 200);
    return {
      project: distinct(recent.map((e) => e.project)),
      session: distinct(recent.map((e) => e.session)),
      agent: distinct(recent.map((e) => e.agent)),
      hook: distinct(recent.flatMap((e) => e.hooks.map((h) => h.id))),
    };
  }
  count(): number {
    return this.events.length;
  }
  close(): void {
    this.events = [];
  }
}

/** True when the event passes every filter but `before` and `limit`. */
export function matches(e: PageEvent, f: Filters): boolean {
  return (
    (f.project === undefined || e.project === f.project) &&
    (f.session === undefined || e.session === f.session) &&
    (f.agent === undefined || e.agent === f.agent) &&
    (f.decision === undefined || e.decision === f.decision) &&
    (f.hook === undefined || e.hooks.some((h) => h.id === f.hook))
  );
}

function summarize(runs: { hook: string; outcome: string; ms: number }[]): HookStats[] {
  const by = new Map<string, { ms: number[]; blocks: number }>();
  for (const r of runs) {
    let s = by.get(r.hook);
    if (s === undefined) by.set(r.hook, (s = { ms: [], blocks: 0 }));
    s.ms.push(r.ms);
    if (BLOCKING.has(r.outcome)) s.blocks++;
  }
  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return [...by]
    .map(([hook, s]) => {
      const sorted = s.ms.sort((a, b) => a - b);
      return { hook, runs: sorted.length, blocks: s.blocks, p50: at(sorted, 0.5), p95: at(sorted, 0.95), max: sorted.at(-1) ?? 0 };
    })
    .sort((a, b) => b.runs - a.runs || a.hook.localeCompare(b.hook));
}

// The few members of node:sqlite used here (the types ship with @types/node 22+, not the 20 we build against).
interface Statement {
  run(...params: unknown[]): { lastInsertRowid: number | bigint };
  all(...params: unknown[]): Record<string, unknown>[];
  get(...params: unknown[]): Record<string, unknown> | undefined;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  close(): void;
}
type DatabaseConstructor = new (file: string) => Database;

/**
 * node:sqlite's DatabaseSync, or why not. Node 22 prints an ExperimentalWarning on its first load,
 * which would reach the stderr of whoever started the server (an agent's session): that one warning
 * is dropped, every other warning goes on.
 */
export function loadSqlite(): DatabaseConstructor | string {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (typeof get !== 'function') return `Node ${process.version} has no node:sqlite (Node 22.13+, 23.4+ or 24+ has)`;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === 'string' ? warning : warning.message;
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === 'ExperimentalWarning' || (warning instanceof Error && warning.name === 'ExperimentalWarning')) && /sqlite/i.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const sqlite = get.call(process, 'node:sqlite') as { DatabaseSync?: DatabaseConstructor } | undefined;
    if (sqlite?.DatabaseSync === undefined) return `Node ${process.version} has no node:sqlite (Node 22.13+, 23.4+ or 24+ has)`;
    return sqlite.DatabaseSync;
  } catch (error) {
    return `node:sqlite could not be loaded on Node ${process.version}: ${(error as Error).message}`;
  } finally {
    process.emitWarning = emit;
  }
}

/**
 * Checks (or creates) the database file as a private regular file of this user, never through a link:
 * created 0600 with O_EXCL and O_NOFOLLOW; an existing one must be a regular file, ours, 0600. The
 * folder is the server's own 0700 state folder, so nobody else can swap it between this check and
 * SQLite's open. Returns why not, or undefined.
 */
export function privateDbProblem(file: string): string | undefined {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    const name = file + suffix;
    let stat;
    try {
      stat = lstatSync(name);
    } catch {
      if (suffix !== '') continue;
      try {
        closeSync(openSync(name, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
      } catch (error) {
        return `${name} cannot be created: ${(error as Error).message}`;
      }
      continue;
    }
    if (stat.isSymbolicLink()) return `${name} is a symbolic link`;
    if (!stat.isFile()) return `${name} is not a regular file`;
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) return `${name} is owned by uid ${stat.uid}, not by you (uid ${uid})`;
    if ((stat.mode & 0o077) !== 0) return `${name} is readable or writable by others (mode ${(stat.mode & 0o777).toString(8)}; expected 600)`;
  }
  // The main file once more, opened without following a link, as SQLite will find it.
  try {
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (!fstatSync(fd).isFile()) return `${file} is not a regular file`;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `${file} cannot be opened: ${(error as Error).message}`;
  }
  return undefined;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  ts INTEGER NOT NULL,
  event TEXT NOT NULL,
  agent TEXT NOT NULL,
  project TEXT NOT NULL,
  session TEXT NOT NULL,
  tool TEXT,
  decision TEXT NOT NULL,
  decided_by TEXT,
  reason TEXT,
  ms INTEGER NOT NULL,
  hooks TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hook_runs (
  event_id INTEGER NOT NULL,
  hook TEXT NOT NULL,
  outcome TEXT NOT NULL,
  ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_project ON events (project, id);
CREATE INDEX IF NOT EXISTS events_session ON events (session, id);
CREATE INDEX IF NOT EXISTS events_agent ON events (agent, id);
CREATE INDEX IF NOT EXISTS events_decision ON events (decision, id);
CREATE INDEX IF NOT EXISTS hook_runs_hook ON hook_runs (hook, event_id);
CREATE INDEX IF NOT EXISTS hook_runs_event ON hook_runs (event_id);
`;

/** The SQLite store; keeps at most `max` events (the oldest go first). */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly note = undefined;
  private readonly insertEvent: Statement;
  private readonly insertHook: Statement;
  private added = 0;
  constructor(
    private readonly db: Database,
    private readonly max = 1_000_000,
  ) {
    // 32 MiB of page cache (SQLite's default is 2 MiB): at a million events the indexes' pages an insert
    // touches stay in memory, which made inserts several times cheaper in bench/page-store.mjs.
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 1000; PRAGMA cache_size = -32768;');
    db.exec(SCHEMA);
    this.insertEvent = db.prepare('INSERT INTO events (ts, event, agent, project, session, tool, decision, decided_by, reason, ms, hooks) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertHook = db.prepare('INSERT INTO hook_runs (event_id, hook, outcome, ms) VALUES (?, ?, ?, ?)');
  }
  add(events: PageEvent[]): void {
    if (events.length === 0) return;
    this.db.exec('BEGIN');
    try {
      for (const e of events) {
        const { lastInsertRowid } = this.insertEvent.run(e.ts, e.event, e.agent, e.project, e.session, e.tool ?? null, e.decision, e.decidedBy ?? null, e.reason ?? null, e.ms, JSON.stringify(e.hooks));
        e.id = Number(lastInsertRowid);
        for (const h of e.hooks) this.insertHook.run(e.id, h.id, h.outcome, h.ms);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    this.added += events.length;
    // Trimmed now and then, not per insert: a delete of the oldest thousand costs about what a thousand inserts do.
    if (this.added >= 1_000) {
      this.added = 0;
      const newest = Number(this.db.prepare('SELECT max(id) AS id FROM events').get()?.id ?? 0);
      const cut = newest - this.max;
      if (cut > 0) {
        this.db.prepare('DELETE FROM hook_runs WHERE event_id <= ?').run(cut);
        this.db.prepare('DELETE FROM events WHERE id <= ?').run(cut);
      }
    }
  }
  private where(f: Filters, alias: string): { sql: string; params: unknown[] } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    for (const key of ['project', 'session', 'agent', 'decision'] as const) {
      const value = f[key];
      if (value !== undefined) {
        clauses.push(`${alias}.${key} = ?`);
        params.push(value);
      }
    }
    return { sql: clauses.join(' AND '), params };
  }
  query(f: Filters): PageEvent[] {
    const w = this.where(f, 'e');
    const before = f.before === undefined ? [] : [f.before];
    let rows: Record<string, unknown>[];
    if (f.hook !== undefined) {
      // Driven by the hook's index in id order: the newest runs of that hook first.
      const sql = `SELECT e.* FROM hook_runs h JOIN events e ON e.id = h.event_id WHERE h.hook = ?${f.before === undefined ? '' : ' AND h.event_id < ?'}${w.sql === '' ? '' : ` AND ${w.sql}`} GROUP BY h.event_id ORDER BY h.event_id DESC LIMIT ?`;
      rows = this.db.prepare(sql).all(f.hook, ...before, ...w.params, f.limit);
    } else {
      const conditions = [...(f.before === undefined ? [] : ['e.id < ?']), ...(w.sql === '' ? [] : [w.sql])];
      const sql = `SELECT e.* FROM events e${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} ORDER BY e.id DESC LIMIT ?`;
      rows = this.db.prepare(sql).all(...before, ...w.params, f.limit);
    }
    return rows.map(fromRow);
  }
  stats(f: Filters, window = STATS_WINDOW): HookStats[] {
    const w = this.where(f, 'e');
    let sql: string;
    if (f.hook === undefined && w.sql !== '') {
      // Driven by the events' own index (a rare decision, one session): their runs, newest first.
      sql = `SELECT h.hook AS hook, h.outcome AS outcome, h.ms AS ms FROM events e JOIN hook_runs h ON h.event_id = e.id WHERE ${w.sql} ORDER BY e.id DESC, h.rowid DESC LIMIT ?`;
    } else {
      // Driven by the runs' index (all runs, or one hook's), read backwards: no sort of every run.
      const conditions = [...(f.hook === undefined ? [] : ['h.hook = ?']), ...(w.sql === '' ? [] : [w.sql])];
      const join = w.sql === '' ? '' : ' JOIN events e ON e.id = h.event_id';
      sql = `SELECT h.hook AS hook, h.outcome AS outcome, h.ms AS ms FROM hook_runs h${join}${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} ORDER BY h.event_id DESC, h.rowid DESC LIMIT ?`;
    }
    const rows = this.db.prepare(sql).all(...(f.hook === undefined ? [] : [f.hook]), ...w.params, window);
    return summarize(rows.map((r) => ({ hook: String(r.hook), outcome: String(r.outcome), ms: Number(r.ms) })));
  }
  facets(): Record<'project' | 'session' | 'agent' | 'hook', string[]> {
    const distinct = (column: string) =>
      this.db
        .prepare(`SELECT DISTINCT ${column} AS v FROM (SELECT ${column} FROM events ORDER BY id DESC LIMIT ${FACET_WINDOW}) WHERE ${column} != '' ORDER BY v LIMIT 200`)
        .all()
        .map((r) => String(r.v));
    const hooks = this.db
      .prepare(`SELECT DISTINCT hook AS v FROM (SELECT hook FROM hook_runs ORDER BY event_id DESC LIMIT ${FACET_WINDOW}) ORDER BY v LIMIT 200`)
      .all()
      .map((r) => String(r.v));
    return { project: distinct('project'), session: distinct('session'), agent: distinct('agent'), hook: hooks };
  }
  count(): number {
    return Number(this.db.prepare('SELECT count(*) AS n FROM events').get()?.n ?? 0);
  }
  close(): void {
    this.db.close();
  }
}

function fromRow(r: Record<string, unknown>): PageEvent {
  let hooks: PageHook[] = [];
  try {
    const parsed: unknown = JSON.parse(String(r.hooks));
    if (Array.isArray(parsed)) hooks = parsed as PageHook[];
  } catch {
    // A row written by something else: shown without its hooks.
  }
  return {
    id: Number(r.id),
    ts: Number(r.ts),
    event: String(r.event),
    agent: String(r.agent),
    project: String(r.project),
    session: String(r.session),
    ...(r.tool === null || r.tool === undefined ? {} : { tool: String(r.tool) }),
    decision: String(r.decision),
    ...(r.decided_by === null || r.decided_by === undefined ? {} : { decidedBy: String(r.decided_by) }),
    ...(r.reason === null || r.reason === undefined ? {} : { reason: String(r.reason) }),
    ms: Number(r.ms),
    hooks,
  };
}

/**
 * The store at `file`: SQLite where this Node has it and the file is a private one of ours, else the
 * bounded in-memory store with one line saying why (for the log and the page).
 */
export function openStore(file: string, options: { max?: number; memoryMax?: number } = {}): Store {
  const memory = (why: string) => new MemoryStore(`history in memory only (the latest ${options.memoryMax ?? 10_000} events, lost at a restart): ${why}`, options.memoryMax);
  const Sqlite = loadSqlite();
  if (typeof Sqlite === 'string') return memory(Sqlite);
  const problem = privateDbProblem(file);
  if (problem !== undefined) return memory(problem);
  try {
    return new SqliteStore(new Sqlite(file), options.max);
  } catch (error) {
    return memory(`${file}: ${(error as Error).message}`);
  }
}
