// The codex dialect: Claude Code's format, minus what Codex ignores (ask, continue:false on PreToolUse),
// with a tool result replaced only through a block.
import { describe, expect, it } from 'vitest';
import { codex } from '../../src/dialects/codex.js';
import { dialectKit } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(codex, 'codex');

describe('codex: toEvent', () => {
  it.each([
    ['PreToolUse.Bash.json', 'preToolUse', 'Bash', 'exec'],
    ['PreToolUse.apply_patch.json', 'preToolUse', 'apply_patch', 'apply_patch'],
    ['PostToolUse.Bash.json', 'postToolUse', 'Bash', 'exec'],
    ['PostToolUse.apply_patch.json', 'postToolUse', 'apply_patch', 'apply_patch'],
  ])('%s → %s on %s', (file, name, tool, canonical) => {
    const e = ev(file);
    expect(e.name).toBe(name);
    expect(e.tool).toEqual({ name: tool, canonical });
    expect(typeof e.payload.tool_input?.command).toBe('string');
  });

  it('keeps the patch in tool_input.command and the string tool_response', () => {
    expect(ev('PreToolUse.apply_patch.json').payload.tool_input?.command).toContain('*** Add File: notes.txt');
    expect(ev('PostToolUse.apply_patch.json').payload.tool_response).toContain('Success. Updated the following files');
  });

  it.each([['UserPromptSubmit.json', 'userPromptSubmit'], ['Stop.json', 'stop'], ['SessionStart.json', 'sessionStart'], ['SessionEnd.json', 'sessionEnd']])('%s → %s', (file, name) => {
    expect(ev(file).name).toBe(name);
  });

  it.each([['PermissionRequest', 'permissionRequest'], ['PostCompact', 'postCompact'], ['SubagentStart', 'subagentStart'], ['Interrupt', 'interrupt']])('Codex 0.171 event %s → %s', (agentEvent, name) => {
    expect(codex.toEvent({ ...load('PreToolUse.json'), hook_event_name: agentEvent }, undefined).name).toBe(name);
  });
});

describe('codex: answer', () => {
  it('block: the Claude deny, exit 2, reason on stderr', () => {
    const a = json(decide(ev('PreToolUse.Bash.blocked.json'), 'block', { reason: 'no rm' }));
    expect(a).toMatchObject({ exitCode: 2, stderr: 'no rm\n', json: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } } });
  });

  it('rewrite: updatedInput together with allow (Codex ignores it otherwise)', () => {
    const a = json(decide(ev('PreToolUse.Bash.json'), 'modify', { updatedInput: { command: 'echo safe' } }));
    expect(a).toMatchObject({ exitCode: 0, json: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', updatedInput: { command: 'echo safe' } } } });
  });

  it('ask: Codex marks ask as a failed hook and runs the tool, so it is a deny', () => {
    const a = json(decide(ev('PreToolUse.Bash.json'), 'ask', { reason: 'sure?' }));
    expect(a.exitCode).toBe(2);
    expect(a.json?.hookSpecificOutput).toEqual({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'sure? (a hook asked for confirmation, which Codex cannot ask for)' });
    expect(a.json?.systemMessage).toContain('Codex cannot ask for');
  });

  it('halt on PreToolUse: a deny without continue:false (which Codex would ignore, running the tool)', () => {
    const a = json(decide(ev('PreToolUse.Bash.json'), 'halt', { reason: 'stop' }));
    expect(a.json).not.toHaveProperty('continue');
    expect(a.json?.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(a.json?.systemMessage).toContain('cannot do from PreToolUse');
    expect(json(decide(ev('Stop.json'), 'halt', { reason: 'stop' })).json).toMatchObject({ continue: false, stopReason: 'stop' });
  });

  it('output rewrite: a block whose reason replaces the result, exit 0', () => {
    const a = json(decide(ev('PostToolUse.apply_patch.json'), 'modify', { updatedOutput: { value: '[redacted]' } }));
    expect(a).toMatchObject({ exitCode: 0, json: { decision: 'block', reason: '[redacted]' } });
  });

  it('PostToolUse block, Stop block, prompt rewrite, context, failures, nothing to say', () => {
    expect(json(decide(ev('PostToolUse.Bash.json'), 'block', { reason: 'bad' }))).toMatchObject({ exitCode: 2, json: { decision: 'block', reason: 'bad' } });
    expect(json(decide(ev('Stop.json'), 'block', { reason: 'go on' }))).toMatchObject({ exitCode: 2, json: { decision: 'block', reason: 'go on' } });
    expect(json(decide(ev('UserPromptSubmit.json'), 'modify', { prompt: 'x' })).json?.reason).toContain('Codex cannot take a rewritten prompt');
    expect(json(decide(ev('SessionStart.json'), 'continue', { additionalContext: ['ctx'] })).json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } });
    expect(json(decide(ev('PreToolUse.Bash.json'), 'continue', { warnings: ['w'] }))).toMatchObject({ exitCode: 0, json: { systemMessage: 'agent-hooks: w' }, stderr: 'agent-hooks: w\n' });
    expect(codex.answer(decide(ev('PreToolUse.Bash.json'), 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
