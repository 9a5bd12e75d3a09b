// `hooks mcp` at the protocol level: the SDK's Client as the MCP client, a real McpServer fixture upstream
// (test/fixtures/mcp/fixture-server.mjs), real hook scripts. The tests about the gateway's decisions run it
// in-process (startGateway over in-memory transports, wired as src/cli/commands/mcp.ts wires it), with the server
// in-process too: each spares two node processes and two SDK loads. The wiring has its own real-process tests:
// the built CLI as the gateway over stdio with the server as its child (a block end to end; the server's lifetime;
// a server that dies at start) or over --url (a block, a redaction), and an in-process gateway with the server as
// a child over stdio where the server's stdout is the point (lines that are not JSON-RPC).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRunner } from '../../src/engine.js';
import { gatewayJudge } from '../../src/mcp/gateway/judge.js';
import { startGateway } from '../../src/mcp/gateway/proxy.js';
import { memoryStore } from '../../src/metadata/store.js';
import { fixtureServer } from '../fixtures/mcp/fixture-server.mjs';
import { cliInProcess, isolatedEnv, ROOT, runCli, tmpProject } from '../helpers.js';

const SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'server.mjs');
const GUARD_SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs');
const TOKEN = ['ghp', '_', 'a7Xq'.repeat(9)].join('');

const BLOCK_PROD = `#!/bin/bash
input=$(cat)
if printf '%s' "$input" | grep -q '"target":"prod"'; then echo "deploying to prod is not allowed from an agent" >&2; exit 2; fi
exit 0
`;
// Rewrites echo's text (a real node process reading the payload); logs on stderr and exits 0.
const SHOUT = `const chunks = []; for await (const c of process.stdin) chunks.push(c);
const event = JSON.parse(Buffer.concat(chunks).toString());
console.error('shout saw ' + event.tool_name);
console.log(JSON.stringify({ decision: 'modify', updatedInput: { text: String(event.tool_input.text).toUpperCase() } }));
`;

interface Session {
  client: Client;
  stderr: () => string;
  calls: () => { tool: string; args: Record<string, unknown> }[];
  close: () => Promise<void>;
}

const open: Session[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

beforeAll(() => {
  // CLI-level: the bundle must be there (npm run build).
  expect(existsSync(path.join(ROOT, 'dist', 'bundle', 'vendor', 'mcp-sdk.cjs.br'))).toBe(true);
});

function project(config: unknown, files: Record<string, string> = {}) {
  const dir = tmpProject({ '.hooksrc.json': JSON.stringify(config), 'block-prod.sh': BLOCK_PROD, 'shout.mjs': SHOUT, ...files });
  return dir;
}

interface ConnectOptions {
  env?: Record<string, string>;
  home?: string;
  trust?: boolean;
}

function sessionEnv(dir: string, options: ConnectOptions, codeCache: boolean) {
  const home = options.home ?? tmpProject();
  const callsFile = path.join(home, 'calls.jsonl');
  const env = isolatedEnv(home, { FIXTURE_CALLS: callsFile, ...options.env }, { trust: options.trust === false ? false : dir, codeCache });
  const calls = () => (existsSync(callsFile) ? readFileSync(callsFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
  return { env, calls };
}

/** The built CLI as the gateway (a real process, over stdio), the fixture server as its child. */
async function connectProcess(dir: string, options: ConnectOptions = {}): Promise<Session> {
  const { env, calls } = sessionEnv(dir, options, true);
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'bin', 'hooks.js'), 'mcp', '--name', 'fx', '--', process.execPath, SERVER],
    cwd: dir,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'test-client', version: '1' });
  await client.connect(transport);
  const session: Session = { client, stderr: () => stderr, calls, close: () => client.close() };
  open.push(session);
  return session;
}

/**
 * Linked in-memory transports that send what a wire would: each message as JSON, not the sender's object (the
 * SDK's McpServer leaves keys set to undefined in its tool definitions, which no real transport carries).
 */
function wirePair(): [Transport, Transport] {
  const pair = InMemoryTransport.createLinkedPair();
  for (const side of pair) {
    const send = side.send.bind(side);
    side.send = (message, options) => send(JSON.parse(JSON.stringify(message)), options);
  }
  return pair;
}

/**
 * The gateway in-process, wired as `hooks mcp --name fx` wires it (runner, judge, startGateway), the client on an
 * in-memory transport. The server is in-process too, or (`server: 'child'`) server.mjs as a child over stdio.
 */
async function connect(dir: string, options: ConnectOptions & { server?: 'child' } = {}): Promise<Session> {
  const { env, calls } = sessionEnv(dir, options, false);
  let stderr = '';
  const log = (line: string) => void (stderr += `agent-hooks mcp fx: ${line}\n`);
  const runner = await createRunner({ cwd: dir, env, anyTool: true });
  const stop = new AbortController();
  const judge = gatewayJudge({ runner, server: 'fx', cwd: dir, log, run: { signal: stop.signal, metadataStore: memoryStore() } });
  let upstream: Transport;
  if (options.server === 'child') {
    const stdio = new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: dir, env: env as Record<string, string>, stderr: 'pipe' });
    upstream = stdio;
  } else {
    const [gatewaySide, serverSide] = wirePair();
    await fixtureServer(env).connect(serverSide);
    upstream = gatewaySide;
  }
  const [downstream, clientSide] = wirePair();
  const gateway = await startGateway({ judge, upstream, downstream, log, version: 'test' });
  const client = new Client({ name: 'test-client', version: '1' });
  await client.connect(clientSide);
  const session: Session = {
    client,
    stderr: () => stderr,
    calls,
    close: async () => {
      stop.abort();
      await client.close();
      await gateway.close();
    },
  };
  open.push(session);
  return session;
}

const text = (result: unknown) => ((result as { content: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

const CONFIG = {
  hooks: {
    beforeToolSelection: [{ builtin: 'schema-pin' }],
    preToolUse: [
      { id: 'block-prod', command: 'bash block-prod.sh', match: 'mcp__fx__deploy' },
      { id: 'shout', command: 'node shout.mjs', match: 'echo' },
    ],
    postToolUse: [{ builtin: 'redact-secrets' }],
  },
};

describe('hooks mcp: tools/call', () => {
  // The real CLI over stdio, the server its child: the wiring of a decision end to end.
  it('a blocked call never reaches the server; the model gets the reason as an error result, the log gets it too', async () => {
    const s = await connectProcess(project(CONFIG));
    const result = await s.client.callTool({ name: 'deploy', arguments: { target: 'prod' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('deploying to prod is not allowed from an agent');
    expect(s.calls()).toEqual([]);
    const ok = await s.client.callTool({ name: 'deploy', arguments: { target: 'staging' } });
    expect(ok.isError).not.toBe(true);
    expect(text(ok)).toBe('deployed to staging');
    expect(s.calls()).toEqual([{ tool: 'deploy', args: { target: 'staging' } }]);
    expect(s.stderr()).toContain('refused mcp__fx__deploy: deploying to prod is not allowed from an agent');
  });

  it('rewritten arguments are what the server gets (a bare tool name in match, no matchUnknownTools needed here)', async () => {
    const s = await connect(project(CONFIG));
    const result = await s.client.callTool({ name: 'echo', arguments: { text: 'quiet' } });
    expect(text(result)).toBe('echo: QUIET');
    expect(s.calls()).toEqual([{ tool: 'echo', args: { text: 'QUIET' } }]);
    // The hook's own stderr on success reaches the log, and it saw Claude Code's name for the tool.
    expect(s.stderr()).toContain('shout saw mcp__fx__echo');
  });

  it('redact-secrets takes the secret out of a result before the client sees it', async () => {
    const s = await connect(project(CONFIG));
    const result = await s.client.callTool({ name: 'read_config', arguments: {} });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(text(result)).toContain('service=api');
    expect(text(result)).toContain('REDACTED');
  });

  it('output-budget cuts a long result', async () => {
    const s = await connect(project({ hooks: { postToolUse: [{ builtin: 'output-budget', options: { max: 200 } }] } }));
    const long = 'x'.repeat(5000);
    const result = await s.client.callTool({ name: 'echo', arguments: { text: long } });
    expect(text(result).length).toBeLessThan(1000);
    expect(s.calls()).toEqual([{ tool: 'echo', args: { text: long } }]);
  });

  it('a hook that fails follows its onFailure: block refuses the call, continue lets it through with a word', async () => {
    const failing = { hooks: { preToolUse: [{ id: 'broken', command: 'exit 7', match: 'mcp__fx__*', onFailure: 'block' }] } };
    const s = await connect(project(failing));
    const result = await s.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(s.calls()).toEqual([]);
    expect(s.stderr()).toMatch(/broken/);

    const lenient = { hooks: { preToolUse: [{ id: 'broken', command: 'exit 7', match: 'mcp__fx__*', onFailure: 'continue' }] } };
    const t = await connect(project(lenient));
    const passed = await t.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(text(passed)).toBe('echo: hi');
    expect(t.stderr()).toMatch(/broken/);
  });

  it('a hook that times out with onFailure block refuses the call', async () => {
    const slow = { hooks: { preToolUse: [{ id: 'slow', command: 'sleep 5', match: 'mcp__fx__*', timeout: 1, onFailure: 'block' }] } };
    const s = await connect(project(slow));
    const result = await s.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(s.calls()).toEqual([]);
  });

  it('context a preToolUse hook adds rides along the result to the model', async () => {
    const ctx = { hooks: { preToolUse: [{ command: `echo '{"additionalContext":"remember: staging only"}'`, match: 'mcp__fx__echo' }] } };
    const s = await connect(project(ctx));
    const result = await s.client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(text(result)).toBe('echo: hi\nremember: staging only');
  });
});

describe('hooks mcp: tools/list through schema-pin', () => {
  it('a rug-pulled definition is withheld from the list and a call to it refused; the first run pinned it', async () => {
    const dir = project(CONFIG);
    const home = tmpProject();
    const first = await connect(dir, { home });
    expect((await first.client.listTools()).tools.map((t) => t.name).sort()).toEqual(['deploy', 'echo', 'lookalike', 'read_config']);
    expect(first.stderr()).toContain('pinned 4 tool definition(s)');
    await first.close();

    const second = await connect(dir, { home, env: { FIXTURE_VARIANT: '2' } });
    const names = (await second.client.listTools()).tools.map((t) => t.name).sort();
    expect(names).toEqual(['echo', 'lookalike', 'read_config']);
    expect(second.stderr()).toContain('withheld tool "mcp__fx__deploy"');
    const call = await second.client.callTool({ name: 'deploy', arguments: { target: 'staging' } });
    expect(call.isError).toBe(true);
    expect(text(call)).toContain('withheld');
    expect(second.calls()).toEqual([]);
  });

  it('a call before any tools/list is judged against a list the gateway fetches itself', async () => {
    const dir = project(CONFIG);
    const home = tmpProject();
    const first = await connect(dir, { home });
    await first.client.listTools();
    await first.close();
    const second = await connect(dir, { home, env: { FIXTURE_VARIANT: '2' } });
    const call = await second.client.callTool({ name: 'deploy', arguments: { target: 'staging' } });
    expect(call.isError).toBe(true);
    expect(second.calls()).toEqual([]);
  });

  it('a definition changed mid-session: list_changed reaches the client, and the next call is judged on the new list', async () => {
    const s = await connect(project(CONFIG), { env: { FIXTURE_CHANGE_AFTER: '1' } });
    let changed = false;
    const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed = true));
    await s.client.listTools();
    expect(text(await s.client.callTool({ name: 'deploy', arguments: { target: 'a' } }))).toBe('deployed to a');
    await expect.poll(() => changed).toBe(true);
    // The client has not listed again: the gateway does, and the changed tool is refused.
    const again = await s.client.callTool({ name: 'deploy', arguments: { target: 'b' } });
    expect(again.isError).toBe(true);
    expect(s.calls().map((c) => c.args.target)).toEqual(['a']);
    expect((await s.client.listTools()).tools.map((t) => t.name)).not.toContain('deploy');
  });

  it('added: block withholds a tool that was not pinned before', async () => {
    const dir = project({ hooks: { beforeToolSelection: [{ builtin: 'schema-pin', options: { added: 'block' } }] } });
    const home = tmpProject();
    const first = await connect(dir, { home });
    await first.client.listTools();
    await first.close();
    const second = await connect(dir, { home, env: { FIXTURE_HOSTILE: 'names' } });
    const names = (await second.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('Bash');
    expect(names).not.toContain('a__b');
    expect(names).toContain('echo');
    expect(second.stderr()).toMatch(/new tool\(s\) not pinned before: .*a__b/);
  });
});

describe('hooks mcp: what passes through', () => {
  it('resources and prompts pass through as they are; the server info is the upstream one', async () => {
    const s = await connect(project(CONFIG));
    expect(s.client.getServerVersion()?.name).toBe('fixture');
    const read = await s.client.readResource({ uri: 'fixture://readme' });
    expect(read.contents[0]).toMatchObject({ text: 'the readme' });
    const prompt = await s.client.getPrompt({ name: 'greet' });
    expect(prompt.messages[0]?.content).toMatchObject({ text: 'hello' });
  });

  it('with no config at all, the default guards still run: a secret in a result is redacted', async () => {
    const s = await connect(tmpProject(), { trust: false });
    const result = await s.client.callTool({ name: 'read_config', arguments: {} });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });
});

describe('hooks mcp: the server lives as long as the client', () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  it.each(['stdin closed', 'SIGTERM'])('%s: the gateway exits and the server is gone', async (how) => {
    const dir = project(CONFIG);
    const pidFile = path.join(dir, 'server.pid');
    // The server is the SDK-less guard server (test/fixtures/mcp/guard-server.mjs, MCP_PLAIN): only its process matters here.
    const env = isolatedEnv(tmpProject(), { MCP_PLAIN: '1', MCP_START_LOG: pidFile }, { trust: dir });
    const gatewayProcess = spawn(process.execPath, [path.join(ROOT, 'bin', 'hooks.js'), 'mcp', '--name', 'fx', '--', process.execPath, GUARD_SERVER], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => gatewayProcess.on('exit', (code) => resolve(code)));
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', { timeout: 20_000 }).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    // Connected: the server answers initialize through the gateway.
    gatewayProcess.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`);
    await new Promise((resolve) => gatewayProcess.stdout.once('data', resolve));
    if (how === 'SIGTERM') gatewayProcess.kill('SIGTERM');
    else gatewayProcess.stdin.end();
    expect(await exited).toBe(how === 'SIGTERM' ? 143 : 0);
    await expect.poll(() => alive(pid), { timeout: 20_000 }).toBe(false);
  });
});

describe('hooks mcp: a hostile server', () => {
  it('a result dressed as a hook reply is data: it decides nothing and is still redacted', async () => {
    const s = await connect(project(CONFIG));
    const result = await s.client.callTool({ name: 'lookalike', arguments: {} });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(text(result)).toContain('"decision":"allow"');
    // And it does not open a later blocked call.
    const blocked = await s.client.callTool({ name: 'deploy', arguments: { target: 'prod' } });
    expect(blocked.isError).toBe(true);
  });

  it('lines that are not JSON-RPC are reported on stderr and the session goes on', async () => {
    // The server a child over stdio: the garbage is on its real stdout.
    const s = await connect(project(CONFIG), { env: { FIXTURE_HOSTILE: 'garbage' }, server: 'child' });
    const result = await s.client.callTool({ name: 'echo', arguments: { text: 'a' } });
    expect(text(result)).toBe('echo: A');
    await expect.poll(() => s.stderr()).toContain('upstream server:');
    expect(text(await s.client.callTool({ name: 'echo', arguments: { text: 'b' } }))).toBe('echo: B');
  });

  it('a list past the limit is refused whole, with the reason, and no call goes through', async () => {
    const s = await connect(project(CONFIG), { env: { FIXTURE_HOSTILE: 'many' } });
    await expect(s.client.listTools()).rejects.toThrow(/more than 10000 tools/);
    const call = await s.client.callTool({ name: 'echo', arguments: { text: 'a' } });
    expect(call.isError).toBe(true);
    expect(s.calls()).toEqual([]);
  }, 60_000);

  it('tool names with "__" and built-in names are judged under their full MCP name', async () => {
    const guard = { hooks: { preToolUse: [{ id: 'no-mcp-bash', command: `echo "no $HOOKS_TOOL" >&2; exit 2`, match: 'mcp__fx__Bash' }, { id: 'no-ab', command: 'exit 2', match: 'mcp__fx__a__b' }] } };
    const s = await connect(project(guard), { env: { FIXTURE_HOSTILE: 'names' } });
    const bash = await s.client.callTool({ name: 'Bash', arguments: { command: 'ls' } });
    expect(bash.isError).toBe(true);
    expect(text(bash)).toContain('no mcp__fx__Bash');
    expect((await s.client.callTool({ name: 'a__b', arguments: {} })).isError).toBe(true);
    expect(s.calls()).toEqual([]);
  });

  it('a call to a tool the server never listed is not passed on', async () => {
    const s = await connect(project(CONFIG));
    const result = await s.client.callTool({ name: 'hidden', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('did not offer');
  });
});

describe('hooks mcp --url: a Streamable HTTP upstream', () => {
  it('calls are judged as over stdio: a block, a redaction', async () => {
    const { startGatewayHttpServer } = await import('../fixtures/mcp/gateway-http-server.mjs');
    const server = await startGatewayHttpServer();
    try {
      const guard = { hooks: { preToolUse: [{ id: 'no-echo', command: 'echo "no echo today" >&2; exit 2', match: 'mcp__fx__echo' }], postToolUse: [{ builtin: 'redact-secrets' }] } };
      const home = tmpProject();
      const dir = project(guard);
      const env = isolatedEnv(home, {}, { trust: dir });
      let stderr = '';
      const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin', 'hooks.js'), 'mcp', '--name', 'fx', '--url', server.url], cwd: dir, env: env as Record<string, string>, stderr: 'pipe' });
      transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
      const client = new Client({ name: 'test-client', version: '1' });
      await client.connect(transport);
      try {
        expect(client.getServerVersion()?.name).toBe('http-fixture');
        const blocked = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
        expect(blocked.isError).toBe(true);
        expect(text(blocked)).toContain('no echo today');
        const read = await client.callTool({ name: 'read_config', arguments: {} });
        expect(JSON.stringify(read)).not.toContain(TOKEN);
        expect(text(read)).toContain('REDACTED');
        expect(stderr).toContain('refused mcp__fx__echo');
      } finally {
        await client.close();
      }
    } finally {
      await server.close();
    }
  });

  it('a URL that is not http(s) is a usage error, one line', async () => {
    // In-process: these are the command's checks; the server that dies is the real CLI with a real child.
    const cwd = tmpProject();
    const env = isolatedEnv(cwd, {}, { codeCache: false });
    const r = await cliInProcess(['mcp', '--url', 'file:///etc/passwd'], { cwd, env });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('is not an http:// or https:// URL');
    const none = await cliInProcess(['mcp'], { cwd, env });
    expect(none.stderr).toContain('hooks mcp needs the server');
    // A server that cannot start, or dies before it answers: exit 1 and one line naming it.
    const missing = await cliInProcess(['mcp', '--name', 'dead', '--', '/nonexistent/mcp-server'], { cwd, env });
    expect(missing.code, missing.stderr).toBe(1);
    expect(missing.stderr).toMatch(/hooks mcp dead: could not start the server/);
    expect(missing.stdout).toBe('');
    const dies = runCli(['mcp', '--name', 'dead', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(dies.code, dies.stderr).toBe(1);
    expect(dies.stderr).toMatch(/hooks mcp dead: could not start the server/);
    expect(dies.stderr.trim().split('\n')).toHaveLength(1);
    expect(dies.stdout).toBe('');
  });
});

describe('hooks mcp: a hostile repository', () => {
  it("an untrusted project config does not run: its hooks cannot open what the defaults close, and the log says why", async () => {
    // The repository's config would pass everything through untouched (no redaction); it is not trusted.
    const dir = project({ hooks: { postToolUse: [{ command: 'true' }] } });
    const s = await connect(dir, { trust: false });
    const result = await s.client.callTool({ name: 'read_config', arguments: {} });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(s.stderr()).toMatch(/not trusted|trust/);
  });

  it('a broken project config stops nothing silently: the gateway still runs the defaults and says so', async () => {
    const dir = tmpProject({ '.hooksrc.json': '{"hooks": {"preToolUse": [{"command": 5}]}}' });
    const s = await connect(dir);
    const result = await s.client.callTool({ name: 'read_config', arguments: {} });
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(s.stderr()).toMatch(/\.hooksrc\.json/);
  });
});

describe('hooks mcp: review findings', () => {
  it.each(['structured', 'embedded', 'meta'])('a secret the server puts outside the text blocks (%s) is redacted too', async (tool) => {
    const s = await connect(project(CONFIG), { env: { FIXTURE_HOSTILE: 'escape' } });
    const result = await s.client.callTool({ name: tool, arguments: {} });
    expect(s.calls()).toEqual([{ tool, args: {} }]);
    expect(JSON.stringify(result)).not.toContain(TOKEN);
  });

  it('a secret in the JSON-RPC error a call ends with goes through postToolUse too (redacted), and the error is said', async () => {
    const s = await connect(project(CONFIG), { env: { FIXTURE_HOSTILE: 'escape' } });
    const outcome = await s.client.callTool({ name: 'rpc_error', arguments: {} }).then(
      (result) => JSON.stringify(result),
      (error: unknown) => JSON.stringify({ message: (error as Error).message, data: (error as { data?: unknown }).data }),
    );
    expect(s.calls()).toEqual([{ tool: 'rpc_error', args: {} }]);
    expect(outcome).not.toContain(TOKEN);
    expect(outcome).toContain('auth failed');
  });

  it('a list_changed that arrives while a list is being judged is not lost: the next call lists and judges again', async () => {
    // The first beforeToolSelection run makes the server change `deploy` (and say so) while the gateway
    // is still judging the list it fetched before the change.
    const wait = `[ -e "$FIXTURE_CHANGE_ON" ] && exit 0
: > "$FIXTURE_CHANGE_ON"
for i in $(seq 1 1000); do [ -e "$FIXTURE_CHANGE_ON.done" ] && exit 0; sleep 0.02; done
exit 0
`;
    const config = { hooks: { beforeToolSelection: [{ id: 'change', command: 'bash change.sh' }, { builtin: 'schema-pin' }] } };
    const home = tmpProject();
    const s = await connect(project(config, { 'change.sh': wait }), { home, env: { FIXTURE_CHANGE_ON: path.join(home, 'change') } });
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain('deploy');
    expect(existsSync(path.join(home, 'change.done'))).toBe(true);
    // The client has not listed again; the server now runs the changed definition, which the pin refuses.
    const call = await s.client.callTool({ name: 'deploy', arguments: { target: 'a' } });
    expect(call.isError).toBe(true);
    expect(s.calls()).toEqual([]);
  }, 60_000);

  it('a list_changed that arrives while a call is being judged makes the gateway list and judge again before calling', async () => {
    const wait = `[ -e "$FIXTURE_CHANGE_ON" ] && exit 0
: > "$FIXTURE_CHANGE_ON"
for i in $(seq 1 1000); do [ -e "$FIXTURE_CHANGE_ON.done" ] && exit 0; sleep 0.02; done
exit 0
`;
    const config = { hooks: { beforeToolSelection: [{ builtin: 'schema-pin' }], preToolUse: [{ id: 'change', command: 'bash change.sh', match: 'mcp__fx__deploy' }] } };
    const home = tmpProject();
    const s = await connect(project(config, { 'change.sh': wait }), { home, env: { FIXTURE_CHANGE_ON: path.join(home, 'change') } });
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain('deploy');
    const call = await s.client.callTool({ name: 'deploy', arguments: { target: 'a' } });
    expect(existsSync(path.join(home, 'change.done'))).toBe(true);
    expect(call.isError).toBe(true);
    expect(text(call)).toContain('withheld');
    expect(s.calls()).toEqual([]);
  }, 60_000);
});
