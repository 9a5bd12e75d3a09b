#!/usr/bin/env node
// What a prompt hook adds to `hooks run`: whole-process time with a model-judged hook, against the same
// run with one `true` command hook, measured in the same run and interleaved. The judge is a fake
// Anthropic server in this process answering after --latency ms. "cold" sends a new payload each run
// (a model request every time); "warm" repeats one payload (the verdict comes from the file cache).
// Usage: node bench/judge.mjs [--runs 20] [--latency 50]
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin as bin, median } from './kit.mjs';

const runs = Number(flag('--runs', 20));
const latency = Number(flag('--latency', 50));

let requests = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    requests++;
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ model: 'fake', content: [{ type: 'text', text: '{"ok": true, "reason": "fine"}' }], stop_reason: 'end_turn', usage: { input_tokens: 300, output_tokens: 12 } }));
    }, latency);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const root = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-judge-'));
const home = path.join(root, 'home');
mkdirSync(home);
function project(name, config) {
  const dir = path.join(root, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify(config));
  return dir;
}
const env = {
  PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, '.local', 'state'),
  XDG_CACHE_HOME: path.join(home, '.cache'), AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'),
  ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: 'bench-key',
};
const judged = { hooks: { preToolUse: [{ id: 'judge', type: 'prompt', prompt: 'Is this safe? $ARGUMENTS', match: 'exec' }] } };
const cases = [
  { name: 'hooks run, 1 command (true)', cwd: project('command', { hooks: { preToolUse: [{ command: 'true', args: [] }] } }), fresh: false },
  { name: 'hooks run, 1 prompt hook, cold (model request)', cwd: project('cold', judged), fresh: true },
  { name: 'hooks run, 1 prompt hook, warm (cache hit)', cwd: project('warm', judged), fresh: false },
];
// The projects are the user's own here: trust them as `hooks trust` would.
for (const c of cases) await once(c.cwd, ['trust', '--yes'], '');

let n = 0;
const event = (fresh) =>
  JSON.stringify({ session_id: `bench-${fresh ? n++ : 'warm'}`, cwd: '/home/dev/project', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: fresh ? `ls -la src/${n}` : 'ls -la src' }, tool_use_id: 'toolu_bench' });

function once(cwd, args, input) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`hooks ${args.join(' ')} exited ${code}: ${err}`))));
    child.stdin.end(input);
  });
}

const samples = new Map(cases.map((c) => [c.name, []]));
// Two rounds not counted: they fill the config and code caches (and the warm case's verdict).
for (let round = 0; round < runs + 2; round++) {
  for (const c of cases) {
    const ms = await once(c.cwd, ['run', 'pre-tool-use', '--dialect', 'claude-code'], event(c.fresh));
    if (round >= 2) samples.get(c.name).push(ms);
  }
}
server.close();

const baseline = median(samples.get(cases[0].name));
console.log(`runs: ${runs}, fake model latency: ${latency} ms, model requests: ${requests}`);
for (const c of cases) {
  const m = median(samples.get(c.name));
  console.log(`${c.name.padEnd(48)} median ${m.toFixed(1).padStart(7)} ms  ${(m / baseline).toFixed(2)}x the command hook  added ${(m - baseline).toFixed(1)} ms (${((m - baseline) / latency).toFixed(2)}x the model's latency)`);
}
