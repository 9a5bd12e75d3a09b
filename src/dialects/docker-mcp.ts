// The docker-mcp dialect: Docker MCP gateway interceptors (`--interceptor before:exec:...` and
// `after:exec:...`). The gateway pipes the MCP `tools/call` request (before) or the `CallToolResult`
// (after) to the command. Empty stdout passes; any stdout must be a `CallToolResult`, which on before
// answers the call instead of the tool and on after replaces the result. A non-zero exit fails the
// call with a gateway error, so every answer exits 0.
import type { Decision } from '../decide/combine.js';
import { HooksError } from '../errors.js';
import { resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Answer, Dialect } from './dialect.js';
import { canonicalEvent, mcpName } from './event.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';
import { warningLines } from './warnings.js';

export const DOCKER_MCP_EVENTS: EventTable = {
  before: 'preToolUse',
  'before:exec': 'preToolUse',
  'before:docker': 'preToolUse',
  'before:http': 'preToolUse',
  after: 'postToolUse',
  'after:exec': 'postToolUse',
  'after:docker': 'postToolUse',
  'after:http': 'postToolUse',
};

/** The after payload of current gateways is the bare result: the tool is not named. */
export const UNNAMED_TOOL = 'mcp';

const RESULT_KEYS = new Set(['content', 'isError', 'structuredContent', '_meta']);

const REQUEST_SHAPES = '{"method": "tools/call", "params": {"name": ..., "arguments": {...}}}, {"Params": {"name": ..., "arguments": {...}}}, or either under "request"';
const RESULT_SHAPES = '{"content": [...], "isError"?: ..., "structuredContent"?: ...}, or {"request": ..., "response": {"content": [...]}}';

export const dockerMcp: Dialect = {
  name: 'docker-mcp',
  detect: (raw) => requestOf(raw) !== undefined || resultOf(raw) !== undefined,
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const request = requestOf(payload);
    const result = resultOf(payload);
    const { spec, agentEvent } = resolveAgentEvent('docker-mcp', DOCKER_MCP_EVENTS, eventName, request !== undefined && result === undefined ? 'before' : result !== undefined ? 'after' : undefined, 'the payload (a tools/call request or a CallToolResult)');
    // A payload of neither shape must not pass as an unnamed tool with no arguments.
    if (spec.name === 'preToolUse' && request === undefined) {
      throw new HooksError('EVENT_INVALID', `stdin: a docker-mcp ${agentEvent} event must be an MCP tools/call request: ${REQUEST_SHAPES}`);
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
    if (spec.name === 'postToolUse') input.tool_response = result ?? {};
    return canonicalEvent(spec, input, { dialect: 'docker-mcp', agentEvent });
  },
  answer: answerDockerMcp,
};

function answerDockerMcp(decision: Decision): Answer {
  const warnings = [...decision.warnings];
  const reason = decision.reason ?? '';
  const before = decision.event.name === 'preToolUse';
  let result: Json | undefined;

  switch (decision.decision) {
    case 'halt':
    case 'block':
      result = errorResult(reason);
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
    // stderr lands in the gateway's log.
    stderr: warningLines(warnings),
    exitCode: 0,
  };
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

/** A value as a `CallToolResult`: results pass as they are, anything else becomes one text block. */
function callToolResult(value: unknown): Json {
  if (isRecord(value) && Array.isArray(value.content)) return value;
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) ?? '' }] };
}
