#!/usr/bin/env node
// Whole-process time of `hooks run` against bare `node -e ''`, measured in the same run, interleaved so
// machine drift hits every case alike. Usage: npm run bench [-- --runs 30]
// The first two rounds are not counted: they fill the config cache and then the CLI's code cache, as
// the first runs on a user's machine do. HOOKS_NO_CACHE turns the config cache off (every run checks
// the config with zod), HOOKS_NO_CODE_CACHE the code cache (every run compiles the CLI).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as bin, quantile as q } from './kit.mjs';

const runs = Number(flag('--runs', 25));
const before = flag('--before') === undefined ? undefined : path.resolve(flag('--before'));

function project(config) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
  if (config !== undefined) writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
  return dir;
}

const event = JSON.stringify({
  session_id: 'bench', cwd: '/home/dev/project', hook_event_name: 'PreToolUse',
  tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench',
});

const cases = [
  { name: "node -e ''", cwd: project(), args: ['-e', ''], input: '' },
  { name: 'hooks --version', cwd: project(), args: [bin, '--version'], input: '' },
  { name: 'hooks run, no config', cwd: project(), args: [bin, 'run', 'pre-tool-use'], input: event },
  { name: 'hooks guard command-safety (no config)', cwd: project(), args: [bin, 'guard', 'command-safety'], input: event },
  { name: 'hooks run, 1 builtin (command-safety)', cwd: project({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }), args: [bin, 'run', 'pre-tool-use'], input: event },
  { name: 'hooks run, 1 builtin (sensitive-paths)', cwd: project({ hooks: { preToolUse: [{ builtin: 'sensitive-paths' }] } }), args: [bin, 'run', 'pre-tool-use'], input: event },
  { name: 'hooks run, 1 command (true)', cwd: project({ hooks: { preToolUse: [{ command: 'true', args: [] }] } }), args: [bin, 'run', 'pre-tool-use'], input: event },
  { name: 'hooks run, no config, HOOKS_NO_CODE_CACHE (code cache off)', cwd: project(), args: [bin, 'run', 'pre-tool-use'], input: event, env: { HOOKS_NO_CODE_CACHE: '1' } },
  { name: 'hooks run, 1 command, HOOKS_NO_CACHE (config cache off)', cwd: project({ hooks: { preToolUse: [{ command: 'true', args: [] }] } }), args: [bin, 'run', 'pre-tool-use'], input: event, env: { HOOKS_NO_CACHE: '1' } },
  { name: 'hooks run, no hook matches', cwd: project({ hooks: { preToolUse: [{ command: 'true', match: 'write' }] } }), args: [bin, 'run', 'pre-tool-use'], input: event },
];

if (before !== undefined) {
  for (const c of cases.splice(1)) cases.push(c, { ...c, name: `${c.name} [before]`, args: [before, ...c.args.slice(1)] });
}

const home = project();
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: project(), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };
// Each project's config is trusted, as a user's would be: the hooks really run (the gate's check stays in the timing).
for (const c of cases) {
  if (c.args[0] === '-e') continue;
  const r = spawnSync(process.execPath, [c.args[0], 'trust', '--yes'], { cwd: c.cwd, env, encoding: 'utf8' });
  if (r.status !== 0 && !/no project config found/.test(r.stderr)) throw new Error(`trust: ${r.stderr}`);
}
const samples = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  cases.forEach((c, k) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.args, { cwd: c.cwd, input: c.input, env: { ...env, ...c.env }, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) samples[k].push(ms); // the first two rounds warm the disk cache
  });
}

const base = q(samples[0], 0.5);
console.log(`agent-hooks start-up, ${runs} runs each, Node ${process.version}, ${os.cpus().length} cores`);
console.log(`${'case'.padEnd(58)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'× node'.padStart(8)} ${'+ms'.padStart(7)}`);
cases.forEach((c, k) => {
  const med = q(samples[k], 0.5);
  console.log(`${c.name.padEnd(58)} ${med.toFixed(1).padStart(8)} ${q(samples[k], 0.9).toFixed(1).padStart(8)} ${(med / base).toFixed(2).padStart(8)} ${(med - base).toFixed(1).padStart(7)}`);
});
