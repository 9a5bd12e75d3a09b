// The kiro dialect: Kiro CLI's payloads (shaped from kiro.dev/docs/cli/hooks; kiro-cli is not on npm),
// answered by exit code and plain stdout.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDialect, getDialect } from '../../src/dialects/index.js';
import { kiro } from '../../src/dialects/kiro.js';
import { HooksError } from '../../src/errors.js';
import { dialectKit } from '../helpers.js';
import { settings } from '../fuzz/settings.js';
import { judgeToolCall } from '../../src/guards/sensitive-paths.js';

const { load, ev, decide } = dialectKit(kiro, 'kiro');

describe('kiro: toEvent', () => {
  it('preToolUse on execute_bash is exec; fs_write is write', () => {
    expect(ev('preToolUse.json')).toMatchObject({ name: 'preToolUse', tool: { name: 'execute_bash', canonical: 'exec' } });
    expect(ev('postToolUse.json')).toMatchObject({ name: 'postToolUse', tool: { name: 'fs_write', canonical: 'write' } });
  });

  it('agentSpawn is sessionStart; v3 PascalCase triggers are the same events', () => {
    expect(ev('agentSpawn.json').name).toBe('sessionStart');
    expect(kiro.toEvent({ ...load('preToolUse.json'), hook_event_name: 'PreToolUse' }, undefined).name).toBe('preToolUse');
  });

  it('v3 triggers without a catalog event (PostFileSave) run on the forward path', () => {
    expect(kiro.toEvent({ hook_event_name: 'PostFileSave', cwd: '/p' }, undefined)).toMatchObject({ name: 'postFileSave', payload: { hook_event_name: 'PostFileSave' } });
  });

  it('detected by a camelCase event name without Cursor marks', () => {
    expect(detectDialect(load('preToolUse.json')).name).toBe('kiro');
    expect(detectDialect({ ...load('preToolUse.json'), conversation_id: 'c', generation_id: 'g' }).name).toBe('cursor');
  });

  it('property: any JSON is an event or a HooksError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json().map((t) => JSON.parse(t) as unknown), fc.record({ hook_event_name: fc.constantFrom('preToolUse', 'agentSpawn', 'stop', 'x'), tool_name: fc.oneof(fc.string(), fc.integer()), tool_input: fc.oneof(fc.object(), fc.string(), fc.integer()) }, { requiredKeys: [] })), (raw) => {
        try {
          kiro.toEvent(raw, undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(HooksError);
        }
      }),
      settings(300),
    );
  });
});

describe('kiro: answer', () => {
  it('block on preToolUse: exit 2 with the reason on stderr (Kiro hands it to the model)', () => {
    expect(kiro.answer(decide(ev('preToolUse.json'), 'block', { reason: 'no rm' }))).toEqual({ stdout: '', stderr: 'no rm\n', exitCode: 2 });
  });

  it('context on agentSpawn and userPromptSubmit is plain stdout', () => {
    expect(kiro.answer(decide(ev('agentSpawn.json'), 'continue', { additionalContext: ['branch: main'] })).stdout).toBe('branch: main\n');
    const a = kiro.answer(decide(ev('preToolUse.json'), 'continue', { additionalContext: ['x'] }));
    expect(a.stdout).toBe('');
    expect(a.stderr).toContain('Kiro takes context only on');
  });

  it('a block on stop cannot block: a warning, exit 0', () => {
    expect(kiro.answer(decide(kiro.toEvent({ hook_event_name: 'stop', cwd: '/p' }, undefined), 'block', { reason: 'r' })).exitCode).toBe(0);
  });
});

// Hostile review (issue 24 item 6): Kiro's fs_read names its files in `operations[].path` (batch form of
// Amazon Q Developer CLI / Kiro CLI's fs_read), which the kiro dialect does not alias to `file_path`.
// NOTE: the operations[] shape is from Amazon Q CLI's fs_read schema; check it against a real Kiro CLI.
const HOME = '/home/dev';

describe('review: kiro fs_read in its batch form', () => {
  it.each([
    ['single form (control)', { path: `${HOME}/.aws/credentials`, mode: 'Line' }],
    ['batch form', { operations: [{ mode: 'Line', path: `${HOME}/.aws/credentials` }] }],
  ])('%s: a read of ~/.aws/credentials is refused', (_what, toolInput) => {
    const event = getDialect('kiro').toEvent({ hook_event_name: 'preToolUse', cwd: `${HOME}/project`, tool_name: 'fs_read', tool_input: toolInput }, undefined);
    const j = judgeToolCall(event.payload as never, {}, { tool: 'read', home: HOME, env: { HOME }, realpath: false });
    expect(j.verdict).not.toBe('allow');
  });
});
