#!/usr/bin/env node
// The live page's history at a million events: `node bench/page-store.mjs [--events 1000000]` (on a
// Node with node:sqlite: 22.13+, 23.4+, 24, 26; build first). Every figure is a ratio against a
// baseline taken in the same run:
// - inserts, in the server's batches of 100: the store (6 indexes, a row per hook run) against the
//   same rows into one bare table with no index;
// - each filtered query and the per-hook figures at N events against the same at 10,000 events
//   (flat = the indexes do their job), and against the unfiltered latest page at N.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openStore, loadSqlite } = await import(path.join(root, 'dist/serve/page/store.js'));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const N = arg('events', 1_000_000);
const SMALL = 10_000;
const BATCH = 100;

const Sqlite = loadSqlite();
if (typeof Sqlite === 'string') {
  console.error(`bench/page-store: ${Sqlite}; run it with Node 22.13+ (the history is in memory on this Node)`);
  process.exit(1);
}

// A plausible spread: 40 projects, 2,000 sessions, 5 agents, 12 hooks, 3% blocks.
const AGENTS = ['claude-code', 'codex', 'gemini', 'cursor', 'copilot'];
const HOOKS = Array.from({ length: 12 }, (_, i) => `hook-${i}`);
function event(i) {
  const blocked = i % 33 === 0;
  const hooks = [0, 1, 2].map((k) => HOOKS[(i + k * 5) % HOOKS.length]).map((id, k) => ({ id, layer: 'project', outcome: blocked && k === 0 ? 'block' : 'continue', ms: (i * 7 + k) % 40 }));
  return { id: 0, ts: 1_700_000_000_000 + i * 10, event: 'preToolUse', agent: AGENTS[i % AGENTS.length], project: `/home/u/p${i % 40}`, session: `session-${i % 2000}`, tool: 'exec', decision: blocked ? 'block' : 'continue', ms: i % 50, hooks, ...(blocked ? { decidedBy: hooks[0].id, reason: 'not this one' } : {}) };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-page-'));
const time = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Baseline for inserts: one bare table, no index, one row per event, same batches and transactions.
const bare = new Sqlite(path.join(dir, 'bare.db'));
bare.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE e (ts INTEGER, data TEXT)');
const bareInsert = bare.prepare('INSERT INTO e (ts, data) VALUES (?, ?)');
const store = openStore(path.join(dir, 'page.db'), { max: N + 1 });
if (store.kind !== 'sqlite') throw new Error(store.note);

const QUERIES = {
  'latest 200': { limit: 200 },
  project: { limit: 200, project: '/home/u/p7' },
  session: { limit: 200, session: 'session-1234' },
  agent: { limit: 200, agent: 'codex' },
  'decision=block': { limit: 200, decision: 'block' },
  hook: { limit: 200, hook: 'hook-3' },
  'project+decision': { limit: 200, project: '/home/u/p3', decision: 'block' },
  'hook+agent+block': { limit: 200, hook: 'hook-0', agent: 'claude-code', decision: 'block' },
  'page back (before)': { limit: 200, before: 0 },
};
function measureQueries(at) {
  const out = {};
  for (const [name, f] of Object.entries(QUERIES)) {
    const filters = name.startsWith('page back') ? { ...f, before: Math.floor(at / 2) } : f;
    out[name] = median(Array.from({ length: 9 }, () => time(() => store.query(filters))));
  }
  out['stats (10,000 runs)'] = median(Array.from({ length: 5 }, () => time(() => store.stats({ limit: 200 }))));
  out['stats, decision=block'] = median(Array.from({ length: 5 }, () => time(() => store.stats({ limit: 200, decision: 'block' }))));
  out.facets = median(Array.from({ length: 5 }, () => time(() => store.facets())));
  return out;
}

let storeMs = 0;
let bareMs = 0;
let small;
for (let i = 0; i < N; i += BATCH) {
  const batch = Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => event(i + k));
  storeMs += time(() => store.add(batch));
  bareMs += time(() => {
    bare.exec('BEGIN');
    for (const e of batch) bareInsert.run(e.ts, JSON.stringify(e));
    bare.exec('COMMIT');
  });
  if (i + BATCH === SMALL) small = measureQueries(SMALL);
  if ((i + BATCH) % 200_000 === 0) process.stderr.write(`${i + BATCH} events...\n`);
}
const large = measureQueries(N);

const fmt = (ms) => `${ms.toFixed(2)} ms`;
console.log(`events: ${N.toLocaleString('en')} (hook runs: ${(3 * N).toLocaleString('en')}); database ${(statSync(path.join(dir, 'page.db')).size / 2 ** 20).toFixed(0)} MiB; Node ${process.version}`);
console.log(`inserts in batches of ${BATCH}: ${((N / storeMs) * 1000).toFixed(0)} events/s (${((storeMs * 1000) / N).toFixed(1)} us each); bare table baseline ${((bareMs * 1000) / N).toFixed(1)} us each: ${(storeMs / bareMs).toFixed(2)}x`);
console.log('');
console.log(`| query | at ${SMALL.toLocaleString('en')} | at ${N.toLocaleString('en')} | ${N.toLocaleString('en')} / ${SMALL.toLocaleString('en')} | / latest 200 at ${N.toLocaleString('en')} |`);
console.log('|---|---|---|---|---|');
for (const name of Object.keys(large)) {
  console.log(`| ${name} | ${fmt(small[name])} | ${fmt(large[name])} | ${(large[name] / small[name]).toFixed(2)}x | ${(large[name] / large['latest 200']).toFixed(2)}x |`);
}
store.close();
bare.close();
rmSync(dir, { recursive: true, force: true });
