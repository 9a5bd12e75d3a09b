// Issue 24: no event an agent sends fails open or is a runner error. Every event of every dialect's table
// becomes an event (its equivalent, or the forward path under its own name), and a block on it is answered
// in a form that blocks: the event's own reply, or the agent's generic one (exit 2, reason on stderr).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Decision } from '../../src/decide/combine.js';
import { CODEX_EVENTS } from '../../src/dialects/codex.js';
import { COPILOT_EVENTS } from '../../src/dialects/copilot.js';
import { CURSOR_EVENTS } from '../../src/dialects/cursor.js';
import { GEMINI_EVENTS } from '../../src/dialects/gemini.js';
import { getDialect } from '../../src/dialects/index.js';
import { EVENTS, eventSpec, findEvent } from '../../src/events/catalog.js';
import type { HookEvent } from '../../src/types.js';
import { cliInProcess, isolatedEnv, runCli, tmpProject } from '../helpers.js';

const decide = (event: HookEvent, decision: Decision['decision'], reason?: string): Decision => ({
  decision, event, additionalContext: [], results: [], warnings: [], skipped: [], steps: [], ...(reason === undefined ? {} : { reason }),
});

const TOOL = { tool_name: 'Bash', tool_input: { command: 'ls' } };
const CLAUDE_EVENTS = Object.fromEntries(EVENTS.filter((e) => e.name !== 'interrupt').map((e) => [e.claude, e.name]));

/** A minimal payload of each agent for one of its events, with a tool where the event carries one. */
const PAYLOADS: Record<string, (event: string, tool: boolean) => Record<string, unknown>> = {
  'claude-code': (event, tool) => ({ hook_event_name: event, session_id: 's', cwd: '/p', ...(tool ? TOOL : {}) }),
  codex: (event, tool) => ({ hook_event_name: event, session_id: 's', cwd: '/p', turn_id: 't', ...(tool ? TOOL : {}) }),
  gemini: (event, tool) => ({ hook_event_name: event, session_id: 's', cwd: '/p', timestamp: '2026-11-27T00:00:00Z', ...(tool ? { tool_name: 'run_shell_command', tool_input: { command: 'ls' } } : {}), llm_request: { messages: [] }, llm_response: { candidates: [] } }),
  cursor: (event, tool) => ({ hook_event_name: event, conversation_id: 'c', generation_id: 'g', cursor_version: '3.9', workspace_roots: ['/p'], command: 'ls', file_path: '/p/f', ...(tool ? { tool_name: 'Shell', tool_input: { command: 'ls' } } : {}) }),
  copilot: (event, tool) =>
    /^[a-z]/.test(event)
      ? { hookName: event, sessionId: 's', timestamp: 1, cwd: '/p', ...(tool ? { toolName: 'bash', toolArgs: { command: 'ls' } } : {}) }
      : { hook_event_name: event, session_id: 's', cwd: '/p', timestamp: '2026-11-27T00:00:00Z', ...(tool ? TOOL : {}) },
};

const TABLES: Record<string, Readonly<Record<string, string | null>>> = {
  'claude-code': CLAUDE_EVENTS,
  codex: CODEX_EVENTS,
  gemini: GEMINI_EVENTS,
  cursor: CURSOR_EVENTS,
  copilot: COPILOT_EVENTS,
};

const rows = Object.entries(TABLES).flatMap(([dialect, table]) => Object.entries(table).map(([agentEvent, canonical]) => [dialect, agentEvent, canonical] as const));

/** Is this answer one the agent takes as a block? Its event's own deny, or the generic exit 2 with a reason. */
function blocks(dialect: string, answer: { stdout: string; stderr: string; exitCode: number }, reason: string): boolean {
  if (answer.exitCode === 2) return answer.stderr.includes(reason);
  const json = answer.stdout === '' ? {} : (JSON.parse(answer.stdout) as Record<string, any>);
  const specific = json.hookSpecificOutput ?? {};
  // Gemini's tool selection is blocked by offering no tools at all.
  if (dialect === 'gemini' && specific.toolConfig?.mode === 'NONE') return true;
  const said = JSON.stringify(json).includes(reason);
  return said && (
    json.decision === 'block' || json.decision === 'deny' || json.permission === 'deny' || json.permissionDecision === 'deny' || json.behavior === 'deny' ||
    json.continue === false || json.followup_message === reason || specific.permissionDecision === 'deny' || specific.decision?.behavior === 'deny' ||
    json.modifiedResult?.resultType === 'failure' || typeof json.additional_context === 'string'
  );
}

describe('every event of every dialect becomes an event (issue 24 item 2)', () => {
  it.each(rows)('%s %s → %s', (dialect, agentEvent, canonical) => {
    const d = getDialect(dialect);
    const spec = canonical === null ? undefined : findEvent(canonical);
    const event = d.toEvent(PAYLOADS[dialect]!(agentEvent, spec?.tool ?? false), agentEvent);
    if (canonical !== null) expect(event.name).toBe(canonical);
    else {
      // The forward path: the agent's own name, not a catalog event.
      expect(findEvent(event.name)).toBeUndefined();
      expect(event.name.toLowerCase()).toBe(agentEvent.toLowerCase());
    }
    // A block on an event that can block is answered as a block, never a runner error or a silent pass.
    const answer = d.answer(decide(event, 'block', 'stop-right-there'));
    expect(answer.exitCode).not.toBe(1);
    // (Where the agent has no way to block at all, the answer must say so.)
    const saysCannot = /cannot (take|block)|no reply for/.test(answer.stderr + answer.stdout);
    if (eventSpec(event.name).canBlock && !saysCannot) {
      expect(blocks(dialect, answer, 'stop-right-there')).toBe(true);
    }
    // A continue is no block.
    expect(d.answer(decide(event, 'continue')).exitCode).toBe(0);
  });

  it('no table maps an agent event to a name the catalog does not have', () => {
    for (const table of Object.values(TABLES)) for (const canonical of Object.values(table)) if (canonical !== null) expect(findEvent(canonical), canonical).toBeDefined();
  });
});

describe('an unknown event past the catalog cache (a long-lived hooks serve sees many)', () => {
  it('named the same on the command line and in the payload, it is one event, not a mismatch', () => {
    // Fill the catalog's bounded cache of unknown events, as a server that has seen many names would.
    for (let i = 0; i < 300; i++) eventSpec(`someAgentEvent${i}` as never);
    for (const dialect of ['cursor', 'codex'] as const) {
      const event = getDialect(dialect).toEvent(PAYLOADS[dialect]!('afterBrandNewThing', false), 'afterBrandNewThing');
      expect(event.name.toLowerCase()).toBe('afterbrandnewthing');
    }
  });
});

describe('the forward path (issue 24 item 1)', () => {
  // A test-only name no agent sends: the catalog cannot know it.
  const NAME = 'PreFutureGuardCheck';

  it.each([
    ['claude-code', { hook_event_name: NAME, session_id: 's', cwd: '/p' }],
    ['codex', { hook_event_name: NAME, session_id: 's', cwd: '/p', turn_id: 't' }],
  ])('%s: a block on an event agent-hooks does not know is exit 2 with the reason on stderr', (dialect, payload) => {
    const d = getDialect(dialect);
    const event = d.toEvent(payload, undefined);
    expect(eventSpec(event.name).known).toBe(false);
    const answer = d.answer(decide(event, 'block', 'not on my watch'));
    expect(answer).toMatchObject({ exitCode: 2, stderr: 'not on my watch\n' });
    const halted = d.answer(decide(event, 'halt', 'enough'));
    expect(halted.exitCode).toBe(2);
    expect(JSON.parse(halted.stdout)).toMatchObject({ continue: false, stopReason: 'enough' });
    expect(d.answer(decide(event, 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });

  it('cursor and copilot: a block on an event with no equivalent is exit 2 with the reason on stderr', () => {
    const cursor = getDialect('cursor');
    const ce = cursor.toEvent(PAYLOADS.cursor!('afterAgentThought', false), undefined);
    expect(cursor.answer(decide(ce, 'block', 'no thoughts'))).toMatchObject({ exitCode: 2, stdout: '' });
    expect(cursor.answer(decide(ce, 'block', 'no thoughts')).stderr).toMatch(/^no thoughts\n/);
    const copilot = getDialect('copilot');
    const pe = copilot.toEvent(PAYLOADS.copilot!('errorOccurred', false), undefined);
    expect(copilot.answer(decide(pe, 'block', 'stop it'))).toMatchObject({ exitCode: 2 });
    expect(copilot.answer(decide(pe, 'block', 'stop it')).stderr).toMatch(/^stop it\n/);
  });

  it('Claude Code PreSkillShellCommand is a known guard event: deny in JSON, exit 2, reason on stderr', () => {
    const d = getDialect('claude-code');
    const event = d.toEvent({ hook_event_name: 'PreSkillShellCommand', session_id: 's', cwd: '/p', tool_name: 'Bash', tool_input: { command: 'date' }, tool_use_id: 'u', command_name: 'when', command_source: 'projectSettings', invoked_by: 'user' }, undefined);
    expect(event.name).toBe('preSkillShellCommand');
    expect(event.tool).toEqual({ name: 'Bash', canonical: 'exec' });
    const answer = d.answer(decide(event, 'block', 'no dates'));
    expect(answer).toMatchObject({ exitCode: 2, stderr: 'no dates\n' });
    expect(JSON.parse(answer.stdout)).toEqual({ hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', permissionDecision: 'deny', permissionDecisionReason: 'no dates' } });
  });
});

describe('PermissionRequest where Codex and Copilot read it', () => {
  it('codex: a deny is decision.behavior deny, without the interrupt Codex 0.171 fails closed on', () => {
    const d = getDialect('codex');
    const event = d.toEvent(PAYLOADS.codex!('PermissionRequest', true), undefined);
    const halted = JSON.parse(d.answer(decide(event, 'halt', 'no')).stdout) as Record<string, any>;
    expect(halted.hookSpecificOutput.decision).toEqual({ behavior: 'deny', message: 'no' });
    expect(halted.continue).toBeUndefined();
  });

  it('copilot: flat behavior deny (camelCase), and the nested form too (PascalCase)', () => {
    const d = getDialect('copilot');
    const camel = d.answer(decide(d.toEvent(PAYLOADS.copilot!('permissionRequest', true), undefined), 'block', 'no'));
    expect(JSON.parse(camel.stdout)).toEqual({ behavior: 'deny', message: 'no' });
    const pascal = d.answer(decide(d.toEvent(PAYLOADS.copilot!('PermissionRequest', true), undefined), 'block', 'no'));
    expect(JSON.parse(pascal.stdout)).toMatchObject({ behavior: 'deny', hookSpecificOutput: { decision: { behavior: 'deny', message: 'no' } } });
  });
});

describe('the forward path through `hooks run`, with real hook processes', () => {
  // A bash hook filed under the event's exact name, and one under `*`, each exiting as a guard would.
  function project(hooks: Record<string, unknown>) {
    const dir = tmpProject();
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks }));
    return { dir, env: isolatedEnv(dir) };
  }

  // The built bin, as Claude Code's shell sees it; the other runs of hooks run in this file are in-process
  // (cliInProcess: the same argv, cwd, env, stdin and exit code).
  it('claude-code: an event the catalog does not know runs its hooks; exit 2 is passed on with the reason (the built bin)', () => {
    const p = project({ PreFutureGuardCheck: [{ id: 'future-guard', command: 'cat >/dev/null; echo "future says no" >&2; exit 2' }] });
    const r = runCli(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: p.dir }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('future says no\n');
  });

  it.each([
    ['an ask', 'echo \'{"decision":"ask","reason":"confirm the deploy"}\'', /^confirm the deploy \(agent-hooks cannot ask on preFutureGuardCheck, an event it does not know yet, so it blocks instead\)\n$/],
    ['a rewrite', 'echo \'{"decision":"modify","updatedInput":{"command":"bwrap -- make deploy"}}\'', /^a rewrite agent-hooks cannot pass on \(preFutureGuardCheck is an event it does not know yet\), so the call is blocked instead\n$/],
  ])('claude-code: %s on an event the catalog does not know blocks, saying why (never let through unconfirmed or unrewritten)', async (_what, reply, stderr) => {
    const p = project({ PreFutureGuardCheck: [{ id: 'future-guard', command: `cat >/dev/null; ${reply}` }] });
    const r = await cliInProcess(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(stderr);
  });

  it('a wildcard hook runs on it too, and a quiet hook lets it through', async () => {
    const p = project({ '*': [{ id: 'log', command: 'cat >/dev/null; exit 0' }], preFutureGuardCheck: [{ id: 'quiet', command: 'cat >/dev/null; exit 0' }] });
    const r = await cliInProcess(['run', '--dialect', 'claude-code', '--verbose'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: p.dir }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('log');
    expect(r.stderr).toContain('quiet');
  });

  it('claude-code PreSkillShellCommand: a matcher on the shell tool, exit 2 denies with the reason', async () => {
    const p = project({ PreSkillShellCommand: [{ id: 'no-skill-shell', match: 'Bash', command: 'cat >/dev/null; echo "skill shell refused" >&2; exit 2' }] });
    const payload = { hook_event_name: 'PreSkillShellCommand', session_id: 's', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'date' }, tool_use_id: 'u', command_name: 'when', command_source: 'projectSettings', invoked_by: 'user' };
    const r = await cliInProcess(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('skill shell refused\n');
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', permissionDecision: 'deny', permissionDecisionReason: 'skill shell refused' } });
  });
});

// Hostile review (issues 24): the forward path for events agent-hooks does not know must never let a
// block through. Real hook processes, throwaway HOME.
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
  ])('claude-code: %s is passed on as a block (exit 2), not dropped', async (_what, reply) => {
    const p = project({ PreFutureGuardCheck: [{ id: 'future-guard', command: `cat >/dev/null; echo '${JSON.stringify(reply)}'` }] });
    const payload = { hook_event_name: 'PreFutureGuardCheck', session_id: 's', cwd: p.dir, tool_name: 'Bash', tool_input: { command: 'make deploy' } };
    const r = await cliInProcess(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
    expect(r.code, `stdout=${r.stdout} stderr=${r.stderr}`).toBe(2);
    expect(r.stderr).toContain('future says no');
  });
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

  it('the same through `hooks run` with a real hook under a wildcard key', async () => {
    const p = project({ 'group:blocking': [{ id: 'guard', command: 'cat >/dev/null; echo "no searching" >&2; exit 2' }] });
    const payload = { agent_action_name: 'pre_web_search', trajectory_id: 't', execution_id: 'e', timestamp: '2026-11-27T00:00:00Z', tool_info: { query: 'x', cwd: p.dir } };
    const r = await cliInProcess(['run', '--dialect', 'windsurf'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload) });
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
  ])('%s: exit 2 is passed on', async (_what, hooks) => {
    const p = project(hooks);
    const r = await cliInProcess(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify(payload(p.dir)) });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('future says no');
  });
});

describe('review: the agent\'s own new event name is typo-checked', () => {
  // An event name sent BY THE AGENT is not a user's typo: a newer Claude Code event one or two letters
  // from a known one (test-only names in the style of its real ones) is a runner error (exit 1), which
  // Claude Code treats as a non-blocking error: the hooks never run and the action goes on.
  it.each(['SubagentStarted', 'TaskCreate', 'Interrupted', 'SessionStarts'])('claude-code %s: the wildcard guard runs and its exit 2 is passed on', async (name) => {
    const p = project({ '*': [{ id: 'guard', command: 'cat >/dev/null; echo "guard says no" >&2; exit 2' }] });
    const r = await cliInProcess(['run', '--dialect', 'claude-code'], { cwd: p.dir, env: p.env, input: JSON.stringify({ hook_event_name: name, session_id: 's', cwd: p.dir }) });
    expect(r.code, r.stderr.slice(0, 200)).toBe(2);
    expect(r.stderr).toContain('guard says no');
  });
});
