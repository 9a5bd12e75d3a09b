// The event catalog and tool names: one place, three spellings, canonical tools.
import { describe, expect, it } from 'vitest';
import { agentSentEvent, EVENTS, findEvent } from '../../src/events/catalog.js';
import { canonicalTool } from '../../src/events/tools.js';

/** The list in Claude Code 2.1.332's bundled code (its hook-event enum), in its order. */
const CLAUDE_CODE_EVENTS = [
  'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'UserPromptSubmit', 'UserPromptExpansion',
  'SessionStart', 'SessionEnd', 'Stop', 'StopFailure', 'SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact',
  'PreModelSwitch', 'PostModelSwitch', 'PermissionRequest', 'PermissionDenied', 'Setup', 'TeammateIdle', 'TaskCreated',
  'TaskCompleted', 'Elicitation', 'ElicitationResult', 'ConfigChange', 'WorktreeCreate', 'WorktreeRemove',
  'InstructionsLoaded', 'CwdChanged', 'FileChanged', 'DirectoryAdded', 'MessageDisplay', 'PreSkillShellCommand',
];
/** Events of other agents with no Claude Code equivalent (Codex 0.171's Interrupt; pi's and oh-my-pi's). */
const OTHER_AGENTS_EVENTS = ['Interrupt', 'PreSessionSwitch', 'PreCompactSummary', 'AgentStart', 'AgentEnd', 'TurnStart', 'TurnEnd'];

describe('event catalog', () => {
  it.each(EVENTS.map((e) => [e.name, e.cli, e.claude]))('%s / %s / %s name one event', (name, cli, claude) => {
    expect(findEvent(name)).toBe(findEvent(cli));
    expect(findEvent(claude)).toBe(findEvent(cli));
  });

  it("knows Claude Code 2.1.332's 34 events (its own list), the contract's ten first", () => {
    expect(EVENTS.slice(0, 10).map((e) => e.cli)).toEqual([
      'pre-tool-use', 'post-tool-use', 'user-prompt-submit', 'stop', 'subagent-stop', 'pre-compact',
      'session-start', 'session-end', 'notification', 'post-tool-use-failure',
    ]);
    // The model events (Gemini CLI's; Claude Code has none) come last.
    expect(EVENTS.slice(-3).map((e) => e.cli)).toEqual(['before-model', 'after-model', 'before-tool-selection']);
    expect(new Set(EVENTS.slice(0, -3).map((e) => e.claude))).toEqual(new Set([...CLAUDE_CODE_EVENTS, ...OTHER_AGENTS_EVENTS]));
    expect(findEvent('PreToolUSE')).toBeUndefined();
  });
});

describe('tool names', () => {
  it.each([
    ['Bash', 'exec'], ['run_shell_command', 'exec'], ['shell', 'exec'], ['Shell', 'exec'], ['exec_command', 'exec'],
    ['Read', 'read'], ['read_file', 'read'], ['view', 'read'],
    ['Write', 'write'], ['write_file', 'write'], ['create', 'write'],
    ['Edit', 'edit'], ['MultiEdit', 'edit'], ['replace', 'edit'],
    ['apply_patch', 'apply_patch'], ['WebFetch', 'web_fetch'], ['WebSearch', 'web_search'],
    ['mcp__github__create_issue', 'mcp__github__create_issue'], ['Glob', 'Glob'],
  ])('%s → %s', (raw, canonical) => {
    expect(canonicalTool(raw)).toBe(canonical);
  });
});

describe('an event name the agent sends', () => {
  it('is at most 64 characters, in any of its forms: a longer one is refused in a short line, never carried into records', () => {
    for (const name of ['a'.repeat(64), `x-${'a'.repeat(62)}`, `Before${'X'.repeat(58)}`]) expect(agentSentEvent(name).ok, name).toBe(true);
    for (const name of ['a'.repeat(65), `x-${'a'.repeat(200_000)}`, `x-${'a'.repeat(63)}`, `Before${'X'.repeat(59)}`]) {
      const r = agentSentEvent(name);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message.length).toBeLessThan(200);
    }
  });
});
