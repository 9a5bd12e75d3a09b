// The Stop judge's transcript reader: the file and its lines are untrusted (the agent runs as the user and
// can write or replace its own transcript), and what it returns goes to the model provider.
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../src/judge/transcript.js';
import { tmpProject } from '../helpers.js';

const line = (type: string, content: unknown) => JSON.stringify({ type, message: { content } });

describe('readTranscript', () => {
  it('reads user and assistant turns, user first', () => {
    const dir = tmpProject({ 't.jsonl': [line('assistant', 'dropped'), line('user', 'fix the bug'), line('assistant', [{ type: 'text', text: 'done' }])].join('\n') });
    expect(readTranscript(path.join(dir, 't.jsonl'))).toEqual({ turns: [{ role: 'user', content: 'fix the bug' }, { role: 'assistant', content: 'done' }], cut: false });
  });

  // Review: the file was opened following a link, so a transcript swapped for a link to another JSONL file
  // (another session's, another project's) was read out to the model provider.
  it('a transcript that is a link planted at its name is not read', () => {
    const other = tmpProject({ 'private.jsonl': line('user', 'a private conversation') });
    const dir = tmpProject();
    symlinkSync(path.join(other, 'private.jsonl'), path.join(dir, 't.jsonl'));
    expect(readTranscript(path.join(dir, 't.jsonl'))).toBeUndefined();
  });

  it('deeply nested tool results neither throw nor overflow the stack', () => {
    // Written as text: 6000 levels, within the 200 KiB tail (JSON.parse takes them; a recursive reader would not).
    const n = 6000;
    const content = `${'[{"type":"tool_result","content":'.repeat(n)}"bottom"${'}]'.repeat(n)}`;
    const dir = tmpProject({ 't.jsonl': `{"type":"user","message":{"content":${content}}}` });
    expect(() => readTranscript(path.join(dir, 't.jsonl'))).not.toThrow();
  });

  it('property: never throws on any file content', () => {
    const dir = tmpProject();
    const file = path.join(dir, 't.jsonl');
    const entry = fc.record({ type: fc.constantFrom('user', 'assistant', 'system', 7), message: fc.anything(), isMeta: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), entry.map((e) => JSON.stringify(e))), { maxLength: 20 }), (lines) => {
        writeFileSync(file, lines.join('\n'));
        const read = readTranscript(file);
        expect(read === undefined || Array.isArray(read.turns)).toBe(true);
      }),
      { seed: 4242, numRuns: 300, interruptAfterTimeLimit: 5000 },
    );
  });
});
