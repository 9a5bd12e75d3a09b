// mcp_tool hooks as the adversaries would use them. A hostile repository: its config names a server (code from
// the repository) that must not start until the config is trusted, and must not stand in for the server a user
// hook calls. A hostile server: its answer cannot grow the runner without bound or pass for an allow.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigLayer, LayerName } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { createRunner } from '../../src/engine.js';
import { bash, cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';

const SERVER = path.join(ROOT, 'test', 'fixtures', 'mcp', 'guard-server.mjs');
const guardServer = (env: Record<string, string> = {}) => ({ command: process.execPath, args: [SERVER], env });
const hook = (extra: Record<string, unknown> = {}) => ({ type: 'mcp_tool', server: 'guard', tool: 'check', input: { command: '${tool_input.command}' }, ...extra });

function layers(dir: string, user: unknown, project: unknown): ConfigLayer[] {
  const make = (name: LayerName, config: unknown): ConfigLayer => ({ layer: name, file: path.join(dir, `${name}.json`), dir, config, trust: name === 'user' ? 'implicit' : 'trusted' });
  return [make('user', user), make('project', project)];
}

describe('mcp_tool: a hostile repository', () => {
  it('an untrusted project config that names a server never starts it; once trusted, it does', async () => {
    const dir = tmpProject();
    const started = path.join(dir, 'started.log');
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ mcpServers: { guard: guardServer({ MCP_START_LOG: started }) }, hooks: { PreToolUse: [hook()] } }));
    const env = isolatedEnv(tmpProject(), {}, { trust: false });
    const input = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const untrusted = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input });
    expect(untrusted.stderr).toMatch(/is not trusted, so its hooks do not run/);
    expect(existsSync(started)).toBe(false);
    const trusted = await cliInProcess(['trust', '--yes'], { cwd: dir, env });
    expect(trusted.code, trusted.stderr).toBe(0);
    const run = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(started, 'utf8').trim()).toMatch(/^\d+$/);
  });

  it("a trusted project's server cannot stand in for the server a user hook names: the user hook fails, nothing starts", async () => {
    const dir = tmpProject();
    const started = path.join(dir, 'started.log');
    const user = { hooks: { PreToolUse: [hook({ onFailure: 'block' })] } };
    const project = { mcpServers: { guard: guardServer({ MCP_START_LOG: started }) } };
    const config = await resolveConfig(layers(dir, user, project), { cwd: dir });
    const run = config.hooks.find((h) => h.source.layer === 'user')!.run;
    expect(run).toMatchObject({ kind: 'mcp_tool', missing: expect.stringMatching(/defined only in .*project\.json \(project layer\), which may not serve a user hook/) });
    const runner = await createRunner({ cwd: dir, config: user as never, env: isolatedEnv(dir) });
    // Through the real loader as well: the user hook with no server of its own blocks (its onFailure), it never allows.
    expect((await runner.run(bash('rm -rf /'))).decision).toBe('block');
    expect(existsSync(started)).toBe(false);
  });

  it("a user's server wins over a project's server of the same name, for the project's own hooks too", async () => {
    const dir = tmpProject();
    const userStarted = path.join(dir, 'user.log');
    const projectStarted = path.join(dir, 'project.log');
    const user = { mcpServers: { guard: guardServer({ MCP_START_LOG: userStarted }) } };
    const project = { hooks: { PreToolUse: [hook()] } };
    const config = await resolveConfig(layers(dir, user, project), { cwd: dir });
    expect(config.hooks[0]!.run).toMatchObject({ kind: 'mcp_tool', target: { layer: 'user' } });
    const both = await resolveConfig(layers(dir, user, { ...project, mcpServers: { guard: guardServer({ MCP_START_LOG: projectStarted }) } }), { cwd: dir });
    // The project's hook names a server its own file defines: that one (it is the repository's hook, under its trust).
    expect(both.hooks[0]!.run).toMatchObject({ kind: 'mcp_tool', target: { layer: 'project' } });
  });
});

describe('mcp_tool: a hostile server', () => {
  it('a server that answers nothing but stderr noise and then dies is a named failure, not an allow', async () => {
    const noise = 'x'.repeat(200_000);
    const dir = tmpProject();
    const runner = await createRunner({ cwd: dir, config: { mcpServers: { guard: guardServer({ MCP_STDERR: noise, MCP_EXIT_AT_START: '0' }) }, hooks: { PreToolUse: [hook({ onFailure: 'block' })] } } as never, env: isolatedEnv(dir) });
    const decision = await runner.run(bash('ls'));
    expect(decision.decision).toBe('block');
    // The message keeps a short tail of stderr, not the whole of it.
    expect(decision.results[0]!.failure!.message.length).toBeLessThan(1000);
  });
});

describe('mcp_tool: trust covers the server a project config starts', () => {
  it('editing the server script of a trusted project config untrusts it (the server does not start)', async () => {
    const dir = tmpProject();
    const started = path.join(dir, 'started.log');
    writeFileSync(path.join(dir, 'server.mjs'), `await import(${JSON.stringify(SERVER)});\n`);
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ mcpServers: { guard: { command: 'node', args: ['./server.mjs'], env: { MCP_START_LOG: started } } }, hooks: { PreToolUse: [hook()] } }));
    const env = isolatedEnv(tmpProject(), {}, { trust: false });
    expect((await cliInProcess(['trust', '--yes'], { cwd: dir, env })).code).toBe(0);
    writeFileSync(path.join(dir, 'server.mjs'), `// changed\nawait import(${JSON.stringify(SERVER)});\n`);
    const input = JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    const run = await cliInProcess(['run', 'pre-tool-use'], { cwd: dir, env, input });
    expect(run.stderr).toMatch(/not trusted|changed/);
    expect(existsSync(started)).toBe(false);
  });
});
