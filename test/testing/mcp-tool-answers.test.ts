// `hooks test` gives mcp_tool hooks the tool answer the case records (under "judge", by hook id): no server is
// started, and an mcp_tool hook without a recorded answer fails.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';

const exec = (command: string) => ({ sample: 'pre-tool-use', tool: 'exec', input: { command } });

describe('hooks test: recorded mcp_tool answers', () => {
  it('a recorded tool answer decides the case; without one the hook fails; the server never starts', async () => {
    const dir = tmpProject();
    const started = path.join(dir, 'started.log');
    const config = {
      mcpServers: { guard: { command: process.execPath, args: [path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs')], env: { MCP_START_LOG: started } } },
      hooks: { preToolUse: [{ id: 'guard-check', type: 'mcp_tool', server: 'guard', tool: 'check', input: { command: '${tool_input.command}' }, match: 'exec', onFailure: 'block' }] },
    };
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'the guard says no' } };
    const cases = [
      { name: 'rm denied', event: exec('rm -rf x'), judge: { 'guard-check': deny }, expect: { decision: 'block', reason: 'the guard says no' } },
      { name: 'ls allowed', event: exec('ls'), judge: { 'guard-check': '{}' }, expect: { decision: 'continue', ran: ['guard-check'] } },
      { name: 'unrecorded', event: exec('ls'), expect: { decision: 'block', failed: [{ id: 'guard-check', kind: 'error' }], reason: 'records no tool answer' } },
    ];
    const project = tmpProject({ '.hooksrc.json': JSON.stringify(config), 'hooks-tests/guard.json': JSON.stringify(cases) });
    const r = await cliInProcess(['test'], { cwd: project, env: isolatedEnv(project) });
    expect(r.stdout, r.stderr).toContain('3 passed, 0 failed');
    expect(r.code).toBe(0);
    expect(existsSync(started)).toBe(false);
  });
});
