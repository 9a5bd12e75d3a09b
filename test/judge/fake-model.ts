// A fake judge model on 127.0.0.1 speaking both the Anthropic Messages API and OpenAI chat completions.
// The first path segment is the scenario: `/<scenario>/v1/messages` or `/<scenario>/v1/chat/completions`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeModel {
  base: string;
  seen: Seen[];
  /** Requests seen for one scenario. */
  count(scenario: string): number;
  close(): Promise<void>;
}

/** What each scenario answers, as the text of the model's message (or a raw status/body). */
export type Scenario =
  | { text: string; delayMs?: number; usage?: [number, number]; stream?: boolean }
  | { status: number; body: string; contentType?: string }
  | { refuse: true };

/** The provider's event stream for `text`, cut into a few deltas, as the real APIs send it. */
export function streamOf(openai: boolean, text: string, model: unknown, usage: [number, number]): string {
  const pieces = [text.slice(0, 3), text.slice(3, 10), text.slice(10)].filter((p) => p !== '');
  const sse = (event: string | undefined, data: unknown) => `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
  if (openai) {
    return [
      ...pieces.map((p, i) => sse(undefined, { model, choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content: p } : { content: p }, finish_reason: null }] })),
      sse(undefined, { model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: usage[0], completion_tokens: usage[1] } }),
      'data: [DONE]\n\n',
    ].join('');
  }
  return [
    sse('message_start', { type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], usage: { input_tokens: usage[0], output_tokens: 1 } } }),
    sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ': keep-alive comment\n\n',
    sse('ping', { type: 'ping' }),
    ...pieces.map((p) => sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: p } })),
    sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sse('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: usage[1] } }),
    sse('message_stop', { type: 'message_stop' }),
  ].join('');
}

export async function fakeModel(scenarios: Record<string, Scenario>): Promise<FakeModel> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      const url = req.url ?? '';
      const scenario = url.split('/')[1] ?? '';
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as {}
      }
      seen.push({ path: url, headers: req.headers, body });
      const plan = scenarios[scenario];
      const openai = url.endsWith('/chat/completions');
      if (plan === undefined) {
        res.statusCode = 404;
        return res.end('no such scenario');
      }
      if ('status' in plan) {
        res.statusCode = plan.status;
        if (plan.contentType !== undefined) res.setHeader('content-type', plan.contentType);
        return res.end(plan.body);
      }
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        if ('refuse' in plan) {
          return res.end(JSON.stringify(openai ? { choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help with that' }, finish_reason: 'stop' }] } : { model: body.model, content: [], stop_reason: 'refusal', usage: { input_tokens: 5, output_tokens: 0 } }));
        }
        const [input, output] = plan.usage ?? [100, 12];
        // A server that streams whether or not it was asked to (the judge never asks).
        if (plan.stream === true || body.stream === true) {
          res.setHeader('content-type', 'text/event-stream');
          return res.end(streamOf(openai, plan.text, body.model, [input, output]));
        }
        res.end(
          JSON.stringify(
            openai
              ? { model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: plan.text }, finish_reason: 'stop' }], usage: { prompt_tokens: input, completion_tokens: output } }
              : { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model, content: [{ type: 'text', text: plan.text }], stop_reason: 'end_turn', usage: { input_tokens: input, output_tokens: output } },
          ),
        );
      };
      if ('delayMs' in plan && plan.delayMs !== undefined) setTimeout(answer, plan.delayMs).unref();
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    seen,
    count: (scenario) => seen.filter((s) => s.path.startsWith(`/${scenario}/`)).length,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
