// `hooks import claude-code`: a Claude Code settings file becomes .hooksrc.json entries that resolve to the
// same hooks as the settings file used as a config layer as it is (the round trip), and importing twice
// changes nothing.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importClaudeHooks, mergeImported } from '../../src/config/claude-import.js';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig, type ResolvedHook } from '../../src/config/resolve.js';
import { cliInProcess, isolatedEnv, ROOT, tmpProject } from '../helpers.js';

const SETTINGS = readFileSync(path.join(ROOT, 'test', 'fixtures', 'claude-settings', 'settings.json'), 'utf8');
const DIR = '/home/dev/project';
const layer = (config: unknown): ConfigLayer => ({ layer: 'project', file: `${DIR}/.hooksrc.json`, dir: DIR, config, trust: 'trusted' });
const resolve = (config: unknown) => resolveConfig([layer(config)], { cwd: DIR });
/** What decides whether and how a hook runs (not where it was written). */
const behaviour = (h: ResolvedHook) => ({ event: h.event, run: h.run, match: h.match, matchMode: h.matchMode, rule: h.rule, on: h.on, timeoutMs: h.timeoutMs, onFailure: h.onFailure });

describe('importClaudeHooks', () => {
  it('the imported config resolves to the hooks the settings file gives as a config layer, minus what cannot run', async () => {
    const settings = JSON.parse(SETTINGS) as { hooks: unknown };
    const imported = importClaudeHooks(settings);
    const asLayer = await resolve({ hooks: settings.hooks });
    const fromImport = await resolve({ hooks: imported.hooks });
    expect(fromImport.layers[0]!.active).toBe(true);
    // Every handler type runs, in the layer and through the import alike.
    const runnable = asLayer.hooks.filter((h) => !(h.run.kind === 'command' && h.run.command.endsWith('# agent-hooks')));
    expect(fromImport.hooks.map(behaviour)).toEqual(runnable.map(behaviour));
    expect(imported.ours).toBe(1);
    expect(imported.hooks.preToolUse).toContainEqual({ matcher: '^Bash$', type: 'prompt', prompt: 'Is this command safe? $ARGUMENTS' });
    expect(imported.hooks.stop).toContainEqual({ type: 'agent', prompt: 'Verify the tests pass' });
    expect(imported.skipped).toEqual([
    ]);
    // The mcp_tool hook is kept; its server is in no file given, which is said.
    expect(imported.hooks.userPromptSubmit).toContainEqual({ type: 'mcp_tool', server: 'policy', tool: 'check', input: { p: '${prompt}' } });
    expect(imported.servers).toEqual([
      "hooks.UserPromptSubmit[0].hooks[0]: MCP server 'policy' is in none of the files read; the hook is imported and fails as not connected until you add 'policy' to mcpServers (in your user config if it is yours, e.g. from ~/.claude.json)",
    ]);
    expect(imported.dropped).toEqual(['hooks.SessionStart[0].hooks[0].commandWindows: not used by agent-hooks; left out']);
    expect(imported.hooks.preToolUse![0]).toEqual({ matcher: 'Edit|MultiEdit|Write', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/protect-files.sh', timeout: 10, statusMessage: 'Checking protected files' });
  });

  it("an mcp_tool hook brings the server it names along, from .mcp.json first, then the settings' own mcpServers", () => {
    const settings = { mcpServers: { lint: { command: 'lint-mcp' }, guard: { command: 'other' } }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'mcp_tool', server: 'guard', tool: 'check', input: { c: '${tool_input.command}' } }, { type: 'mcp_tool', server: 'lint', tool: 'run' }, { type: 'mcp_tool', server: 'old', tool: 'x' }] }] } };
    const known = [
      { file: '.mcp.json', servers: { guard: { type: 'stdio', command: 'node', args: ['guard.mjs'], env: { TOKEN: '${GUARD_TOKEN}' }, alwaysAllow: [] }, old: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } },
      { file: 'settings.json', servers: settings.mcpServers },
    ];
    const imported = importClaudeHooks(settings, known);
    expect(imported.mcpServers).toEqual({ guard: { type: 'stdio', command: 'node', args: ['guard.mjs'], env: { TOKEN: '${GUARD_TOKEN}' } }, lint: { command: 'lint-mcp' } });
    expect(imported.servers).toEqual([
      "MCP server 'guard': brought along from .mcp.json (without alwaysAllow); it holds ${VAR}, which Claude Code expands and agent-hooks does not: edit it",
      "MCP server 'lint': brought along from settings.json",
      "hooks.PreToolUse[0].hooks[2]: MCP server 'old' in .mcp.json speaks the old SSE transport, which agent-hooks does not; not brought along (the hook fails as not connected until it has a server)",
    ]);
    const merged = mergeImported({ mcpServers: { lint: { command: 'mine' } } }, imported);
    // A server of that name already in the config is kept.
    expect(merged.config.mcpServers).toEqual({ lint: { command: 'mine' }, guard: imported.mcpServers.guard });
    expect(mergeImported(merged.config, imported).added).toBe(0);
  });

  it('property: any settings document imports without throwing, and importing it twice adds nothing', () => {
    const handler = fc.record(
      { type: fc.constantFrom('command', 'http', 'prompt', 'x'), command: fc.string(), url: fc.string(), timeout: fc.anything(), matcher: fc.string(), extra: fc.anything() },
      { requiredKeys: [] },
    );
    const group = fc.oneof(fc.record({ matcher: fc.anything(), hooks: fc.array(fc.oneof(handler, fc.anything()), { maxLength: 3 }) }, { requiredKeys: ['hooks'] }), fc.anything());
    fc.assert(
      fc.property(fc.oneof(fc.record({ hooks: fc.dictionary(fc.constantFrom('PreToolUse', 'Stop', 'Weird'), fc.oneof(fc.array(group, { maxLength: 3 }), fc.anything())) }), fc.anything()), (settings) => {
        const imported = importClaudeHooks(settings);
        const once = mergeImported({}, imported);
        const twice = mergeImported(once.config, imported);
        expect(twice.added).toBe(0);
        expect(twice.config).toEqual(once.config);
      }),
      { seed: 21, numRuns: 300, interruptAfterTimeLimit: 4000 },
    );
  });
});

describe('hooks import claude-code', () => {
  it('writes .hooksrc.json, shows what it wrote, and a second run changes nothing', async () => {
    const dir = tmpProject({ '.claude/settings.json': SETTINGS });
    const env = isolatedEnv(dir);
    const first = await cliInProcess(['import', 'claude-code'], { cwd: dir, env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/wrote \.hooksrc\.json: 10 entries added/);
    expect(first.stdout).toContain('+++ b/.hooksrc.json');
    expect(first.stdout).not.toMatch(/not imported/);
    const written = readFileSync(path.join(dir, '.hooksrc.json'), 'utf8');
    expect(Object.keys((JSON.parse(written) as { hooks: object }).hooks)).toEqual(['preToolUse', 'postToolUse', 'sessionStart', 'stop', 'userPromptSubmit']);
    expect(first.stdout).toContain("MCP server 'policy' is in none of the files read");
    const second = await cliInProcess(['import', 'claude-code'], { cwd: dir, env });
    expect(second.stdout).toMatch(/unchanged/);
    expect(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')).toBe(written);
  });

  it('adds to an existing config, keeping its entries', async () => {
    const dir = tmpProject({ '.claude/settings.json': SETTINGS, '.hooksrc.json': JSON.stringify({ hooks: { preToolUse: [{ builtin: 'command-safety' }] } }) });
    await cliInProcess(['import', 'claude-code', '--from', '.claude/settings.json'], { cwd: dir, env: isolatedEnv(dir) });
    const config = JSON.parse(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')) as { hooks: { preToolUse: unknown[] } };
    expect(config.hooks.preToolUse[0]).toEqual({ builtin: 'command-safety' });
    expect(config.hooks.preToolUse).toHaveLength(5);
  });

  it('--dry-run writes nothing; a symlinked .hooksrc.json pointing out of the project is refused', async () => {
    const dir = tmpProject({ '.claude/settings.json': SETTINGS });
    const dry = await cliInProcess(['import', 'claude-code', '--dry-run'], { cwd: dir, env: isolatedEnv(dir) });
    expect(dry.stdout).toMatch(/would write/);
    expect(existsSync(path.join(dir, '.hooksrc.json'))).toBe(false);
    const outside = tmpProject();
    writeFileSync(path.join(outside, 'victim.json'), '{}');
    symlinkSync(path.join(outside, 'victim.json'), path.join(dir, '.hooksrc.json'));
    const refused = await cliInProcess(['import', 'claude-code'], { cwd: dir, env: isolatedEnv(dir) });
    expect(refused.code).not.toBe(0);
    expect(readFileSync(path.join(outside, 'victim.json'), 'utf8')).toBe('{}');
  });

  it('a project whose config is another file is told so, and nothing is written', async () => {
    const dir = tmpProject({ '.claude/settings.json': SETTINGS, '.hooksrc.yaml': 'hooks: {}\n' });
    const r = await cliInProcess(['import', 'claude-code'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/this project's config is \.hooksrc\.yaml/);
    expect(existsSync(path.join(dir, '.hooksrc.json'))).toBe(false);
  });

  it('a missing settings file or another agent is a one-line usage error', async () => {
    const dir = tmpProject();
    mkdirSync(path.join(dir, '.claude'));
    const missing = await cliInProcess(['import', 'claude-code'], { cwd: dir, env: isolatedEnv(dir) });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/settings\.json: not found/);
    const other = await cliInProcess(['import', 'cursor'], { cwd: dir, env: isolatedEnv(dir) });
    expect(other.stderr).toMatch(/only claude-code can be imported/);
  });

  it('an event agent-hooks does not know is imported under its name, and said so (issue 24)', async () => {
    const settings = JSON.stringify({ hooks: { PreFutureGuardCheck: [{ hooks: [{ type: 'command', command: 'exit 2' }] }], PreSkillShellCommand: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] } });
    const dir = tmpProject({ '.claude/settings.json': settings });
    const r = await cliInProcess(['import', 'claude-code'], { cwd: dir, env: isolatedEnv(dir) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('hooks.PreFutureGuardCheck: not an event agent-hooks knows; imported under that name');
    // PreSkillShellCommand is in the catalog now: imported under its own name, without a word.
    expect(r.stdout).not.toContain('hooks.PreSkillShellCommand: not an event');
    const written = JSON.parse(readFileSync(path.join(dir, '.hooksrc.json'), 'utf8')) as { hooks: Record<string, unknown> };
    expect(Object.keys(written.hooks).sort()).toEqual(['PreFutureGuardCheck', 'preSkillShellCommand']);
  });
});

describe('plugin-only variables in a settings hook', () => {
  it.each(['CLAUDE_PLUGIN_ROOT', 'CLAUDE_PLUGIN_DATA'])('a command naming ${%s} is reported and not imported, as Claude Code refuses to run it', (name) => {
    const imported = importClaudeHooks({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `bash "\${${name}}/hooks/check.sh"` }, { type: 'command', command: 'echo ok' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'node', args: [`\${${name}}/stop.js`] }] }],
      },
    });
    expect(imported.hooks.preToolUse).toEqual([{ matcher: 'Bash', command: 'echo ok' }]);
    expect(imported.hooks.stop).toBeUndefined();
    expect(imported.skipped).toEqual([
      `hooks.PreToolUse[0].hooks[0]: the command references \${${name}}, which Claude Code sets only for a plugin's hooks/hooks.json, not in settings.json, where it refuses to run the hook; not imported`,
      `hooks.Stop[0].hooks[0]: the command references \${${name}}, which Claude Code sets only for a plugin's hooks/hooks.json, not in settings.json, where it refuses to run the hook; not imported`,
    ]);
  });

  it('$CLAUDE_PROJECT_DIR is imported as usual', () => {
    const imported = importClaudeHooks({ hooks: { Stop: [{ hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/stop.sh' }] }] } });
    expect(imported.skipped).toEqual([]);
    expect(imported.hooks.stop).toHaveLength(1);
  });
});
