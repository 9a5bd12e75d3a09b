// One request to a judge model, with Node's own fetch: the Anthropic Messages API or an OpenAI-compatible
// chat completion (OpenAI, Ollama, llama.cpp, vLLM). Every way it can end is a value. Redirects are not
// followed (a redirect would carry the key to wherever the server says), the body read is capped, and the
// key is removed from every message before it is said anywhere.
import { isRecord } from '../json.js';
import { JUDGE_SYSTEM_PROMPT } from './prompt-text.js';
import type { Target } from './target.js';

/** Bytes of a response body read; past that the answer is a failure. */
export const ANSWER_BODY_LIMIT = 1024 * 1024;
/** Tokens the judge may answer with: a verdict is one short object. */
const MAX_TOKENS = 1024;

export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}

export type AskEnd =
  | { kind: 'answered'; text: string; model: string; usage: Usage }
  | { kind: 'refused'; message: string; usage: Usage }
  | { kind: 'timeout' }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

export async function askModel(target: Target, prompt: string, timeoutMs: number, signal?: AbortSignal): Promise<AskEnd> {
  if (signal?.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, Math.max(1, Math.round(timeoutMs)));
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: JSON.stringify(requestBody(target, prompt)), redirect: 'manual', signal: controller.signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      return { kind: 'error', message: `POST ${target.url}: HTTP ${response.status} redirect, not followed` };
    }
    const body = await readCapped(response);
    if (body === undefined) return { kind: 'error', message: `POST ${target.url}: the answer is over ${ANSWER_BODY_LIMIT} bytes` };
    if (!response.ok) return { kind: 'error', message: hide(`POST ${target.url}: HTTP ${response.status}${body.trim() === '' ? '' : `: ${oneLine(body)}`}`, target.secret) };
    return hideEnd(readBody(target, body), target.secret);
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    if (signal?.aborted) return { kind: 'cancelled' };
    return { kind: 'error', message: hide(`POST ${target.url}: ${cause(error)}`, target.secret) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/** The request body for the target's provider (non-streaming). */
export function requestBody(target: Target, prompt: string): Record<string, unknown> {
  if (target.provider === 'anthropic') {
    return { model: target.model, max_tokens: MAX_TOKENS, system: JUDGE_SYSTEM_PROMPT, messages: [{ role: 'user', content: prompt }] };
  }
  return {
    model: target.model,
    max_tokens: MAX_TOKENS,
    messages: [
      { role: 'system', content: JUDGE_SYSTEM_PROMPT },
      { role: 'user', content: prompt },
    ],
  };
}

// --- internal ---

/** Reads the provider's answer; a body of the wrong shape is an error naming what was missing. */
function readBody(target: Target, body: string): AskEnd {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'error', message: `POST ${target.url}: the answer is not JSON: ${oneLine(body)}` };
  }
  if (!isRecord(value)) return { kind: 'error', message: `POST ${target.url}: the answer is not a JSON object` };
  const model = typeof value.model === 'string' ? value.model : target.model;
  if (target.provider === 'anthropic') {
    const usage = isRecord(value.usage) ? { ...count('inputTokens', value.usage.input_tokens), ...count('outputTokens', value.usage.output_tokens) } : {};
    if (value.stop_reason === 'refusal') return { kind: 'refused', message: 'the model refused to judge (stop_reason: refusal)', usage };
    if (!Array.isArray(value.content)) return { kind: 'error', message: `POST ${target.url}: no "content" in the Messages API answer` };
    const text = value.content.flatMap((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('');
    return { kind: 'answered', text, model, usage };
  }
  const usage = isRecord(value.usage) ? { ...count('inputTokens', value.usage.prompt_tokens), ...count('outputTokens', value.usage.completion_tokens) } : {};
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) return { kind: 'error', message: `POST ${target.url}: no "choices[0].message" in the chat completion` };
  if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') return { kind: 'refused', message: `the model refused to judge: ${oneLine(choice.message.refusal)}`, usage };
  if (choice.finish_reason === 'content_filter') return { kind: 'refused', message: 'the model refused to judge (finish_reason: content_filter)', usage };
  const content = choice.message.content;
  return { kind: 'answered', text: typeof content === 'string' ? content : '', model, usage };
}

async function readCapped(response: Response): Promise<string | undefined> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > ANSWER_BODY_LIMIT) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function count(name: keyof Usage, value: unknown): Usage {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? { [name]: value } : {};
}

function cause(error: unknown): string {
  // fetch says "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, ...) in `cause`.
  const inner = (error as { cause?: { code?: string; message?: string } }).cause;
  if (inner?.code === 'ECONNREFUSED') return 'connection refused';
  return inner?.code ?? inner?.message ?? (error instanceof Error ? error.message : String(error));
}

function hideEnd(end: AskEnd, secret: string | undefined): AskEnd {
  if (end.kind === 'answered') return { ...end, text: hide(end.text, secret) };
  if (end.kind === 'error' || end.kind === 'refused') return { ...end, message: hide(end.message, secret) };
  return end;
}

/** The text with the key replaced, wherever a server echoed it. */
export function hide(text: string, secret: string | undefined): string {
  return secret === undefined || secret.length < 4 ? text : text.replaceAll(secret, '[api key]');
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
