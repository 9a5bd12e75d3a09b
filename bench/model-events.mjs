#!/usr/bin/env node
// What the model events and schema-pin cost on the hot path: `hooks run` of this tree against a build
// from before them (`--before <path to its bin/hooks.js>`) on a preToolUse (every tool call), and this
// tree's beforeToolSelection with schema-pin over 20 MCP tool definitions (a tools/list through the
// docker-mcp dialect), interleaved in one run, as ratios to bare `node -e ''`.
// Usage: node bench/model-events.mjs --before /tmp/agent-hooks-before/bin/hooks.js [--runs 20]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as after, median } from './kit.mjs';

const runs = Number(flag('--runs', 20));
const before = flag('--before') === undefined ? undefined : path.resolve(flag('--before'));
if (before === undefined) throw new Error('usage: node bench/model-events.mjs --before <bin/hooks.js of a build without the model events>');

const dir = (config) => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-'));
  if (config !== undefined) writeFileSync(path.join(d, '.hooksrc.json'), JSON.stringify(config));
  return d;
};
const home = dir();
const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: dir(), XDG_STATE_HOME: path.join(home, 'state'), XDG_CACHE_HOME: path.join(home, 'cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json') };

const pre = JSON.stringify({ session_id: 'bench', cwd: '/home/dev/project', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls -la src' }, tool_use_id: 'toolu_bench' });
const tools = JSON.stringify({ tools: Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, description: `Tool number ${i}`, inputSchema: { type: 'object', properties: { a: { type: 'string' }, n: { type: 'number', minimum: 0 } }, required: ['a'] } })) });
const builtins = { hooks: { preToolUse: [{ builtin: 'command-safety' }] } };
const pin = { hooks: { beforeToolSelection: [{ builtin: 'schema-pin' }] } };

const cases = [
  { name: "node -e ''", cwd: dir(), args: ['-e', ''], input: '' },
  ...[['before', before], ['after', after]].flatMap(([label, bin]) => [
    { name: `${label}: run pre-tool-use, no config`, cwd: dir(), args: [bin, 'run', 'pre-tool-use'], input: pre },
    { name: `${label}: run pre-tool-use, command-safety`, cwd: dir(builtins), args: [bin, 'run', 'pre-tool-use'], input: pre },
  ]),
  { name: 'after: tools/list, schema-pin, 20 tools', cwd: dir(pin), args: [after, 'run', 'tools/list', '--dialect', 'docker-mcp'], input: tools },
];
for (const c of cases) if (c.args[0] !== '-e') spawnSync(process.execPath, [c.args[0], 'trust', '--yes'], { cwd: c.cwd, env });

const samples = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < runs; i++) {
  for (const c of cases) {
    const start = performance.now();
    const r = spawnSync(process.execPath, c.args, { cwd: c.cwd, env, input: c.input, encoding: 'utf8' });
    const ms = performance.now() - start;
    if (r.status !== 0 && r.status !== 2) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    samples.get(c.name).push(ms);
  }
}
const base = median(samples.get("node -e ''"));
console.log(`${runs} runs each, medians; ratio to node -e '' (${base.toFixed(1)} ms)`);
for (const c of cases) {
  const m = median(samples.get(c.name));
  console.log(`${c.name.padEnd(44)} ${m.toFixed(1).padStart(7)} ms  ${(m / base).toFixed(2)}x`);
}
