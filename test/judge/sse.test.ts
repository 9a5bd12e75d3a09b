// The judge reads a streamed (SSE) answer from either provider, though it never asks for one: a proxy or local
// server may stream anyway. A malformed or cut-off stream is a named failure, never a verdict.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HooksConfig } from '../../src/config/schema.js';
import { parseSse, readAnthropicStream, readOpenAiStream } from '../../src/judge/sse.js';
import { bash, runnerWith } from '../helpers.js';
import { fakeModel, streamOf, type FakeModel } from './fake-model.js';

const KEY = 'sk-ant-test-0000-not-a-real-key';
const cut = (s: string, marker: string) => s.slice(0, s.indexOf(marker));
let model: FakeModel;

beforeAll(async () => {
  const deny = '{"ok": false, "reason": "streamed no"}';
  const a = streamOf(false, deny, 'claude-haiku-4-5-20251001', [40, 9]);
  const o = streamOf(true, deny, 'gpt-4o-mini', [41, 8]);
  model = await fakeModel({
    streamed: { text: deny, stream: true, usage: [40, 9] },
    cutA: { status: 200, contentType: 'text/event-stream', body: cut(a, 'event: message_stop') },
    cutO: { status: 200, contentType: 'text/event-stream', body: cut(o, 'data: {"model":"gpt-4o-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}') },
    garbled: { status: 200, contentType: 'text/event-stream', body: 'event: content_block_delta\ndata: {"type": "content_block_delta", "delta": \n\n' },
    errored: { status: 200, contentType: 'text/event-stream', body: `${cut(a, 'event: content_block_stop')}event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded for ${KEY}"}}\n\n` },
  });
});
afterAll(() => model.close());

const hook = (provider: 'anthropic' | 'openai') => ({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'Judge: $ARGUMENTS', provider, continueOnBlock: true }] }] } }) as unknown as HooksConfig;
const envFor = (scenario: string) => ({ env: { ANTHROPIC_BASE_URL: `${model.base}/${scenario}`, ANTHROPIC_API_KEY: KEY, OPENAI_BASE_URL: `${model.base}/${scenario}/v1`, OPENAI_API_KEY: KEY } });

describe('a judge that streams', () => {
  it.each(['anthropic', 'openai'] as const)('%s: the streamed verdict, model and token counts are read as a whole answer would be; stream: true is not asked for', async (provider) => {
    const decision = await (await runnerWith(hook(provider), envFor('streamed'))).run(bash('rm -rf ./x'));
    expect(decision.decision).toBe('block');
    expect(decision.reason).toBe('[Judge: $ARGUMENTS]: streamed no');
    expect(decision.results[0]!.judge).toMatchObject({ verdict: 'not ok', via: 'model', inputTokens: 40, outputTokens: 9 });
    expect(model.seen.at(-1)!.body.stream).toBeUndefined();
  });

  it('a stream cut off before its end, an event that is not JSON, or an error event is a named failure (onFailure), and the key is never said', async () => {
    const cases: [string, 'anthropic' | 'openai', RegExp][] = [
      ['cutA', 'anthropic', /ended before message_stop \(cut off\)/],
      ['cutO', 'openai', /ended before \[DONE\] or a finish_reason \(cut off\)/],
      ['garbled', 'anthropic', /event 1 of the stream \(content_block_delta\) is not JSON/],
      ['errored', 'anthropic', /the stream reported an error: Overloaded for \[api key\]/],
    ];
    for (const [scenario, provider, problem] of cases) {
      const decision = await (await runnerWith(hook(provider), envFor(scenario))).run(bash('ls'));
      expect(decision.decision, scenario).toBe('continue');
      expect(decision.results[0]!.failure?.message, scenario).toMatch(problem);
      expect(JSON.stringify(decision), scenario).not.toContain(KEY);
    }
  });
});

describe('parseSse', () => {
  it('follows the WHATWG rules: CRLF/CR/LF, comments, one leading space, multi-line data, unnamed events', () => {
    expect(parseSse(': hi\r\nevent: a\r\ndata:  two spaces\r\ndata:x\r\n\r\ndata\rdata: y\r\r')).toEqual({ events: [{ event: 'a', data: ' two spaces\nx' }, { data: '\ny' }], complete: true, tooMany: false });
    expect(parseSse('event: only-name\n\n').events).toEqual([]);
    expect(parseSse('data: a\n\ndata: b').complete).toBe(false);
  });

  it('property: any stream of events, serialized with any line ending and with comments, parses back to the same events', () => {
    const value = fc.string().filter((s) => !/[\r\n]/.test(s));
    const ev = fc.record({ event: fc.option(value.filter((s) => s !== ''), { nil: undefined }), data: fc.array(value, { minLength: 1, maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 8 }), fc.constantFrom('\n', '\r\n', '\r'), fc.boolean(), (events, eol, comments) => {
        const text = events.map((e) => `${comments ? `: note${eol}` : ''}${e.event === undefined ? '' : `event: ${e.event}${eol}`}${e.data.map((d) => `data: ${d}`).join(eol)}${eol}${eol}`).join('');
        const parsed = parseSse(text);
        expect(parsed.complete).toBe(true);
        expect(parsed.events).toEqual(events.map((e) => (e.event === undefined ? { data: e.data.join('\n') } : { event: e.event, data: e.data.join('\n') })));
      }),
      { seed: 2025, numRuns: 300, interruptAfterTimeLimit: 5_000 },
    );
  });

  it('property: the provider readers never throw on any text, and a verdict comes only from a stream that ended properly', () => {
    const junk = fc.oneof(fc.string(), fc.string().map((s) => `data: ${s}\n\n`), fc.constantFrom('event: message_stop\ndata: {}\n\n', 'data: [DONE]\n\n', 'event: error\ndata: {}\n\n'));
    fc.assert(
      fc.property(fc.array(junk, { maxLength: 6 }), (parts) => {
        const text = parts.join('');
        const a = readAnthropicStream(text);
        const o = readOpenAiStream(text);
        if (a.ok) expect(text).toContain('message_stop');
        if (o.ok) expect(/\[DONE\]|finish_reason/.test(text)).toBe(true);
      }),
      { seed: 7, numRuns: 400, interruptAfterTimeLimit: 5_000 },
    );
  });
});
