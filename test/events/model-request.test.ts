// The agent-neutral model request: how a hook's rewrite is read (ours and Gemini's own shape) and
// applied. Tool restrictions only narrow, whatever a later hook answers (property-tested).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedTools, applyRequestRewrite, readRequestRewrite, readResponseRewrite } from '../../src/events/model-request.js';

const PROPS = { seed: 1313, numRuns: 200, interruptAfterTimeLimit: 3000 };

describe('reading a rewrite', () => {
  it('ours: updatedRequest as given', () => {
    expect(readRequestRewrite({ updatedRequest: { parameters: { temperature: 0.2 } } })).toEqual({ ok: true, value: { parameters: { temperature: 0.2 } } });
    expect(readRequestRewrite({ decision: 'allow' })).toEqual({ ok: true, value: undefined });
  });

  it("Gemini's own: llm_request (config → parameters, model → assistant) and toolConfig", () => {
    expect(readRequestRewrite({ hookSpecificOutput: { llm_request: { model: 'm', messages: [{ role: 'model', content: 'x' }], config: { temperature: 0.3, maxOutputTokens: 9 } } } })).toEqual({
      ok: true,
      value: { model: 'm', messages: [{ role: 'assistant', content: 'x' }], parameters: { temperature: 0.3, max_output_tokens: 9 } },
    });
    expect(readRequestRewrite({ hookSpecificOutput: { toolConfig: { mode: 'NONE', allowedFunctionNames: ['a'] } } })).toEqual({ ok: true, value: { allowed_tools: [] } });
    expect(readResponseRewrite({ hookSpecificOutput: { llm_response: { candidates: [{ content: { parts: ['a', { text: 'b' }] } }] } } })).toEqual({ ok: true, value: { text: 'ab' } });
  });

  it.each([
    [{ updatedRequest: [] }, '"updatedRequest" must be an object (the model-request fields to change)'],
    [{ updatedRequest: { model: 3 } }, '"updatedRequest.model" must be a string'],
    [{ updatedRequest: { messages: [{ role: 'user' }] } }, '"updatedRequest.messages[0]" must be {"role": string, "content": string}'],
    [{ updatedRequest: { parameters: { temperature: [1] } } }, '"updatedRequest.parameters.temperature" must be a number, string, boolean or null'],
    [{ updatedRequest: { allowed_tools: 'read' } }, '"updatedRequest.allowed_tools" must be an array of tool names'],
    [{ updatedRequest: { tools: [] } }, '"updatedRequest.tools" cannot be rewritten: restrict the tools with "allowed_tools"'],
    [{ hookSpecificOutput: { toolConfig: 'x' } }, '"hookSpecificOutput.toolConfig" must be an object'],
  ])('%j is a named problem', (reply, problem) => {
    expect(readRequestRewrite(reply as Record<string, unknown>)).toEqual({ ok: false, problem });
  });

  it('a response rewrite with a non-string text is a problem', () => {
    expect(readResponseRewrite({ updatedResponse: { text: 1 } })).toEqual({ ok: false, problem: '"updatedResponse.text" must be a string' });
  });
});

describe('applying a rewrite', () => {
  const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }], parameters: { temperature: 1, top_k: 64 }, tools: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] };

  it('model and messages are replaced, parameters merged key by key (null removes one)', () => {
    expect(applyRequestRewrite(base, { model: 'n', parameters: { temperature: 0.1, top_k: null, thinking_level: 'low' } })).toEqual({
      ...base,
      model: 'n',
      parameters: { temperature: 0.1, thinking_level: 'low' },
    });
    expect(applyRequestRewrite(base, { messages: [] }).messages).toEqual([]);
  });

  it('allowed_tools only keeps declared tools, and later restrictions intersect', () => {
    const once = applyRequestRewrite(base, { allowed_tools: ['a', 'b', 'zzz'] });
    expect(once.allowed_tools).toEqual(['a', 'b']);
    expect(applyRequestRewrite(once, { allowed_tools: ['b', 'c'] }).allowed_tools).toEqual(['b']);
    // The declarations themselves are never touched.
    expect(applyRequestRewrite(once, { allowed_tools: ['b'] }).tools).toEqual(base.tools);
  });

  it('property: whatever chain of restrictions, the allowed set never grows', () => {
    const name = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(fc.array(fc.array(name, { maxLength: 6 }), { maxLength: 6 }), (updates) => {
        let request: Record<string, unknown> = { ...base, tools: ['a', 'b', 'c'].map((n) => ({ name: n })) };
        let allowed = new Set(allowedTools(request));
        for (const update of updates) {
          request = applyRequestRewrite(request, { allowed_tools: update });
          const next = new Set(allowedTools(request));
          for (const n of next) expect(allowed.has(n)).toBe(true);
          allowed = next;
        }
      }),
      PROPS,
    );
  });

  it('property: reading then applying any JSON object never throws; a bad one is a problem, never a partial edit', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('model', 'messages', 'parameters', 'allowed_tools', 'x'), fc.jsonValue({ maxDepth: 3 })), (update) => {
        const read = readRequestRewrite({ updatedRequest: update });
        if (read.ok && read.value !== undefined) expect(() => applyRequestRewrite(base, read.value!)).not.toThrow();
      }),
      PROPS,
    );
  });
});
