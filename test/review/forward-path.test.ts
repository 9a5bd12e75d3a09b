// Hostile review (issues 24): the forward path for events agent-hooks does not know must never let a
// block through. Real hook processes, throwaway HOME.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decide/combine.js';
import { getDialect } from '../../src/dialects/index.js';
import { eventSpec } from '../../src/events/catalog.js';
import type { HookEvent } from '../../src/types.js';
import { isolatedEnv, runCli, tmpProject } from '../helpers.js';

function project(hooks: Record<string, unknown>) {
  const dir = tmpProject();
  writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks }));
  return { dir, env: isolatedEnv(dir) };
}

describe('review: a JSON deny on an event agent-hooks does not know', () => {
  // A newer Claude Code guard event (like PreSkillShellCommand was): a hook written for it natively
  // answers with hookSpecificOutput.permissionDecision "deny" and exit 0. Claude Code would deny; through
  // agent-hooks the field is "ignored" (event.permissionDecision is false for unknown specs) and exit 0.
  it.each([
    ['permissionDecision deny', { hookSpecificOutput: { hookEventName: 'PreFutureGuardCheck', permissionDecision: 'deny', permissionDecisionReason: 'future says no' } }],
    ['permissionDecision ask', { hookSpecificOutput: { hookEventName: 'PreFutureGuardCheck', permissionDecision: 'ask', permissionDecisionReason: 'future says no' } }],
    ['PermissionRequest-style behavior deny', { hookSpecificOutput: { hookEventName: 'PreFutureGuardCheck', decision: { behavior: 'deny', message: 'future says no' } } }],
  ])('claude-code: %s is passed on as a block (exit 2), not dropped', (_what, reply) => {
    const p = project({ PreFutureGuardCheck: [{ id: 'future-guard', command: `cat >/dev/null; echo '${JSON.stringify(reply)}'` }] });
    const payload = { hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } };
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    expect(r.code, `stdout=${r.stdout} stderr=${r.stderr}`).toBe(2);
    expect(r.stderr).toContain('future says no');
  });
});

const decide = (event: HookEvent, decision: Decision['decision'], reason?: string): Decision => ({
  decision, event, additionalContext: [], results: [], warnings: [], skipped: [], steps: [], ...(reason === undefined ? {} : { reason }),
});

describe('review: Windsurf forward path', () => {
  // Cascade honours exit 2 from every pre_* hook (its generic block). A newer pre_* action this table
  // lacks (pre_web_search here, a test-only name) takes the forward path, and its block is dropped.
  it('a block on a pre_* event the table does not know is exit 2 (Windsurf\'s generic block)', () => {
    const d = getDialect('windsurf');
    const event = d.toEvent({ agent_action_name: 'pre_web_search', trajectory_id: 't', execution_id: 'e', timestamp: '2026-11-27T00:00:00Z', tool_info: { query: 'x' } }, undefined);
    expect(eventSpec(event.name).known).toBe(false);
    const answer = d.answer(decide(event, 'block', 'no searching'));
    expect(answer.exitCode, answer.stderr).toBe(2);
    expect(answer.stderr).toMatch(/^no searching\n/);
  });

  it('the same through `hooks run` with a real hook under a wildcard key', () => {
    const p = project({ 'group:blocking': [{ id: 'guard', command: 'cat >/dev/null; echo "no searching" >&2; exit 2' }] });
    const payload = { agent_action_name: 'pre_web_search', trajectory_id: 't', execution_id: 'e', timestamp: '2026-11-27T00:00:00Z', tool_info: { query: 'x', cwd: p.dir } };
    const r = runCli(['run', '--dialect', 'windsurf'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    expect(r.code, r.stderr).toBe(2);
  });
});

describe('review: a tool matcher on an event agent-hooks does not know', () => {
  // A newer agent's tool event (as PreSkillShellCommand was): its payload carries tool_name, and a
  // hook written for it natively names the tool. The hook must still run and its block be passed on.
  const payload = (dir: string) => ({ hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } });
  it.each([
    ['Claude shape, matcher "Bash"', { PreFutureGuardCheck: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'cat >/dev/null; echo "future says no" >&2; exit 2' }] }] }],
    ['native shape, match "Bash"', { PreFutureGuardCheck: [{ id: 'g', match: 'Bash', command: 'cat >/dev/null; echo "future says no" >&2; exit 2' }] }],
  ])('%s: exit 2 is passed on', (_what, hooks) => {
    const p = project(hooks);
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload(p.dir)) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('future says no');
  });
});

describe('review: the agent\'s own new event name is typo-checked', () => {
  // An event name sent BY THE AGENT is not a user's typo: a newer Claude Code event one or two letters
  // from a known one (test-only names in the style of its real ones) is a runner error (exit 1), which
  // Claude Code treats as a non-blocking error: the hooks never run and the action goes on.
  it.each(['SubagentStarted', 'TaskCreate', 'Interrupted', 'SessionStarts'])('claude-code %s: the wildcard guard runs and its exit 2 is passed on', (name) => {
    const p = project({ '*': [{ id: 'guard', command: 'cat >/dev/null; echo "guard says no" >&2; exit 2' }] });
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: name, session_id: 's', cwd: p.dir }) });
    expect(r.code, r.stderr.slice(0, 200)).toBe(2);
    expect(r.stderr).toContain('guard says no');
  });
});
