// `hooks install claude-code --mcp <name>` / `uninstall --mcp <name>`: a project .mcp.json entry put
// behind the gateway and back, idempotent and reversible, written as safely as the hook installs.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { wrapped } from '../../src/install/mcp-wrap.js';
import { cliInProcess, isolatedEnv, tmpProject } from '../helpers.js';

const MCP = `{
  "mcpServers": {
    "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "env": { "LOG": "1" } },
    "web": { "type": "http", "url": "http://127.0.0.1:9/mcp" },
    "plain": {"command": "my-server"}
  }
}
`;

function setup(text = MCP) {
  const dir = tmpProject({ '.mcp.json': text });
  const env = isolatedEnv(tmpProject());
  const run = (...args: string[]) => cliInProcess(args, { cwd: dir, env });
  const read = () => readFileSync(path.join(dir, '.mcp.json'), 'utf8');
  return { dir, run, read };
}

describe('install --mcp', () => {
  it("wraps the entry's command, keeps its other fields and the other entries byte for byte", async () => {
    const { run, read } = setup();
    const r = await run('install', 'claude-code', '--mcp', 'fs');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrapped MCP server "fs"');
    const doc = JSON.parse(read());
    expect(doc.mcpServers.fs.env).toEqual({ LOG: '1' });
    expect(wrapped(doc.mcpServers.fs, 'fs')).toEqual(['npx', '-y', '@modelcontextprotocol/server-filesystem', '.']);
    expect(doc.mcpServers.fs.args.slice(-8, -4)).toEqual(['mcp', '--name', 'fs', '--']);
    expect(read()).toContain('"plain": {"command": "my-server"}');
  });

  it('twice changes nothing; uninstall gives the file back byte for byte', async () => {
    const { run, read } = setup();
    await run('install', 'claude-code', '--mcp', 'fs');
    const once = read();
    const again = await run('install', 'claude-code', '--mcp', 'fs');
    expect(again.stdout).toContain('unchanged');
    expect(read()).toBe(once);
    const u = await run('uninstall', 'claude-code', '--mcp', 'fs');
    expect(u.code).toBe(0);
    expect(read()).toBe(MCP);
    expect((await run('uninstall', 'claude-code', '--mcp', 'fs')).stdout).toContain('is not wrapped');
  });

  it('uninstall after the file was edited since puts the entry alone back, from its own args', async () => {
    const { run, read, dir } = setup();
    await run('install', 'claude-code', '--mcp', 'plain');
    const edited = JSON.parse(read());
    edited.mcpServers.added = { command: 'other' };
    writeFileSync(path.join(dir, '.mcp.json'), JSON.stringify(edited, null, 2));
    await run('uninstall', 'claude-code', '--mcp', 'plain');
    const doc = JSON.parse(read());
    expect(doc.mcpServers.plain).toEqual({ command: 'my-server' });
    expect(doc.mcpServers.added).toEqual({ command: 'other' });
  });

  it('--dry-run shows the diff and writes nothing', async () => {
    const { run, read } = setup();
    const r = await run('install', 'claude-code', '--mcp', 'fs', '--dry-run');
    expect(r.stdout).toContain('"--name"');
    expect(r.stdout).toContain('dry run, nothing written');
    expect(read()).toBe(MCP);
  });

  it('says what is wrong, one line, and writes nothing: an unknown name, an HTTP server, another agent, broken JSON', async () => {
    const { run, read } = setup();
    expect(await run('install', 'claude-code', '--mcp', 'nope')).toMatchObject({ code: 1, stderr: expect.stringMatching(/has no server "nope" \(it has: fs, web, plain\)/) });
    expect(await run('install', 'claude-code', '--mcp', 'web')).toMatchObject({ code: 1, stderr: expect.stringMatching(/only a stdio server can be wrapped/) });
    expect(await run('install', 'codex', '--mcp', 'fs')).toMatchObject({ code: 1, stderr: expect.stringMatching(/only claude-code, gemini, qwen-code, cursor, kiro MCP entries can be wrapped so far \(not codex\)/) });
    expect(read()).toBe(MCP);
    const broken = setup('{"mcpServers": {"fs": ');
    expect(await broken.run('install', 'claude-code', '--mcp', 'fs')).toMatchObject({ code: 1, stderr: expect.stringMatching(/not valid JSON/) });
    const badArgs = setup('{"mcpServers": {"fs": {"command": "x", "args": "-y"}}}');
    expect(await badArgs.run('install', 'claude-code', '--mcp', 'fs')).toMatchObject({ code: 1, stderr: expect.stringMatching(/args is not a list of strings/) });
  });

  it.each([
    ['gemini', '.gemini/settings.json'],
    ['qwen-code', '.qwen/settings.json'],
    ['cursor', '.cursor/mcp.json'],
    ['kiro', '.kiro/settings/mcp.json'],
  ])("%s: the entry of its own project file (%s) is wrapped and put back, the file's other keys untouched", async (agent, file) => {
    const text = `{\n  "hooks": {"BeforeTool": []},\n  "mcpServers": {"fs": {"command": "my-server", "args": ["."]}}\n}\n`;
    const dir = tmpProject({ [file]: text });
    const env = isolatedEnv(tmpProject());
    const run = (...args: string[]) => cliInProcess(args, { cwd: dir, env });
    const read = () => readFileSync(path.join(dir, file), 'utf8');
    expect((await run('install', agent, '--mcp', 'fs')).code).toBe(0);
    const doc = JSON.parse(read());
    expect(wrapped(doc.mcpServers.fs, 'fs')).toEqual(['my-server', '.']);
    expect(doc.hooks).toEqual({ BeforeTool: [] });
    expect((await run('uninstall', agent, '--mcp', 'fs')).code).toBe(0);
    expect(read()).toBe(text);
  });

  it('a hostile repository: .mcp.json as a symlink out of the project is not written through', async () => {
    const outside = tmpProject({ 'target.json': MCP });
    const dir = tmpProject();
    symlinkSync(path.join(outside, 'target.json'), path.join(dir, '.mcp.json'));
    expect(await cliInProcess(['install', 'claude-code', '--mcp', 'fs'], { cwd: dir, env: isolatedEnv(tmpProject()) })).toMatchObject({ code: 1, stderr: expect.stringMatching(/\.mcp\.json/) });
    expect(readFileSync(path.join(outside, 'target.json'), 'utf8')).toBe(MCP);
  });

  it('an entry is ours only when its args say so for this name: a look-alike is not unwrapped', () => {
    expect(wrapped({ command: 'agent-hooks', args: ['mcp', '--name', 'fs', '--', 'srv'] }, 'fs')).toEqual(['srv']);
    expect(wrapped({ command: 'agent-hooks', args: ['mcp', '--name', 'other', '--', 'srv'] }, 'fs')).toBeUndefined();
    expect(wrapped({ command: 'evil', args: ['mcp', '--name', 'fs', '--', 'srv'] }, 'fs')).toBeUndefined();
    expect(wrapped({ command: 'npx', args: ['--no-install', 'agent-hooks', 'mcp', '--name', 'fs', '--', 'srv', 'a'] }, 'fs')).toEqual(['srv', 'a']);
    expect(wrapped({ command: 'agent-hooks', args: ['mcp', '--name', 'fs', '--'] }, 'fs')).toBeUndefined();
  });

  // Review: any word named agent-hooks or hooks.js made an entry "ours", so a repository's .mcp.json could
  // ship its own program under that name and install --mcp said "installed" with no gateway in front.
  it('a hostile repository: an entry that only looks wrapped (its own agent-hooks) is wrapped for real', async () => {
    const fake = JSON.stringify({ mcpServers: { fs: { command: './tools/agent-hooks', args: ['mcp', '--name', 'fs', '--', 'srv'] } } });
    const { dir, run, read } = setup(fake);
    expect(wrapped(JSON.parse(fake).mcpServers.fs, 'fs', dir)).toBeUndefined();
    expect(wrapped({ command: path.join(dir, 'tools', 'hooks.js'), args: ['mcp', '--name', 'fs', '--', 'srv'] }, 'fs', dir)).toBeUndefined();
    expect(wrapped({ command: 'npx', args: ['-p', 'other', 'agent-hooks', 'mcp', '--name', 'fs', '--', 'srv'] }, 'fs', dir)).toBeUndefined();
    expect(wrapped({ command: '/usr/local/bin/node', args: ['/usr/local/lib/node_modules/agent-hooks/bin/hooks.js', 'mcp', '--name', 'fs', '--', 'srv'] }, 'fs', dir)).toEqual(['srv']);
    const r = await run('install', 'claude-code', '--mcp', 'fs');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('wrapped MCP server "fs"');
    const entry = JSON.parse(read()).mcpServers.fs;
    expect(wrapped(entry, 'fs', dir)).toEqual(['./tools/agent-hooks', 'mcp', '--name', 'fs', '--', 'srv']);
  });
});
