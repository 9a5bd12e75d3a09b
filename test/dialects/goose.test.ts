// The goose dialect: goose's plugin-hook payloads, written from its hook documentation (goose is a Rust
// binary from GitHub releases, not on npm or Debian, so it cannot be driven here and no e2e test proves
// these shapes), answered by exit code with nothing on stdout.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectDialect } from '../../src/dialects/index.js';
import { goose } from '../../src/dialects/goose.js';
import { HooksError } from '../../src/errors.js';
import { judgeWrite, secretWrite } from '../../src/guards/secret-write.js';
import { judgeToolCall, sensitivePaths } from '../../src/guards/sensitive-paths.js';
import { selectHooks } from '../../src/match/select.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { dialectKit, isolatedEnv, runCli, tmpProject } from '../helpers.js';
import { A62, generator } from '../guards/corpus/secrets-examples.js';
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

  it('a rewritten tool output or prompt (redact-secrets) cannot reach goose: it goes on as it was, with a warning', () => {
    const out = goose.answer(decide(ev('PostToolUse.json'), 'modify', { updatedOutput: { value: '[REDACTED]' } }));
    expect(out).toMatchObject({ stdout: '', exitCode: 0 });
    expect(out.stderr).toContain('which goose cannot take; ignored');
    const prompt = goose.answer(decide(ev('UserPromptSubmit.json'), 'modify', { prompt: 'key [REDACTED]' }));
    expect(prompt).toMatchObject({ stdout: '', exitCode: 0 });
    expect(prompt.stderr).toContain('goose cannot block; ignored');
  });

  it('a block with no reason still says why on stderr, in Claude Code\'s words', () => {
    const e = ev('PreToolUse.shell.json');
    for (const reason of [undefined, '', '  \n']) {
      expect(goose.answer(decide(e, 'block', reason === undefined ? {} : { reason }))).toEqual({ stdout: '', stderr: 'Blocked by hook\n', exitCode: 2 });
    }
    expect(goose.answer(decide(ev('Stop.json'), 'halt', { reason: '' })).stderr).toBe('Blocked by hook\n');
    // The combiner's own Claude wording wins over the generic one when it has it.
    expect(goose.answer(decide(e, 'block', { reason: '', claudeReason: 'No stderr output' })).stderr).toBe('No stderr output\n');
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

// goose's own file tool, judged by its `command`; its written text reaches secret-write.
describe('goose: developer__text_editor', () => {
  const HOME = '/home/dev';
  const CWD = `${HOME}/project`;
  const event = (tool_input: unknown) =>
    goose.toEvent({ event: 'PreToolUse', session_id: 's', working_dir: CWD, tool_name: 'developer__text_editor', tool_input, tool_call_id: 'c' }, undefined);
  const g = generator(4404);
  const GHP = ['gh', 'p_'].join('') + g.pick(A62, 36);

  it.each([
    ['view', 'read'],
    ['write', 'write'],
    ['create', 'write'],
    ['str_replace', 'edit'],
    ['insert', 'edit'],
    ['undo_edit', 'edit'],
  ] as const)('command %s is %s, with path also given as file_path', (command, canonical) => {
    const e = event({ command, path: `${CWD}/src/a.ts` });
    expect(e.tool).toMatchObject({ name: 'developer__text_editor', canonical });
    expect(e.payload.tool_input).toMatchObject({ command, path: `${CWD}/src/a.ts`, file_path: `${CWD}/src/a.ts` });
  });

  it('an unknown, missing or non-string command is judged as a write (fails closed), and the write guards run', () => {
    for (const input of [{ command: 'rename', path: `${CWD}/.env` }, { path: `${CWD}/.env`, file_text: 'X=1' }, { command: 7, path: `${CWD}/.env` }, { command: 'View', path: `${CWD}/.env` }, { command: '__proto__', path: `${CWD}/.env` }]) {
      const e = event(input);
      expect(e.tool?.canonical, JSON.stringify(input)).toBe('write');
      expect(judgeToolCall(e.payload as never, {}, { tool: 'write', home: HOME, env: { HOME }, realpath: false }).verdict).not.toBe('allow');
      expect(selectHooks([{ id: 'secret-write', enabled: true, match: secretWrite.match! }], e)[0]).toMatchObject({ selected: true });
    }
  });

  it('its text and old text are also given under Claude\'s names, so a Claude-style hook finds them', () => {
    expect(event({ command: 'write', path: 'a', file_text: 't' }).payload.tool_input).toMatchObject({ file_text: 't', content: 't' });
    expect(event({ command: 'str_replace', path: 'a', old_str: 'o', new_str: 'n' }).payload.tool_input).toMatchObject({ old_string: 'o', new_string: 'n' });
  });

  it.each([
    ['write', { command: 'write', path: `${CWD}/src/config.ts`, file_text: `export const TOKEN = "${GHP}";` }],
    ['str_replace', { command: 'str_replace', path: `${CWD}/src/config.ts`, old_str: 'TOKEN = ""', new_str: `TOKEN = "${GHP}"` }],
    ['insert', { command: 'insert', path: `${CWD}/src/config.ts`, insert_line: 3, new_str: `const t = "${GHP}";` }],
    ['insert (insert_text)', { command: 'insert', path: `${CWD}/src/config.ts`, insert_line: 3, insert_text: `const t = "${GHP}";` }],
    ['an unknown command', { command: 'append', path: `${CWD}/src/config.ts`, file_text: `const t = "${GHP}";` }],
  ] as const)('secret-write blocks a credential written by %s, without printing it', (_name, input) => {
    const e = event(input);
    expect(selectHooks([{ id: 'secret-write', enabled: true, match: secretWrite.match! }], e)[0]).toMatchObject({ selected: true });
    const verdict = judgeWrite(e.tool!.canonical!, e.payload.tool_input, {}, undefined, CWD);
    expect(verdict.verdict).toBe('block');
    expect(verdict.reason).toContain('src/config.ts');
    expect(verdict.reason).not.toContain(GHP);
  });

  it('control: a view of a source file, and a clean write, pass both guards', () => {
    const view = event({ command: 'view', path: `${CWD}/src/a.ts` });
    expect(judgeToolCall(view.payload as never, {}, { tool: 'read', home: HOME, env: { HOME }, realpath: false }).verdict).toBe('allow');
    const write = event({ command: 'write', path: `${CWD}/src/a.ts`, file_text: 'export const a = 1;' });
    expect(judgeWrite(write.tool!.canonical!, write.payload.tool_input, {}, undefined, CWD).verdict).toBe('allow');
  });

  it('property: any tool_input gives a file tool (read, write or edit) or a HooksError, never an unguarded name', () => {
    fc.assert(
      fc.property(fc.oneof(fc.record({ command: fc.oneof(fc.constantFrom('view', 'write', 'create', 'str_replace', 'insert', 'undo_edit', 'toString', 'constructor'), fc.string(), fc.jsonValue()), path: fc.oneof(fc.string(), fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue()), (input) => {
        let e;
        try {
          e = event(input);
        } catch (error) {
          expect(error).toBeInstanceOf(HooksError);
          return;
        }
        expect(['read', 'write', 'edit']).toContain(e.tool?.canonical);
        const command = (input as { command?: unknown } | null)?.command;
        if (e.tool?.canonical === 'read') expect(command).toBe('view');
      }),
      settings(300),
    );
  });

  it('hooks run --dialect goose: the builtin file guards deny a text_editor write of .env and a credential in src/ (exit 2, reason on stderr)', () => {
    const dir = tmpProject();
    writeFileSync(path.join(dir, '.hooksrc.json'), JSON.stringify({ hooks: { preToolUse: [{ builtin: 'sensitive-paths' }, { builtin: 'secret-write' }] } }));
    const env = isolatedEnv(dir);
    const run = (tool_input: unknown) =>
      runCli(['run', '--dialect', 'goose'], { cwd: dir, env, input: JSON.stringify({ event: 'PreToolUse', session_id: 's', working_dir: dir, tool_name: 'developer__text_editor', tool_input, tool_call_id: 'c' }) });
    const env_ = run({ command: 'write', path: path.join(dir, '.env'), file_text: 'X=1' });
    expect(env_).toMatchObject({ code: 2, stdout: '' });
    expect(env_.stderr).toMatch(/\.env/);
    const secret = run({ command: 'str_replace', path: path.join(dir, 'src', 'config.ts'), old_str: 'a', new_str: `const t = "${GHP}";` });
    expect(secret).toMatchObject({ code: 2, stdout: '' });
    expect(secret.stderr).toContain('secret-write');
    expect(secret.stderr).not.toContain(GHP);
    // Control: a plain source edit goes through.
    expect(run({ command: 'str_replace', path: path.join(dir, 'src', 'a.ts'), old_str: 'a', new_str: 'b' })).toMatchObject({ code: 0, stdout: '' });
  });
});
