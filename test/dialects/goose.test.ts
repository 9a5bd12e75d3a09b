// The goose dialect: goose's plugin-hook payloads, written from its hook documentation (goose is a Rust
// binary from GitHub releases, not on npm or Debian, so it cannot be driven here and no e2e test proves
// these shapes), answered by exit code with nothing on stdout.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDialect } from '../../src/dialects/index.js';
import { goose } from '../../src/dialects/goose.js';
import { HooksError } from '../../src/errors.js';
import { secretWrite } from '../../src/guards/secret-write.js';
import { judgeToolCall, sensitivePaths } from '../../src/guards/sensitive-paths.js';
import { selectHooks } from '../../src/match/select.js';
import { dialectKit } from '../helpers.js';
import { settings } from '../fuzz/settings.js';

const { load, ev, decide } = dialectKit(goose, 'goose');

describe('goose: toEvent', () => {
  it("goose's keys become Claude's: event, working_dir, message, tool_call_id", () => {
    expect(ev('PreToolUse.shell.json')).toMatchObject({
      name: 'preToolUse',
      tool: { name: 'developer__shell', canonical: 'exec' },
      payload: { hook_event_name: 'PreToolUse', cwd: '/home/dev/project', tool_use_id: 'call_1', tool_input: { command: 'ls -la' } },
    });
    expect(ev('PreToolUse.shell.json').payload).not.toHaveProperty('event');
    expect(ev('UserPromptSubmit.json')).toMatchObject({ name: 'userPromptSubmit', payload: { prompt: 'summarize this file' } });
    expect(ev('Stop.json').name).toBe('stop');
  });

  it('developer__edit and developer__write are edit and write, with the file in file_path', () => {
    expect(ev('PreToolUse.edit.json')).toMatchObject({
      tool: { canonical: 'edit' },
      payload: { tool_input: { file_path: '/home/dev/project/src/app.ts', old_string: 'let a = 1;', new_string: 'const a = 1;' } },
    });
    const write = ev('PreToolUse.write.json');
    expect(write).toMatchObject({ tool: { canonical: 'write' }, payload: { tool_input: { file_path: '/home/dev/project/.env', content: 'X=1' } } });
    // So the sensitive-paths guard sees the file goose is about to write.
    const HOME = '/home/dev';
    expect(judgeToolCall(write.payload as never, {}, { tool: 'write', home: HOME, env: { HOME }, realpath: false }).verdict).not.toBe('allow');
  });

  it("goose's file and shell events run on the forward path under their own names", () => {
    expect(ev('BeforeShellExecution.json')).toMatchObject({ name: 'beforeShellExecution', payload: { hook_event_name: 'BeforeShellExecution' } });
  });

  it('detected by its envelope (event + session_id, no hook_event_name), never taken for Claude Code', () => {
    for (const file of ['PreToolUse.shell.json', 'UserPromptSubmit.json', 'Stop.json', 'SessionStart.json']) expect(detectDialect(load(file)).name).toBe('goose');
    expect(detectDialect({ ...load('PreToolUse.shell.json'), hook_event_name: 'PreToolUse' }).name).not.toBe('goose');
    expect(detectDialect({ event: 'deploy', session_id: 's' }).name).toBe('native');
  });

  it('an event named on the command line and another in the payload is one clear error', () => {
    expect(() => goose.toEvent(load('Stop.json'), 'pre-tool-use')).toThrow(/stdin: event is "Stop" but the command line says "pre-tool-use"/);
  });

  it('property: any JSON is an event or a HooksError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json().map((t) => JSON.parse(t) as unknown),
          fc.record({ event: fc.constantFrom('PreToolUse', 'PostToolUse', 'Stop', 'BeforeReadFile', 'x'), session_id: fc.string(), tool_name: fc.oneof(fc.string(), fc.integer()), tool_input: fc.oneof(fc.object(), fc.string(), fc.integer()), working_dir: fc.jsonValue(), message: fc.jsonValue() }, { requiredKeys: [] }),
        ),
        (raw) => {
          try {
            goose.toEvent(raw, undefined);
          } catch (error) {
            expect(error).toBeInstanceOf(HooksError);
          }
        },
      ),
      settings(300),
    );
  });
});

describe('goose: answer', () => {
  it('block on PreToolUse: exit 2, the reason alone on stderr, nothing on stdout', () => {
    expect(goose.answer(decide(ev('PreToolUse.shell.json'), 'block', { reason: 'no rm' }))).toEqual({ stdout: '', stderr: 'no rm\n', exitCode: 2 });
  });

  it('a block on Stop keeps the turn going (exit 2); on UserPromptSubmit goose cannot block: a warning, exit 0', () => {
    expect(goose.answer(decide(ev('Stop.json'), 'block', { reason: 'tests fail' })).exitCode).toBe(2);
    const prompt = goose.answer(decide(ev('UserPromptSubmit.json'), 'block', { reason: 'no deploys' }));
    expect(prompt).toMatchObject({ stdout: '', exitCode: 0 });
    expect(prompt.stderr).toContain('which goose cannot block; ignored (no deploys)');
  });

  it('an allow, and context, print nothing on stdout (goose reads anything else there as "no decision")', () => {
    expect(goose.answer(decide(ev('PreToolUse.shell.json'), 'allow'))).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    const a = goose.answer(decide(ev('SessionStart.json'), 'continue', { additionalContext: ['branch: main'] }));
    expect(a.stdout).toBe('');
    expect(a.stderr).toContain('goose takes no context from hooks');
  });

  it('a rewrite or an ask cannot be said to goose: the call is denied, saying why', () => {
    const e = ev('PreToolUse.shell.json');
    expect(goose.answer(decide(e, 'modify', { updatedInput: { command: 'ls' } }))).toMatchObject({ stdout: '', exitCode: 2, stderr: expect.stringContaining('goose cannot take a rewrite') });
    expect(goose.answer(decide(e, 'ask', { reason: 'sure?' }))).toMatchObject({ stdout: '', exitCode: 2 });
  });
});

// Review (hostile): goose's developer extension names its file tool `developer__text_editor`
// ({command: view|write|str_replace|insert, path, file_text|old_str|new_str}); goose's own plugin-hooks
// docs match on `developer__shell|developer__text_editor`. The dialect maps only developer__write and
// developer__edit, so a text_editor write to .env (or to the runner's own config) reaches the guards
// under a tool name none of them judges as a write. Expected to FAIL until text_editor is mapped by
// its `command` (write/str_replace/insert → write/edit, view → read) and its keys are aliased.
describe('review: developer__text_editor is judged as the file access it is', () => {
  const HOME = '/home/dev';
  const event = (tool_input: Record<string, unknown>) =>
    goose.toEvent({ event: 'PreToolUse', session_id: 's', working_dir: `${HOME}/project`, tool_name: 'developer__text_editor', tool_input, tool_call_id: 'c' }, undefined);
  it.each([
    ['write', { command: 'write', path: `${HOME}/project/.env`, file_text: 'X=1' }],
    ['edit', { command: 'str_replace', path: `${HOME}/project/.env`, old_str: 'X=1', new_str: 'X=2' }],
    ['write', { command: 'write', path: `${HOME}/.config/agent-hooks/config.yml`, file_text: 'hooks: []' }],
    ['read', { command: 'view', path: `${HOME}/project/.env` }],
  ] as const)('text_editor %s: canonical tool and a non-allow verdict', (canonical, input) => {
    const e = event(input);
    expect(e.tool?.canonical).toBe(canonical);
    expect(judgeToolCall(e.payload as never, {}, { tool: e.tool!.canonical as never, home: HOME, env: { HOME }, realpath: false }).verdict).not.toBe('allow');
  });
});

// Review (hostile), same gap at selection: the file guards' `match` lists (sensitive-paths: read, write,
// edit, …; secret-write: write, edit, …) never select developer__text_editor, so neither guard runs on
// goose's file tool at all: a read of .env or a credential written to src/ passes unjudged.
// Expected to FAIL as above.
describe('review: the file guards are selected for developer__text_editor', () => {
  it.each([
    ['sensitive-paths', sensitivePaths.match!, { command: 'view', path: '/home/dev/project/.env' }],
    ['secret-write', secretWrite.match!, { command: 'write', path: '/home/dev/project/src/config.ts', file_text: 'x' }],
  ] as const)('%s runs on a text_editor call', (id, match, input) => {
    const e = goose.toEvent({ event: 'PreToolUse', session_id: 's', working_dir: '/home/dev/project', tool_name: 'developer__text_editor', tool_input: input }, undefined);
    const [selection] = selectHooks([{ id, enabled: true, match }], e);
    expect(selection).toMatchObject({ selected: true });
  });
  it('control: both are selected for developer__write', () => {
    const e = goose.toEvent({ event: 'PreToolUse', session_id: 's', working_dir: '/home/dev/project', tool_name: 'developer__write', tool_input: { path: '.env', content: 'x' } }, undefined);
    for (const match of [sensitivePaths.match!, secretWrite.match!]) expect(selectHooks([{ id: 'g', enabled: true, match }], e)[0]).toMatchObject({ selected: true });
  });
});
