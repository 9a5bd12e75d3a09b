// A fake verifier model on 127.0.0.1 that speaks tool use in both shapes (Anthropic tool_use/tool_result,
// OpenAI tool_calls/"tool" messages), following a script. The first path segment is the scenario; the
// step is the number of assistant turns already in the conversation, so the server keeps no state.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Step =
  /** Call one of the verifier's tools. */
  | { tool: string; input: unknown }
  /** Answer with the StructuredOutput tool. */
  | { answer: Record<string, unknown> }
  /** Answer with text and no tool call. */
  | { text: string }
  | { status: number; body: string };

export interface Scenario {
  steps: Step[];
  /** After the last step: repeat it for ever (a model that loops). */
  loop?: boolean;
  delayMs?: number;
}

export interface Seen {
  scenario: string;
  openai: boolean;
  body: Record<string, unknown>;
}

export interface FakeAgentModel {
  base: string;
  seen: Seen[];
  count(scenario: string): number;
  /** The tool results the verifier sent back, in order, for one scenario (from its last request). */
  results(scenario: string): string[];
  close(): Promise<void>;
}

export async function fakeAgentModel(scenarios: Record<string, Scenario>): Promise<FakeAgentModel> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const url = req.url ?? '';
      const scenario = url.split('/')[1] ?? '';
      const openai = url.endsWith('/chat/completions');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      seen.push({ scenario, openai, body });
      const plan = scenarios[scenario];
      if (plan === undefined) {
        res.statusCode = 404;
        return res.end('no such scenario');
      }
      const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
      const turn = messages.filter((m) => m.role === 'assistant').length;
      const step = plan.steps[Math.min(turn, plan.steps.length - 1)]!;
      if (turn >= plan.steps.length && plan.loop !== true) {
        res.statusCode = 500;
        return res.end('the script ran out');
      }
      const answer = () => {
        if ('status' in step) {
          res.statusCode = step.status;
          return res.end(step.body);
        }
        res.setHeader('content-type', 'application/json');
        const id = `call_${turn}`;
        const model = body.model;
        if (openai) {
          const message =
            'text' in step
              ? { role: 'assistant', content: step.text }
              : { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'tool' in step ? step.tool : 'StructuredOutput', arguments: JSON.stringify('tool' in step ? step.input : step.answer) } }] };
          return res.end(JSON.stringify({ model, choices: [{ index: 0, message, finish_reason: 'text' in step ? 'stop' : 'tool_calls' }], usage: { prompt_tokens: 50, completion_tokens: 5 } }));
        }
        const content = 'text' in step ? [{ type: 'text', text: step.text }] : [{ type: 'tool_use', id, name: 'tool' in step ? step.tool : 'StructuredOutput', input: 'tool' in step ? step.input : step.answer }];
        res.end(JSON.stringify({ id: 'msg', type: 'message', role: 'assistant', model, content, stop_reason: 'text' in step ? 'end_turn' : 'tool_use', usage: { input_tokens: 50, output_tokens: 5 } }));
      };
      if (plan.delayMs !== undefined) setTimeout(answer, plan.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    count: (scenario) => seen.filter((s) => s.scenario === scenario).length,
    results(scenario) {
      const last = seen.filter((s) => s.scenario === scenario).at(-1);
      const messages = (last?.body.messages ?? []) as { role: string; content: unknown }[];
      return messages.flatMap((m) => {
        if (m.role === 'tool' && typeof m.content === 'string') return [m.content];
        if (m.role === 'user' && Array.isArray(m.content)) return (m.content as { type: string; content: string }[]).filter((b) => b.type === 'tool_result').map((b) => b.content);
        return [];
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
