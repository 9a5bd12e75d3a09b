// The cursor dialect: Cursor's flat snake_case payloads (generic and granular events) in, its flat
// replies out: permission / decision + user_message / agent_message, updated_input, continue,
// followup_message, additional_context. Payloads written from Cursor's docs (see fixtures README).
import { describe, expect, it } from 'vitest';
import { cursor } from '../../src/dialects/cursor.js';
import { dialectKit } from '../helpers.js';

const { load, ev, decide, json } = dialectKit(cursor, 'cursor');

describe('cursor: toEvent', () => {
  it.each([
    ['preToolUse.Shell.json', 'preToolUse', 'Shell', 'exec'],
    ['preToolUse.Read.json', 'preToolUse', 'Read', 'read'],
    ['beforeShellExecution.json', 'preToolUse', 'Shell', 'exec'],
    ['beforeReadFile.json', 'preToolUse', 'Read', 'read'],
    ['beforeMCPExecution.json', 'preToolUse', 'get_me', 'get_me'],
    ['postToolUse.Shell.json', 'postToolUse', 'Shell', 'exec'],
    ['afterShellExecution.json', 'postToolUse', 'Shell', 'exec'],
    ['afterMCPExecution.json', 'postToolUse', 'get_me', 'get_me'],
    ['afterFileEdit.json', 'postToolUse', 'Edit', 'edit'],
  ])('%s → %s on %s', (file, name, tool, canonical) => {
    const e = ev(file);
    expect(e.name).toBe(name);
    expect(e.tool).toEqual({ name: tool, canonical });
    expect(e.payload).toMatchObject({ session_id: 'c0a1b2c3-d4e5-4f60-8a7b-9c8d7e6f5a4b', cwd: '/home/dev/project' });
  });

  it('puts the granular events’ fields where a guard looks', () => {
    expect(ev('beforeShellExecution.blocked.json').payload.tool_input).toEqual({ command: 'rm -rf ./victim', cwd: '/home/dev/project', timeout: 30000 });
    expect(ev('beforeReadFile.json').payload.tool_input).toMatchObject({ file_path: '/home/dev/project/notes.txt' });
    expect(ev('preToolUse.Read.json').payload.tool_input).toEqual({ path: '/home/dev/project/notes.txt', file_path: '/home/dev/project/notes.txt' });
    expect(ev('afterShellExecution.json').payload.tool_response).toBe('');
    expect(ev('afterMCPExecution.json').payload.tool_response).toEqual({ content: [{ type: 'text', text: '{"login":"dev"}' }] });
  });

  it.each([['beforeSubmitPrompt.json', 'userPromptSubmit'], ['stop.json', 'stop'], ['sessionStart.json', 'sessionStart'], ['sessionEnd.json', 'sessionEnd']])('%s → %s', (file, name) => {
    expect(ev(file).name).toBe(name);
  });

  it('stop: loop_count becomes stop_hook_active', () => {
    expect(ev('stop.json').payload.stop_hook_active).toBe(false);
    expect(cursor.toEvent({ ...load('stop.json'), loop_count: 2 }, undefined).payload.stop_hook_active).toBe(true);
  });

  it('events with no equivalent take the forward path; a command line that disagrees with the payload is an error', () => {
    const forward = ev('afterAgentResponse.json');
    expect(forward.name).toBe('afterAgentResponse');
    expect(forward.payload.hook_event_name).toBe('AfterAgentResponse');
    expect(() => ev('beforeShellExecution.json', 'stop')).toThrow(expect.objectContaining({ code: 'EVENT_INVALID' }));
    expect(ev('beforeShellExecution.json', 'pre-tool-use').name).toBe('preToolUse');
  });
});

describe('cursor: answer', () => {
  it('preToolUse block: decision + permission deny, the reason in reason/user_message/agent_message, exit 0', () => {
    expect(json(decide(ev('preToolUse.Shell.blocked.json'), 'block', { reason: 'no rm' }))).toMatchObject({
      exitCode: 0,
      json: { permission: 'deny', decision: 'deny', reason: 'no rm', user_message: 'no rm', agent_message: 'no rm' },
    });
  });

  it('beforeShellExecution block and ask: permission + messages', () => {
    expect(json(decide(ev('beforeShellExecution.blocked.json'), 'block', { reason: 'no rm' })).json).toEqual({ permission: 'deny', user_message: 'no rm', agent_message: 'no rm' });
    expect(json(decide(ev('beforeShellExecution.json'), 'ask', { reason: 'sure?' })).json).toEqual({ permission: 'ask', user_message: 'sure?', agent_message: 'sure?' });
  });

  it('preToolUse rewrite: allow + updated_input in Cursor field names', () => {
    const e = ev('preToolUse.Read.json');
    expect(json(decide(e, 'modify', { updatedInput: { path: '/home/dev/project/notes.txt', file_path: '/home/dev/project/other.txt' } })).json).toEqual({
      permission: 'allow',
      decision: 'allow',
      updated_input: { path: '/home/dev/project/other.txt' },
    });
  });

  it('a rewrite on beforeShellExecution cannot be taken: denied, with a warning', () => {
    const a = json(decide(ev('beforeShellExecution.json'), 'modify', { updatedInput: { command: 'echo safe' } }));
    expect(a.json?.permission).toBe('deny');
    expect(a.stderr).toContain("Cursor's beforeShellExecution cannot take; the call was denied");
  });

  it('ask on preToolUse / beforeReadFile: denied (Cursor treats ask as deny anyway)', () => {
    expect(json(decide(ev('preToolUse.Shell.json'), 'ask', { reason: 'sure?' })).json).toMatchObject({ permission: 'deny', decision: 'deny' });
    expect(json(decide(ev('beforeReadFile.json'), 'ask', { reason: 'sure?' })).json?.permission).toBe('deny');
  });

  it('halt on a tool hook: denied, with a warning', () => {
    const a = json(decide(ev('preToolUse.Shell.json'), 'halt', { reason: 'stop' }));
    expect(a.json?.permission).toBe('deny');
    expect(a.stderr).toContain('Cursor cannot do from a tool hook');
  });

  it('beforeSubmitPrompt: block and prompt rewrite are continue:false + user_message', () => {
    expect(json(decide(ev('beforeSubmitPrompt.json'), 'block', { reason: 'secret' })).json).toEqual({ continue: false, user_message: 'secret' });
    expect(json(decide(ev('beforeSubmitPrompt.json'), 'modify', { prompt: '[redacted]' })).json?.user_message).toContain('Cursor cannot take a rewritten prompt');
  });

  it('stop block: followup_message', () => {
    expect(json(decide(ev('stop.json'), 'block', { reason: 'tests fail, fix them' })).json).toEqual({ followup_message: 'tests fail, fix them' });
  });

  it('postToolUse: context, a block told as context, MCP output rewrite, other output rewrites warned', () => {
    expect(json(decide(ev('postToolUse.Shell.json'), 'continue', { additionalContext: ['ctx'] })).json).toEqual({ additional_context: 'ctx' });
    const blocked = json(decide(ev('postToolUse.Shell.json'), 'block', { reason: 'bad' }));
    expect(blocked.json).toEqual({ additional_context: 'agent-hooks: a hook blocked this tool result: bad' });
    expect(blocked.stderr).toContain('Cursor cannot withhold');
    expect(json(decide(ev('afterMCPExecution.json'), 'modify', { updatedOutput: { value: { content: [] } } })).json).toEqual({ updated_mcp_tool_output: { content: [] } });
    expect(json(decide(ev('postToolUse.Shell.json'), 'modify', { updatedOutput: { value: 'x' } })).stderr).toContain('Cursor replaces MCP tool output only');
  });

  it('sessionStart context; failures on stderr', () => {
    expect(json(decide(ev('sessionStart.json'), 'continue', { additionalContext: ['ctx'] })).json).toEqual({ additional_context: 'ctx' });
    expect(json(decide(ev('preToolUse.Shell.json'), 'continue', { warnings: ['w'] }))).toMatchObject({ stdout: '{}\n', stderr: 'agent-hooks: w\n', exitCode: 0 });
  });

  // Cursor reads invalid output on its permission events as a failed hook, and beforeReadFile and
  // beforeMCPExecution fail closed on it (failClosed: true: every event, empty output included).
  it.each(['preToolUse.Shell.json', 'beforeShellExecution.json', 'beforeReadFile.json', 'beforeMCPExecution.json', 'stop.json', 'sessionStart.json'])(
    'nothing to say on %s is {} (valid JSON, no opinion, no approval), never an empty stdout',
    (file) => {
      for (const decision of ['continue', 'allow'] as const) {
        const a = cursor.answer(decide(ev(file), decision));
        expect(a.exitCode).toBe(0);
        if (decision === 'continue' || !/^(preToolUse|before)/.test(file)) expect(a).toEqual({ stdout: '{}\n', stderr: '', exitCode: 0 });
      }
    },
  );
});
