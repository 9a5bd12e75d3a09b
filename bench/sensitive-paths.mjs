// Per-call judgement time of the sensitive-paths guard over its corpus, against unbash's bare parse
// of the same commands in the same run. Run after `npm run build`:  node bench/sensitive-paths.mjs [iterations]
import { readFileSync } from 'node:fs';
import { parse } from 'unbash';
import { judgeCommand } from '../dist/guards/command-safety.js';
import { judgeToolCall } from '../dist/guards/sensitive-paths.js';

const corpus = JSON.parse(readFileSync(new URL('../test/guards/corpus/sensitive-paths.json', import.meta.url), 'utf8'));
const iterations = Number(process.argv[2] ?? 100);
const home = '/home/dev';
const cwd = '/home/dev/project';
const env = { HOME: home };
const options = {};
const CANONICAL = { Bash: "exec", Read: "read", Write: "write", Edit: "edit" };
const call = (c) => ({
  input: { hook_event_name: 'PreToolUse', cwd, tool_name: c.tool, tool_input: c.tool === 'Bash' ? { command: c.input } : { file_path: c.input } },
  tool: CANONICAL[c.tool],
  command: c.tool === 'Bash' ? c.input : undefined,
});
const all = [...corpus.sensitive, ...corpus.ordinary].map(call);
const sets = { 'shell commands': all.filter((c) => c.command !== undefined), 'file tools': all.filter((c) => c.command === undefined), all };
// Links are not followed here: the corpus paths do not exist, and the figure is the rule work.
const judge = (c) => judgeToolCall(c.input, options, { tool: c.tool, home, env, realpath: false });

// The judge (a few hundred compiled globs) is built once per options object, as the guard does per run.
let start = process.hrtime.bigint();
judgeToolCall({ cwd, tool_name: 'Read', tool_input: { file_path: 'x' } }, {}, { tool: 'read', home, env });
const buildMs = Number(process.hrtime.bigint() - start) / 1e6;

for (let i = 0; i < 20; i += 1) for (const c of all) judge(c);

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const rows = [];
const medians = {};
for (const [name, calls] of Object.entries(sets)) {
  const samples = [];
  for (let i = 0; i < iterations; i += 1) {
    for (const c of calls) {
      start = process.hrtime.bigint();
      judge(c);
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  samples.sort((a, b) => a - b);
  medians[name] = pct(samples, 50);
  rows.push({ set: name, calls: calls.length, 'p50 ms': pct(samples, 50).toFixed(4), 'p90 ms': pct(samples, 90).toFixed(4), 'p99 ms': pct(samples, 99).toFixed(4), 'max ms': samples.at(-1).toFixed(3) });
}
const commands = sets['shell commands'];
const parseSamples = [];
for (let i = 0; i < iterations; i += 1) {
  for (const c of commands) {
    start = process.hrtime.bigint();
    parse(c.command);
    parseSamples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
parseSamples.sort((a, b) => a - b);
const parseP50 = pct(parseSamples, 50);
// A second baseline: the command-safety guard on the same commands (same parser and shell walker).
const safetySamples = [];
for (let i = 0; i < iterations; i += 1) {
  for (const c of commands) {
    start = process.hrtime.bigint();
    judgeCommand(c.command);
    safetySamples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
}
safetySamples.sort((a, b) => a - b);
const safetyP50 = pct(safetySamples, 50);
rows.push({ set: 'baseline: unbash parse only (shell commands)', calls: commands.length, 'p50 ms': parseP50.toFixed(4), 'p90 ms': pct(parseSamples, 90).toFixed(4), 'p99 ms': pct(parseSamples, 99).toFixed(4), 'max ms': parseSamples.at(-1).toFixed(3) });
rows.push({ set: 'baseline: command-safety judge (shell commands)', calls: commands.length, 'p50 ms': safetyP50.toFixed(4), 'p90 ms': pct(safetySamples, 90).toFixed(4), 'p99 ms': pct(safetySamples, 99).toFixed(4), 'max ms': safetySamples.at(-1).toFixed(3) });
rows.push({ set: 'shell commands ÷ command-safety (p50)', calls: '', 'p50 ms': `${(medians['shell commands'] / safetyP50).toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '', 'max ms': '' });
rows.push({ set: 'shell commands ÷ parse (p50)', calls: '', 'p50 ms': `${(medians['shell commands'] / parseP50).toFixed(2)}×`, 'p90 ms': '', 'p99 ms': '', 'max ms': '' });

const slowest = all
  .map((c) => {
    const times = [];
    for (let i = 0; i < 30; i += 1) {
      start = process.hrtime.bigint();
      judge(c);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const text = c.command ?? `${c.tool} ${c.input.file_path}`;
    return { call: text.length > 60 ? `${text.slice(0, 59)}…` : text, 'p50 ms': pct(times, 50) };
  })
  .sort((a, b) => b['p50 ms'] - a['p50 ms']);

console.log(`sensitive-paths: ${iterations} warm iterations per call, Node ${process.version}; judge built once in ${buildMs.toFixed(2)} ms`);
console.table(rows);
console.log('slowest calls:');
console.table(slowest.slice(0, 6).map((r) => ({ ...r, 'p50 ms': r['p50 ms'].toFixed(4) })));

// Cold cost, as a `hooks run` process pays it: import, build the judge, first call; each guard in
// fresh processes, alternated, medians of 7.
import { execFileSync } from 'node:child_process';
const cold = (module, call) => {
  const code = `const t0 = performance.now(); const m = await import(${JSON.stringify(new URL(module, import.meta.url).href)}); const t1 = performance.now(); ${call}; const t2 = performance.now(); console.log(JSON.stringify([t1 - t0, t2 - t1]));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
};
const coldRows = { 'sensitive-paths': [], 'command-safety': [] };
for (let i = 0; i < 7; i += 1) {
  coldRows['sensitive-paths'].push(cold('../dist/guards/sensitive-paths.js', `m.judgeToolCall({ cwd: '/tmp', tool_name: 'Bash', tool_input: { command: 'cat src/index.ts' } }, {}, { tool: 'exec', realpath: false })`));
  coldRows['command-safety'].push(cold('../dist/guards/command-safety.js', `m.judgeCommand('cat src/index.ts')`));
}
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('cold, fresh process (median of 7):');
console.table(Object.entries(coldRows).map(([guard, runs]) => ({ guard, 'import ms': med(runs.map((r) => r[0])).toFixed(2), 'build + first call ms': med(runs.map((r) => r[1])).toFixed(2) })));

// ---- Suites from other projects' tests (outside the repository), in the same run.
// node bench/sensitive-paths.mjs [iterations] [--suites <folder>] [--list]
import { beforeModule, loadSuites, pct as ratio, suitesFolder } from './guard-suites.mjs';
const before = await beforeModule(process.argv, 'guards/sensitive-paths.js');

const suiteRows = [];
const listRows = process.argv.includes('--list');
const blocks = (r) => {
  const c = call({ tool: r.tool, input: r.input });
  return judge(c).verdict !== 'allow';
};
for (const suite of loadSuites(suitesFolder(process.argv), 'paths')) {
  const sensitive = suite.sensitive.filter((r) => !r.mode);
  const ordinary = suite.ordinary.filter((r) => !r.mode);
  const key = (r) => `${r.tool}\0${r.input}`;
  const notPolicy = (r) => !suite.policy.has(key(r));
  if (before) {
    const was = (r) => {
      const c = call({ tool: r.tool, input: r.input });
      return before.judgeToolCall(c.input, options, { tool: c.tool, home, env, realpath: false }).verdict !== 'allow';
    };
    const m = sensitive.filter((r) => !was(r));
    const f = ordinary.filter(was);
    suiteRows.push({ suite: suite.name, guard: 'before (--before build)', blocked: ratio(sensitive.length - m.length, sensitive.length), 'false positives': ratio(f.length, ordinary.length), 'blocked, policy rows out': ratio(sensitive.filter(notPolicy).length - m.filter(notPolicy).length, sensitive.filter(notPolicy).length), 'FP, policy rows out': ratio(f.filter(notPolicy).length, ordinary.filter(notPolicy).length) });
  }
  const missed = sensitive.filter((r) => !blocks(r));
  const fps = ordinary.filter(blocks);
  suiteRows.push({
    suite: suite.name,
    guard: 'agent-hooks',
    blocked: ratio(sensitive.length - missed.length, sensitive.length),
    'false positives': ratio(fps.length, ordinary.length),
    'blocked, policy rows out': ratio(sensitive.filter(notPolicy).length - missed.filter(notPolicy).length, sensitive.filter(notPolicy).length),
    'FP, policy rows out': ratio(fps.filter(notPolicy).length, ordinary.filter(notPolicy).length),
  });
  if (listRows) {
    for (const r of missed) console.log(`  miss [${suite.name}]${suite.policy.has(key(r)) ? ' (policy)' : ''} ${r.tool} ${JSON.stringify(r.input)}`);
    for (const r of fps) console.log(`  fp   [${suite.name}]${suite.policy.has(key(r)) ? ' (policy)' : ''} ${r.tool} ${JSON.stringify(r.input)} → ${judge(call({ tool: r.tool, input: r.input })).reason}`);
  }
}
if (suiteRows.length > 0) console.table(suiteRows);
