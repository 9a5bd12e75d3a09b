// A Claude Code `mcp_tool` hook, run by the real Claude Code 2.1.332 twice with the same fake model and the same
// real MCP server (test/fixtures/mcp/guard-server.mjs): natively (the hook in .claude/settings.json, the server
// from --mcp-config, called by Claude Code itself), and imported with `hooks import claude-code` (which brings the
// server along from .mcp.json) with only the runner in .claude/settings.json. The server's `check` tool denies a
// command holding "rm -rf": both runs must call the tool with the same arguments, deny the same call, and leave
// the same files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './harness/agents.js';
import { installAgent } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { cleanUpAfterAll, HOOKS_BIN, hooksRun, makeWorkspace } from './harness/workspace.js';
import { ROOT } from '../helpers.js';

const SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs');
const SETTINGS = { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'check', input: { command: '${tool_input.command}' } }] }] } };
const bash = (command: string): Step => ({ tool: { name: 'Bash', input: { command, description: 'run it' } } });
const SCRIPT: Step[] = [bash('touch ran1.marker'), bash('rm -rf ./victim'), bash('touch ran2.marker'), { text: 'done' }];
const MARKS = ['ran1.marker', 'victim/keep', 'ran2.marker'];

let claude: string;
const servers: ModelServer[] = [];

async function runClaude(through: 'native' | 'runner') {
  const ws = makeWorkspace(`claude-mcp-tool-${through}`);
  ws.write({ 'victim/keep': 'x\n' });
  const calls = path.join(ws.root, 'mcp-calls.jsonl');
  const mcpJson = { mcpServers: { guard: { type: 'stdio', command: process.execPath, args: [SERVER], env: { MCP_CALL_LOG: calls } } } };
  writeFileSync(path.join(ws.dir, '.mcp.json'), JSON.stringify(mcpJson, null, 2));
  const extra: string[] = [];
  if (through === 'native') {
    ws.write({ '.claude/settings.json': SETTINGS });
    extra.push('--mcp-config', path.join(ws.dir, '.mcp.json'), '--strict-mcp-config');
  } else {
    writeFileSync(path.join(ws.dir, 'claude-settings.json'), JSON.stringify(SETTINGS, null, 2));
    const env = ws.env();
    const imported = await run(process.execPath, [HOOKS_BIN, 'import', 'claude-code', '--from', 'claude-settings.json'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("MCP server 'guard': brought along from .mcp.json");
    const trusted = await run(process.execPath, [HOOKS_BIN, 'trust', '--yes'], { cwd: ws.dir, env, timeoutMs: 30_000 });
    expect(trusted.code, trusted.stderr).toBe(0);
    ws.write({ '.claude/settings.json': { hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: hooksRun('pre-tool-use', 'claude-code'), timeout: 60 }] }] } } });
    // The model sees no MCP server in this run: the runner starts it for the hook only.
    extra.push('--strict-mcp-config');
  }
  const model = await startModelServer('anthropic', SCRIPT, ws.root);
  servers.push(model);
  const result = await run(claude, ['-p', 'tidy up', '--output-format', 'json', '--allowedTools', 'Bash', ...extra], { cwd: ws.dir, timeoutMs: 120_000, env: ws.env(claudeEnv(model.url)) });
  model.stop();
  expect(result.timedOut, result.stderr).toBe(false);
  const logged = existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tool: string; args: unknown }) : [];
  return {
    marks: Object.fromEntries(MARKS.map((m) => [m, ws.exists(m)])),
    calls: logged.map(({ tool, args }) => ({ tool, args })),
    turns: model.turns().length,
    stdout: result.stdout,
  };
}

beforeAll(async () => {
  claude = await installAgent('claude');
});

cleanUpAfterAll(servers);

describe('a Claude Code mcp_tool hook, natively and through agent-hooks (real CLI, same MCP server)', () => {
  it('the same tool calls, the same denial, the same files', async () => {
    const native = await runClaude('native');
    const runner = await runClaude('runner');
    expect(native.calls, native.stdout).toEqual([
      { tool: 'check', args: { command: 'touch ran1.marker' } },
      { tool: 'check', args: { command: 'rm -rf ./victim' } },
      { tool: 'check', args: { command: 'touch ran2.marker' } },
    ]);
    expect(native.marks).toEqual({ 'ran1.marker': true, 'victim/keep': true, 'ran2.marker': true });
    expect(runner.calls, runner.stdout).toEqual(native.calls);
    expect(runner.marks).toEqual(native.marks);
    expect(runner.turns).toBe(native.turns);
  });
});
