// Per-command judgement time of the command-safety guard over both corpora, against the bare
// unbash parse of the same commands in the same run, and the corpora's figures (dangerous
// blocked, false positives).
// Run after `npm run build`:  node bench/command-safety.mjs [iterations]
import { readFileSync } from 'node:fs';
import { parse } from 'unbash';
import { judgeCommand } from '../dist/guards/command-safety.js';

const load = (name) => JSON.parse(readFileSync(new URL(`../test/guards/corpus/${name}`, import.meta.url), 'utf8'));
const design = load('command-safety.json');
const extended = load('command-safety-extended.json');
const iterations = Number(process.argv[2] ?? 100);

/** The extended corpus runs in a project, as the guard does under an agent. */
const BASE = { cwd: '/home/dev/project', projectDir: '/home/dev/project', home: '/home/dev', tmpDir: '/tmp' };
const cases = [
  ...design.dangerous.map((c) => ({ ...c, kind: 'dangerous', context: undefined })),
  ...design.ordinary.map((c) => ({ ...c, kind: 'ordinary', context: undefined })),
  ...extended.dangerous.map((c) => ({ ...c, kind: 'dangerous', context: { ...BASE, ...(c.cwd ? { cwd: c.cwd } : {}) } })),
  ...extended.ordinary.map((c) => ({ ...c, kind: 'ordinary', context: { ...BASE, ...(c.cwd ? { cwd: c.cwd } : {}) } })),
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// Figures first: what each corpus blocks and lets through.
function figures(name, corpus, context) {
  const at = (c) => (context ? { ...context, ...(c.cwd ? { cwd: c.cwd } : {}) } : undefined);
  const blocked = corpus.dangerous.filter((c) => judgeCommand(c.command, {}, at(c)).verdict !== 'allow').length;
  const rightCategory = corpus.dangerous.filter((c) => judgeCommand(c.command, {}, at(c)).category === c.category).length;
  const fp = corpus.ordinary.filter((c) => judgeCommand(c.command, {}, at(c)).verdict !== 'allow').length;
  return {
    corpus: name,
    dangerous: corpus.dangerous.length,
    blocked: `${blocked} (${((100 * blocked) / corpus.dangerous.length).toFixed(1)}%)`,
    'right category': rightCategory,
    ordinary: corpus.ordinary.length,
    'false positives': `${fp} (${((100 * fp) / corpus.ordinary.length).toFixed(1)}%)`,
  };
}
console.log(`command-safety: Node ${process.version}`);
console.table([figures('design (command-safety.json)', design, undefined), figures('extended (command-safety-extended.json)', extended, BASE)]);

// Warm up the JIT on every command before measuring.
for (let i = 0; i < 20; i += 1) for (const c of cases) judgeCommand(c.command, {}, c.context);

// Interleaved, so load on the machine hits both alike.
const judgeSamples = { dangerous: [], ordinary: [], all: [] };
const parseSamples = [];
for (let i = 0; i < iterations; i += 1) {
  for (const c of cases) {
    let start = process.hrtime.bigint();
    parse(c.command);
    parseSamples.push(Number(process.hrtime.bigint() - start) / 1e6);
    start = process.hrtime.bigint();
    judgeCommand(c.command, {}, c.context);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    judgeSamples[c.kind].push(ms);
    judgeSamples.all.push(ms);
  }
}
const row = (set, samples) => {
  samples.sort((a, b) => a - b);
  return { set, judgements: samples.length, 'p50 ms': percentile(samples, 50).toFixed(4), 'p90 ms': percentile(samples, 90).toFixed(4), 'p99 ms': percentile(samples, 99).toFixed(4) };
};
const rows = [
  row('judge: dangerous', judgeSamples.dangerous),
  row('judge: ordinary', judgeSamples.ordinary),
  row('judge: all', judgeSamples.all),
  row('baseline: unbash parse only (all)', parseSamples),
];
const ratio = percentile(judgeSamples.all, 50) / percentile(parseSamples, 50);
rows.push({ set: 'judge ÷ parse (p50)', judgements: '', 'p50 ms': `${ratio.toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '' });
console.log(`${cases.length} commands × ${iterations} warm iterations`);
console.table(rows);

// The slowest commands, by their median.
const perCommand = cases.map((c) => {
  const times = [];
  for (let i = 0; i < 30; i += 1) {
    const start = process.hrtime.bigint();
    judgeCommand(c.command, {}, c.context);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  const text = JSON.stringify(c.command);
  return { command: text.length > 70 ? `${text.slice(0, 69)}…` : text, 'p50 ms': percentile(times, 50) };
});
perCommand.sort((a, b) => b['p50 ms'] - a['p50 ms']);
console.log('slowest commands:');
console.table(perCommand.slice(0, 5).map((r) => ({ ...r, 'p50 ms': r['p50 ms'].toFixed(4) })));
const p50 = percentile(judgeSamples.all, 50);
console.log(p50 <= 0.05 ? `p50 ${p50.toFixed(4)} ms: within the 0.05 ms goal` : `p50 ${p50.toFixed(4)} ms: OVER the 0.05 ms goal`);

// ---- Suites from other projects' tests, beside cc-safety-net on the same rows, in the same run.
// node bench/command-safety.mjs [iterations] [--suites <folder>] [--list]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { beforeModule, loadSuites, pct, suitesFolder } from './guard-suites.mjs';

const ALL_PACKS = { packs: ['database', 'kubernetes', 'infrastructure', 'cloud', 'docker'] };
// cc-safety-net reads its config from home and the project: both are empty folders here.
const ccHome = mkdtempSync(joinPath(tmpdir(), 'cs-bench-home-'));
const ccCwd = mkdtempSync(joinPath(tmpdir(), 'cs-bench-cwd-'));
process.env.HOME = ccHome;
let ccCheck;
try {
  ({ checkCommand: ccCheck } = await import('cc-safety-net/api'));
} catch {
  console.log('cc-safety-net is not installed (npm install): its columns are left out');
}
// It throws on an empty command, which it would not judge at all: allowed.
const ccBlocks = (command) => command.trim() !== '' && ccCheck({ command, cwd: ccCwd }).kind !== 'allow';
const oursBlocks = (command, options = {}) => judgeCommand(command, options, BASE).verdict !== 'allow';

const before = await beforeModule(process.argv, 'guards/command-safety.js');
const list = process.argv.includes('--list');
const suites = loadSuites(suitesFolder(process.argv), 'commands');
const suiteRows = [];
const timed = [];
for (const suite of suites) {
  const dangerous = suite.dangerous.filter((r) => !r.mode);
  const ordinary = suite.ordinary.filter((r) => !r.mode);
  const notPolicy = (r) => !suite.policy.has(r.command);
  const runs = [['agent-hooks', {}, oursBlocks], ['agent-hooks + all packs', ALL_PACKS, oursBlocks]];
  if (before) runs.unshift(['before (--before build)', {}, (command) => before.judgeCommand(command, {}, BASE).verdict !== 'allow']);
  for (const [label, options, blocks] of runs) {
    const missed = dangerous.filter((r) => !blocks(r.command, options));
    const fps = ordinary.filter((r) => blocks(r.command, options));
    suiteRows.push({
      suite: suite.name,
      guard: label,
      blocked: pct(dangerous.length - missed.length, dangerous.length),
      'false positives': pct(fps.length, ordinary.length),
      'blocked, policy rows out': pct(dangerous.filter(notPolicy).length - missed.filter(notPolicy).length, dangerous.filter(notPolicy).length),
      'FP, policy rows out': pct(fps.filter(notPolicy).length, ordinary.filter(notPolicy).length),
    });
    if (list && label === (suite.name.includes('packs') ? 'agent-hooks + all packs' : 'agent-hooks')) {
      for (const r of missed) console.log(`  miss [${suite.name}]${suite.policy.has(r.command) ? ' (policy)' : ''} ${JSON.stringify(r.command)}`);
      for (const r of fps) console.log(`  fp   [${suite.name}]${suite.policy.has(r.command) ? ' (policy)' : ''} ${JSON.stringify(r.command)} → ${judgeCommand(r.command, options, BASE).reason}`);
    }
  }
  if (ccCheck) {
    const blocked = dangerous.filter((r) => ccBlocks(r.command));
    const fps = ordinary.filter((r) => ccBlocks(r.command));
    suiteRows.push({
      suite: suite.name,
      guard: 'cc-safety-net',
      blocked: pct(blocked.length, dangerous.length),
      'false positives': pct(fps.length, ordinary.length),
      'blocked, policy rows out': pct(blocked.filter(notPolicy).length, dangerous.filter(notPolicy).length),
      'FP, policy rows out': pct(fps.filter(notPolicy).length, ordinary.filter(notPolicy).length),
    });
  }
  timed.push(...dangerous, ...ordinary);
}
if (suiteRows.length > 0) console.table(suiteRows);

// In-process judgement time beside cc-safety-net's library call, same commands, interleaved.
if (ccCheck) {
  const commands = [...cases.map((c) => c.command), ...timed.map((r) => r.command)].filter((c) => c.trim() !== '');
  for (let i = 0; i < 5; i += 1) for (const c of commands) (judgeCommand(c, {}, BASE), ccCheck({ command: c, cwd: ccCwd }));
  const ours = [];
  const oursPacks = [];
  const theirs = [];
  const rounds = Math.max(3, Math.round(iterations / 10));
  for (let i = 0; i < rounds; i += 1) {
    for (const c of commands) {
      let t = process.hrtime.bigint();
      judgeCommand(c, {}, BASE);
      ours.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      judgeCommand(c, ALL_PACKS, BASE);
      oursPacks.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      ccCheck({ command: c, cwd: ccCwd });
      theirs.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const stat = (name, xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { judge: name, calls: s.length, 'p50 ms': percentile(s, 50).toFixed(4), 'p90 ms': percentile(s, 90).toFixed(4), 'p99 ms': percentile(s, 99).toFixed(4), 'mean ms': mean(s).toFixed(4) };
  };
  const p50 = (xs) => percentile([...xs].sort((a, b) => a - b), 50);
  console.log(`in-process judgement, ${commands.length} commands (corpora + suites) × ${rounds} rounds, interleaved:`);
  console.table([
    stat('agent-hooks', ours),
    stat('agent-hooks + all packs', oursPacks),
    stat('cc-safety-net checkCommand (baseline)', theirs),
    { judge: 'agent-hooks ÷ cc-safety-net', calls: '', 'p50 ms': `${(p50(ours) / p50(theirs)).toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '', 'mean ms': `${(mean(ours) / mean(theirs)).toFixed(2)}×` },
    { judge: 'agent-hooks + packs ÷ cc-safety-net', calls: '', 'p50 ms': `${(p50(oursPacks) / p50(theirs)).toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '', 'mean ms': `${(mean(oursPacks) / mean(theirs)).toFixed(2)}×` },
  ]);
}
