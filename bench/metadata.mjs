#!/usr/bin/env node
// What the metadata bag costs a `hooks run`: whole-process times of one command hook on an event with no
// session id (the bag is never looked at: the baseline), with a session whose bag is stored (one read),
// and with a hook that answers metadata (read, lock, atomic write with fsync). Interleaved, medians,
// reported as ratios against the baseline of the same run. Usage: node bench/metadata.mjs [--runs 30]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as bin, quantile as q } from './kit.mjs';

const runs = Number(flag('--runs', 25));
const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };

function project(hook) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [hook] } }));
  const r = spawnSync(process.execPath, [bin, 'trust', '--yes'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`trust: ${r.stderr}`);
  return dir;
}
const event = (extra) => JSON.stringify({ cwd: '/home/dev/project', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, ...extra });
const plain = project({ command: 'echo', args: ['{}'] });
const writes = project({ command: 'echo', args: ['{"metadata": {"intent": "question", "thinking": "high"}}'] });

// A stored bag for the "reads" case.
spawnSync(process.execPath, [bin, 'run', 'pre-tool-use'], { cwd: writes, env, input: event({ session_id: 'stored' }) });

const cases = [
  { name: 'no session id (bag never looked at)', cwd: plain, input: event({}) },
  { name: 'session with no stored bag', cwd: plain, input: event({ session_id: 'empty' }) },
  { name: 'session with a stored bag (read)', cwd: plain, input: event({ session_id: 'stored' }) },
  { name: 'hook answers metadata (read + locked write)', cwd: writes, input: event({ session_id: 'stored' }) },
];
const samples = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  cases.forEach((c, k) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [bin, 'run', 'pre-tool-use'], { cwd: c.cwd, input: c.input, env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) samples[k].push(ms);
  });
}
const base = q(samples[0], 0.5);
console.log(`metadata bag cost, ${runs} runs each, Node ${process.version}, ${os.cpus().length} cores`);
console.log(`${'case'.padEnd(46)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× base'.padStart(8)}`);
cases.forEach((c, k) => {
  const med = q(samples[k], 0.5);
  console.log(`${c.name.padEnd(46)} ${med.toFixed(1).padStart(8)} ${q(samples[k], 0.9).toFixed(1).padStart(8)} ${(med / base).toFixed(3).padStart(8)}`);
});

// The store alone, in-process (needs `npm run build`): what a run pays to look for, read and save a bag,
// against the cheapest thing a run does anyway for a session (hashing its id).
const { fileStore } = await import('../dist/metadata/store.js');
const { createHash } = await import('node:crypto');
const store = fileStore({ HOME: home, XDG_STATE_HOME: path.join(home, 'state-inproc') });
await store.save('stored', { intent: 'question', thinking: 'high' });
const perCall = (n, f) => {
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  return Number(process.hrtime.bigint() - started) / 1e3 / n;
};
const hash = perCall(5000, (i) => createHash('sha256').update(`s${i}`).digest('hex'));
const missing = perCall(5000, () => store.load('missing'));
const stored = perCall(5000, () => store.load('stored'));
let started = process.hrtime.bigint();
for (let i = 0; i < 100; i++) await store.save('stored', { n: i });
const save = Number(process.hrtime.bigint() - started) / 1e3 / 100;
console.log(`\nstore in-process (µs per call; × = against hashing a session id, ${hash.toFixed(1)} µs)`);
for (const [name, us] of [['load, no stored bag', missing], ['load, stored bag', stored], ['save (lock, fsync, rename)', save]]) {
  console.log(`${name.padEnd(46)} ${us.toFixed(1).padStart(8)} ${(us / hash).toFixed(1).padStart(8)}×`);
}
