// Case files: the three shapes, discovery, and errors that name the file and the key path.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCaseFiles, loadCaseFile } from '../../src/testing/load.js';
import { tmpProject } from '../helpers.js';

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
});
