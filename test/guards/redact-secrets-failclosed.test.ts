import { afterAll, describe, expect, it, vi } from 'vitest';
import type { HandlerContext, HookInput, ReplyObject } from '../../src/types.js';

// Review finding 6: an engine error must never let the text through as it was, on either event.
// The engine is replaced by one that throws on a marked input (no real input is known to make the
// fixed engine throw; the fault stands for the next one that does).
const FAULT = 'engine-fault-marker';
// Test files share one module graph per worker (vitest isolate: false): the guard may already be loaded
// with the real engine, so the graph is dropped first, the fake engine is scoped to this file (doMock,
// not the hoisted mock), and both are undone after it for the files that follow in this worker.
vi.resetModules();
vi.doMock('../../src/guards/redact-secrets/engine.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/guards/redact-secrets/engine.js')>();
  return {
    ...real,
    createRedactor: (...args: Parameters<typeof real.createRedactor>) => {
      const inner = real.createRedactor(...args);
      const check = (value: unknown): void => {
        if (JSON.stringify(value).includes(FAULT)) throw new SyntaxError(`Invalid regular expression: /${JSON.stringify(value)}/: Regular expression too large`);
      };
      return {
        text: (text: string) => (check(text), inner.text(text)),
        value: <T>(value: T) => (check(value), inner.value(value)),
      };
    },
  };
});

const { redactSecrets } = await import('../../src/guards/redact-secrets.js');
const { redactSecretsOptions } = await import('../../src/guards/redact-secrets/options.js');
const guard = redactSecrets.create(redactSecretsOptions.parse({}));
afterAll(() => {
  vi.doUnmock('../../src/guards/redact-secrets/engine.js');
  vi.resetModules();
});
const ctx = (event: HandlerContext['event']): HandlerContext => ({ event, signal: new AbortController().signal, tool: 'exec' });

describe('redact-secrets fails closed on an engine error', () => {
  it('userPromptSubmit: the prompt is replaced by the marker, with a one-line reason', () => {
    const reply = guard({ hook_event_name: 'UserPromptSubmit', prompt: `deploy with ${FAULT} please` } as HookInput, ctx('userPromptSubmit')) as ReplyObject;
    expect(reply).toMatchObject({ decision: 'modify', prompt: '[REDACTED:withheld]' });
    expect(reply.reason).toBe('redact-secrets: the prompt could not be read (SyntaxError in the engine)');
  });
  it('postToolUse: the output is withheld the same way', () => {
    const reply = guard({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_response: { stdout: FAULT } } as HookInput, ctx('postToolUse')) as ReplyObject;
    expect(reply).toMatchObject({ decision: 'modify', updatedOutput: '[REDACTED:withheld]' });
    // V8 quotes the regex, made of the secrets, in its message: the reason must not carry it.
    expect(reply.reason).toBe('redact-secrets: the output could not be read (SyntaxError in the engine)');
  });
  it('input the engine reads is handled as before', () => {
    expect(guard({ hook_event_name: 'UserPromptSubmit', prompt: 'hello' } as HookInput, ctx('userPromptSubmit'))).toBeUndefined();
  });
});
