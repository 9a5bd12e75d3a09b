// The model events in-process: OpenClaw's params.before (a classifier picks the thinking level and
// temperature) and ai4j's beforeModelRequest (block or rewrite the request) written as library
// handlers, in one chain with a real command hook, exactly as docs/model-events.md shows them.
import { describe, expect, it } from 'vitest';
import { modelEvent, type ModelRequest } from '../../src/index.js';
import { runnerWith } from '../helpers.js';

const request = (prompt: string): ModelRequest => ({
  model: 'claude-sonnet-4-5',
  messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: prompt }],
  parameters: { temperature: 1, thinking_level: 'medium' },
  tools: [{ name: 'exec', input_schema: { type: 'object' } }, { name: 'read', input_schema: { type: 'object' } }],
});

describe('model events in the library', () => {
  it("OpenClaw's params.before: a classifier sets the thinking level and temperature", async () => {
    const runner = await runnerWith(
      { hooks: {} },
      {
        handlers: [
          {
            event: 'beforeModel',
            id: 'think-level',
            handler: (input) => {
              const req = input.model_request as ModelRequest;
              const last = req.messages.at(-1)?.content ?? '';
              const hard = /prove|design|architecture/i.test(last);
              return { decision: 'modify', updatedRequest: { parameters: hard ? { thinking_level: 'high', temperature: 0.2 } : { thinking_level: 'low' } } };
            },
          },
        ],
      },
    );
    const hard = await runner.run(modelEvent('beforeModel', request('design the cache architecture')));
    expect(hard.decision).toBe('modify');
    expect(hard.updatedRequest?.parameters).toEqual({ temperature: 0.2, thinking_level: 'high' });
    const easy = await runner.run(modelEvent('beforeModel', request('rename a variable')));
    expect(easy.updatedRequest?.parameters).toEqual({ temperature: 1, thinking_level: 'low' });
  });

  it("ai4j's beforeModelRequest: block a request, or rewrite its messages; a command hook judges the rewrite", async () => {
    const runner = await runnerWith(
      // A real process after the handler: it sees the rewritten messages and blocks if the secret is still there.
      { hooks: { beforeModel: [{ id: 'no-secret', command: `grep -q 'sk-live' && { echo 'secret in the request' >&2; exit 2; }; exit 0` }] } },
      {
        handlers: [
          {
            event: 'before-model',
            id: 'model-policy',
            priority: 10,
            handler: (input) => {
              const req = input.model_request as ModelRequest;
              if (req.model?.startsWith('gpt-3')) return { decision: 'block', reason: 'retired model' };
              const messages = req.messages.map((m) => ({ ...m, content: m.content.replace(/sk-live-\w+/g, '[key]') }));
              return { decision: 'modify', updatedRequest: { messages } };
            },
          },
        ],
      },
    );
    const blocked = await runner.run(modelEvent('beforeModel', { ...request('hi'), model: 'gpt-3.5' }));
    expect(blocked).toMatchObject({ decision: 'block', reason: 'retired model', decidedBy: 'model-policy' });
    const cleaned = await runner.run(modelEvent('beforeModel', request('use sk-live-abc123 to deploy')));
    expect(cleaned.decision).toBe('modify');
    expect((cleaned.updatedRequest?.messages as { content: string }[])[1]!.content).toBe('use [key] to deploy');
    expect(cleaned.results.map((r) => [r.id, r.reply.decision])).toEqual([['model-policy', 'continue'], ['no-secret', 'continue']]);
  });

  it('beforeToolSelection and afterModel: restrict tools, rewrite the answer', async () => {
    const runner = await runnerWith(
      { hooks: {} },
      {
        handlers: [
          { event: 'beforeToolSelection', id: 'read-only', handler: () => ({ updatedRequest: { allowed_tools: ['read', 'web_fetch'] } }) },
          { event: 'afterModel', id: 'no-shouting', handler: (input) => ({ updatedResponse: { text: String((input.model_response as { text: string }).text).toLowerCase() } }) },
        ],
      },
    );
    expect((await runner.run(modelEvent('beforeToolSelection', request('x')))).updatedRequest?.allowed_tools).toEqual(['read']);
    const after = await runner.run(modelEvent('afterModel', request('x'), { response: { text: 'DONE' } }));
    expect(after.updatedResponse).toEqual({ text: 'done' });
  });
});
