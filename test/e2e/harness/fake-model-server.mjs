#!/usr/bin/env node
// A scripted fake model server for the end-to-end tests, run as its own process (so a test can
// kill it by PID). It speaks one wire API, chosen by --api:
//   anthropic  Anthropic Messages (POST /v1/messages, SSE when stream: true)      Claude Code
//   responses  OpenAI Responses over SSE (POST /v1/responses)                     Codex CLI
//   gemini     Gemini v1beta (:streamGenerateContent?alt=sse, :generateContent)   Gemini CLI
//   chat       OpenAI Chat Completions (POST /v1/chat/completions, SSE)           Copilot CLI, opencode
//
// Script (--script <file.json>): an array of steps, `{"tool": {"name", "input"}}` or `{"text"}`.
// The n-th request that offers tools to the model (a "turn") is answered with step n; once the
// script is used up every turn gets the text "Done." Requests without tools (titles, token counts,
// routers) get text and do not advance the script.
//
// Every request is appended to --log <file.jsonl> as one JSON line *before* the answer is sent:
// {seq, method, path, kind: "turn" | "side" | "judge", step, body}. It listens on 127.0.0.1, port 0, and
// prints {"port": N} as its first stdout line.
//
// --judge-deny <text> (anthropic): a prompt-hook judge request (its system prompt begins "You are
// evaluating a hook", or "You are evaluating a stop-condition hook" on Stop, as Claude Code's and agent-hooks' do) is answered {"ok": false, ...} when its
// messages hold <text>, else {"ok": true}; it does not advance the script.
//
// --agent-deny <text> --agent-read <file> (anthropic): an agent hook's verifier request (its system
// prompt says "Your task is to evaluate the condition", as Claude Code's and agent-hooks' do) is
// answered, without advancing the script: first with a Read of <file>; once a tool result is in the
// conversation, with StructuredOutput {"ok": false} when the messages hold <text> and the Read's result
// came back (so the verdict rests on the file), else {"ok": true}. Only the first message (the event) is
// searched for <text>.
import { appendFileSync, readFileSync } from 'node:fs';
import http from 'node:http';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []),
);
const api = args.api;
const script = args.script ? JSON.parse(readFileSync(args.script, 'utf8')) : [];
const logFile = args.log;
const judgeDeny = args['judge-deny'];
const agentDeny = args['agent-deny'];
const agentRead = args['agent-read'];
if (!['anthropic', 'responses', 'gemini', 'chat'].includes(api) || !logFile) {
  process.stderr.write('usage: fake-model-server.mjs --api anthropic|responses|gemini|chat --log <file> [--script <file>]\n');
  process.exit(1);
}

let seq = 0;
let turns = 0;
const DONE = { text: 'Done.' };

function record(req, body, kind, step) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  appendFileSync(logFile, `${JSON.stringify({ seq: seq++, method: req.method, path: url.pathname, query: url.search, kind, step, body })}\n`);
}

/** The next scripted step for a request that offers tools; side requests get text. */
function nextStep(hasTools) {
  if (!hasTools) return { kind: 'side', step: DONE };
  const step = script[turns] ?? DONE;
  turns += 1;
  return { kind: 'turn', step };
}

let ids = 0;
const id = (prefix) => `${prefix}_${Date.now().toString(36)}${(ids++).toString(36)}`;

function sse(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const [event, data] of events) {
    if (event) res.write(`event: ${event}\n`);
    res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  }
  res.end();
}

function json(res, status, data) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(data));
}

// ---------------------------------------------------------------- Anthropic Messages
function anthropic(req, res, body, path) {
  if (path.endsWith('/count_tokens')) {
    record(req, body, 'side', null);
    return json(res, 200, { input_tokens: 42 });
  }
  if (!path.endsWith('/messages')) {
    record(req, body, 'side', null);
    return json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `no ${path}` } });
  }
  const system = JSON.stringify(body.system ?? '');
  const judging = judgeDeny !== undefined && (system.includes('You are evaluating a hook') || system.includes('You are evaluating a stop-condition hook'));
  const verifying = agentDeny !== undefined && JSON.stringify(body.system ?? '').includes('Your task is to evaluate the condition');
  const { kind, step } = verifying
    ? { kind: 'verify', step: verifierStep(body) }
    : judging
    ? { kind: 'judge', step: { text: JSON.stringify(JSON.stringify(body.messages ?? []).includes(judgeDeny) ? { ok: false, reason: `the judge denies: ${judgeDeny}` } : { ok: true, reason: 'fine' }) } }
    : nextStep(Array.isArray(body.tools) && body.tools.length > 0);
  record(req, body, kind, step);
  const model = body.model ?? 'claude-fake';
  const block = step.tool
    ? { type: 'tool_use', id: id('toolu'), name: step.tool.name, input: step.tool.input }
    : { type: 'text', text: step.text };
  const stopReason = step.tool ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    return json(res, 200, { id: id('msg'), type: 'message', role: 'assistant', model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
  }
  const start = step.tool ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = step.tool
    ? { type: 'input_json_delta', partial_json: JSON.stringify(step.tool.input) }
    : { type: 'text_delta', text: step.text };
  sse(res, [
    ['message_start', { type: 'message_start', message: { id: id('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    ['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } }],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

/** The agent-hook verifier's next step (--agent-deny): Read the file, then answer from what came back. */
function verifierStep(body) {
  // The event is in the first message; the rest is the verifier's own tool use.
  const messages = JSON.stringify((body.messages ?? [])[0] ?? '');
  const results = (body.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : []));
  if (results.length === 0) return { tool: { name: 'Read', input: { file_path: agentRead } } };
  const read = JSON.stringify(results).includes('POLICY');
  const deny = read && messages.includes(agentDeny);
  return { tool: { name: 'StructuredOutput', input: deny ? { ok: false, reason: `the policy forbids ${agentDeny}` } : { ok: true, reason: read ? 'the policy allows it' : 'the policy could not be read' } } };
}

// ---------------------------------------------------------------- OpenAI Responses
function responses(req, res, body, path) {
  if (!path.endsWith('/responses')) {
    record(req, body, 'side', null);
    if (path.endsWith('/models')) return json(res, 200, { object: 'list', data: [], models: [] });
    return json(res, 404, { error: { message: `no ${path}` } });
  }
  const { kind, step } = nextStep(Array.isArray(body.tools) && body.tools.length > 0);
  record(req, body, kind, step);
  const respId = id('resp');
  const item = step.tool
    ? { type: 'function_call', id: id('fc'), call_id: id('call'), name: step.tool.name, arguments: JSON.stringify(step.tool.input), status: 'completed' }
    : { type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
  const usage = { input_tokens: 100, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 120 };
  const events = [
    ['response.created', { type: 'response.created', response: { id: respId, object: 'response', status: 'in_progress', output: [] } }],
    ['response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress' } }],
  ];
  if (!step.tool) events.push(['response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: step.text }]);
  events.push(
    ['response.output_item.done', { type: 'response.output_item.done', output_index: 0, item }],
    ['response.completed', { type: 'response.completed', response: { id: respId, object: 'response', status: 'completed', output: [item], usage } }],
  );
  sse(res, events);
}

// ---------------------------------------------------------------- Gemini
function gemini(req, res, body, path, query) {
  if (path.endsWith(':countTokens')) {
    record(req, body, 'side', null);
    return json(res, 200, { totalTokens: 42 });
  }
  const streaming = path.endsWith(':streamGenerateContent');
  if (!streaming && !path.endsWith(':generateContent')) {
    record(req, body, 'side', null);
    return json(res, 404, { error: { code: 404, message: `no ${path}`, status: 'NOT_FOUND' } });
  }
  const config = body.generationConfig ?? body.config ?? {};
  const schema = config.responseJsonSchema ?? config.responseSchema;
  let parts;
  if (schema) {
    // A utility call that wants JSON (the model router): fill the schema's fields.
    record(req, body, 'side', null);
    parts = [{ text: JSON.stringify(fillSchema(schema)) }];
  } else {
    const hasTools = Array.isArray(body.tools) && body.tools.some((t) => (t.functionDeclarations ?? []).length > 0);
    const { kind, step } = nextStep(hasTools);
    record(req, body, kind, step);
    parts = step.tool ? [{ functionCall: { name: step.tool.name, args: step.tool.input } }] : [{ text: step.text }];
  }
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: 'gemini-fake',
  };
  if (streaming || query.includes('alt=sse')) return sse(res, [[null, chunk]]);
  return json(res, 200, chunk);
}

function fillSchema(schema) {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (String(type ?? 'object').toLowerCase()) {
    case 'object': {
      const out = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {})) out[key] = fillSchema(sub);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return schema.enum?.[0] ?? 'simple';
  }
}

// ---------------------------------------------------------------- OpenAI Chat Completions
function chat(req, res, body, path) {
  if (req.method === 'GET' && path.endsWith('/models')) {
    record(req, body, 'side', null);
    return json(res, 200, { object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] });
  }
  if (!path.endsWith('/chat/completions')) {
    record(req, body, 'side', null);
    return json(res, 404, { error: { message: `no ${path}` } });
  }
  const { kind, step } = nextStep(Array.isArray(body.tools) && body.tools.length > 0);
  record(req, body, kind, step);
  const base = { id: id('chatcmpl'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model ?? 'fake-model' };
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  const toolCall = step.tool ? { id: id('call'), type: 'function', function: { name: step.tool.name, arguments: JSON.stringify(step.tool.input) } } : undefined;
  const finish = step.tool ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = step.tool ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: step.text };
    return json(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage });
  }
  const delta = step.tool ? { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] } : { role: 'assistant', content: step.text };
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }],
    [null, { ...base, choices: [], usage }],
    [null, '[DONE]'],
  ]);
}

const handlers = { anthropic, responses, gemini, chat };

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    let body = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      body = { unparsed: raw };
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    try {
      handlers[api](req, res, body, url.pathname, url.search);
    } catch (error) {
      process.stderr.write(`fake-model-server: ${error?.stack ?? error}\n`);
      if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
      else res.end();
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
