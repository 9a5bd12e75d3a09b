#!/usr/bin/env node
// What an mcp_tool hook costs per event: the runner is short-lived, so each run starts the MCP server, initializes
// the session, calls the tool and stops it. Whole-process time of `hooks run` with one mcp_tool hook (the SDK's
// McpServer in test/fixtures/mcp/guard-server.mjs, answering "{}") against one command hook that is also a node
// script answering "{}" and against `hooks run` with one `true` command, interleaved in the same run; ratios
// against the node command hook. Usage: node bench/mcp-tool.mjs [--runs 15]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag, hooksBin, median } from './kit.mjs';

const runs = Number(flag('--runs', 15));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'test', 'fixtures', 'mcp', 'guard-server.mjs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-mcp-'));
const script = path.join(dir, 'allow.mjs');
writeFileSync(script, "process.stdin.resume(); process.stdin.on('end', () => process.stdout.write('{}'));\n");
const configs = {
  true: { hooks: { preToolUse: [{ command: 'true', args: [] }] } },
  node: { hooks: { preToolUse: [{ command: process.execPath, args: [script] }] } },
  mcp: { mcpServers: { guard: { command: process.execPath, args: [server] } }, hooks: { preToolUse: [{ type: 'mcp_tool', server: 'guard', tool: 'allow', input: { command: '${tool_input.command}' }, onFailure: 'block' }] } },
};
for (const [name, config] of Object.entries(configs)) writeFileSync(path.join(dir, `${name}.json`), JSON.stringify(config));
const event = JSON.stringify({ session_id: 'bench', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
const cases = [
  { name: 'hooks run, 1 command (true)', config: 'true' },
  { name: 'hooks run, 1 command (node script)', config: 'node' },
  { name: 'hooks run, 1 mcp_tool (node server)', config: 'mcp' },
];
const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'c'), XDG_STATE_HOME: path.join(dir, 's'), XDG_CACHE_HOME: path.join(dir, 'cache') };
const samples = cases.map(() => []);
for (let i = 0; i < runs + 2; i++) {
  cases.forEach((c, k) => {
    const started = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [hooksBin, 'run', 'pre-tool-use', '--config', path.join(dir, `${c.config}.json`)], { cwd: dir, input: event, env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${c.name}: exit ${r.status}: ${r.stderr}`);
    if (i >= 2) samples[k].push(Number(process.hrtime.bigint() - started) / 1e6);
  });
}
const base = median(samples[1]);
console.log(`one hook per event, ${runs} runs each, median (ratio against the node command hook)`);
cases.forEach((c, k) => console.log(`  ${c.name.padEnd(40)} ${median(samples[k]).toFixed(1).padStart(7)} ms  ×${(median(samples[k]) / base).toFixed(2)}`));
