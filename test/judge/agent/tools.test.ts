// The verifier's tool-argument reader (untrusted: the model writes the arguments) and the tools on their
// own: confinement by realpath, secrets refused, special files refused, results capped.
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readToolCall, runTool, TOOL_RESULT_LIMIT, type ToolCall } from '../../../src/judge/agent/tools.js';
import { tmpProject } from '../../helpers.js';

describe('readToolCall', () => {
  it('reads each tool\'s arguments, from an object or a JSON string, and names what is wrong', () => {
    expect(readToolCall('Read', { file_path: 'a.ts', offset: 3, limit: 2 })).toEqual({ ok: true, call: { name: 'Read', filePath: 'a.ts', offset: 3, limit: 2 } });
    expect(readToolCall('Grep', '{"pattern":"x","-i":true,"output_mode":"count"}')).toEqual({ ok: true, call: { name: 'Grep', pattern: 'x', ignoreCase: true, mode: 'count' } });
    expect(readToolCall('Glob', { pattern: '**/*.ts', path: 'src' })).toEqual({ ok: true, call: { name: 'Glob', pattern: '**/*.ts', path: 'src' } });
    expect(readToolCall('Read', {})).toEqual({ ok: false, problem: 'Read needs "file_path"' });
    expect(readToolCall('Read', { file_path: 'a', offset: -1 })).toMatchObject({ ok: false, problem: expect.stringMatching(/offset/) });
    expect(readToolCall('Read', { file_path: 'a\u0000b' })).toMatchObject({ ok: false });
    expect(readToolCall('Grep', { pattern: 'x', output_mode: 'all' })).toMatchObject({ ok: false });
    expect(readToolCall('Read', '{not json')).toEqual({ ok: false, problem: 'the arguments of Read are not JSON' });
    expect(readToolCall('Write', { file_path: 'a' })).toMatchObject({ ok: false, problem: expect.stringMatching(/no tool named "Write"/) });
  });

  it('property: never throws on any input, and what it accepts is well typed', () => {
    const name = fc.constantFrom('Read', 'Grep', 'Glob', 'Bash', '', 'StructuredOutput');
    const input = fc.oneof(fc.anything(), fc.json(), fc.record({ file_path: fc.anything(), pattern: fc.anything(), offset: fc.anything(), limit: fc.anything(), path: fc.anything(), glob: fc.anything(), output_mode: fc.anything(), '-i': fc.anything(), head_limit: fc.anything() }, { requiredKeys: [] }));
    fc.assert(
      fc.property(name, input, (n, i) => {
        const read = readToolCall(n, i);
        if (!read.ok) {
          expect(typeof read.problem).toBe('string');
          return;
        }
        const call: ToolCall = read.call;
        expect(call.name).toBe(n);
        for (const value of Object.values(call)) {
          if (typeof value === 'string') expect(value.includes('\0')).toBe(false);
          if (typeof value === 'number') expect(Number.isSafeInteger(value) && value >= 0).toBe(true);
        }
      }),
      { seed: 2525, numRuns: 1000, interruptAfterTimeLimit: 5000 },
    );
  });
});

describe('runTool', () => {
  const deadline = () => Date.now() + 20_000;

  it('a symlinked folder inside the project that points inside is followed; one that points out is refused', async () => {
    const outside = tmpProject({ 'x.txt': 'OUT\n' });
    const root = tmpProject({ 'src/a.txt': 'IN\n' });
    symlinkSync(path.join(root, 'src'), path.join(root, 'alias'));
    symlinkSync(outside, path.join(root, 'out'));
    expect((await runTool({ name: 'Read', filePath: 'alias/a.txt' }, { root, deadline: deadline() })).text).toBe('     1\tIN');
    const out = await runTool({ name: 'Read', filePath: 'out/x.txt' }, { root, deadline: deadline() });
    expect(out).toMatchObject({ isError: true, text: expect.stringMatching(/outside the project/) });
    // A walk does not follow links: the outside file is never listed or searched.
    expect((await runTool({ name: 'Glob', pattern: '**/*.txt' }, { root, deadline: deadline() })).text).toBe('src/a.txt');
    expect((await runTool({ name: 'Grep', pattern: 'OUT', mode: 'files_with_matches', ignoreCase: false }, { root, deadline: deadline() })).text).toBe('No matches found');
  });

  it('a symlink inside the project to a secret file inside it is refused by the secret\'s own name', async () => {
    const root = tmpProject({ '.env': 'TOKEN=x\n', 'id_rsa': 'KEY\n' });
    symlinkSync(path.join(root, '.env'), path.join(root, 'notes.txt'));
    for (const file of ['.env', 'notes.txt', 'id_rsa']) {
      const r = await runTool({ name: 'Read', filePath: file }, { root, deadline: deadline() });
      expect(r.isError, file).toBe(true);
      expect(r.text).not.toContain('TOKEN=x');
    }
  });

  it('a result is cut at the limit, and a file past the size limit is not read', async () => {
    const root = tmpProject({ 'big.txt': `${'line of text\n'.repeat(5000)}` });
    const r = await runTool({ name: 'Read', filePath: 'big.txt', limit: 5000 }, { root, deadline: deadline() });
    expect(Buffer.byteLength(r.text)).toBeLessThanOrEqual(TOOL_RESULT_LIMIT + 40);
    expect(r.text).toMatch(/\[cut at 32768 bytes\]$/);
    mkdirSync(path.join(root, 'd'));
    writeFileSync(path.join(root, 'd', 'huge.txt'), Buffer.alloc(5 * 1024 * 1024, 97));
    expect((await runTool({ name: 'Read', filePath: 'd/huge.txt' }, { root, deadline: deadline() })).text).toMatch(/larger than/);
  });

  // Review: the tools' answers go to the model provider. A secret no path rule names (a token in a
  // source file, a hard link the agent made to a key outside: its name and realpath are the project's)
  // went out verbatim; the postToolUse redaction the agent's own reads get did not apply.
  it('a secret in a file the path rules allow (a token in source, a hard link to a key) is redacted in Read and Grep', async () => {
    const token = ['ghp', '_', 'a7Xq'.repeat(9)].join('');
    const keyBody = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW'.repeat(2);
    const key = ['-----BEGIN OPENSSH ', 'PRIVATE KEY-----\n', keyBody, '\n-----END OPENSSH ', 'PRIVATE KEY-----\n'].join('');
    const outside = tmpProject({ 'key': key });
    const root = tmpProject({ 'config.py': `SERVICE = "api"\nTOKEN = "${token}"\n` });
    linkSync(path.join(outside, 'key'), path.join(root, 'notes.txt'));
    const calls: ToolCall[] = [
      { name: 'Read', filePath: 'config.py' },
      { name: 'Read', filePath: 'notes.txt' },
      { name: 'Grep', pattern: 'TOKEN|PRIVATE|b3Blb', mode: 'content', ignoreCase: false },
    ];
    for (const call of calls) {
      const r = await runTool(call, { root, deadline: deadline() });
      expect(r.text, JSON.stringify(call)).not.toContain(token);
      expect(r.text, JSON.stringify(call)).not.toContain(keyBody.slice(0, 40));
    }
    expect((await runTool(calls[0]!, { root, deadline: deadline() })).text).toContain('SERVICE = "api"');
  });

  // Review: the model's glob became a backtracking regex run on the runner's own thread: this one against a
  // 60-letter name runs for hours, and no timer (the hook's timeout included) could fire meanwhile.
  it('a glob that backtracks for ever (Glob pattern, Grep glob) is stopped and said, not left to freeze the runner', async () => {
    const root = tmpProject({ [`${'a'.repeat(60)}.txt`]: 'x\n', 'ok.md': 'x\n' });
    const evil = `${'*a'.repeat(12)}b`;
    const soon = () => Date.now() + 3000;
    const g = await runTool({ name: 'Glob', pattern: evil }, { root, deadline: soon() });
    expect(g).toMatchObject({ isError: true, text: expect.stringMatching(/glob took too long/) });
    const r = await runTool({ name: 'Grep', pattern: 'x', glob: evil, mode: 'files_with_matches', ignoreCase: false }, { root, deadline: soon() });
    expect(r).toMatchObject({ isError: true, text: expect.stringMatching(/glob took too long/) });
    // An ordinary glob still matches by name anywhere, or by path with a folder.
    expect((await runTool({ name: 'Glob', pattern: '*.md' }, { root, deadline: deadline() })).text).toBe('ok.md');
    expect((await runTool({ name: 'Grep', pattern: 'x', glob: '*.md', mode: 'files_with_matches', ignoreCase: false }, { root, deadline: deadline() })).text).toBe('ok.md');
  }, 30_000);

  // Review: the transcript is the one file outside the project Read may open; the agent can replace it.
  it('the transcript is readable as a file, not as a link the agent planted at its name', async () => {
    const root = tmpProject({ 'a.txt': 'x\n' });
    const elsewhere = tmpProject({ 'session.jsonl': '{"type":"user"}\n', 'notes': 'private notes\n' });
    const transcript = path.join(elsewhere, 'session.jsonl');
    const ok = await runTool({ name: 'Read', filePath: transcript }, { root, deadline: deadline(), alsoReadable: [transcript] });
    expect(ok).toMatchObject({ isError: false, text: expect.stringContaining('"type":"user"') });
    const planted = path.join(elsewhere, 'planted.jsonl');
    symlinkSync(path.join(elsewhere, 'notes'), planted);
    for (const asked of [planted, path.join(elsewhere, 'notes')]) {
      const r = await runTool({ name: 'Read', filePath: asked }, { root, deadline: deadline(), alsoReadable: [planted] });
      expect(r, asked).toMatchObject({ isError: true, text: expect.stringMatching(/outside the project/) });
    }
  });
});
