#!/usr/bin/env node
// Peak RSS of `hooks run` on a 50 MB event with 10 chained and 10 parallel command hooks (issue 10, item 8),
// against `hooks run` on the same event with no hook (the event itself: stdin, parse), measured in the same run.
// The hooks read their stdin and answer nothing. Usage: node bench/event-memory.mjs [--bin path/to/hooks.js] [--mb 50]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flag, hooksBin } from './kit.mjs';

const bin = path.resolve(flag('--bin', hooksBin));
const mb = Number(flag('--mb', '50'));

const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-mem-'));
const eventFile = path.join(dir, 'event.json');
writeFileSync(eventFile, JSON.stringify({
  session_id: 'bench', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/x' },
  tool_response: { content: 'x'.repeat(mb * 1000 * 1000) },
}));
const hook = (parallel) => ({ command: 'cat > /dev/null', parallel, timeout: 60 });
const configs = {
  'no hook': { hooks: {} },
  '1 hook': { hooks: { postToolUse: [hook(false)] } },
  '10 chained hooks': { hooks: { postToolUse: Array.from({ length: 10 }, () => hook(false)) } },
  '10 parallel hooks': { hooks: { postToolUse: Array.from({ length: 10 }, () => hook(true)) } },
};
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') };

const results = {};
for (const [name, config] of Object.entries(configs)) {
  const file = path.join(dir, `${name.replaceAll(' ', '-')}.json`);
  writeFileSync(file, JSON.stringify(config));
  // GNU time's %M: the process's peak resident set in KiB (hooks are separate processes, not counted).
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bin, 'run', 'post-tool-use', '--config', file], {
    input: readFileSync(eventFile), env, cwd: dir,
    maxBuffer: 1024 * 1024 * 1024,
  });
  const lines = r.stderr.toString().trim().split('\n');
  results[name] = { peakMiB: Math.round(Number(lines.at(-1)) / 1024), exit: r.status };
}
const base = results['no hook'].peakMiB;
console.log(`hooks run on a ${mb} MB event (${bin})`);
for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(18)} peak RSS ${String(r.peakMiB).padStart(5)} MiB  ×${(r.peakMiB / base).toFixed(2)} of no hook  (exit ${r.exit})`);
