// The windsurf dialect: Cascade's `agent_action_name` + `tool_info` payloads (shaped from
// docs.windsurf.com/windsurf/cascade/hooks), answered by exit code alone.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDialect } from '../../src/dialects/index.js';
import { windsurf } from '../../src/dialects/windsurf.js';
import { HooksError } from '../../src/errors.js';
import { dialectKit } from '../helpers.js';
import { settings } from '../fuzz/settings.js';

const { load, ev, decide } = dialectKit(windsurf, 'windsurf');

describe('windsurf: toEvent', () => {
  it.each([
    ['pre_run_command.json', 'preToolUse', 'Bash', 'exec'],
    ['post_run_command.json', 'postToolUse', 'Bash', 'exec'],
    ['pre_read_code.json', 'preToolUse', 'Read', 'read'],
    ['pre_write_code.json', 'preToolUse', 'Edit', 'edit'],
    ['pre_mcp_tool_use.json', 'preToolUse', 'mcp__github__create_issue', 'mcp__github__create_issue'],
  ])('%s → %s on %s (%s)', (file, name, tool, canonical) => {
    const e = ev(file);
    expect(e.name).toBe(name);
    expect(e.tool).toEqual({ name: tool, canonical });
  });

  it('the command line is tool_input.command, the trajectory is the session', () => {
    const e = ev('pre_run_command.json');
    expect(e.payload.tool_input).toMatchObject({ command: 'rm -rf ./victim', command_line: 'rm -rf ./victim' });
    expect(e.payload.session_id).toBe('traj-0001');
    expect(e.payload.cwd).toBe('/home/dev/project');
  });

  it('file and MCP inputs: file_path and the MCP arguments', () => {
    expect(ev('pre_read_code.json').payload.tool_input?.file_path).toBe('/home/dev/project/.env');
    expect(ev('pre_mcp_tool_use.json').payload.tool_input).toEqual({ title: 'x' });
  });

  it('pre_user_prompt is userPromptSubmit with the prompt; post_cascade_response is stop', () => {
    expect(ev('pre_user_prompt.json')).toMatchObject({ name: 'userPromptSubmit', payload: { prompt: 'deploy it' } });
    expect(ev('post_cascade_response.json')).toMatchObject({ name: 'stop', payload: { last_assistant_message: 'Done.' } });
  });

  it('an event newer than the table runs on the forward path', () => {
    const e = windsurf.toEvent({ ...load('pre_run_command.json'), agent_action_name: 'post_setup_worktree', tool_info: {} }, undefined);
    expect(e.name).toBe('postSetupWorktree');
    // Its block is passed on as Cascade's generic one (exit 2, the reason on stderr) for Cascade to apply
    // its own semantics: a newer pre_* action (pre_web_search, a test-only name) must not fail open.
    for (const name of ['post_setup_worktree', 'pre_web_search']) {
      const a = windsurf.answer(decide(windsurf.toEvent({ ...load('pre_run_command.json'), agent_action_name: name, tool_info: {} }, undefined), 'block', { reason: 'no' }));
      expect(a).toMatchObject({ exitCode: 2, stderr: 'no\n' });
    }
  });

  it('detected by agent_action_name + trajectory_id', () => {
    expect(detectDialect(load('pre_run_command.json')).name).toBe('windsurf');
  });

  it('property: any JSON is an event or a HooksError', () => {
    const payload = fc.oneof(
      fc.json().map((t) => JSON.parse(t) as unknown),
      fc.record({ agent_action_name: fc.constantFrom('pre_run_command', 'pre_mcp_tool_use', 'pre_user_prompt', 'x', ''), trajectory_id: fc.string(), tool_info: fc.oneof(fc.object(), fc.string(), fc.integer(), fc.constant(null)) }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(payload, (raw) => {
        try {
          windsurf.toEvent(raw, undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(HooksError);
        }
      }),
      settings(300),
    );
  });
});

describe('windsurf: answer', () => {
  it('block on a pre_ hook: exit 2, the reason on stderr, nothing on stdout', () => {
    expect(windsurf.answer(decide(ev('pre_run_command.json'), 'block', { reason: 'no rm' }))).toEqual({ stdout: '', stderr: 'no rm\n', exitCode: 2 });
  });

  it('a rewrite Cascade cannot take blocks, and says why', () => {
    const a = windsurf.answer(decide(ev('pre_run_command.json'), 'modify', { updatedInput: { command: 'ls' } }));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('Windsurf cannot take a rewrite');
  });

  it('a block on a post_ hook cannot block: exit 0 and a warning', () => {
    const a = windsurf.answer(decide(ev('post_run_command.json'), 'block', { reason: 'late' }));
    expect(a.exitCode).toBe(0);
    expect(a.stderr).toContain('which Windsurf cannot block');
  });

  it('continue: exit 0, silent', () => {
    expect(windsurf.answer(decide(ev('pre_read_code.json'), 'continue'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
  });
});
