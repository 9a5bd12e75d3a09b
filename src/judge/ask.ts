// One request to a judge model: the Anthropic Messages API or an OpenAI-compatible
// chat completion (OpenAI, Ollama, llama.cpp, vLLM). Every way it can end is a value. Redirects are not
// followed (a redirect would carry the key to wherever the server says), the body read is capped, and the
// key is removed from every message before it is said anywhere.
import http from 'node:http';
import https from 'node:https';
import { isRecord } from '../json.js';
import { JUDGE_SYSTEM_PROMPT } from './prompt-text.js';
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

export async function askModel(target: Target, prompt: string, timeoutMs: number, signal?: AbortSignal): Promise<AskEnd> {
  const end = await post(target, JSON.stringify(requestBody(target, prompt)), timeoutMs, signal);
  const where = `POST ${shownUrl(target.url)}`;
  if (end.kind !== 'answered') return end.kind === 'error' ? { kind: 'error', message: hide(`${where}: ${end.message}`, target.secret) } : end;
  if (end.status >= 300 && end.status < 400) return { kind: 'error', message: `${where}: HTTP ${end.status} redirect, not followed` };
  if (end.tooLarge) return { kind: 'error', message: `${where}: the answer is over ${ANSWER_BODY_LIMIT} bytes` };
  if (end.status < 200 || end.status > 299) return { kind: 'error', message: `${where}: HTTP ${end.status}${end.body.trim() === '' ? '' : `: ${oneLine(end.body, target.secret)}`}` };
  return hideEnd(readBody(target, where, end.body), target.secret);
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
function readBody(target: Target, where: string, body: string): AskEnd {
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

type End = { kind: 'answered'; status: number; body: string; tooLarge: boolean } | { kind: 'timeout' } | { kind: 'cancelled' } | { kind: 'error'; message: string };

// node:http rather than fetch: a process's first fetch loads undici, which cost 75-190 ms against
// 13-37 ms for node:http, measured interleaved in one run (docs/model-judged.md), on every event.
function post(target: Target, body: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<End> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: 'cancelled' });
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return resolve({ kind: 'error', message: 'not a URL' });
    }
    const bytes = Buffer.from(body, 'utf8');
    let settled = false;
    const finish = (end: End) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(end);
    };
    let req: http.ClientRequest;
    try {
      req = (url.protocol === 'https:' ? https : http).request(url, { method: 'POST', headers: { ...target.headers, 'content-length': String(bytes.length) }, agent: false });
    } catch (error) {
      return resolve({ kind: 'error', message: (error as Error).message });
    }
    const timer = setTimeout(() => {
      finish({ kind: 'timeout' });
      req.destroy();
    }, Math.max(1, Math.round(timeoutMs)));
    const onAbort = () => {
      finish({ kind: 'cancelled' });
      req.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'error', message: error.code === 'ECONNREFUSED' ? 'connection refused' : error.message }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let tooLarge = false;
      res.on('data', (chunk: Buffer) => {
        if (tooLarge) return;
        if (kept + chunk.length > ANSWER_BODY_LIMIT) {
          tooLarge = true;
          res.destroy();
          finish({ kind: 'answered', status: res.statusCode ?? 0, body: '', tooLarge: true });
        } else {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () => finish({ kind: 'answered', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), tooLarge }));
      res.on('error', (error) => finish({ kind: 'error', message: error.message }));
    });
    req.end(bytes);
  });
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
