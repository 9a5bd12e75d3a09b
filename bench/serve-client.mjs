#!/usr/bin/env node
// agent-hooks-client's own cost, interleaved in one run against one server: the client (its checks of
// the socket and its folder, reading the event, `env -0` ahead of it, curl) against a given baseline
// client (e.g. the previous version, which did neither) and against a cold `hooks run` of the same
// builtins-only event. Medians of whole-process times.
// Usage: node bench/serve-client.mjs [--runs 40] [--baseline path/to/older/agent-hooks-client]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin, median, quantile, root } from './kit.mjs';

const runs = Number(flag('--runs', 40));
const baseline = flag('--baseline', undefined);
const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-client-'));
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, 'config'),
  XDG_STATE_HOME: path.join(home, 'state'),
  XDG_CACHE_HOME: path.join(home, 'cache'),
  AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'),
  AGENT_HOOKS_SERVE_AUTOSTART: '0',
  AGENT_HOOKS_SERVE_PORT: '0',
};
delete env.XDG_RUNTIME_DIR;
for (const k of ['HOOKS_SKIP', 'HOOKS_DISABLE', 'HOOKS_ON_ERROR', 'HOOKS_NO_CACHE', 'CLAUDE_PROJECT_DIR']) delete env[k];

const project = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-project-'));
writeFileSync(path.join(project, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }, { builtin: 'sensitive-paths' }] } }));
spawnSync(process.execPath, [hooksBin, 'trust', '--yes'], { cwd: project, env });
const event = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', cwd: project, tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't' });
const launcher = path.join(home, 'agent-hooks');
writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(hooksBin)} "$@"\n`, { mode: 0o755 });

const server = spawn(process.execPath, [hooksBin, 'serve', '--no-http'], { env, stdio: 'ignore' });
try {
  for (let i = 0; i < 100 && spawnSync(process.execPath, [hooksBin, 'serve', 'status'], { env }).status !== 0; i++) await new Promise((r) => setTimeout(r, 100));
  const args = [launcher, 'run', 'pre-tool-use', '--dialect', 'claude-code'];
  const cases = [
    { name: 'agent-hooks-client + serve', cmd: path.join(root, 'bin', 'agent-hooks-client'), args },
    ...(baseline === undefined ? [] : [{ name: `baseline client (${baseline}) + serve`, cmd: baseline, args }]),
    { name: 'hooks run (cold)', cmd: process.execPath, args: [hooksBin, 'run', 'pre-tool-use', '--dialect', 'claude-code'] },
  ];
  const times = cases.map(() => []);
  for (let i = 0; i < runs + 3; i++) {
    cases.forEach((c, k) => {
      const t = process.hrtime.bigint();
      const r = spawnSync(c.cmd, c.args, { input: event, env, cwd: project, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
      if (i >= 3) times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
    });
  }
  const cold = median(times.at(-1));
  cases.forEach((c, k) => console.log(`${c.name.padEnd(60)} p50 ${median(times[k]).toFixed(2)} ms  p90 ${quantile(times[k], 0.9).toFixed(2)} ms  = ${(median(times[k]) / cold).toFixed(3)}× cold`));
  if (baseline !== undefined) console.log(`client / baseline client: ${(median(times[0]) / median(times[1])).toFixed(3)}× (+${(median(times[0]) - median(times[1])).toFixed(2)} ms)`);
} finally {
  server.kill('SIGTERM');
}
