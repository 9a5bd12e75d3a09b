// The model-level events' agent-neutral payload (`model_request`, `model_response`) and what a hook may
// answer on them (`updatedRequest`, `updatedResponse`): how a reply is read, and how a rewrite is applied.
// Every agent's dialect translates its own request into this form and back; the library takes it as is.
import { isRecord, type Json } from '../json.js';
import type { EventName, HookEvent, HookInput } from '../types.js';

/** One message of the conversation, text only (agents that send richer parts keep them; hooks see the text). */
export interface ModelMessage {
  role: string;
  content: string;
}

/** A tool the model is offered, as the agent declares it. */
export interface ToolDeclaration {
  name: string;
  description?: string;
  /** The tool's input JSON Schema. */
  input_schema?: unknown;
}

/**
 * The model request hooks see under `model_request`. `parameters` holds the sampling and reasoning
 * settings by these names when the agent has them: `temperature`, `max_output_tokens`, `top_p`, `top_k`,
 * `thinking_level`, `thinking_budget`. `tools` is there when the agent shows its tool declarations;
 * `allowed_tools` when the tools the model may call are restricted (absent: all of `tools`).
 */
export interface ModelRequest {
  model?: string;
  messages: ModelMessage[];
  parameters: Record<string, unknown>;
  tools?: ToolDeclaration[];
  allowed_tools?: string[];
}

/** The model's answer hooks see under `model_response` on afterModel. */
export interface ModelResponse {
  text: string;
  finish_reason?: string;
}

/** The model-level events: no agent but Gemini CLI (and library callers) has them; Claude Code and agents that reuse its event names do not. */
export const MODEL_EVENTS: readonly EventName[] = ['beforeModel', 'afterModel', 'beforeToolSelection'];

export const MODEL_REQUEST_KEY = 'model_request';
export const MODEL_RESPONSE_KEY = 'model_response';

/** The parameter names the docs promise; others pass through as the agent named them. */
export const KNOWN_PARAMETERS = ['temperature', 'max_output_tokens', 'top_p', 'top_k', 'thinking_level', 'thinking_budget'] as const;

export type RewriteReading<T> = { ok: true; value: T | undefined } | { ok: false; problem: string };

/**
 * A reply's model-request rewrite: ours (`updatedRequest`) or Gemini CLI's own
 * (`hookSpecificOutput.llm_request`, `hookSpecificOutput.toolConfig`), so a hook written for Gemini is
 * not dropped without a word. Nothing said: `value` undefined.
 */
export function readRequestRewrite(reply: Json): RewriteReading<Json> {
  const specific = isRecord(reply.hookSpecificOutput) ? reply.hookSpecificOutput : {};
  let update: Json | undefined;
  if (reply.updatedRequest !== undefined) {
    if (!isRecord(reply.updatedRequest)) return { ok: false, problem: '"updatedRequest" must be an object (the model-request fields to change)' };
    update = { ...reply.updatedRequest };
  }
  if (specific.llm_request !== undefined && specific.llm_request !== null) {
    if (!isRecord(specific.llm_request)) return { ok: false, problem: '"hookSpecificOutput.llm_request" must be an object' };
    update = { ...fromGeminiRequest(specific.llm_request), ...update };
  }
  if (specific.toolConfig !== undefined && specific.toolConfig !== null) {
    const config = specific.toolConfig;
    if (!isRecord(config)) return { ok: false, problem: '"hookSpecificOutput.toolConfig" must be an object' };
    const allowed = config.mode === 'NONE' ? [] : config.allowedFunctionNames;
    if (allowed !== undefined) update = { allowed_tools: allowed, ...update };
  }
  if (update === undefined) return { ok: true, value: undefined };
  const problem = checkRequestUpdate(update);
  return problem === undefined ? { ok: true, value: update } : { ok: false, problem };
}

/** A reply's model-response rewrite: ours (`updatedResponse`) or Gemini's `hookSpecificOutput.llm_response`. */
export function readResponseRewrite(reply: Json): RewriteReading<Json> {
  const specific = isRecord(reply.hookSpecificOutput) ? reply.hookSpecificOutput : {};
  let update: Json | undefined;
  if (specific.llm_response !== undefined && specific.llm_response !== null) {
    const text = geminiResponseText(specific.llm_response);
    if (text === undefined) return { ok: false, problem: '"hookSpecificOutput.llm_response" must have candidates[0].content.parts (text)' };
    update = { text };
  }
  if (reply.updatedResponse !== undefined) {
    if (!isRecord(reply.updatedResponse)) return { ok: false, problem: '"updatedResponse" must be an object ({"text": "..."})' };
    update = { ...update, ...reply.updatedResponse };
  }
  if (update === undefined) return { ok: true, value: undefined };
  if (update.text !== undefined && typeof update.text !== 'string') return { ok: false, problem: '"updatedResponse.text" must be a string' };
  return { ok: true, value: update };
}

/**
 * The request after a hook's update: `model` and `messages` are replaced, `parameters` merged key by key
 * (`null` removes one), and `allowed_tools` can only narrow: it is intersected with what the request
 * already allowed (or declared), so no hook, whatever its layer, gives the model back a tool an earlier
 * hook took away. `tools` (the declarations) cannot be rewritten: a hook restricts, it does not invent.
 */
export function applyRequestRewrite(current: unknown, update: Json): Json {
  const base: Json = isRecord(current) ? { ...current } : { messages: [], parameters: {} };
  if (typeof update.model === 'string') base.model = update.model;
  if (Array.isArray(update.messages)) base.messages = update.messages.map((m: Json) => ({ ...m }));
  if (isRecord(update.parameters)) {
    const parameters: Json = isRecord(base.parameters) ? { ...base.parameters } : {};
    for (const [key, value] of Object.entries(update.parameters)) {
      if (value === null) delete parameters[key];
      else if (value !== undefined) parameters[key] = value;
    }
    base.parameters = parameters;
  }
  if (Array.isArray(update.allowed_tools)) {
    let next = [...new Set(update.allowed_tools as string[])];
    const allowedBefore = allowedTools(base);
    if (allowedBefore !== undefined) next = next.filter((name) => allowedBefore.includes(name));
    base.allowed_tools = next;
  }
  return base;
}

/** The response after a hook's update (`text` replaced, other fields merged). */
export function applyResponseRewrite(current: unknown, update: Json): Json {
  return { ...(isRecord(current) ? current : {}), ...update };
}

/** The tools the model may call: `allowed_tools`, else every declared tool, else unknown (undefined). */
export function allowedTools(request: unknown): string[] | undefined {
  if (!isRecord(request)) return undefined;
  if (Array.isArray(request.allowed_tools)) return request.allowed_tools.filter((n): n is string => typeof n === 'string');
  if (Array.isArray(request.tools)) return request.tools.flatMap((t) => (isRecord(t) && typeof t.name === 'string' ? [t.name] : []));
  return undefined;
}

/** Which top-level parts of the request differ between two versions (for dialects that carry only some). */
export function changedParts(before: unknown, after: unknown): Set<'model' | 'messages' | 'parameters' | 'allowed_tools'> {
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const changed = new Set<'model' | 'messages' | 'parameters' | 'allowed_tools'>();
  for (const key of ['model', 'messages', 'parameters', 'allowed_tools'] as const) {
    if (JSON.stringify(b[key]) !== JSON.stringify(a[key])) changed.add(key);
  }
  return changed;
}

/** Which parameters differ between two versions of the request. */
export function changedParameters(before: unknown, after: unknown): string[] {
  const b = isRecord(before) && isRecord(before.parameters) ? before.parameters : {};
  const a = isRecord(after) && isRecord(after.parameters) ? after.parameters : {};
  return [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
}

/**
 * A model event for the library (`runner.run(modelEvent('beforeModel', request))`): the payload hooks get
 * carries `model_request` (and `model_response` on afterModel) beside any fields given in `extra`
 * (`session_id`, `cwd`, ...). The decision's `updatedRequest` / `updatedResponse` is the whole rewritten
 * request / response.
 */
export function modelEvent(
  name: 'beforeModel' | 'afterModel' | 'beforeToolSelection',
  request: ModelRequest,
  extra: { response?: ModelResponse } & Omit<HookInput, 'hook_event_name'> = {},
): HookEvent {
  const { response, ...fields } = extra;
  const claude = { beforeModel: 'BeforeModel', afterModel: 'AfterModel', beforeToolSelection: 'BeforeToolSelection' }[name];
  const payload: HookInput = { ...fields, hook_event_name: claude, [MODEL_REQUEST_KEY]: request };
  if (response !== undefined) payload[MODEL_RESPONSE_KEY] = response;
  return { name, payload };
}

/** Sample `model_request` (and `model_response`) fields, for `hooks sample` and test cases. */
export function sampleModelFields(event: 'beforeModel' | 'afterModel' | 'beforeToolSelection'): Json {
  const request: ModelRequest = {
    model: 'gemini-2.5-pro',
    messages: [
      { role: 'user', content: 'Add a --port option to the dev server' },
      { role: 'assistant', content: 'I will look at src/server.ts first.' },
    ],
    parameters: { temperature: 1, top_p: 0.95, top_k: 64, max_output_tokens: 8192 },
    tools: [
      { name: 'read_file', description: 'Reads a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
      { name: 'run_shell_command', description: 'Runs a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
    ],
  };
  return event === 'afterModel' ? { [MODEL_REQUEST_KEY]: request, [MODEL_RESPONSE_KEY]: { text: 'The port is hard-coded on line 8.', finish_reason: 'STOP' } } : { [MODEL_REQUEST_KEY]: request };
}

// --- Gemini CLI's own hook shapes (`LLMRequest`, `LLMResponse`) ---

const GEMINI_PARAMETERS = [
  ['temperature', 'temperature'],
  ['maxOutputTokens', 'max_output_tokens'],
  ['topP', 'top_p'],
  ['topK', 'top_k'],
] as const;

/** Gemini's `llm_request` as our model request. Gemini says `model` where we say `assistant`. */
export function fromGeminiRequest(request: Json): Json {
  const out: Json = {};
  if (typeof request.model === 'string') out.model = request.model;
  if (Array.isArray(request.messages)) {
    out.messages = request.messages.filter(isRecord).map((m) => ({ role: m.role === 'model' ? 'assistant' : String(m.role ?? 'user'), content: typeof m.content === 'string' ? m.content : String(m.content ?? '') }));
  }
  if (isRecord(request.config)) {
    const parameters: Json = {};
    for (const [gemini, ours] of GEMINI_PARAMETERS) if (request.config[gemini] !== undefined) parameters[ours] = request.config[gemini];
    out.parameters = parameters;
  }
  return out;
}

/** Our model request as Gemini's `llm_request` (all four generation settings: Gemini resets any left out). */
export function toGeminiRequest(request: Json, parts: { model: boolean; messages: boolean; parameters: boolean }): Json {
  const out: Json = {};
  if (parts.model && typeof request.model === 'string') out.model = request.model;
  if (parts.messages && Array.isArray(request.messages)) {
    out.messages = request.messages.filter(isRecord).map((m) => ({ role: m.role === 'assistant' ? 'model' : m.role, content: m.content }));
  }
  if (parts.parameters) {
    const parameters = isRecord(request.parameters) ? request.parameters : {};
    const config: Json = {};
    for (const [gemini, ours] of GEMINI_PARAMETERS) config[gemini] = parameters[ours];
    out.config = config;
  }
  return out;
}

/** The parameters Gemini CLI's hooks can set. */
export const GEMINI_SETTABLE_PARAMETERS: readonly string[] = GEMINI_PARAMETERS.map(([, ours]) => ours);

/** Gemini's `llm_response` as our model response. */
export function fromGeminiResponse(response: unknown): Json {
  const text = geminiResponseText(response);
  const out: Json = { text: text ?? (isRecord(response) && typeof response.text === 'string' ? response.text : '') };
  const candidate = isRecord(response) && Array.isArray(response.candidates) && isRecord(response.candidates[0]) ? response.candidates[0] : undefined;
  if (candidate !== undefined && typeof candidate.finishReason === 'string') out.finish_reason = candidate.finishReason;
  return out;
}

/** Our model response as Gemini's `llm_response` (one candidate, one text part). */
export function toGeminiResponse(response: Json): Json {
  const text = typeof response.text === 'string' ? response.text : '';
  return { text, candidates: [{ content: { role: 'model', parts: [text] }, ...(typeof response.finish_reason === 'string' ? { finishReason: response.finish_reason } : {}) }] };
}

function geminiResponseText(response: unknown): string | undefined {
  if (!isRecord(response) || !Array.isArray(response.candidates)) return undefined;
  const first = response.candidates[0];
  if (!isRecord(first) || !isRecord(first.content) || !Array.isArray(first.content.parts)) return undefined;
  return first.content.parts.map((p: unknown) => (typeof p === 'string' ? p : isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

function checkRequestUpdate(update: Json): string | undefined {
  if (update.model !== undefined && typeof update.model !== 'string') return '"updatedRequest.model" must be a string';
  if (update.messages !== undefined) {
    if (!Array.isArray(update.messages)) return '"updatedRequest.messages" must be an array of {"role", "content"}';
    for (const [i, m] of update.messages.entries()) {
      if (!isRecord(m) || typeof m.role !== 'string' || typeof m.content !== 'string') return `"updatedRequest.messages[${i}]" must be {"role": string, "content": string}`;
    }
  }
  if (update.parameters !== undefined) {
    if (!isRecord(update.parameters)) return '"updatedRequest.parameters" must be an object';
    for (const [key, value] of Object.entries(update.parameters)) {
      if (value !== null && !['number', 'string', 'boolean'].includes(typeof value)) return `"updatedRequest.parameters.${key}" must be a number, string, boolean or null`;
      if (typeof value === 'number' && !Number.isFinite(value)) return `"updatedRequest.parameters.${key}" must be a finite number`;
    }
  }
  if (update.allowed_tools !== undefined) {
    if (!Array.isArray(update.allowed_tools) || !update.allowed_tools.every((n) => typeof n === 'string')) return '"updatedRequest.allowed_tools" must be an array of tool names';
  }
  if (update.tools !== undefined) return '"updatedRequest.tools" cannot be rewritten: restrict the tools with "allowed_tools"';
  return undefined;
}
