// A block is never lost to a size or an encoding problem (issue 10, item 4): real hooks on real pipes, and
// the reader on raw bytes.
import { describe, expect, it } from 'vitest';
import { eventSpec } from '../../src/events/catalog.js';
import { decodeStdout, readProcessEnd, REASON_LIMIT } from '../../src/reply/interpret.js';
import { OUTPUT_LIMITS, runProcess } from '../../src/run/process.js';
import { tmpProject } from '../helpers.js';

const pre = eventSpec('preToolUse');
const prompt = eventSpec('userPromptSubmit');
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
const exited = (exitCode: number, stdout: Uint8Array | string = '', stderr: Uint8Array | string = '') => ({ kind: 'exited' as const, exitCode, stdout, stderr });
const run = (command: string) => runProcess({ command, cwd: tmpProject(), env: process.env, input: '{}', timeoutMs: 20_000 });
const BIG = OUTPUT_LIMITS.stderr * 2;

describe('a block is never lost to size', () => {
  it('exit 2 with 2 MiB of stderr blocks; the reason is cut with a marker', async () => {
    const end = await run(`head -c ${BIG} /dev/zero | tr '\\0' x >&2; exit 2`);
    const reading = readProcessEnd(end, pre);
    expect(reading.ok && reading.reply.decision).toBe('block');
    const reason = reading.ok ? reading.reply.reason! : '';
    expect(reason.length).toBeLessThan(REASON_LIMIT + 100);
    expect(reason).toMatch(new RegExp(`^x{${REASON_LIMIT}} …\\[stderr truncated: ${BIG - REASON_LIMIT} more bytes\\]$`));
  });

  it('a JSON block with 2 MiB of stderr is a block', async () => {
    const end = await run(`head -c ${BIG} /dev/zero | tr '\\0' x >&2; echo '{"decision":"block","reason":"json no"}'`);
    expect(readProcessEnd(end, pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'json no' } });
  });

  it('exit 2 with stdout over its limit blocks', async () => {
    const end = await run(`head -c ${OUTPUT_LIMITS.stdout + 4096} /dev/zero | tr '\\0' y; echo no >&2; exit 2`);
    expect(readProcessEnd(end, pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'no' } });
  });

  it('stdout over its limit on exit 0 is output-too-large, never a pass', async () => {
    const end = await run(`head -c ${OUTPUT_LIMITS.stdout + 4096} /dev/zero | tr '\\0' y`);
    expect(readProcessEnd(end, pre)).toMatchObject({ ok: false, failure: { kind: 'output-too-large', message: `stdout exceeded ${OUTPUT_LIMITS.stdout} bytes` } });
  });
});

describe('replies are UTF-8', () => {
  it('a UTF-16 reply (with its byte order mark) is invalid-encoding, from a real hook', async () => {
    const end = await run(`printf '%s' '{"decision":"block"}' | iconv -f UTF-8 -t UTF-16`);
    expect(readProcessEnd(end, pre)).toMatchObject({ ok: false, failure: { kind: 'invalid-encoding', message: expect.stringContaining('UTF-16') } });
  });

  it.each([
    ['UTF-16 LE BOM', bytes([0xff, 0xfe], '{')],
    ['UTF-16 BE BOM', bytes([0xfe, 0xff], '{')],
    ['a lone continuation byte', bytes([0x80], '{"decision":"block"}')],
    ['latin-1 in a reason', bytes('{"decision":"allow","reason":"caf', [0xe9], '"}')],
    ['a truncated multi-byte character', bytes('{"decision":"allow"}', [0xe2, 0x82])],
  ])('%s is invalid-encoding', (_, stdout) => {
    expect(readProcessEnd(exited(0, stdout), pre)).toMatchObject({ ok: false, failure: { kind: 'invalid-encoding' } });
  });

  it('a UTF-8 byte order mark is tolerated', () => {
    expect(readProcessEnd(exited(0, bytes([0xef, 0xbb, 0xbf], '{"decision":"block","reason":"r"}')), pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'r' } });
    expect(decodeStdout(bytes([0xef, 0xbb, 0xbf], ' é '))).toEqual({ ok: true, text: 'é' });
  });

  it('exit 2 blocks whatever the encoding of stdout or stderr', () => {
    expect(readProcessEnd(exited(2, bytes([0xff, 0xfe], '{'), bytes('no ', [0xff])), pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'no \uFFFD' } });
  });
});

describe('text before a JSON reply', () => {
  it.each([
    ['a log line', 'checking...\n{"decision":"block"}', '"checking..." comes first'],
    ['several lines', 'a\nb\n{"decision":"block","reason":"r"}\n', '"a" comes first'],
    ['stray bytes', '\u0001{"decision":"block"}', '"\\u0001" comes first'],
    ['a shell banner', 'Welcome!\r\n{"hookSpecificOutput":{"permissionDecision":"deny"}}', '"Welcome!" comes first'],
  ])('%s is the named failure text-before-json, never a silent pass', (_, stdout, said) => {
    expect(readProcessEnd(exited(0, stdout), pre)).toEqual({
      ok: false,
      failure: { kind: 'text-before-json', message: `stdout has text before its JSON reply (${said}); print only the JSON object to stdout` },
    });
  });

  it('from a real hook, and on exit 1 too', async () => {
    const end = await run(`echo checking...; echo '{"decision":"block"}'; exit 1`);
    expect(readProcessEnd(end, pre)).toMatchObject({ ok: false, failure: { kind: 'text-before-json' } });
  });

  it('plain text with braces that is not a JSON reply stays plain text', () => {
    expect(readProcessEnd(exited(0, 'use {x} here'), prompt)).toEqual({ ok: true, reply: { decision: 'continue', additionalContext: 'use {x} here' } });
    expect(readProcessEnd(exited(0, 'done\n{not json'), pre)).toEqual({ ok: true, reply: { decision: 'continue' } });
  });
});

describe('fuzzer finds, kept as regressions', () => {
  it('a CR in stderr does not make a failure message two lines (exit 127)', () => {
    expect(readProcessEnd(exited(127, '', bytes([0xe9, 0x07], '\r', 'rest\nmore')), pre)).toEqual({ ok: false, failure: { kind: 'not-found', message: 'exit 127: \uFFFD\uFFFD' } });
  });

  it('a command with a newline stays one line in its failure message', () => {
    expect(readProcessEnd({ kind: 'not-found', message: 'a\nb: not found' }, pre)).toEqual({ ok: false, failure: { kind: 'not-found', message: 'a b: not found' } });
  });
});
