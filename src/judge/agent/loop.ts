// The verifier's tool-use loop over either provider: the Anthropic Messages API (tool_use / tool_result
// blocks) or an OpenAI-compatible chat completion (tool_calls / role "tool" messages). Each model request
// is one turn and takes one request from the session's budget; the loop ends on the StructuredOutput
// call (Claude Code's answer tool), on a text answer with no tool call (read as a prompt hook's answer),
// or as a named failure: turns spent, time spent, budget spent, an error. Every way it ends is a value.
import { createHash } from 'node:crypto';
import { isRecord } from '../../json.js';
import { post } from '../../net/post.js';
import { ANSWER_BODY_LIMIT, hide, type Usage } from '../ask.js';
import { shownUrl, type Target } from '../target.js';
import { ANSWER_TOOL, readToolCall, runTool, TOOL_SPECS, type ToolCall, type ToolContext } from './tools.js';

export { DEFAULT_MAX_TURNS } from './limits.js';
/** Tokens one answer of the verifier may take. */
const MAX_TOKENS = 4096;

/** One tool call the verdict rested on, with the hash of what it returned (the cache re-checks it). */
export interface Evidence {
  call: ToolCall;
  sha256: string;
}

export interface AgentRun {
  target: Target;
  system: string;
  user: string;
  maxTurns: number;
  timeoutMs: number;
  signal?: AbortSignal;
  tools: Omit<ToolContext, 'deadline'>;
  /** Takes one request from the session's budget; false when it is spent. */
  take(): boolean;
}

export type AgentEnd =
  | { kind: 'answered'; text: string; model: string; usage: Usage; turns: number; evidence: Evidence[] }
  | { kind: 'max-turns'; turns: number; usage: Usage }
  | { kind: 'over-budget'; turns: number; usage: Usage }
  | { kind: 'timeout'; turns: number; usage: Usage }
  | { kind: 'cancelled' }
  | { kind: 'refused'; message: string; turns: number; usage: Usage }
  | { kind: 'error'; message: string; turns: number; usage: Usage };

interface Said {
  text: string;
  calls: { id: string; name: string; input: unknown }[];
  model: string;
  refusal?: string;
  /** The assistant message to send back next turn, in the provider's own shape. */
  message: Record<string, unknown>;
}

export async function runAgent(run: AgentRun): Promise<AgentEnd> {
  const deadline = Date.now() + run.timeoutMs;
  const anthropic = run.target.provider === 'anthropic';
  const messages: Record<string, unknown>[] = anthropic ? [{ role: 'user', content: run.user }] : [{ role: 'system', content: run.system }, { role: 'user', content: run.user }];
  const usage: Required<Usage> = { inputTokens: 0, outputTokens: 0 };
  const evidence: Evidence[] = [];
  const where = `POST ${shownUrl(run.target.url)}`;
  let turns = 0;
  while (turns < run.maxTurns) {
    const left = deadline - Date.now();
    if (left <= 0) return { kind: 'timeout', turns, usage };
    if (!run.take()) return { kind: 'over-budget', turns, usage };
    turns++;
    const body = Buffer.from(JSON.stringify(requestBody(run, messages)), 'utf8');
    const end = await post(run.target.url, run.target.headers, body, { timeoutMs: Math.max(1, Math.round(left)), limit: ANSWER_BODY_LIMIT, ...(run.signal === undefined ? {} : { signal: run.signal }) });
    if (end.kind === 'timeout') return { kind: 'timeout', turns, usage };
    if (end.kind === 'cancelled') return { kind: 'cancelled' };
    const fail = (message: string): AgentEnd => ({ kind: 'error', message: hide(`${message} (turn ${turns})`, run.target.secret), turns, usage });
    if (end.kind === 'error') return fail(`${where}: ${end.message}`);
    if (end.status >= 300 && end.status < 400) return fail(`${where}: HTTP ${end.status} redirect, not followed`);
    if (end.tooLarge) return fail(`${where}: the answer is over ${ANSWER_BODY_LIMIT} bytes`);
    if (end.status < 200 || end.status > 299) return fail(`${where}: HTTP ${end.status}${end.body.trim() === '' ? '' : `: ${oneLine(hide(end.body, run.target.secret))}`}`);
    const said = readAnswer(run.target, end.body, usage);
    if (typeof said === 'string') return fail(`${where}: ${said}`);
    if (said.refusal !== undefined) return { kind: 'refused', message: hide(said.refusal, run.target.secret), turns, usage };
    const answer = said.calls.find((c) => c.name === ANSWER_TOOL);
    if (answer !== undefined) {
      // The tool's input is the verdict; read as a prompt hook's answer is (a string is the raw JSON an OpenAI server sent).
      const text = typeof answer.input === 'string' ? answer.input : JSON.stringify(answer.input ?? null);
      return { kind: 'answered', text: hide(text, run.target.secret), model: said.model, usage, turns, evidence };
    }
    if (said.calls.length === 0) return { kind: 'answered', text: hide(said.text, run.target.secret), model: said.model, usage, turns, evidence };
    messages.push(said.message);
    const results: { id: string; text: string; isError: boolean }[] = [];
    for (const call of said.calls) {
      const read = readToolCall(call.name, call.input);
      if (!read.ok) {
        results.push({ id: call.id, text: read.problem, isError: true });
        continue;
      }
      const result = await runTool(read.call, { ...run.tools, deadline });
      if (!result.isError) evidence.push({ call: read.call, sha256: sha256(result.text) });
      results.push({ id: call.id, ...result });
    }
    if (anthropic) messages.push({ role: 'user', content: results.map((r) => ({ type: 'tool_result', tool_use_id: r.id, content: r.text, ...(r.isError ? { is_error: true } : {}) })) });
    else for (const r of results) messages.push({ role: 'tool', tool_call_id: r.id, content: r.isError ? `Error: ${r.text}` : r.text });
  }
  return { kind: 'max-turns', turns, usage };
}

/**
 * Whether a cached verdict's evidence still holds: each tool call it rested on, run again, returns what
 * it returned then. A file changed since, or a new match, and the verdict is asked again.
 */
export async function evidenceHolds(evidence: readonly Evidence[], tools: Omit<ToolContext, 'deadline'>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (const item of evidence) {
    const result = await runTool(item.call, { ...tools, deadline });
    if (result.isError || sha256(result.text) !== item.sha256) return false;
  }
  return true;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// --- internal ---

function requestBody(run: AgentRun, messages: Record<string, unknown>[]): Record<string, unknown> {
  if (run.target.provider === 'anthropic') {
    return { model: run.target.model, max_tokens: MAX_TOKENS, system: run.system, messages, tools: TOOL_SPECS.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })) };
  }
  return { model: run.target.model, max_tokens: MAX_TOKENS, messages, tools: TOOL_SPECS.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.schema } })) };
}

/** One answer of the provider read into text, tool calls and the message to send back; or what is wrong with it. */
function readAnswer(target: Target, body: string, usage: Required<Usage>): Said | string {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `the answer is not JSON: ${oneLine(hide(body, target.secret))}`;
  }
  if (!isRecord(value)) return 'the answer is not a JSON object';
  const model = typeof value.model === 'string' && value.model.length <= 100 && !/[\u0000-\u001f]/.test(value.model) ? hide(value.model, target.secret) : target.model;
  if (target.provider === 'anthropic') {
    if (isRecord(value.usage)) add(usage, value.usage.input_tokens, value.usage.output_tokens);
    if (value.stop_reason === 'refusal') return { text: '', calls: [], model, refusal: 'the model refused to judge (stop_reason: refusal)', message: {} };
    if (!Array.isArray(value.content)) return 'no "content" in the Messages API answer';
    const blocks = value.content.filter(isRecord);
    const text = blocks.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : [])).join('');
    const calls = blocks.flatMap((b) => (b.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string' ? [{ id: b.id, name: b.name, input: b.input }] : []));
    return { text, calls, model, message: { role: 'assistant', content: blocks } };
  }
  if (isRecord(value.usage)) add(usage, value.usage.prompt_tokens, value.usage.completion_tokens);
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (!isRecord(choice) || !isRecord(choice.message)) return 'no "choices[0].message" in the chat completion';
  const message = choice.message;
  if (typeof message.refusal === 'string' && message.refusal !== '') return { text: '', calls: [], model, refusal: `the model refused to judge: ${oneLine(hide(message.refusal, target.secret))}`, message: {} };
  if (choice.finish_reason === 'content_filter') return { text: '', calls: [], model, refusal: 'the model refused to judge (finish_reason: content_filter)', message: {} };
  const raw = Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : [];
  const calls = raw.flatMap((c) => (typeof c.id === 'string' && isRecord(c.function) && typeof c.function.name === 'string' ? [{ id: c.id, name: c.function.name, input: c.function.arguments }] : []));
  const text = typeof message.content === 'string' ? message.content : '';
  return { text, calls, model, message: { role: 'assistant', content: message.content ?? null, ...(raw.length === 0 ? {} : { tool_calls: raw }) } };
}

function add(usage: Required<Usage>, input: unknown, output: unknown): void {
  if (typeof input === 'number' && Number.isSafeInteger(input) && input >= 0) usage.inputTokens += input;
  if (typeof output === 'number' && Number.isSafeInteger(output) && output >= 0) usage.outputTokens += output;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
