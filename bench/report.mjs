#!/usr/bin/env node
// `hooks report` on a 1,000,000-record audit log, as ratios against baselines measured in the same run on
// the same file: `wc -l` (the disk and the page cache) and a plain node readline pass (reading lines in JS
// at all). Also doctor's line, which reads only the end of the log, and the reader's peak memory.
// Usage: node bench/report.mjs [--records 1000000] [--runs 3]   (npm run build first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, writeSync, statSync, rmSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin, median, seededRandom } from './kit.mjs';

const records = Number(flag('--records', 1_000_000));
const runs = Number(flag('--runs', 3));

const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-report-'));
const state = path.join(home, 'state');
const log = path.join(state, 'agent-hooks', 'audit.jsonl');
mkdirSync(path.dirname(log), { recursive: true });

// Records as the guard writes them: per run, hook records then the event record, over the last 6 days.
const random = seededRandom(26);
const hooks = ['no-force-push', 'command-safety', 'sensitive-paths', 'format-on-write', 'lint'];
const tools = ['exec', 'read', 'write', 'edit'];
const now = Date.now();
const fd = openSync(log, 'w', 0o600);
let batch = [];
for (let i = 0; i < records; ) {
  const ts = new Date(now - Math.floor(random() * 6 * 86_400_000)).toISOString();
  const base = { v: 1, ts, runId: `run-${i}`, pid: 4242, event: 'preToolUse', tool: tools[i % 4], toolName: 'Bash', sessionId: `session-${i % 97}`, project: `/home/dev/p${i % 7}`, payloadHash: `sha256:${'ab'.repeat(32)}` };
  const outcome = random() < 0.02 ? 'block' : random() < 0.01 ? 'ask' : 'continue';
  const hook = hooks[i % hooks.length];
  batch.push(JSON.stringify({ ...base, kind: 'hook', hook, source: { layer: 'project', file: '/p/.hooksrc.json', key: 'hooks.preToolUse[0]' }, outcome, ms: Math.round(random() * 80), ...(outcome === 'block' ? { reason: 'Force push blocked: use --force-with-lease' } : {}) }));
  batch.push(JSON.stringify({ ...base, kind: 'event', decision: outcome, ...(outcome === 'block' ? { reason: 'Force push blocked', decidedBy: hook } : {}), hooks: 1, ms: 50 }));
  i += 2;
  if (batch.length >= 10_000) {
    writeSync(fd, `${batch.join('\n')}\n`);
    batch = [];
  }
}
if (batch.length > 0) writeSync(fd, `${batch.join('\n')}\n`);
closeSync(fd);
const size = statSync(log).size;

const env = { ...process.env, HOME: home, XDG_STATE_HOME: state, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };
const timed = (fn) => {
  const started = performance.now();
  const out = fn();
  return { ms: performance.now() - started, out };
};
const wc = () => timed(() => spawnSync('wc', ['-l', log], { encoding: 'utf8' }).stdout);
const readline = () =>
  timed(() =>
    spawnSync(process.execPath, ['-e', `const rl=require('node:readline').createInterface({input:require('node:fs').createReadStream(${JSON.stringify(log)}),crlfDelay:Infinity});let n=0;rl.on('line',()=>n++);rl.on('close',()=>console.log(n));`], { encoding: 'utf8' }).stdout,
  );
const readlineParse = () =>
  timed(() =>
    spawnSync(process.execPath, ['-e', `const rl=require('node:readline').createInterface({input:require('node:fs').createReadStream(${JSON.stringify(log)}),crlfDelay:Infinity});let n=0;rl.on('line',(l)=>{JSON.parse(l);n++});rl.on('close',()=>console.log(n));`], { encoding: 'utf8' }).stdout,
  );
const report = () => timed(() => spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, hooksBin, 'report', '--json', '--days', '7'], { cwd: home, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
const reportDay = () => timed(() => spawnSync(process.execPath, [hooksBin, 'report', '--json', '--days', '1'], { cwd: home, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout);
const doctor = () => timed(() => spawnSync(process.execPath, [hooksBin, 'doctor'], { cwd: home, env, encoding: 'utf8' }).stdout);

const samples = { wc: [], readline: [], readlineParse: [], report: [], reportDay: [], doctor: [] };
let peakKiB = 0;
let totals;
for (let i = 0; i < runs; i++) {
  // Interleaved, so drift in the machine's load hits every case alike.
  samples.wc.push(wc().ms);
  samples.readline.push(readline().ms);
  samples.readlineParse.push(readlineParse().ms);
  const r = report();
  samples.report.push(r.ms);
  if (r.out.status !== 0) throw new Error(`hooks report failed: ${r.out.stderr}`);
  peakKiB = Math.max(peakKiB, Number(r.out.stderr.trim().split('\n').at(-1)));
  totals = JSON.parse(r.out.stdout).totals;
  samples.reportDay.push(reportDay().ms);
  const d = doctor();
  samples.doctor.push(d.ms);
  if (!/last 7 days: [\d,]+ events/.test(d.out)) throw new Error(`doctor said no line: ${d.out}`);
}

const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
const row = (name, ms) => `${name.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms  ${(ms / m.readline).toFixed(2).padStart(6)}x readline  ${(ms / m.wc).toFixed(1).padStart(7)}x wc -l`;
console.log(`${records.toLocaleString('en-US')} records, ${(size / 1024 / 1024).toFixed(0)} MiB; median of ${runs} runs; counted ${totals.events.toLocaleString('en-US')} events, ${totals.blocked} blocked`);
console.log(row('wc -l', m.wc));
console.log(row('node readline pass', m.readline));
console.log(row('node readline + JSON.parse', m.readlineParse));
console.log(row('hooks report --json (whole process)', m.report));
console.log(row('hooks report --json --days 1 (5/6 unparsed)', m.reportDay));
console.log(row('hooks doctor (whole process, tail only)', m.doctor));
console.log(`hooks report peak memory: ${(peakKiB / 1024).toFixed(0)} MiB (max RSS) for a ${(size / 1024 / 1024).toFixed(0)} MiB log`);
rmSync(home, { recursive: true, force: true });
