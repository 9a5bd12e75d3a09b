// Matcher warnings are true: every tool Claude Code has is known, and a server-only `mcp__x` says why it matches nothing.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigLayer } from '../../src/config/load.js';
import { resolveConfig } from '../../src/config/resolve.js';
import { CLAUDE_CODE_EARLIER_TOOLS, CLAUDE_CODE_RETIRED_TOOLS, CLAUDE_CODE_TOOLS } from '../../src/events/tools.js';
import { claudeMatcherToMatch, claudeNameProblem } from '../../src/match/claude-matcher.js';
import { selectHooks } from '../../src/match/select.js';
import { event } from '../helpers.js';

const FILE = '/home/dev/project/.hooksrc.json';
const layer = (config: unknown): ConfigLayer => ({ layer: 'project', file: FILE, dir: path.dirname(FILE), config });
const warningsOf = async (matcher: string) =>
  (await resolveConfig([layer({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'true' }] }] } })], { cwd: '/home/dev/project' })).warnings;
const call = (name: string) => event('preToolUse', { hook_event_name: 'PreToolUse', tool_name: name, tool_input: {}, cwd: '/home/dev/project' });
const runsOn = (matcher: string, tool: string) => selectHooks([{ id: 'h', enabled: true, match: claudeMatcherToMatch(matcher)!, matchMode: 'claude' }], call(tool))[0]!.selected;

describe('the tool table knows every Claude Code tool', () => {
  // The 14 of the issue's 17 that warned before, and the rest of 2.1.332's list.
  it.each([...CLAUDE_CODE_TOOLS, ...Object.keys(CLAUDE_CODE_RETIRED_TOOLS), ...CLAUDE_CODE_EARLIER_TOOLS])('a matcher naming %s gives no warning', async (name) => {
    expect(await warningsOf(name)).toEqual([]);
  });

  it('a name no agent has still warns', async () => {
    expect((await warningsOf('EnterPlanMod')).join('\n')).toMatch(/"EnterPlanMod" matches no known tool.*never runs for it/);
  });

  it.each([
    ['KillShell', 'TaskStop'],
    ['KillBash', 'TaskStop'],
    ['Task', 'Agent'],
    ['Agent', 'Task'],
    ['ListMcpResources', 'ListMcpResourcesTool'],
    ['TaskStop', 'KillShell'],
  ])('a retired name fires on the tool it became, as Claude Code resolves it: %s on %s', (matcher, tool) => {
    expect(runsOn(matcher, tool)).toBe(true);
  });

  it('retired names do not leak across tools', () => {
    expect(runsOn('KillShell', 'Agent')).toBe(false);
    expect(runsOn('EnterPlanMode', 'ExitPlanMode')).toBe(false);
  });
});

describe('a Claude matcher naming only an MCP server', () => {
  it('warns that it matches nothing and shows the pattern that does', async () => {
    const warnings = await warningsOf('mcp__memory');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('hooks.PreToolUse[0]');
    expect(warnings[0]).toContain('"mcp__memory" names an MCP server, not a tool');
    expect(warnings[0]).toContain('"mcp__memory__.*"');
    expect(runsOn('mcp__memory', 'mcp__memory__create_entities')).toBe(false);
  });

  it('in a list, only the server name warns', async () => {
    const warnings = await warningsOf('Bash|mcp__github');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"mcp__github__.*"');
  });

  it.each(['mcp__memory__create_entities', 'mcp__memory__.*', 'mcp__.*', 'Bash'])('%s does not warn', async (matcher) => {
    expect(await warningsOf(matcher)).toEqual([]);
  });

  it('names with a server and a tool are not server-only', () => {
    expect(claudeNameProblem('mcp__my_server__tool')).toBeUndefined();
    expect(claudeNameProblem('mcp__my_server')).toContain('mcp__my_server__.*');
  });
});
