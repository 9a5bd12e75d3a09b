// Server-sent events (the WHATWG event-stream format) as the judge providers stream them: the Anthropic
// Messages API (`event: content_block_delta` ...) and OpenAI chat completions (`data: {...}` ... `data: [DONE]`).
// The judge asks without `stream: true`, but a server (a proxy, a local model server) may stream anyway; its
// answer is read here into the same text, model and usage a whole answer gives. A stream that breaks off, an
// event whose data is not JSON, or an `error` event is a named problem, never a verdict.

export interface SseEvent {
  /** The `event:` field; absent: the default "message". */
  event?: string;
  data: string;
}

/** Events at most read from one stream: a verdict is a few dozen; a stream of millions is not a judge's. */
export const MAX_EVENTS = 100_000;

/**
 * The events of a whole stream, per the WHATWG parsing rules: lines end with CRLF, LF or CR; a line starting
 * with ":" is a comment; `field: value` loses one leading space of the value; `data` lines join with "\n"; a
 * blank line dispatches; an event with no data is not dispatched. `complete` is false when the text does not
 * end on a dispatched event (the stream was cut mid-event); `tooMany` when it holds more than MAX_EVENTS.
 */
export function parseSse(text: string): { events: SseEvent[]; complete: boolean; tooMany: boolean } {
  const events: SseEvent[] = [];
  let data: string[] = [];
  let name: string | undefined;
  let pending = false;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (const line of body.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length > 0) {
        events.push(name === undefined ? { data: data.join('\n') } : { event: name, data: data.join('\n') });
        if (events.length > MAX_EVENTS) return { events, complete: false, tooMany: true };
      }
      data = [];
      name = undefined;
      pending = false;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      pending = true;
    } else if (field === 'event') {
      name = value;
      pending = true;
    }
  }
  return { events, complete: !pending, tooMany: false };
}

/** Whether a response body is an event stream rather than a JSON document (a JSON answer starts with "{"). */
export function looksLikeSse(body: string): boolean {
  return /^\uFEFF?(?:event|data|id|retry)?:/.test(body.trimStart());
}

export type StreamRead =
  | { ok: true; text: string; model?: string; inputTokens?: number; outputTokens?: number; refused?: string }
  | { ok: false; problem: string };

/** An Anthropic Messages API stream: text deltas joined; model and input tokens from message_start, output tokens from message_delta. */
export function readAnthropicStream(body: string): StreamRead {
  const parsed = parseSse(body);
  if (parsed.tooMany) return { ok: false, problem: `the event stream has more than ${MAX_EVENTS} events` };
  const out: { text: string; model?: string; inputTokens?: number; outputTokens?: number; refused?: string } = { text: '' };
  let stopped = false;
  for (const [i, e] of parsed.events.entries()) {
    const value = json(e.data);
    if (value === undefined) return { ok: false, problem: `event ${i + 1} of the stream${e.event === undefined ? '' : ` (${clip(e.event)})`} is not JSON: ${clip(e.data)}` };
    const type = e.event ?? (typeof value.type === 'string' ? value.type : undefined);
    if (type === 'error') return { ok: false, problem: `the stream reported an error: ${clip(message(value.error) ?? e.data)}` };
    if (type === 'message_start') {
      const m = record(value.message);
      if (typeof m?.model === 'string') out.model = m.model;
      const n = tokens(record(m?.usage)?.input_tokens);
      if (n !== undefined) out.inputTokens = n;
    } else if (type === 'content_block_delta') {
      const d = record(value.delta);
      if (d?.type === 'text_delta' && typeof d.text === 'string') out.text += d.text;
    } else if (type === 'content_block_start') {
      const b = record(value.content_block);
      if (b?.type === 'text' && typeof b.text === 'string') out.text += b.text;
    } else if (type === 'message_delta') {
      if (record(value.delta)?.stop_reason === 'refusal') out.refused = 'the model refused to judge (stop_reason: refusal)';
      const n = tokens(record(value.usage)?.output_tokens);
      if (n !== undefined) out.outputTokens = n;
    } else if (type === 'message_stop') stopped = true;
  }
  if (!stopped) return { ok: false, problem: 'the event stream ended before message_stop (cut off)' };
  return { ok: true, ...out };
}

/** An OpenAI chat completions stream: `choices[0].delta.content` joined, up to `data: [DONE]`. */
export function readOpenAiStream(body: string): StreamRead {
  const parsed = parseSse(body);
  if (parsed.tooMany) return { ok: false, problem: `the event stream has more than ${MAX_EVENTS} events` };
  const out: { text: string; model?: string; inputTokens?: number; outputTokens?: number; refused?: string } = { text: '' };
  let done = false;
  let finished = false;
  for (const [i, e] of parsed.events.entries()) {
    if (e.data.trim() === '[DONE]') {
      done = true;
      break;
    }
    const value = json(e.data);
    if (value === undefined) return { ok: false, problem: `event ${i + 1} of the stream is not JSON: ${clip(e.data)}` };
    if (value.error !== undefined) return { ok: false, problem: `the stream reported an error: ${clip(message(value.error) ?? e.data)}` };
    if (typeof value.model === 'string') out.model = value.model;
    const usage = record(value.usage);
    const input = tokens(usage?.prompt_tokens);
    const output = tokens(usage?.completion_tokens);
    if (input !== undefined) out.inputTokens = input;
    if (output !== undefined) out.outputTokens = output;
    const choice = Array.isArray(value.choices) ? record(value.choices[0]) : undefined;
    const delta = record(choice?.delta);
    if (typeof delta?.content === 'string') out.text += delta.content;
    if (typeof delta?.refusal === 'string' && delta.refusal !== '') out.refused = `the model refused to judge: ${clip(delta.refusal)}`;
    if (choice?.finish_reason === 'content_filter') out.refused = 'the model refused to judge (finish_reason: content_filter)';
    if (typeof choice?.finish_reason === 'string') finished = true;
  }
  // Some servers (llama.cpp, older proxies) end without [DONE] but after a finish_reason: the answer is whole.
  if (!done && !finished) return { ok: false, problem: 'the event stream ended before [DONE] or a finish_reason (cut off)' };
  return { ok: true, ...out };
}

// --- internal ---

function json(text: string): Record<string, unknown> | undefined {
  try {
    return record(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function tokens(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function message(error: unknown): string | undefined {
  const e = record(error);
  return typeof e?.message === 'string' ? e.message : typeof error === 'string' ? error : undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
