// The claude-like dialects (Qwen Code, Factory Droid, Augment): Claude Code's format, each agent's own
// tool names and marks. Qwen Code's PreToolUse payload was captured from the real 0.24.4 CLI; Factory's
// and Augment's are shaped from their docs and (Augment) the fields auggie 0.36's bundle builds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { augment, factory, qwenCode } from '../../src/dialects/claude-like.js';
import { detectDialect } from '../../src/dialects/index.js';
import { HooksError } from '../../src/errors.js';
import { dialectKit } from '../helpers.js';
import { settings } from '../fuzz/settings.js';

const qwen = dialectKit(qwenCode, 'qwen-code');
const droid = dialectKit(factory, 'factory');
const aug = dialectKit(augment, 'augment');

describe('claude-like: toEvent', () => {
  it('Qwen Code: run_shell_command is exec; the payload stays Claude-shaped', () => {
    const e = qwen.ev('PreToolUse.json');
    expect(e.name).toBe('preToolUse');
    expect(e.tool).toEqual({ name: 'run_shell_command', canonical: 'exec' });
    expect(e.payload.tool_input?.command).toBe('echo hi > out.txt');
  });

  it('Qwen Code: an event the catalog lacks (TodoCreated) runs on the forward path, not an error', () => {
    expect(qwen.ev('TodoCreated.json')).toMatchObject({ name: 'todoCreated', payload: { hook_event_name: 'TodoCreated' } });
  });

  it("Factory Droid: Execute is exec, Create is write (its own names)", () => {
    expect(droid.ev('PreToolUse.json').tool).toEqual({ name: 'Execute', canonical: 'exec' });
    expect(factory.toEvent({ ...droid.load('PreToolUse.json'), tool_name: 'Create', tool_input: { file_path: 'a' } }, undefined).tool?.canonical).toBe('write');
  });

  it('Augment: launch-process is exec, PromptSubmit is userPromptSubmit, conversation_id and workspace_roots fill session_id and cwd', () => {
    const e = aug.ev('PreToolUse.json');
    expect(e.tool).toEqual({ name: 'launch-process', canonical: 'exec' });
    expect(e.payload.session_id).toBe('c0ffee00-1111-2222-3333-444455556666');
    expect(e.payload.cwd).toBe('/home/dev/project');
    expect(aug.ev('PromptSubmit.json').name).toBe('userPromptSubmit');
  });

  it('detection: each agent by its own marks, before claude-code claims the payload', () => {
    expect(detectDialect(qwen.load('PreToolUse.json')).name).toBe('qwen-code');
    expect(detectDialect(droid.load('PreToolUse.json')).name).toBe('factory');
    expect(detectDialect(aug.load('PreToolUse.json')).name).toBe('augment');
    // A plain Claude Code payload is still Claude Code's.
    expect(detectDialect({ hook_event_name: 'PreToolUse', session_id: 's', transcript_path: '/home/dev/.claude/projects/p/s.jsonl', tool_name: 'Bash', tool_input: {} }).name).toBe('claude-code');
  });

  it('a tool event without tool_name is one clear EVENT_INVALID line', () => {
    expect(() => factory.toEvent({ hook_event_name: 'PreToolUse' }, undefined)).toThrow(/PreToolUse needs a "tool_name"/);
  });

  it('property: any JSON is an event or a HooksError, never another exception', () => {
    const payload = fc.oneof(
      fc.json().map((t) => JSON.parse(t) as unknown),
      fc.record({ hook_event_name: fc.constantFrom('PreToolUse', 'PostToolUse', 'PromptSubmit', 'Stop', 'TodoCreated', 'Nope', ''), tool_name: fc.oneof(fc.string(), fc.integer()), tool_input: fc.oneof(fc.object(), fc.string(), fc.constant(null)), workspace_roots: fc.array(fc.oneof(fc.string(), fc.integer())), conversation_id: fc.string() }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(payload, fc.constantFrom(qwenCode, factory, augment), (raw, dialect) => {
        try {
          dialect.toEvent(raw, undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(HooksError);
        }
      }),
      settings(300),
    );
  });
});

describe('claude-like: answer', () => {
  it('block: Claude deny, exit 2, the reason on stderr (what Qwen Code hands the model)', () => {
    const a = qwen.json(qwen.decide(qwen.ev('PreToolUse.json'), 'block', { reason: 'no rm' }));
    expect(a).toMatchObject({ exitCode: 2, stderr: 'no rm\n', json: { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } } });
  });

  it('Qwen Code takes no rewritten input: the call is denied, and the model told why', () => {
    const a = qwen.json(qwen.decide(qwen.ev('PreToolUse.json'), 'modify', { updatedInput: { command: 'echo safe' } }));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('Qwen Code cannot take a rewritten tool input; it was denied');
    expect(a.json?.hookSpecificOutput?.updatedInput).toBeUndefined();
  });

  it('Qwen Code: a rewritten output goes as continue:false + stopReason, which replaces the result', () => {
    const a = qwen.json(qwen.decide(qwen.ev('PostToolUse.json'), 'modify', { updatedOutput: { value: 'redacted output' } }));
    expect(a).toMatchObject({ exitCode: 0, json: { continue: false, stopReason: 'redacted output' } });
  });

  it('Factory Droid takes updatedInput as Claude Code does', () => {
    const a = droid.json(droid.decide(droid.ev('PreToolUse.json'), 'modify', { updatedInput: { command: 'echo safe' } }));
    expect(a).toMatchObject({ exitCode: 0, json: { hookSpecificOutput: { updatedInput: { command: 'echo safe' } } } });
  });

  it('Augment cannot ask: an ask is a deny that says so', () => {
    const a = aug.json(aug.decide(aug.ev('PreToolUse.json'), 'ask', { reason: 'sure?' }));
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('Augment cannot ask for');
  });
});
