// `type: "mcp_tool"` hooks against a real MCP server (test/fixtures/mcp/guard-server.mjs, the SDK's McpServer over
// stdio): the tool's text is read as a command hook's stdout, `${path}` in the input is filled from the event,
// and every way a server can fail (isError, not connected, a crash, too slow, a huge answer) is a named failure
// that blocks only under onFailure: "block".
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HooksConfig } from '../../src/config/schema.js';
import { fillInput } from '../../src/run/mcp-tool.js';
import { bash, event, ROOT, runnerWith, tmpProject } from '../helpers.js';

const SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs');
// The server without the SDK (MCP_PLAIN): the same tools and answers for a tenth of the start-up CPU. The first
// test calls the SDK's own McpServer (the reference server) and sets MCP_PLAIN to 0.
const servers = (env: Record<string, string> = {}) => ({ guard: { command: process.execPath, args: [SERVER], env: { MCP_PLAIN: '1', ...env } } });
const mcpHook = (tool: string, extra: Record<string, unknown> = {}, serverEnv: Record<string, string> = {}) =>
  ({
    mcpServers: servers(serverEnv),
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool, input: { command: '${tool_input.command}' }, ...extra }] }] },
  }) as unknown as HooksConfig;

function callLog(): { file: string; calls: () => { tool: string; args: Record<string, unknown>; pid: number }[] } {
  const file = path.join(tmpProject(), 'calls.jsonl');
  return { file, calls: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []) };
}

describe('mcp_tool hooks: the tool answers', () => {
  it('calls the tool (of the SDK\'s McpServer) with ${path} filled from the event; its "{}" lets the call go on', async () => {
    const log = callLog();
    const runner = await runnerWith(mcpHook('check', {}, { MCP_CALL_LOG: log.file, MCP_PLAIN: '0' }));
    const decision = await runner.run(bash('git status'));
    expect(decision.decision).toBe('continue');
    expect(log.calls()).toEqual([expect.objectContaining({ tool: 'check', args: { command: 'git status' } })]);
    expect(decision.results[0]).toMatchObject({ id: 'mcp:guard:check', reply: { decision: 'continue' } });
  });

  it('a block in Claude Code\'s JSON denies the call with the server\'s reason', async () => {
    const runner = await runnerWith(mcpHook('check'));
    const decision = await runner.run(bash('rm -rf ./build'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toBe('guard server: rm -rf ./build deletes files');
  });

  it('context from the tool reaches the agent; plain text is not a reply and changes nothing', async () => {
    const context = await (await runnerWith({ mcpServers: servers(), hooks: { PreToolUse: [{ type: 'mcp_tool', server: 'guard', tool: 'context', input: { path: '${tool_input.file_path}' } }] } } as unknown as HooksConfig)).run(
      event('preToolUse', { tool_name: 'Read', tool_input: { file_path: '/src/a.ts' } }),
    );
    expect(context.additionalContext).toEqual(['checked /src/a.ts']);
    const prose = await (await runnerWith(mcpHook('prose'))).run(bash('ls'));
    expect(prose.decision).toBe('continue');
  });

  it('non-text content becomes "[image]" as in Claude Code: a JSON block after it is not a reply and blocks nothing', async () => {
    const decision = await (await runnerWith(mcpHook('odd'))).run(bash('ls'));
    // As a command hook's stdout with text before its JSON: a named failure (onFailure continue), never the block.
    expect(decision.decision).toBe('continue');
    expect(decision.results[0]!.failure).toMatchObject({ kind: 'text-before-json', message: expect.stringContaining('"[image]" comes first') });
  });
});

describe('mcp_tool hooks: failures are named and go through onFailure', () => {
  it('isError: true is a failure with the tool\'s text; it blocks only under onFailure: "block"', async () => {
    const open = await (await runnerWith(mcpHook('fail'))).run(bash('ls'));
    expect(open.decision).toBe('continue');
    expect(open.results[0]!.failure?.message).toBe('MCP tool guard/fail: the tool returned an error: policy engine down');
    const closed = await (await runnerWith(mcpHook('fail', { onFailure: 'block' }))).run(bash('ls'));
    expect(closed.decision).toBe('block');
    expect(closed.reason).toContain('policy engine down');
  });

  it('a server that is not in mcpServers, a tool it does not have, or a server that dies at start: "not connected"', async () => {
    const nameless = await (await runnerWith({ hooks: { PreToolUse: [{ type: 'mcp_tool', server: 'nowhere', tool: 'check', onFailure: 'block' }] } } as unknown as HooksConfig)).run(bash('ls'));
    expect(nameless.decision).toBe('block');
    expect(nameless.results[0]!.failure?.message).toBe("MCP server 'nowhere' is not in mcpServers of any config that runs");
    const noTool = await (await runnerWith(mcpHook('no-such-tool'))).run(bash('ls'));
    expect(noTool.results[0]!.failure?.message).toMatch(/^MCP tool guard\/no-such-tool: /);
    const dead = await (await runnerWith(mcpHook('check', {}, { MCP_EXIT_AT_START: '4', MCP_STDERR: 'licence expired' }))).run(bash('ls'));
    expect(dead.results[0]!.failure?.message).toMatch(/^MCP tool guard\/check: MCP server 'guard' not connected: .*server stderr: licence expired/);
    const missing = await (await runnerWith({ mcpServers: { guard: { command: '/nonexistent/mcp-server' } }, hooks: { PreToolUse: [{ type: 'mcp_tool', server: 'guard', tool: 'check' }] } } as unknown as HooksConfig)).run(bash('ls'));
    expect(missing.decision).toBe('continue');
    expect(missing.results[0]!.failure?.message).toMatch(/not connected/);
  });

  it('a server that crashes during the call is a failure, never an allow under onFailure: "block"', async () => {
    const decision = await (await runnerWith(mcpHook('crash', { onFailure: 'block' }))).run(bash('ls'));
    expect(decision.decision).toBe('block');
    expect(decision.results[0]!.failure?.kind).toBe('error');
  });

  it('a tool slower than the hook\'s timeout is a timeout failure, and the server is stopped', async () => {
    const started = path.join(tmpProject(), 'started.log');
    // 5 s: the child has said its pid long before (it does so first thing); whether the call itself was reached
    // in time on a loaded machine does not matter, the outcome is a timeout either way.
    const decision = await (await runnerWith(mcpHook('slow', { timeout: 5, onFailure: 'block' }, { MCP_START_LOG: started }))).run(bash('ls'));
    expect(decision.decision).toBe('block');
    expect(decision.results[0]!.failure?.kind).toBe('timeout');
    const pid = Number(readFileSync(started, 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    // The SDK closes stdin, then SIGTERM, then SIGKILL: within a few seconds the child is gone.
    await expect.poll(() => alive(pid), { timeout: 10_000, interval: 100 }).toBe(false);
  });

  it('a huge answer (over 8 MiB) is a too-large failure, not read as a reply', async () => {
    const decision = await (await runnerWith(mcpHook('huge', { onFailure: 'block' }))).run(bash('ls'));
    expect(decision.decision).toBe('block');
    expect(decision.results[0]!.failure?.kind).toBe('output-too-large');
  });

  it('audit: true reports what the tool would have decided and changes nothing', async () => {
    const decision = await (await runnerWith(mcpHook('check', { audit: true }))).run(bash('rm -rf ./x'));
    expect(decision.decision).toBe('continue');
    expect(decision.results[0]!.wouldHave).toMatchObject({ decision: 'block', reason: 'guard server: rm -rf ./x deletes files' });
  });
});

describe('mcp_tool hooks: ${path} in the input', () => {
  const source = { tool_input: { command: 'ls', n: 3, nested: { a: [1] }, nil: null }, session_id: 's' };
  it('fills strings, nested objects and lists; a missing or null value is empty; an object is its JSON', () => {
    expect(fillInput({ a: '${tool_input.command} -l', b: ['${tool_input.n}'], c: { d: '${tool_input.nested}' }, e: '${nope.x}', f: '${tool_input.nil}', g: 7 }, source, 1000)).toEqual({
      a: 'ls -l',
      b: ['3'],
      c: { d: '{"a":[1]}' },
      e: '',
      f: '',
      g: 7,
    });
  });
  it('never reads inherited properties, and a fill past the limit is refused, not cut', () => {
    expect(fillInput({ a: '${tool_input.constructor}', b: '${__proto__.x}' }, source, 1000)).toEqual({ a: '', b: '' });
    expect(fillInput({ a: '${tool_input.command}${tool_input.command}' }, source, 3)).toBeUndefined();
  });
  it('property: strings without ${ come back unchanged, and the output never holds a ${path} it could fill', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.constant('${tool_input.command}'))), (input) => {
        const out = fillInput(input, source, 1_000_000)!;
        for (const [k, v] of Object.entries(input)) {
          if (typeof v !== 'string' || !v.includes('${')) expect(out[k]).toEqual(v);
          else expect(String(out[k])).not.toContain('${tool_input.command}');
        }
      }),
      { seed: 25, numRuns: 200, interruptAfterTimeLimit: 5_000 },
    );
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('mcp_tool hooks: a Streamable HTTP server (url)', () => {
  it('calls the tool over HTTP with the configured headers; a redirect is not followed', async () => {
    const { startHttpGuard } = await import('../fixtures/mcp/http-server.mjs');
    const server = await startHttpGuard();
    try {
      const config = (url: string) => ({ mcpServers: { web: { url, headers: { 'X-Team': 'infra' } } }, hooks: { PreToolUse: [{ type: 'mcp_tool', server: 'web', tool: 'check', input: { command: '${tool_input.command}' }, onFailure: 'block' }] } }) as unknown as HooksConfig;
      const denied = await (await runnerWith(config(`${server.base}/mcp`))).run(bash('rm -rf ./x'));
      expect(denied.decision).toBe('block');
      expect(denied.reason).toBe('http guard: rm -rf ./x');
      expect(server.seen.some((s) => s.url === '/mcp' && s.headers['x-team'] === 'infra')).toBe(true);
      expect((await (await runnerWith(config(`${server.base}/mcp`))).run(bash('ls'))).decision).toBe('continue');
      const before = server.seen.length;
      const redirected = await (await runnerWith(config(`${server.base}/redirect`))).run(bash('ls'));
      expect(redirected.decision).toBe('block');
      expect(redirected.results[0]!.failure?.message).toMatch(/not connected/);
      expect(server.seen.slice(before).map((s) => s.url)).not.toContain('/mcp');
    } finally {
      await server.close();
    }
  });
});
