#!/usr/bin/env node
// The start-up cost of the trust gate: `hooks run` of this tree against a build from before the gate
// (`--before <path to its bin/hooks.js>`), interleaved in one run, as ratios to bare `node -e ''`.
// "3 covered scripts": a config whose trust covers three script files (hashed and compared on every run).
// Usage: node bench/trust-gate.mjs --before /tmp/agent-hooks-before/bin/hooks.js [--runs 20]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as after, quantile as q } from './kit.mjs';

const before = flag('--before') === undefined ? undefined : path.resolve(flag('--before'));
if (before === undefined) throw new Error('usage: node bench/trust-gate.mjs --before <bin/hooks.js of a build without the gate>');
const runs = Number(flag('--runs', 20));

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
function project(config, files = {}) {
  const dir = tmp();
  if (config !== undefined) writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}
const home = tmp();
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };
const event = (cwd) => JSON.stringify({ session_id: 'bench', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench' });

const builtin = project({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } });
const command = project({ hooks: { preToolUse: [{ command: 'true', args: [] }] } });
const untrusted = project({ hooks: { preToolUse: [{ command: 'true', args: [] }] } });
const covered = project(
  { hooks: { preToolUse: [{ command: 'sh', args: ['hook.sh'] }], sessionStart: [{ command: 'python3 guard.py' }, { command: 'node check.mjs' }] } },
  { 'hook.sh': 'exit 0\n', 'guard.py': `# ${'x'.repeat(2000)}\nprint("{}")\n`, 'check.mjs': `// ${'x'.repeat(4000)}\nconsole.log('{}');\n` },
);
const none = project();
for (const dir of [builtin, command, covered]) {
  const r = spawnSync(process.execPath, [after, 'trust', '--yes'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

const cases = [
  { name: "node -e ''", args: ['-e', ''], cwd: none },
  ...[['before', before], ['after', after]].flatMap(([label, bin]) => [
    { name: `${label}: run, no config`, args: [bin, 'run', 'pre-tool-use'], cwd: none },
    { name: `${label}: run, 1 builtin`, args: [bin, 'run', 'pre-tool-use'], cwd: builtin },
    { name: `${label}: run, 1 command`, args: [bin, 'run', 'pre-tool-use'], cwd: command },
    { name: `${label}: run, 1 command, 3 covered scripts`, args: [bin, 'run', 'pre-tool-use'], cwd: covered },
  ]),
  { name: 'after: run, untrusted config', args: [after, 'run', 'pre-tool-use'], cwd: untrusted },
];

const samples = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  cases.forEach((c, k) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, c.args, { cwd: c.cwd, input: c.args[0] === '-e' ? '' : event(c.cwd), env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) samples[k].push(ms);
  });
}
const base = q(samples[0], 0.5);
console.log(`trust gate start-up, ${runs} runs each, Node ${process.version}, ${os.cpus().length} cores`);
console.log(`${'case'.padEnd(34)} ${'median'.padStart(8)} ${'× node'.padStart(8)}`);
cases.forEach((c, k) => console.log(`${c.name.padEnd(34)} ${q(samples[k], 0.5).toFixed(1).padStart(8)} ${(q(samples[k], 0.5) / base).toFixed(2).padStart(8)}`));

// Part 2, in-process and so without the noise of process start-up: the loader (find the project config,
// hash it, read the trust store, and now observe every covered file) of each build, interleaved.
// The whole-process figures above move by more than this between runs on a loaded machine.
const { pathToFileURL } = await import('node:url');
const loaders = [
  ['before', path.join(path.dirname(path.dirname(before)), 'dist', 'config', 'load.js')],
  ['after', path.join(path.dirname(after), '..', 'dist', 'config', 'load.js')],
];
const loads = await Promise.all(loaders.map(async ([label, file]) => [label, (await import(pathToFileURL(file).href)).loadConfigLayers]));
const inProcess = loads.flatMap(([label, load]) => [command, covered].map((cwd) => ({ name: `${label}: load, ${cwd === covered ? '3 covered scripts' : '1 command'}`, load, cwd })));
const rounds = runs * 50;
const micro = inProcess.map(() => []);
for (let i = 0; i < rounds + 50; i++) {
  for (const [k, c] of inProcess.entries()) {
    const started = process.hrtime.bigint();
    const loaded = await c.load({ cwd: c.cwd, env, projectOnly: true });
    const us = Number(process.hrtime.bigint() - started) / 1e3;
    if (loaded.layers[0]?.trust !== 'trusted') throw new Error(`${c.name}: not trusted`);
    if (i >= 50) micro[k].push(us);
  }
}
console.log(`\nthe loader in-process, ${rounds} rounds each (µs)`);
console.log(`${'case'.padEnd(34)} ${'median'.padStart(8)} ${'p90'.padStart(8)}`);
inProcess.forEach((c, k) => console.log(`${c.name.padEnd(34)} ${q(micro[k], 0.5).toFixed(0).padStart(8)} ${q(micro[k], 0.9).toFixed(0).padStart(8)}`));
