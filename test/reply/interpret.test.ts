// Reading one hook's answer: the table of section 3 of the contract, edge by edge.
import { describe, expect, it } from 'vitest';
import { eventSpec } from '../../src/events/catalog.js';
import { readProcessEnd, readReturnValue } from '../../src/reply/interpret.js';

const pre = eventSpec('preToolUse');
const post = eventSpec('postToolUse');
const prompt = eventSpec('userPromptSubmit');
const exited = (exitCode: number, stdout = '', stderr = '') => ({ kind: 'exited' as const, exitCode, stdout, stderr });

describe('readProcessEnd', () => {
  it.each([
    ['exit 0, nothing', exited(0), { decision: 'continue' }],
    ['exit 0, plain text on a tool event', exited(0, 'hello'), { decision: 'continue' }],
    ['exit 2 wins over JSON allow', exited(2, '{"decision":"allow"}', 'no'), { decision: 'block', reason: 'no' }],
    ['exit 2 takes the JSON reason when stderr is empty', exited(2, '{"reason":"json says no"}'), { decision: 'block', reason: 'json says no' }],
    ['exit 2 with invalid JSON still blocks', exited(2, '{oops', 'stderr says no'), { decision: 'block', reason: 'stderr says no' }],
    ['JSON wins over exit 1', exited(1, '{"decision":"block","reason":"r"}'), { decision: 'block', reason: 'r' }],
    ['leading whitespace and a BOM before JSON', exited(0, '\uFEFF  \n{"decision":"ask"}'), { decision: 'ask' }],
    ['Claude deprecated approve', exited(0, '{"decision":"approve"}'), { decision: 'allow' }],
    ['continue:false beats a block', exited(0, '{"continue":false,"decision":"block","reason":"r","stopReason":"stop now"}'), { decision: 'halt', reason: 'stop now' }],
    ['unknown fields are ignored, systemMessage is kept', exited(0, '{"decision":"allow","suppressOutput":true,"systemMessage":"x","terminalSequence":"\\u0007"}'), { decision: 'allow', systemMessage: 'x' }],
    ['both context fields are kept', exited(0, '{"additionalContext":"a","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"b"}}'), { decision: 'continue', additionalContext: 'a\nb', claudeContext: 'b' }],
  ])('%s', (_, end, reply) => {
    expect(readProcessEnd(end, pre)).toEqual({ ok: true, reply });
  });

  it.each([
    ['JSON that does not parse', exited(0, '{"decision":'), 'invalid-json'],
    ['a JSON array', exited(0, '[1]'), undefined],
    ['an unknown decision', exited(0, '{"decision":"maybe"}'), 'invalid-json'],
    ['modify without updatedInput', exited(0, '{"decision":"modify"}'), 'invalid-json'],
    ['updatedInput that is not an object', exited(0, '{"decision":"modify","updatedInput":"ls"}'), 'invalid-json'],
    ['reason that is not a string', exited(0, '{"decision":"block","stopReason":5,"continue":false}'), 'invalid-json'],
    ['exit 1', exited(1, '', 'oops\nmore'), 'exit-1'],
    ['exit 126', exited(126), 'not-found'],
    ['exit 127', exited(127, '', 'sh: 1: x: not found'), 'not-found'],
    ['exit 137 (killed by SIGKILL under a shell)', exited(137), 'signal'],
  ])('%s', (_, end, kind) => {
    const reading = readProcessEnd(end, pre);
    if (kind === undefined) {
      // `[1]` does not start with `{`: plain text, which is not context on preToolUse.
      expect(reading).toEqual({ ok: true, reply: { decision: 'continue' } });
    } else {
      expect(reading).toMatchObject({ ok: false, failure: { kind } });
    }
  });

  it('failure messages are one line and name the cause', () => {
    expect(readProcessEnd(exited(1, '', 'first line\nsecond'), pre)).toEqual({ ok: false, failure: { kind: 'exit-1', message: 'exited with 1: first line' } });
    expect(readProcessEnd({ kind: 'timeout', timeoutMs: 1500 }, pre)).toEqual({ ok: false, failure: { kind: 'timeout', message: 'timed out after 1.5s' } });
    expect(readProcessEnd({ kind: 'too-large', stream: 'stdout', limit: 10 }, pre)).toEqual({ ok: false, failure: { kind: 'output-too-large', message: 'stdout exceeded 10 bytes' } });
  });

  it('a rewrite is read only where the event can carry it', () => {
    expect(readProcessEnd(exited(0, '{"decision":"modify","updatedOutput":null}'), post)).toEqual({ ok: true, reply: { decision: 'continue', updatedOutput: { value: null } } });
    expect(readProcessEnd(exited(0, '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"x"}}'), post)).toEqual({ ok: true, reply: { decision: 'continue', updatedOutput: { value: 'x' } } });
    expect(readProcessEnd(exited(0, '{"decision":"modify","prompt":"new"}'), prompt)).toEqual({ ok: true, reply: { decision: 'continue', prompt: 'new' } });
    expect(readProcessEnd(exited(0, '{"decision":"modify","prompt":"new"}'), pre)).toMatchObject({ ok: false, failure: { message: '"modify" needs "updatedInput" on preToolUse' } });
    expect(readProcessEnd(exited(0, '{"decision":"modify","prompt":"x"}'), eventSpec('stop'))).toMatchObject({ ok: false, failure: { message: '"modify" is not possible on stop' } });
  });
});

describe('readReturnValue', () => {
  it('reads a handler return like a JSON reply', () => {
    expect(readReturnValue(undefined, pre)).toEqual({ ok: true, reply: { decision: 'continue' } });
    expect(readReturnValue({ decision: 'block', reason: 'r' }, pre)).toEqual({ ok: true, reply: { decision: 'block', reason: 'r' } });
    expect(readReturnValue('block', pre)).toMatchObject({ ok: false, failure: { kind: 'invalid-json' } });
  });
});
