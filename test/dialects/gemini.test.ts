// The gemini dialect: Gemini CLI's payloads in, what Gemini CLI reads out (decision/reason, continue,
// systemMessage, hookSpecificOutput.tool_input / tool_output / additionalContext), always exit 0.
import { describe, expect, it } from 'vitest';
import { gemini } from '../../src/dialects/gemini.js';
import { dialectKit } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(gemini, 'gemini');

describe('gemini: toEvent', () => {
  it.each([
    ['BeforeTool.run_shell_command.json', 'preToolUse', 'PreToolUse', 'run_shell_command', 'exec'],
    ['BeforeTool.write_file.json', 'preToolUse', 'PreToolUse', 'write_file', 'write'],
    ['BeforeTool.replace.json', 'preToolUse', 'PreToolUse', 'replace', 'edit'],
    ['BeforeTool.read_file.json', 'preToolUse', 'PreToolUse', 'read_file', 'read'],
    ['AfterTool.run_shell_command.json', 'postToolUse', 'PostToolUse', 'run_shell_command', 'exec'],
    ['BeforeAgent.json', 'userPromptSubmit', 'UserPromptSubmit', undefined, undefined],
    ['AfterAgent.json', 'stop', 'Stop', undefined, undefined],
    ['PreCompress.json', 'preCompact', 'PreCompact', undefined, undefined],
    ['SessionStart.json', 'sessionStart', 'SessionStart', undefined, undefined],
    ['SessionEnd.json', 'sessionEnd', 'SessionEnd', undefined, undefined],
  ])('%s → %s', (file, name, claude, tool, canonical) => {
    const e = ev(file);
    expect(e.name).toBe(name);
    expect(e.payload.hook_event_name).toBe(claude);
    expect(e.tool).toEqual(tool === undefined ? undefined : { name: tool, canonical });
    expect(e.payload.session_id).toBe('dba67570-9b36-43af-bf95-2ff15b338f97');
    expect(e.payload.cwd).toBe('/home/dev/project');
  });

  it('keeps the fields a guard reads: command, file_path, prompt, tool_response, last_assistant_message', () => {
    expect(ev('BeforeTool.run_shell_command.blocked.json').payload.tool_input).toEqual({ command: 'rm -rf ./victim', description: 'delete victim' });
    expect(ev('BeforeTool.write_file.json').payload.tool_input).toEqual({ file_path: '/home/dev/project/notes.txt', content: 'one\n' });
    expect(ev('BeforeAgent.json').payload.prompt).toBe('clean up');
    expect(ev('AfterTool.read_file.json').payload.tool_response).toEqual({ llmContent: 'one\n', returnDisplay: '' });
    expect(ev('AfterAgent.json').payload).toMatchObject({ last_assistant_message: 'done', prompt_response: 'done', stop_hook_active: false });
  });

  it('maps older read_file `absolute_path` to file_path, and MCP tools to mcp__server__tool', () => {
    const old = gemini.toEvent({ ...load('BeforeTool.read_file.json'), tool_input: { absolute_path: '/etc/shadow' } }, undefined);
    expect(old.payload.tool_input).toEqual({ absolute_path: '/etc/shadow', file_path: '/etc/shadow' });
    const mcp = gemini.toEvent({ ...load('BeforeTool.json'), tool_name: 'mcp__github__get_me', tool_input: {}, mcp_context: { server_name: 'github', tool_name: 'get_me' } }, undefined);
    expect(mcp.tool).toEqual({ name: 'mcp__github__get_me', canonical: 'mcp__github__get_me' });
  });

  it('takes the event name in any spelling, its own included, and rejects a mismatch', () => {
    for (const name of ['BeforeTool', 'pre-tool-use', 'preToolUse', 'PreToolUse']) expect(ev('BeforeTool.json', name).name).toBe('preToolUse');
    expect(() => ev('BeforeTool.json', 'AfterTool')).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
    expect(() => ev('BeforeTool.json', 'BeforeTul')).toThrow(expect.objectContaining({ code: 'EVENT_UNKNOWN', message: expect.stringContaining('did you mean "BeforeTool"') }));
  });
});

describe('gemini: answer', () => {
  it('block on BeforeTool: decision deny + reason, exit 0', () => {
    expect(json(decide(ev('BeforeTool.json'), 'block', { reason: 'rm -rf' }))).toMatchObject({ exitCode: 0, json: { decision: 'deny', reason: 'rm -rf' }, stderr: '' });
  });

  it('block on AfterTool (the reason replaces the result), BeforeAgent and AfterAgent (retry with the reason)', () => {
    for (const file of ['AfterTool.json', 'BeforeAgent.json', 'AfterAgent.json']) {
      expect(json(decide(ev(file), 'block', { reason: 'no' })).json).toEqual({ decision: 'deny', reason: 'no' });
    }
  });

  it('rewrite: hookSpecificOutput.tool_input, merged by Gemini, so removed fields are a warning', () => {
    const e = ev('BeforeTool.run_shell_command.json');
    const a = json(decide(e, 'modify', { updatedInput: { command: 'echo safe', description: 'allowed write' } }));
    expect(a.json).toEqual({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: 'echo safe', description: 'allowed write' } } });
    const removed = json(decide(e, 'modify', { updatedInput: { command: 'echo safe' } }));
    expect(removed.json?.systemMessage).toContain('fields a hook removed (description) keep their values');
  });

  it('a fresh input with the same file_path keeps absolute_path: no false "removed" warning', () => {
    const e = gemini.toEvent({ ...load('BeforeTool.read_file.json'), tool_input: { absolute_path: '/a' } }, undefined);
    const a = json(decide(e, 'modify', { updatedInput: { file_path: '/a', limit: 10 } }));
    expect(a.json?.hookSpecificOutput.tool_input).toEqual({ absolute_path: '/a', limit: 10 });
    expect(a.stderr).toBe('');
    expect(a.json).not.toHaveProperty('systemMessage');
  });

  it('the payload and the command line disagreeing names hook_event_name', () => {
    expect(() => gemini.toEvent(load('BeforeTool.json'), 'AfterAgent')).toThrow('stdin: hook_event_name is "BeforeTool" but the command line says "AfterAgent"');
  });

  it('rewrite of a read_file path given as file_path goes back to absolute_path on older payloads', () => {
    const e = gemini.toEvent({ ...load('BeforeTool.read_file.json'), tool_input: { absolute_path: '/a' } }, undefined);
    expect(json(decide(e, 'modify', { updatedInput: { absolute_path: '/a', file_path: '/b' } })).json?.hookSpecificOutput.tool_input).toEqual({ absolute_path: '/b' });
  });

  it('output rewrite: a deny whose reason is the new output, and tool_output', () => {
    const a = json(decide(ev('AfterTool.read_file.json'), 'modify', { updatedOutput: { value: { llmContent: '[redacted]\n', returnDisplay: '' } } }));
    expect(a.json).toEqual({ decision: 'deny', reason: '[redacted]\n', hookSpecificOutput: { hookEventName: 'AfterTool', tool_output: '[redacted]\n' } });
  });

  it('ask: Gemini cannot ask, so the tool is denied and the user warned', () => {
    const a = json(decide(ev('BeforeTool.json'), 'ask', { reason: 'sure?' }));
    expect(a.json?.decision).toBe('deny');
    expect(a.json?.reason).toContain('sure? (a hook asked for confirmation, which Gemini CLI cannot ask for)');
    expect(a.json?.systemMessage).toContain('cannot ask for');
  });

  it('halt: continue false + stopReason, and the tool denied', () => {
    expect(json(decide(ev('BeforeTool.json'), 'halt', { reason: 'stop all' })).json).toEqual({ continue: false, stopReason: 'stop all', decision: 'deny', reason: 'stop all' });
    expect(json(decide(ev('AfterAgent.json'), 'halt', { reason: 'stop all' })).json).toEqual({ continue: false, stopReason: 'stop all' });
  });

  it('a prompt rewrite cannot be taken: the prompt is denied', () => {
    const a = json(decide(ev('BeforeAgent.json'), 'modify', { prompt: '[redacted]' }));
    expect(a.json?.decision).toBe('deny');
    expect(a.json?.reason).toContain('Gemini CLI cannot take a rewritten prompt');
  });

  it('context: hookSpecificOutput.additionalContext', () => {
    expect(json(decide(ev('SessionStart.json'), 'continue', { additionalContext: ['a', 'b'] })).json).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'a\n\nb' } });
  });

  it('PreCompress cannot be blocked: a warning, nothing else', () => {
    const a = json(decide(ev('PreCompress.json'), 'block', { reason: 'keep it' }));
    expect(a.json).toEqual({ systemMessage: 'agent-hooks: a hook blocked PreCompress, which Gemini CLI cannot block; ignored (keep it)' });
  });

  it('failures: systemMessage for the user and a line on stderr', () => {
    const a = json(decide(ev('BeforeTool.json'), 'continue', { warnings: ['hook "x" failed (exit-1: boom); continuing'] }));
    expect(a.json).toEqual({ systemMessage: 'agent-hooks: hook "x" failed (exit-1: boom); continuing' });
    expect(a.stderr).toBe('agent-hooks: hook "x" failed (exit-1: boom); continuing\n');
  });

  it('nothing to say: empty stdout, exit 0; allow on BeforeTool says allow', () => {
    expect(gemini.answer(decide(ev('BeforeTool.json'), 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(json(decide(ev('BeforeTool.json'), 'allow')).json).toEqual({ decision: 'allow' });
  });
});
