// An event newer than an agent's table and the catalog runs its hooks as an observe event in every
// dialect but the Docker MCP gateway's closed pair; a likely typo of a known name stays an error.
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decide/combine.js';
import { getDialect } from '../../src/dialects/index.js';

const decide = (event: Decision['event'], decision: Decision['decision'] = 'continue'): Decision => ({
  decision, event, additionalContext: [], results: [], warnings: [], skipped: [], steps: [],
});

describe('an event no table knows', () => {
  it.each([
    ['claude-code', { hook_event_name: 'DirectoryRemoved', session_id: 's', cwd: '/p' }],
    ['codex', { hook_event_name: 'DirectoryRemoved', session_id: 's', cwd: '/p', turn_id: 't' }],
    ['gemini', { hook_event_name: 'DirectoryRemoved', session_id: 's', cwd: '/p', timestamp: '2026-11-22T00:00:00Z' }],
    ['cursor', { hook_event_name: 'afterTabSuggestion', conversation_id: 'c', generation_id: 'g', cursor_version: '3.9', workspace_roots: ['/p'] }],
  ])('%s: an observe event that can do nothing, answered with exit 0', (dialect, payload) => {
    const d = getDialect(dialect);
    const event = d.toEvent(payload, undefined);
    expect(event.name).toMatch(/^(directoryRemoved|afterTabSuggestion)$/);
    const answer = d.answer(decide(event));
    expect(answer.exitCode).toBe(0);
  });

  // The agent is not a user who can mistype: a new event one letter from a known one (hostile review F2)
  // rejected as a typo would be a runner error, so no hook ran, not even '*'. A name a user writes (the
  // command line, a config key) is still typo-checked.
  it('a name close to a known one, sent by the agent, takes the forward path', () => {
    const gemini = getDialect('gemini').toEvent({ hook_event_name: 'BeforeTol', session_id: 's', cwd: '/p', timestamp: '2026-11-22T00:00:00Z' }, undefined);
    expect(gemini.name).toBe('beforeTol');
    const cursor = getDialect('cursor').toEvent({ hook_event_name: 'preToolUes', conversation_id: 'c', generation_id: 'g', cursor_version: '3.9', workspace_roots: ['/p'] }, undefined);
    expect(cursor.name).toBe('preToolUes');
    const claude = getDialect('claude-code').toEvent({ hook_event_name: 'SubagentStarted', session_id: 's', cwd: '/p' }, undefined);
    expect(claude.name).toBe('subagentStarted');
  });

  it('the same typo on the command line is still an error', () => {
    expect(() => getDialect('gemini').toEvent({ session_id: 's', cwd: '/p', timestamp: '2026-11-22T00:00:00Z' }, 'BeforeTol')).toThrow(expect.objectContaining({ code: 'EVENT_UNKNOWN' }));
    expect(() => getDialect('claude-code').toEvent({ session_id: 's', cwd: '/p' }, 'SubagentStarted')).toThrow(expect.objectContaining({ code: 'EVENT_UNKNOWN' }));
  });

  it('a payload name that is no event name at all is still an error', () => {
    expect(() => getDialect('claude-code').toEvent({ hook_event_name: 'rm -rf x', session_id: 's', cwd: '/p' }, undefined)).toThrow(expect.objectContaining({ code: 'EVENT_UNKNOWN' }));
  });
});
