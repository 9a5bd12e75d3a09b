// `hooks mcp` between the real Claude Code and real MCP servers: the reference filesystem server from
// npm, and the SDK-built fixture whose tool definition changes between runs (a rug pull). Claude Code
// runs -p against the fake Anthropic server; .mcp.json points each server at `hooks mcp -- ...`.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeEnv } from './harness/agents.js';
import { everything, toolResults } from './harness/anthropic.js';
import { ensureInstalled, installAgent, REPO } from './harness/install-agent.js';
import { startModelServer, type ModelServer, type Step } from './harness/model-server.js';
import { run } from './harness/process.js';
import { TOKEN } from './harness/fixtures.js';
import { cleanUpAfterAll, HOOKS_BIN, makeWorkspace, type Workspace } from './harness/workspace.js';

const FS_SERVER = { pkg: '@modelcontextprotocol/server-filesystem', version: '2026.8.31', bin: 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js' };
const FIXTURE = path.join(REPO, 'test', 'fixtures', 'mcp', 'server.mjs');

let claude: string;
let fsServer: string;
const servers: ModelServer[] = [];

beforeAll(async () => {
  claude = await installAgent('claude');
  fsServer = path.join(await ensureInstalled(FS_SERVER.pkg, FS_SERVER.version, FS_SERVER.bin, false), FS_SERVER.bin);
}, 300_000);
cleanUpAfterAll(servers);

/** The .mcp.json entry of a server behind the gateway. */
function gateway(name: string, command: string[], env: Record<string, string> = {}) {
  return { command: process.execPath, args: [HOOKS_BIN, 'mcp', '--name', name, '--', ...command], env };
}

async function runClaude(ws: Workspace, script: Step[], mcp: Record<string, object>, allowed: string) {
  ws.write({ '.mcp.json': { mcpServers: mcp }, '.claude/settings.json': { enableAllProjectMcpServers: true } });
  const model = await startModelServer('anthropic', script, ws.root);
  servers.push(model);
  const result = await run(claude, ['-p', 'do the task', '--output-format', 'json', '--allowedTools', allowed], { cwd: ws.dir, timeoutMs: 120_000, env: ws.env({ ...claudeEnv(model.url), MCP_CONNECTION_NONBLOCKING: 'false', ENABLE_TOOL_SEARCH: 'false' }) });
  model.stop();
  expect(result.timedOut, `claude timed out\n${result.stderr}`).toBe(false);
  return { model, result, describe: () => `exit ${result.code}\nstdout: ${result.stdout.slice(0, 1500)}\nstderr: ${result.stderr.slice(0, 1500)}\nturns: ${model.turns().length}` };
}

const BLOCK_WRITE = `#!/bin/bash
cat >/dev/null
echo "writing files through MCP is not allowed in this project" >&2
exit 2
`;

describe('hooks mcp with the real Claude Code and the reference filesystem server', () => {
  it('a call is blocked (the reason reaches the model) and a secret in a result is redacted', async () => {
    const ws = makeWorkspace('mcp-fs');
    ws.write({
      'secret.txt': `service=api\ntoken=${TOKEN}\n`,
      'block-write.sh': BLOCK_WRITE,
      '.hooksrc.json': { hooks: { preToolUse: [{ id: 'no-mcp-writes', command: 'bash block-write.sh', match: 'write_file', matchUnknownTools: true }], postToolUse: [{ builtin: 'redact-secrets' }] } },
    });
    const script: Step[] = [
      { tool: { name: 'mcp__fs__write_file', input: { path: path.join(ws.dir, 'written.txt'), content: 'x' } } },
      { tool: { name: 'mcp__fs__read_text_file', input: { path: path.join(ws.dir, 'secret.txt') } } },
      { text: 'done' },
    ];
    const r = await runClaude(ws, script, { fs: gateway('fs', [process.execPath, fsServer, ws.dir]) }, 'mcp__fs__write_file mcp__fs__read_text_file');
    expect(r.result.code, r.describe()).toBe(0);
    const turns = r.model.turns();
    expect(turns.length, r.describe()).toBeGreaterThanOrEqual(3);
    // The gateway's tools reached the model under Claude Code's names.
    expect(everything(turns[0]!)).toContain('mcp__fs__read_text_file');

    expect(ws.exists('written.txt')).toBe(false);
    const blocked = toolResults(turns[1]!).at(-1)!;
    expect(blocked.is_error).toBe(true);
    expect(blocked.text).toContain('writing files through MCP is not allowed in this project');

    const read = toolResults(turns[2]!).at(-1)!;
    expect(read.text).toContain('service=api');
    expect(read.text).toContain('[REDACTED');
    expect(everything(turns[2]!)).not.toContain(TOKEN);
  });
});

describe('hooks mcp with the real Claude Code: a rug pull', () => {
  it('a tool whose definition changed since it was pinned is not offered to the model; the others are', async () => {
    const ws = makeWorkspace('mcp-rug');
    ws.write({ '.hooksrc.json': { hooks: { beforeToolSelection: [{ builtin: 'schema-pin' }] } } });
    // The first session pins the definitions (through the gateway, as any client would).
    const env = ws.env() as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [HOOKS_BIN, 'mcp', '--name', 'fx', '--', process.execPath, FIXTURE], cwd: ws.dir, env, stderr: 'ignore' });
    const client = new Client({ name: 'first-session', version: '1' });
    await client.connect(transport);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('deploy');
    await client.close();

    // Then the server changes `deploy`: Claude Code must not be offered it, nor be able to call it.
    const calls = path.join(ws.root, 'calls.jsonl');
    writeFileSync(calls, '');
    const script: Step[] = [{ tool: { name: 'mcp__fx__deploy', input: { target: 'prod' } } }, { text: 'done' }];
    const r = await runClaude(ws, script, { fx: gateway('fx', [process.execPath, FIXTURE], { FIXTURE_VARIANT: '2', FIXTURE_CALLS: calls }) }, 'mcp__fx__deploy mcp__fx__echo');
    const first = r.model.turns()[0];
    expect(first, r.describe()).toBeDefined();
    const offered = everything(first!);
    expect(offered).toContain('mcp__fx__echo');
    expect(offered).not.toContain('mcp__fx__deploy');
    expect(offered).not.toContain('id_rsa');
    // The scripted call to the withheld tool never reached the server.
    expect(readFileSync(calls, 'utf8')).toBe('');
    rmSync(calls);
  });
});
