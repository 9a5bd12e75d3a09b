// The copilot dialect: Copilot CLI's camelCase payloads and its Claude-style PascalCase ones, answered
// with the flat JSON Copilot reads on exit 0 (it drops stderr on exit 2).
import { describe, expect, it } from 'vitest';
import { copilot } from '../../src/dialects/copilot.js';
import { dialectKit } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(copilot, 'copilot');

describe('copilot: toEvent, camelCase mode', () => {
  it.each([
    ['preToolUse.bash.json', 'preToolUse', 'preToolUse', 'bash', 'exec'],
    ['preToolUse.view.json', 'preToolUse', 'preToolUse', 'view', 'read'],
    ['preToolUse.create.json', 'preToolUse', 'preToolUse', 'create', 'write'],
    ['preToolUse.edit.json', 'pre-tool-use', 'preToolUse', 'edit', 'edit'],
    ['postToolUse.bash.json', 'postToolUse', 'postToolUse', 'bash', 'exec'],
  ])('%s (%s) → %s on %s', (file, name, canonicalEvent, tool, canonical) => {
    const e = ev(file, name);
    expect(e.name).toBe(canonicalEvent);
    expect(e.tool).toEqual({ name: tool, canonical });
    expect(e.payload).toMatchObject({ session_id: 'e56fa117-d67f-470f-8da7-0526803d8723', cwd: '/home/dev/project', tool_name: tool });
  });

  it('maps toolArgs to tool_input with Claude field names beside Copilot ones, toolResult to tool_response', () => {
    expect(ev('preToolUse.bash.blocked.json', 'preToolUse').payload.tool_input).toEqual({ command: 'rm -rf ./victim', description: 'delete victim' });
    expect(ev('preToolUse.create.json', 'preToolUse').payload.tool_input).toEqual({ path: '/home/dev/project/notes.txt', file_text: 'one\n', file_path: '/home/dev/project/notes.txt', content: 'one\n' });
    expect(ev('preToolUse.edit.json', 'preToolUse').payload.tool_input).toMatchObject({ file_path: '/home/dev/project/notes.txt', old_string: 'one', new_string: 'two' });
    expect(ev('postToolUse.bash.json', 'postToolUse').payload.tool_response).toEqual({ resultType: 'success', textResultForLlm: '\n<shellId: 0 completed with exit code 0>' });
  });

  it('accepts toolArgs as a JSON string, as Copilot sends it in practice', () => {
    const e = copilot.toEvent({ ...load('preToolUse.bash.json'), toolArgs: JSON.stringify({ command: 'ls' }) }, 'preToolUse');
    expect(e.payload.tool_input).toEqual({ command: 'ls' });
  });

  it.each([['userPromptSubmitted.json', 'userPromptSubmitted', 'userPromptSubmit'], ['agentStop.json', 'agentStop', 'stop'], ['sessionStart.json', 'sessionStart', 'sessionStart'], ['sessionEnd.json', 'sessionEnd', 'sessionEnd']])('%s as %s → %s', (file, name, canonical) => {
    expect(ev(file, name).name).toBe(canonical);
  });

  it('the camelCase payload does not name its event: the command line must', () => {
    expect(() => ev('preToolUse.bash.json')).toThrow(/no event named/);
    // Its permissionRequest payload does (hookName), and is the catalog's permissionRequest.
    expect(ev('permissionRequest.bash.json').name).toBe('permissionRequest');
  });
});

describe('copilot: toEvent, PascalCase mode', () => {
  it('Claude-style payload with Copilot tool fields: Write path/file_text → file_path/content', () => {
    const e = ev('PreToolUse.Write.json');
    expect(e.name).toBe('preToolUse');
    expect(e.tool).toEqual({ name: 'Write', canonical: 'write' });
    expect(e.payload.tool_input).toMatchObject({ file_path: '/home/dev/project/notes.txt', content: 'one\n' });
    expect(ev('PostToolUse.Bash.json').payload.tool_response).toEqual({ result_type: 'success', text_result_for_llm: '\n<shellId: 0 completed with exit code 0>' });
    expect(ev('Stop.json').name).toBe('stop');
  });
});

describe('copilot: answer', () => {
  it('block: flat permissionDecision deny + reason, exit 0 (Copilot drops stderr on exit 2)', () => {
    const a = json(decide(ev('preToolUse.bash.blocked.json', 'preToolUse'), 'block', { reason: 'no rm' }));
    expect(a).toEqual({ stdout: expect.any(String), stderr: '', exitCode: 0, json: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
  });

  it('PascalCase mode also sends the nested Claude form (VS Code reads that one)', () => {
    const a = json(decide(ev('PreToolUse.Bash.blocked.json'), 'block', { reason: 'no rm' }));
    expect(a.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'no rm', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' } });
  });

  it('rewrite: modifiedArgs (camelCase) / updatedInput (PascalCase), in Copilot field names', () => {
    const camel = ev('preToolUse.create.json', 'preToolUse');
    const input = { ...camel.payload.tool_input, file_path: '/home/dev/project/other.txt' };
    expect(json(decide(camel, 'modify', { updatedInput: input })).json).toEqual({ permissionDecision: 'allow', modifiedArgs: { path: '/home/dev/project/other.txt', file_text: 'one\n' } });
    const pascal = ev('PreToolUse.Bash.json');
    expect(json(decide(pascal, 'modify', { updatedInput: { command: 'echo safe' } })).json).toMatchObject({ permissionDecision: 'allow', updatedInput: { command: 'echo safe' }, hookSpecificOutput: { updatedInput: { command: 'echo safe' } } });
  });

  it('a Claude-style hook answering a fresh {file_path, content} keeps the agent field it did not change (path)', () => {
    const camel = ev('preToolUse.create.json', 'preToolUse');
    const fresh = { file_path: '/home/dev/project/notes.txt', content: 'two\n' };
    expect(json(decide(camel, 'modify', { updatedInput: fresh })).json?.modifiedArgs).toEqual({ path: '/home/dev/project/notes.txt', file_text: 'two\n' });
  });

  it('a missing tool name is named by its key: toolName (camelCase), tool_name (PascalCase)', () => {
    const { toolName: _, ...noTool } = load('preToolUse.bash.json');
    expect(() => copilot.toEvent(noTool, 'preToolUse')).toThrow('stdin: preToolUse needs a "toolName"');
    const { tool_name: __, ...pascal } = load('PreToolUse.Bash.json');
    expect(() => copilot.toEvent(pascal, undefined)).toThrow('stdin: PreToolUse needs a "tool_name"');
  });

  it('ask: permissionDecision ask (the cloud agent treats it as deny)', () => {
    expect(json(decide(ev('preToolUse.bash.json', 'preToolUse'), 'ask', { reason: 'sure?' })).json).toEqual({ permissionDecision: 'ask', permissionDecisionReason: 'sure?' });
  });

  it('halt: Copilot cannot halt, so the tool is denied and stderr says so', () => {
    const a = json(decide(ev('preToolUse.bash.json', 'preToolUse'), 'halt', { reason: 'stop' }));
    expect(a.json).toEqual({ permissionDecision: 'deny', permissionDecisionReason: 'stop' });
    expect(a.stderr).toContain('Copilot cannot do; the tool was denied instead');
  });

  it('postToolUse: modifiedResult for an output rewrite and for a block', () => {
    const e = ev('postToolUse.bash.json', 'postToolUse');
    expect(json(decide(e, 'modify', { updatedOutput: { value: { resultType: 'success', textResultForLlm: '[redacted]' } } })).json).toEqual({ modifiedResult: { resultType: 'success', textResultForLlm: '[redacted]' } });
    expect(json(decide(e, 'block', { reason: 'hidden' })).json).toEqual({ modifiedResult: { resultType: 'failure', textResultForLlm: 'hidden' } });
    const pascal = json(decide(ev('PostToolUse.Bash.json'), 'modify', { updatedOutput: { value: { result_type: 'success', text_result_for_llm: '[redacted]' } } }));
    expect(pascal.json?.modifiedResult).toEqual({ resultType: 'success', textResultForLlm: '[redacted]' });
  });

  it('agentStop block: decision block + reason', () => {
    expect(json(decide(ev('agentStop.json', 'agentStop'), 'block', { reason: 'tests fail' })).json).toEqual({ decision: 'block', reason: 'tests fail' });
  });

  it('userPromptSubmitted has no reply: a block is exit 2 with the reason on stderr, and a warning', () => {
    const a = json(decide(ev('userPromptSubmitted.json', 'userPromptSubmitted'), 'block', { reason: 'secret in prompt' }));
    expect(a.exitCode).toBe(2);
    expect(a.stdout).toBe('');
    expect(a.stderr).toMatch(/^secret in prompt\nagent-hooks: a hook blocked userPromptSubmitted, which Copilot has no reply for/);
  });

  it('context: additionalContext where Copilot takes it, else a warning', () => {
    expect(json(decide(ev('sessionStart.json', 'sessionStart'), 'continue', { additionalContext: ['ctx'] })).json).toEqual({ additionalContext: 'ctx' });
    expect(json(decide(ev('userPromptSubmitted.json', 'userPromptSubmitted'), 'continue', { additionalContext: ['ctx'] })).stderr).toContain('Copilot takes no context on userPromptSubmitted');
  });

  it('failures go to stderr; nothing to say is empty', () => {
    expect(json(decide(ev('preToolUse.bash.json', 'preToolUse'), 'continue', { warnings: ['w'] }))).toMatchObject({ stdout: '', stderr: 'agent-hooks: w\n', exitCode: 0 });
    expect(copilot.answer(decide(ev('preToolUse.bash.json', 'preToolUse'), 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
