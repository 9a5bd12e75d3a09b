// Matcher warnings are true for every supported agent: a matcher naming one of an agent's real tools
// gets no "matches no known tool", a name no agent has still does, and an agent's own config is held
// to that agent's table.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { AGENT_TOOLS, TOOL_TABLE_AGENTS } from '../../src/events/agent-tools.js';
import { CANONICAL_TOOLS, CLAUDE_CODE_TOOLS, hasToolTable, knownToolNames, type ToolAgent } from '../../src/events/tools.js';
import { checkToolPattern, selectHooks } from '../../src/match/select.js';
import { event } from '../helpers.js';

const FILE = '/home/dev/project/.hooksrc.json';
const layer = (config: unknown): ConfigLayer => ({ layer: 'project', file: FILE, dir: path.dirname(FILE), config });
const resolve = (match: string) => resolveConfig([layer({ hooks: { preToolUse: [{ command: 'true', match }] } })], { cwd: '/home/dev/project' });
const claudeWarnings = async (matcher: string) =>
  (await resolveConfig([layer({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] } })], { cwd: '/home/dev/project' })).warnings;

const everyAgentTool = TOOL_TABLE_AGENTS.flatMap((agent) => AGENT_TOOLS[agent].tools.map((tool) => [agent, tool] as const));

describe("each agent's tool table", () => {
  it.each(TOOL_TABLE_AGENTS)('%s: says where it comes from, has tools, and no name twice', (agent) => {
    const table = AGENT_TOOLS[agent];
    expect(table.source.length).toBeGreaterThan(10);
    expect(table.tools.length).toBeGreaterThanOrEqual(3);
    expect(new Set(table.tools).size).toBe(table.tools.length);
    // A list not read from an installed agent says so.
    if (table.version === 'docs') expect(table.source).toContain('not run here');
    else expect(table.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it.each(everyAgentTool)('%s: a match naming %s resolves without a warning, in a config for any agent and in its own', async (agent, tool) => {
    const resolved = await resolve(tool);
    expect(resolved.warnings).toEqual([]);
    expect(resolved.hooks[0]!.match).toEqual([tool]);
    expect(checkToolPattern(tool)).toBeUndefined();
    expect(checkToolPattern(tool, agent)).toBeUndefined();
  });

  it.each([
    ['qwen-code', 'run_shell_command'],
    ['augment', 'launch-process'],
    ['factory', 'Execute'],
    ['kiro', 'execute_bash'],
    ['cline', 'run_commands'],
    ['opencode', 'webfetch'],
  ] as const)('%s: a Claude matcher naming %s gives no warning', async (_agent, tool) => {
    expect(await claudeWarnings(tool)).toEqual([]);
  });

  it('a match naming an agent-specific tool fires when that agent sends it', () => {
    const hooks = [{ id: 'h', enabled: true, match: ['launch-process'] }];
    const call = (name: string) => event('preToolUse', { hook_event_name: 'PreToolUse', tool_name: name, tool_input: { command: 'ls' }, cwd: '/p' });
    expect(selectHooks(hooks, call('launch-process'))[0]!.selected).toBe(true);
    expect(selectHooks(hooks, call('save-file'))[0]!.selected).toBe(false);
  });
});

describe('names no supported agent has still warn', () => {
  it.each(['EnterPlanMod', 'run_shell_comand', 'launch_process', 'tracker_nope', 'Exec ute'])('%s', async (name) => {
    const error = await resolve(name).catch((e: unknown) => e);
    expect(String(error)).toContain(`"${name}" matches no known tool`);
    expect(checkToolPattern(name)).toContain('matches no known tool');
    for (const agent of TOOL_TABLE_AGENTS) expect(checkToolPattern(name, agent)).toBeDefined();
  });

  it('a glob that matches nothing in any table warns, one that matches a real tool does not', () => {
    expect(checkToolPattern('omni_*')).toBeUndefined(); // Qwen Code's media tools
    expect(checkToolPattern('tracker_*', 'gemini')).toBeUndefined();
    expect(checkToolPattern('tracker_*', 'codex')).toContain('matches no Codex tool');
    expect(checkToolPattern('zzz_*')).toContain('matches no known tool');
  });
});

describe("an agent's own config is held to its table", () => {
  it("another agent's own tool warns, naming the agent", () => {
    expect(checkToolPattern('tracker_visualize', 'codex')).toMatch(/^"tracker_visualize" matches no Codex tool/);
    expect(checkToolPattern('launch-process', 'gemini')).toMatch(/matches no Gemini CLI tool/);
    expect(checkToolPattern('EnterPlanMode', 'opencode')).toMatch(/matches no opencode tool/);
    expect(checkToolPattern('tracker_visualize', 'claude-code')).toMatch(/matches no Claude Code tool/);
  });

  it.each([...TOOL_TABLE_AGENTS, 'claude-code'] as ToolAgent[])('%s: canonical names, every spelling of them, groups and MCP tools never warn', (agent) => {
    // A match is tried on every spelling of the event's tool, so `run_shell_command` fires on any agent's shell.
    for (const name of [...CANONICAL_TOOLS, 'run_shell_command', 'Bash', 'shell', 'group:fs', 'mcp__memory__create_entities', 'mcp__github__*']) {
      expect(checkToolPattern(name, agent), `${agent}: ${name}`).toBeUndefined();
    }
  });

  it("Claude Code's table is its own: its tools known, another agent's not", () => {
    expect(knownToolNames('claude-code')).toEqual(expect.arrayContaining([...CLAUDE_CODE_TOOLS]));
    expect(knownToolNames('claude-code')).not.toContain('launch-process');
    expect(knownToolNames()).toContain('launch-process');
  });

  it('names which agents have a table', () => {
    expect(hasToolTable('codex')).toBe(true);
    expect(hasToolTable('claude-code')).toBe(true);
    expect(hasToolTable('native')).toBe(false);
    expect(hasToolTable('toString')).toBe(false);
  });
});

describe('MCP server-only matchers warn as before', () => {
  it('mcp__memory in a Claude matcher still says it names a server', async () => {
    const warnings = await claudeWarnings('mcp__memory');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"mcp__memory" names an MCP server, not a tool');
  });
});
