// Case files: the three shapes, discovery, and errors that name the file and the key path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCaseFiles, loadCaseFile } from '../../src/testing/load.js';
import { ROOT, tmpProject } from '../helpers.js';

const CASE = { name: 'blocks', event: { sample: 'pre-tool-use', tool: 'exec', input: { command: 'ls' } }, expect: { decision: 'block' } };

async function load(files: Record<string, string>, name: string, options: { config?: string } = {}) {
  const dir = tmpProject(files);
  return { dir, file: await loadCaseFile(path.join(dir, name), { cwd: dir, ...options }) };
}

async function loadError(content: unknown, name = 't.json'): Promise<string> {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return load({ [name]: text }, name).then(
    () => 'no error',
    (e: Error) => e.message,
  );
}

describe('loadCaseFile', () => {
  it('reads one case, a list, or { cases } with file-level defaults', async () => {
    const one = await load({ 'a.json': JSON.stringify(CASE) }, 'a.json');
    expect(one.file.cases.map((c) => [c.name, c.key])).toEqual([['blocks', '']]);
    const list = await load({ 'a.json': JSON.stringify([CASE, { ...CASE, name: 'second' }]) }, 'a.json');
    expect(list.file.cases.map((c) => c.key)).toEqual(['[0]', '[1]']);
    const wrapped = await load({ 'sub/a.json': JSON.stringify({ config: '../cfg.json', env: { A: '1' }, cases: [CASE, { ...CASE, config: 'own.json', env: { B: '2' } }] }) }, 'sub/a.json');
    const [first, second] = wrapped.file.cases;
    expect(first).toMatchObject({ key: 'cases[0]', config: path.join(wrapped.dir, 'cfg.json'), env: { A: '1' } });
    expect(second).toMatchObject({ key: 'cases[1]', config: path.join(wrapped.dir, 'sub', 'own.json'), env: { A: '1', B: '2' } });
    expect(first!.event).toEqual({ kind: 'sample', sample: 'pre-tool-use', tool: 'exec', input: { command: 'ls' } });
  });

  it('reads YAML, and --config is the default config, relative to the working directory', async () => {
    const { dir, file } = await load({ 't.yaml': 'name: y\nevent: { sample: stop }\nexpect: { decision: continue }\n' }, 't.yaml', { config: 'x.json' });
    expect(file.format).toBe('yaml');
    expect(file.cases[0]).toMatchObject({ name: 'y', config: path.join(dir, 'x.json'), expect: { decision: 'continue' } });
  });

  it('takes an inline payload and an event file', async () => {
    const payload = { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } };
    const { file } = await load({ 'ev.json': JSON.stringify(payload), 't.json': JSON.stringify([{ name: 'a', event: payload }, { name: 'b', event: { file: 'ev.json' } }]) }, 't.json');
    expect(file.cases.map((c) => c.event)).toEqual([{ kind: 'payload', payload }, { kind: 'payload', payload }]);
  });

  it('errors name the file and the key path', async () => {
    expect(await loadError({ cases: [CASE, { ...CASE, expect: { decison: 'block' } }] })).toBe('t.json: cases[1].expect.decison: unknown key (did you mean "decision"?)');
    expect(await loadError([{ ...CASE, expect: { decision: 'deny' } }])).toMatch(/^t\.json: \[0\]\.expect\.decision: expected one of "continue"\|"allow"\|"ask"\|"block"\|"modify"\|"halt"/);
    expect(await loadError({ ...CASE, name: undefined })).toMatch(/^t\.json: name: expected string/);
    expect(await loadError({ ...CASE, event: { sample: 'pre-tol-use' } })).toMatch(/^t\.json: event\.sample: unknown event "pre-tol-use" \(did you mean "pre-tool-use"\?\)/);
    expect(await loadError({ ...CASE, event: { sample: 'pre-tool-use', tool: 'Bsh' } })).toMatch(/^t\.json: event\.tool: unknown tool "Bsh"/);
    expect(await loadError({ ...CASE, event: { sample: 'stop', tol: 'x' } })).toBe('t.json: event.tol: unknown key (did you mean "tool"?)');
    expect(await loadError({ ...CASE, event: { tool_name: 'Bash' } })).toMatch(/^t\.json: event: expected \{"sample"/);
    expect(await loadError({ ...CASE, event: { hook_event_name: 'PreToolUse' } })).toBe('t.json: event: PreToolUse needs a "tool_name"');
    expect(await loadError({ ...CASE, event: { file: 'missing.json' } })).toMatch(/^t\.json: event\.file: .*missing\.json/);
    expect(await loadError({ ...CASE, expect: { reason: '/(/' } })).toMatch(/^t\.json: expect\.reason: bad regular expression/);
    expect(await loadError({ cases: [] })).toBe('t.json: no test cases');
    expect(await loadError('42')).toMatch(/^t\.json: expected a test case object/);
    expect(await loadError('{ not json')).toMatch(/^t\.json: /);
  });

  it('an unknown sample event is reported at event.sample, even with a tool given', async () => {
    expect(await loadError({ ...CASE, event: { sample: 'pre-tool-usee', tool: 'exec' } })).toMatch(/^t\.json: event\.sample: unknown event "pre-tool-usee" \(did you mean "pre-tool-use"\?\)/);
    expect(await loadError({ ...CASE, event: { sample: 'stop', tool: 'exec' } })).toMatch(/^t\.json: event\.tool: stop has no tool/);
  });

  it('an expectation that checks nothing is refused, naming the key path', async () => {
    expect(await loadError({ cases: [CASE, { ...CASE, expect: {} }] })).toMatch(/^t\.json: cases\[1\]\.expect: expects nothing, so it would pass whatever happened: name at least one of decision, reason, /);
    expect(await loadError({ ...CASE, expect: { match: 'partial' } })).toMatch(/^t\.json: expect: expects nothing/);
    expect(await loadError([{ ...CASE, expect: { reason: '' } }])).toMatch(/^t\.json: \[0\]\.expect\.reason: an empty text matches any text/);
    expect(await loadError({ ...CASE, expect: { decision: 'block', additionalContext: '' } })).toMatch(/^t\.json: expect\.additionalContext: an empty text/);
    // null ("none") and a real check still load.
    expect(await loadError({ ...CASE, expect: { reason: null } })).toBe('no error');
    expect(await loadError({ ...CASE, expect: { match: 'partial', updatedInput: { command: 'ls' } } })).toBe('no error');
  });

  it("file and inline events are any agent's payload, built through its dialect (no hook_event_name needed)", async () => {
    const gemini = { session_id: 's', transcript_path: '/t.json', cwd: '/p', hook_event_name: 'BeforeTool', timestamp: '2026-01-01T00:00:00Z', tool_name: 'run_shell_command', tool_input: { command: 'ls' } };
    const cursor = { hook_event_name: 'beforeShellExecution', conversation_id: 'c', generation_id: 'g', cursor_version: '3.9.16', command: 'ls', cwd: '/p' };
    const copilot = { sessionId: 's', timestamp: 1795301092650, cwd: '/p', toolName: 'bash', toolArgs: { command: 'ls' } };
    const { file } = await load(
      {
        'cursor.json': JSON.stringify(cursor),
        't.json': JSON.stringify([
          { name: 'gemini', event: gemini, expect: { decision: 'continue' } },
          { name: 'cursor', event: { file: 'cursor.json' }, expect: { decision: 'continue' } },
          { name: 'copilot', event: copilot, eventName: 'preToolUse', expect: { decision: 'continue' } },
          { name: 'forced', event: copilot, dialect: 'copilot', eventName: 'pre-tool-use', expect: { decision: 'continue' } },
        ]),
      },
      't.json',
    );
    expect(file.cases.map((c) => c.event)).toEqual([
      { kind: 'payload', payload: gemini },
      { kind: 'payload', payload: cursor },
      { kind: 'payload', payload: copilot, eventName: 'preToolUse' },
      { kind: 'payload', payload: copilot, dialect: 'copilot', eventName: 'pre-tool-use' },
    ]);
    const { payloadEvent } = await import('../../src/testing/load.js');
    const events = file.cases.map((c) => payloadEvent(c.event as Extract<typeof c.event, { kind: 'payload' }>));
    expect(events.map((e) => [e.name, e.tool?.name, e.tool?.canonical, e.payload.tool_input?.command])).toEqual([
      ['preToolUse', 'run_shell_command', 'exec', 'ls'],
      ['preToolUse', 'Shell', 'exec', 'ls'],
      ['preToolUse', 'bash', 'exec', 'ls'],
      ['preToolUse', 'bash', 'exec', 'ls'],
    ]);
  });

  it('dialect and eventName errors name their keys', async () => {
    const copilot = { sessionId: 's', timestamp: 1795301092650, cwd: '/p', toolName: 'bash', toolArgs: { command: 'ls' } };
    expect(await loadError({ ...CASE, event: copilot })).toMatch(/^t\.json: event: expected \{"sample".*name it with "eventName"/);
    expect(await loadError({ ...CASE, event: copilot, eventName: 'preToolUze' })).toMatch(/^t\.json: eventName: unknown event "preToolUze" \(did you mean "preToolUse"\?\)/);
    expect(await loadError({ ...CASE, event: copilot, dialect: 'copilt', eventName: 'preToolUse' })).toMatch(/^t\.json: dialect: unknown dialect "copilt" \(did you mean "copilot"\?\)/);
    expect(await loadError({ ...CASE, dialect: 'gemini' })).toBe('t.json: dialect: applies to file and inline events only; a sample is Claude Code\'s "pre-tool-use" event');
    expect(await loadError({ ...CASE, event: { hook_event_name: 'BeforeTool', timestamp: 'x', transcript_path: '/t', tool_name: 'x' }, eventName: 'stop' })).toBe(
      't.json: event: hook_event_name is "BeforeTool" but "eventName" says "stop"',
    );
  });
});

describe('findCaseFiles', () => {
  it('searches folders for JSON and YAML case files, in name order, skipping configs', async () => {
    const dir = tmpProject({
      'hooks-tests/b.yaml': '',
      'hooks-tests/a.json': '',
      'hooks-tests/nested/c.yml': '',
      'hooks-tests/guards.hooksrc.json': '',
      'hooks-tests/notes.md': '',
    });
    const files = await findCaseFiles([], dir);
    expect(files.map((f) => path.relative(dir, f))).toEqual(['hooks-tests/a.json', 'hooks-tests/b.yaml', 'hooks-tests/nested/c.yml']);
    expect((await findCaseFiles(['hooks-tests/b.yaml'], dir)).map((f) => path.relative(dir, f))).toEqual(['hooks-tests/b.yaml']);
  });

  it('a missing path or an empty folder is an error', async () => {
    const dir = tmpProject({ 'empty/readme.md': '' });
    await expect(findCaseFiles([], dir)).rejects.toThrow('hooks-tests: no such file or folder; pass case files or folders');
    await expect(findCaseFiles(['nope.json'], dir)).rejects.toThrow('nope.json: no such file or folder');
    await expect(findCaseFiles(['empty'], dir)).rejects.toThrow('empty: no test case files');
  });

  // `npm test` (scripts/test.mjs) runs these cases through the CLI and fails on any failed one; this guards
  // that they are all still there and well-formed, without running their hooks a second time.
  it("the repository's own hooks-tests load: every example guard and builtin, none malformed", async () => {
    const files = await findCaseFiles([], ROOT);
    const cases = (await Promise.all(files.map((f) => loadCaseFile(f, { cwd: ROOT })))).flatMap((f) => f.cases);
    expect(cases.filter((c) => c.invalid !== undefined).map((c) => `${c.file} ${c.key}: ${c.invalid}`)).toEqual([]);
    expect(cases.length).toBeGreaterThanOrEqual(27);
  });
});
