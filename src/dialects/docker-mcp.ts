// The docker-mcp dialect: Docker MCP gateway interceptors (`--interceptor before:exec:...` and
// `after:exec:...`). The gateway pipes the MCP `tools/call` request (before) or the `CallToolResult`
// (after) to the command. Empty stdout passes; any stdout must be a `CallToolResult`, which on before
// answers the call instead of the tool and on after replaces the result. A non-zero exit fails the
// call with a gateway error, so every answer exits 0.
//
// Hooks get the usual Claude-format payload plus the gateway's own one mirrored at the top level
// (`method`/`params`, or the result's `content`/`isError`/...), and a hook may answer in the gateway's
// own contract: a `CallToolResult` on stdout (reply/interpret.ts). The gateway shows interceptors only
// `tools/call` (pkg/interceptors/interceptors.go); a `tools/list` result piped in by a wrapper or proxy
// is read as beforeToolSelection, so tool-schema pinning can judge the tool definitions.
import type { Decision } from '../decide/combine.js';
import { HooksError } from '../errors.js';
import { resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Answer, Dialect } from './dialect.js';
import { canonicalEvent, mcpName } from './event.js';
import { originOf } from './origin.js';
import { allowedTools, changedParts, MODEL_REQUEST_KEY } from '../events/model-request.js';
import { callToolResult, RESULT_KEYS } from './mcp-result.js';
import { GATEWAY_MIRROR } from './mirror.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';
import { userWarnings, warningLines } from './warnings.js';

export const DOCKER_MCP_EVENTS: EventTable = {
  before: 'preToolUse',
  'before:exec': 'preToolUse',
  'before:docker': 'preToolUse',
  'before:http': 'preToolUse',
  after: 'postToolUse',
  'after:exec': 'postToolUse',
  'after:docker': 'postToolUse',
  'after:http': 'postToolUse',
  'tools/list': 'beforeToolSelection',
};

/** The after payload of current gateways is the bare result: the tool is not named. */
export const UNNAMED_TOOL = 'mcp';

const REQUEST_SHAPES = '{"method": "tools/call", "params": {"name": ..., "arguments": {...}}}, {"Params": {"name": ..., "arguments": {...}}}, or either under "request"';
const RESULT_SHAPES = '{"content": [...], "isError"?: ..., "structuredContent"?: ...}, or {"request": ..., "response": {"content": [...]}}';

export const dockerMcp: Dialect = {
  name: 'docker-mcp',
  detect: (raw) => requestOf(raw) !== undefined || resultOf(raw) !== undefined || toolListOf(raw) !== undefined,
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const list = toolListOf(payload);
    if (list !== undefined && requestOf(payload) === undefined) return toolListEvent(payload, list, eventName);
    const request = requestOf(payload);
    const result = resultOf(payload);
    const { spec, agentEvent } = resolveAgentEvent('docker-mcp', DOCKER_MCP_EVENTS, eventName, request !== undefined && result === undefined ? 'before' : result !== undefined ? 'after' : undefined, 'the payload (a tools/call request or a CallToolResult)');
    // A payload of neither shape must not pass as an unnamed tool with no arguments.
    if (spec.name === 'preToolUse' && request === undefined) {
      throw new HooksError('EVENT_INVALID', `stdin: a docker-mcp ${agentEvent} event must be an MCP tools/call request: ${REQUEST_SHAPES}`);
    }
    if (spec.name === 'beforeToolSelection') {
      throw new HooksError('EVENT_INVALID', `stdin: a docker-mcp ${agentEvent} event must be a tools/list result: {"tools": [{"name": ..., "inputSchema": {...}}, ...]}`);
    }
    if (spec.name === 'postToolUse' && result === undefined) {
      throw new HooksError('EVENT_INVALID', `stdin: a docker-mcp ${agentEvent} event must be a CallToolResult: ${RESULT_SHAPES}`);
    }
    const params = request ?? {};
    const tool = stringField(params, 'name');
    // The gateway does not send the server's name; a wrapper may (`server`, or `_meta.server`).
    const meta = isRecord(params._meta) ? params._meta : {};
    const server = stringField(payload, 'server') ?? stringField(meta, 'server');
    const input: Json = {
      tool_name: tool === undefined ? UNNAMED_TOOL : mcpName(server, tool),
      tool_input: argsObject(params.arguments, 'params.arguments'),
    };
    // The gateway's own payload, mirrored for the gateway's own scripts (see mirror.ts).
    if (spec.name === 'postToolUse') {
      input.tool_response = result ?? {};
      for (const [key, value] of Object.entries(result ?? {})) if (RESULT_KEYS.has(key)) input[key] = value;
    } else {
      input.method = 'tools/call';
      input.params = params;
    }
    return canonicalEvent(spec, input, { dialect: 'docker-mcp', agentEvent, mode: GATEWAY_MIRROR });
  },
  answer: answerDockerMcp,
};

function answerDockerMcp(decision: Decision): Answer {
  if (decision.event.name === 'beforeToolSelection') return answerToolList(decision);
  const warnings = userWarnings(decision);
  const reason = decision.reason ?? '';
  const before = decision.event.name === 'preToolUse';
  let result: Json | undefined;

  switch (decision.decision) {
    case 'halt':
      result = errorResult(reason);
      break;
    case 'block':
      // A hook that answered the call with a result of its own (the gateway's before contract) is passed on as it is.
      result = before && decision.updatedOutput !== undefined ? callToolResult(decision.updatedOutput.value) : errorResult(reason);
      break;
    case 'ask':
      // The gateway cannot ask anyone: the call is refused, which is the safe side.
      result = errorResult(`${reason} (a hook asked for confirmation, which the MCP gateway cannot ask for)`);
      warnings.push('a hook asked for confirmation, which the MCP gateway cannot ask for; the call was refused');
      break;
    case 'modify':
      if (decision.updatedOutput !== undefined) result = callToolResult(decision.updatedOutput.value);
      else if (decision.updatedInput !== undefined) {
        // An interceptor can answer the call but not change its arguments; running the original
        // would undo the rewrite (often a safety fix).
        result = errorResult('a hook rewrote the arguments of this call, which an MCP gateway interceptor cannot pass on; the call was refused');
        warnings.push('a hook rewrote the tool arguments, which an MCP gateway interceptor cannot pass on; the call was refused');
      }
      break;
    case 'allow':
    case 'continue':
      break;
  }
  if (decision.additionalContext.length > 0) {
    if (before) warnings.push('hooks added context, which an MCP gateway before-interceptor cannot pass to the model; dropped');
    else {
      // After the call, context rides along the result as one more text block.
      const base = result ?? callToolResult(decision.event.payload.tool_response);
      const content = Array.isArray(base.content) ? base.content : [];
      result = { ...base, content: [...content, ...decision.additionalContext.map((text) => ({ type: 'text', text }))] };
    }
  }
  return {
    stdout: result === undefined ? '' : `${JSON.stringify(result)}\n`,
    // stderr lands in the gateway's log: the hooks' own lines first (the gateway's logging scripts
    // write there on success), as they wrote them, then ours.
    stderr: hookLogs(decision) + warningLines(warnings),
    exitCode: 0,
  };
}

/** What the hooks that exited 0 wrote to stderr, in the order they ran, one block each. */
function hookLogs(decision: Decision): string {
  return decision.results.map((r) => (r.reply.stderr === undefined ? '' : `${r.reply.stderr}\n`)).join('');
}

/** The `tools/call` params: `{method, params}` (current gateways) or Go's `{Params}` (older ones). */
function requestOf(raw: unknown): Json | undefined {
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw.request)) return requestOf(raw.request);
  if (raw.method === 'tools/call' && isRecord(raw.params)) return raw.params;
  if (isRecord(raw.Params) && typeof raw.Params.name === 'string') return raw.Params;
  return undefined;
}

/** The `CallToolResult`: bare (current gateways) or as `{request, response}` (the documented shape). */
function resultOf(raw: unknown): Json | undefined {
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw.response)) return raw.response;
  if (Array.isArray(raw.content) && Object.keys(raw).every((k) => RESULT_KEYS.has(k))) return raw;
  return undefined;
}

function errorResult(text: string): Json {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The tools of a `tools/list` result: `{tools}`, `{result: {tools}}` or `{method: "tools/list", result: {tools}}`. */
function toolListOf(raw: unknown): unknown[] | undefined {
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw.result)) return toolListOf(raw.result);
  if (Array.isArray(raw.tools) && Object.keys(raw).every((k) => ['tools', 'nextCursor', '_meta', 'method', 'result'].includes(k))) return raw.tools;
  return undefined;
}

/** A tools/list result as beforeToolSelection: the tool definitions become the request's declarations. */
function toolListEvent(payload: Json, tools: unknown[], eventName: string | undefined) {
  const { spec, agentEvent } = resolveAgentEvent('docker-mcp', DOCKER_MCP_EVENTS, eventName, 'tools/list');
  if (spec.name !== 'beforeToolSelection') {
    throw new HooksError('EVENT_INVALID', `stdin: a tools/list result is the tools/list event, but the command line says "${eventName}"`);
  }
  const declarations = tools.map((tool, i) => {
    if (!isRecord(tool) || typeof tool.name !== 'string' || tool.name === '') throw new HooksError('EVENT_INVALID', `stdin: tools[${i}] must be a tool definition with a "name"`);
    // Every field of the definition is kept (annotations, outputSchema, ...): a pin covers all of it.
    const { inputSchema, ...rest } = tool;
    return { ...rest, ...(inputSchema === undefined ? {} : { input_schema: inputSchema }) };
  });
  const server = stringField(payload, 'server');
  const input: Json = { [MODEL_REQUEST_KEY]: { messages: [], parameters: {}, tools: declarations }, ...(server === undefined ? {} : { server }) };
  return canonicalEvent(spec, input, { dialect: 'docker-mcp', agentEvent, sent: { tools } });
}

/** The tools/list result as hooks left it: the tools they took away are left out; a block leaves none. */
function answerToolList(decision: Decision): Answer {
  const warnings = userWarnings(decision);
  const sent = originOf(decision.event)?.sent?.tools;
  const original = Array.isArray(sent) ? sent : [];
  let kept: unknown[] | undefined;
  if (decision.decision === 'block' || decision.decision === 'halt') {
    kept = [];
    warnings.push(`a hook blocked the tool list; no tools are offered (${decision.reason ?? 'no reason given'})`);
  } else if (decision.updatedRequest !== undefined) {
    const changed = changedParts(decision.event.payload[MODEL_REQUEST_KEY], decision.updatedRequest);
    const allowed = allowedTools(decision.updatedRequest) ?? [];
    kept = original.filter((t) => isRecord(t) && allowed.includes(String(t.name)));
    for (const part of changed) if (part !== 'allowed_tools') warnings.push(`a hook changed the model request's ${part}, which a tools/list result cannot carry; ignored`);
  }
  if (decision.decision === 'ask') warnings.push('a hook asked for confirmation, which a tools/list result cannot ask for; the tools were left as they are');
  return {
    stdout: kept === undefined ? '' : `${JSON.stringify({ tools: kept })}\n`,
    stderr: hookLogs(decision) + warningLines(warnings),
    exitCode: 0,
  };
}
