#!/usr/bin/env node
// How long past its configured timeout a hook can hold the runner, and what it leaves behind (issue 10, item 7).
// Each case is a hook that resists in its own way; the hook's `ms` comes from the native answer. After each
// run, every pid the hook wrote down is checked: a leftover is a process still alive (zombies excepted).
// Usage: node bench/timeout-overrun.mjs [--bin path/to/hooks.js] [--runs 5]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin } from './kit.mjs';

const bin = path.resolve(flag('--bin', hooksBin));
const runs = Number(flag('--runs', '5'));
const TIMEOUT_S = 1;

const cases = {
  'sleeps': 'echo $$ >> pids; sleep 30',
  'ignores TERM': "trap '' TERM; echo $$ >> pids; while :; do sleep 0.1; done",
  'child ignores TERM, let go of pipes': "(trap '' TERM; exec sleep 30) </dev/null >/dev/null 2>&1 & echo $! >> pids; echo $$ >> pids; sleep 30",
  'grandchild holds stdout': 'sleep 30 & echo $! >> pids; echo $$ >> pids; sleep 30',
};
const alive = (pid) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '');
  } catch {
    return true;
  }
};
const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
let worst = 0;
let leftovers = 0;
console.log(`hooks past a ${TIMEOUT_S} s timeout, ${runs} runs each (${bin})`);
for (const [name, command] of Object.entries(cases)) {
  let caseWorst = 0;
  for (let i = 0; i < runs; i++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-timeout-'));
    const config = path.join(dir, 'hooks.json');
    writeFileSync(config, JSON.stringify({ hooks: { preToolUse: [{ id: 'h', command, timeout: TIMEOUT_S }] } }));
    const r = spawnSync(process.execPath, [bin, 'run', 'pre-tool-use', '--dialect', 'native', '--config', config], { cwd: dir, input: event, encoding: 'utf8', env: { ...process.env, HOME: dir } });
    const ms = JSON.parse(r.stdout).hooks[0].ms;
    caseWorst = Math.max(caseWorst, ms - TIMEOUT_S * 1000);
    // Give the kernel a moment to reap what was killed.
    spawnSync('sleep', ['0.3']);
    const pids = existsSync(path.join(dir, 'pids')) ? readFileSync(path.join(dir, 'pids'), 'utf8').trim().split('\n').map(Number) : [];
    for (const pid of pids) {
      if (alive(pid)) {
        leftovers++;
        process.kill(pid, 'SIGKILL');
      }
    }
  }
  worst = Math.max(worst, caseWorst);
  console.log(`  ${name.padEnd(38)} worst ${String(caseWorst).padStart(5)} ms past the timeout`);
}
console.log(`worst overall: ${worst} ms past the timeout; leftover processes: ${leftovers}`);
