// One request to a judge model: the Anthropic Messages API or an OpenAI-compatible
// chat completion (OpenAI, Ollama, llama.cpp, vLLM). Every way it can end is a value. Redirects are not
// followed (a redirect would carry the key to wherever the server says), the body read is capped, and the
// key is removed from every message before it is said anywhere.
import { isRecord } from '../json.js';
import { post } from '../net/post.js';
import { JUDGE_SYSTEM_PROMPT } from './prompt-text.js';
import { looksLikeSse, readAnthropicStream, readOpenAiStream } from './sse.js';
import { shownUrl, type Target } from './target.js';

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

/** A Stop judge's: its own system prompt, and the conversation before the question. */
export interface Conversation {
  system: string;
  history: readonly { role: 'user' | 'assistant'; content: string }[];
}

export async function askModel(target: Target, prompt: string, timeoutMs: number, signal?: AbortSignal, conversation?: Conversation): Promise<AskEnd> {
  const body = Buffer.from(JSON.stringify(requestBody(target, prompt, conversation)), 'utf8');
  const end = await post(target.url, target.headers, body, { timeoutMs: Math.max(1, Math.round(timeoutMs)), limit: ANSWER_BODY_LIMIT, ...(signal === undefined ? {} : { signal }) });
  const where = `POST ${shownUrl(target.url)}`;
  if (end.kind !== 'answered') return end.kind === 'error' ? { kind: 'error', message: hide(`${where}: ${end.message}`, target.secret) } : end;
  if (end.status >= 300 && end.status < 400) return { kind: 'error', message: `${where}: HTTP ${end.status} redirect, not followed` };
  if (end.tooLarge) return { kind: 'error', message: `${where}: the answer is over ${ANSWER_BODY_LIMIT} bytes` };
  if (end.status < 200 || end.status > 299) return { kind: 'error', message: `${where}: HTTP ${end.status}${end.body.trim() === '' ? '' : `: ${oneLine(end.body, target.secret)}`}` };
  return hideEnd(readBody(target, where, end.body), target.secret);
}

/** The request body for the target's provider (non-streaming). */
export function requestBody(target: Target, prompt: string, conversation?: Conversation): Record<string, unknown> {
  const system = conversation?.system ?? JUDGE_SYSTEM_PROMPT;
  const history = [...(conversation?.history ?? [])];
  // Turns alternate and the question is the user's: a transcript ending on the user's turn takes it in.
  const last = history.at(-1);
  const messages = last?.role === 'user' ? [...history.slice(0, -1), { role: 'user', content: `${last.content}\n\n${prompt}` }] : [...history, { role: 'user', content: prompt }];
  if (target.provider === 'anthropic') return { model: target.model, max_tokens: MAX_TOKENS, system, messages };
  return { model: target.model, max_tokens: MAX_TOKENS, messages: [{ role: 'system', content: system }, ...messages] };
}

// --- internal ---

/**
 * Reads the provider's answer; a body of the wrong shape is an error naming what was missing. We never ask for
 * `stream: true` (a verdict is one short object: streaming would only add framing to parse, and the usage comes
 * whole in one answer), but a server that streams anyway (a proxy, a local server whose default is to stream) is
 * read as the provider's event stream.
 */
function readBody(target: Target, where: string, body: string): AskEnd {
  if (looksLikeSse(body)) return readStreamed(target, where, body);
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'error', message: `${where}: the answer is not JSON: ${oneLine(body, target.secret)}` };
  }
  if (!isRecord(value)) return { kind: 'error', message: `${where}: the answer is not a JSON object` };
  const model = answeredModel(value.model, target);
  if (target.provider === 'anthropic') {
    const usage = isRecord(value.usage) ? { ...count('inputTokens', value.usage.input_tokens), ...count('outputTokens', value.usage.output_tokens) } : {};
    if (value.stop_reason === 'refusal') return { kind: 'refused', message: 'the model refused to judge (stop_reason: refusal)', usage };
    if (!Array.isArray(value.content)) return { kind: 'error', message: `${where}: no "content" in the Messages API answer` };
    const text = value.content.flatMap((block) => (isRecord(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [])).join('');
    return { kind: 'answered', text, model, usage };
  }
  const usage = isRecord(value.usage) ? { ...count('inputTokens', value.usage.prompt_tokens), ...count('outputTokens', value.usage.completion_tokens) } : {};
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) return { kind: 'error', message: `${where}: no "choices[0].message" in the chat completion` };
  if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') return { kind: 'refused', message: `the model refused to judge: ${oneLine(choice.message.refusal, target.secret)}`, usage };
  if (choice.finish_reason === 'content_filter') return { kind: 'refused', message: 'the model refused to judge (finish_reason: content_filter)', usage };
  const content = choice.message.content;
  return { kind: 'answered', text: typeof content === 'string' ? content : '', model, usage };
}

function readStreamed(target: Target, where: string, body: string): AskEnd {
  const read = target.provider === 'anthropic' ? readAnthropicStream(body) : readOpenAiStream(body);
  if (!read.ok) return { kind: 'error', message: `${where}: ${hide(read.problem, target.secret)}` };
  const usage: Usage = { ...(read.inputTokens === undefined ? {} : { inputTokens: read.inputTokens }), ...(read.outputTokens === undefined ? {} : { outputTokens: read.outputTokens }) };
  if (read.refused !== undefined) return { kind: 'refused', message: read.refused, usage };
  return { kind: 'answered', text: read.text, model: answeredModel(read.model, target), usage };
}

function count(name: keyof Usage, value: unknown): Usage {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? { [name]: value } : {};
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

/** The key is masked before the cut: a cut through the key would leave its first part unmasked. */
function oneLine(text: string, secret: string | undefined): string {
  const line = hide(text, secret).replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Longest model name taken from an answer; a longer or multi-line one is not a model name. */
const MODEL_NAME_LIMIT = 100;

/**
 * The model the server says answered, for traces, `explain` and the audit log: with the key masked, and
 * only when it looks like a model name (one short line); else the model that was asked for.
 */
function answeredModel(value: unknown, target: Target): string {
  if (typeof value !== 'string') return target.model;
  const model = hide(value, target.secret).trim();
  return model !== '' && model.length <= MODEL_NAME_LIMIT && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(model) ? model : target.model;
}
