#!/usr/bin/env node
// Whole-process time of `hooks run` with one command hook (`true`): the path the watchdog and the stdin
// handling sit on. Against `node -e ''`, interleaved in the same run; with --baseline-bin, also another build
// (e.g. the previous commit's) for a before/after ratio. Usage: node bench/hook-spawn.mjs [--runs 30] [--baseline-bin path]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin, median } from './kit.mjs';

const runs = Number(flag('--runs', 30));
const baseline = flag('--baseline-bin');
const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-spawn-'));
const config = path.join(dir, 'hooks.json');
writeFileSync(config, JSON.stringify({ hooks: { preToolUse: [{ command: 'true', args: [] }] } }));
const event = JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
const run = (bin) => [bin, 'run', 'pre-tool-use', '--config', config];
const cases = [
  { name: "node -e ''", args: ['-e', ''] },
  ...(baseline === undefined ? [] : [{ name: 'baseline: hooks run, 1 command', args: run(path.resolve(baseline)) }]),
  { name: 'this build: hooks run, 1 command', args: run(hooksBin) },
];
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'c'), XDG_STATE_HOME: path.join(dir, 's') };
const samples = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  cases.forEach((c, k) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.args, { cwd: dir, input: event, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) samples[k].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
const base = median(samples[0]);
console.log(`hooks run with one command hook, ${runs} runs each, median`);
cases.forEach((c, k) => console.log(`  ${c.name.padEnd(36)} ${median(samples[k]).toFixed(1).padStart(7)} ms  ×${(median(samples[k]) / base).toFixed(2)} node`));
