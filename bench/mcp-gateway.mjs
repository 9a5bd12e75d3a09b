#!/usr/bin/env node
// `hooks mcp`'s cost per tool call: one MCP client calls the fixture server's `echo` directly and
// through the gateway, interleaved in one run, with (a) a config of builtins only (redact-secrets on
// the result, schema-pin on the list) and (b) one command hook on preToolUse as well (a process per
// call). Medians of round-trip times; the ratios are against the direct connection of the same run.
// Usage: node bench/mcp-gateway.mjs [--runs 200]
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { flag, hooksBin, median, quantile, root } from './kit.mjs';

const runs = Number(flag('--runs', 200));
const server = path.join(root, 'test', 'fixtures', 'mcp', 'server.mjs');
const home = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-mcp-'));
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, 'config'),
  XDG_STATE_HOME: path.join(home, 'state'),
  XDG_CACHE_HOME: path.join(home, 'cache'),
  AGENT_HOOKS_MANAGED_CONFIG: path.join(home, 'managed.json'),
};
for (const k of ['HOOKS_SKIP', 'HOOKS_DISABLE', 'HOOKS_ON_ERROR', 'HOOKS_NO_CACHE', 'CLAUDE_PROJECT_DIR']) delete env[k];

function project(hooks) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-hooks-bench-mcp-project-'));
  writeFileSync(path.join(dir, 'cfg.json'), JSON.stringify({ hooks }));
  return dir;
}
const builtins = { beforeToolSelection: [{ builtin: 'schema-pin' }], postToolUse: [{ builtin: 'redact-secrets' }] };
const cases = [
  { name: 'direct', dir: project({}), gateway: false },
  { name: 'hooks mcp, builtins (schema-pin, redact-secrets)', dir: project(builtins), gateway: true },
  { name: 'hooks mcp, builtins + one command hook (true)', dir: project({ ...builtins, preToolUse: [{ command: 'true', match: 'mcp__fx__*' }] }), gateway: true },
];

const clients = [];
for (const c of cases) {
  // --config: the bench's file counts as trusted (no trust store needed).
  const args = c.gateway ? [hooksBin, 'mcp', '--name', 'fx', '--config', path.join(c.dir, 'cfg.json'), '--', process.execPath, server] : [server];
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: c.dir, env, stderr: 'ignore' }));
  await client.listTools();
  clients.push(client);
}
const times = cases.map(() => []);
try {
  for (let i = 0; i < runs + 10; i++) {
    for (const [k, client] of clients.entries()) {
      const t = process.hrtime.bigint();
      const r = await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } });
      if (r.isError) throw new Error(`${cases[k].name}: ${JSON.stringify(r)}`);
      if (i >= 10) times[k].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  }
} finally {
  await Promise.all(clients.map((c) => c.close()));
}
const direct = median(times[0]);
cases.forEach((c, k) => console.log(`${c.name.padEnd(52)} p50 ${median(times[k]).toFixed(2)} ms  p90 ${quantile(times[k], 0.9).toFixed(2)} ms  = ${(median(times[k]) / direct).toFixed(2)}× direct`));
