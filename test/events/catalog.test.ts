// The event catalog and tool names: one place, three spellings, canonical tools.
import { describe, expect, it } from 'vitest';
import { EVENTS, findEvent } from '../../src/events/catalog.js';
import { canonicalTool } from '../../src/events/tools.js';

describe('event catalog', () => {
  it.each(EVENTS.map((e) => [e.name, e.cli, e.claude]))('%s / %s / %s name one event', (name, cli, claude) => {
    expect(findEvent(name)).toBe(findEvent(cli));
    expect(findEvent(claude)).toBe(findEvent(cli));
  });

  it('knows the ten events of the contract, and nothing else', () => {
    expect(EVENTS.map((e) => e.cli)).toEqual([
      'pre-tool-use', 'post-tool-use', 'user-prompt-submit', 'stop', 'subagent-stop', 'pre-compact',
      'session-start', 'session-end', 'notification', 'post-tool-use-failure',
      'before-model', 'after-model', 'before-tool-selection',
    ]);
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
