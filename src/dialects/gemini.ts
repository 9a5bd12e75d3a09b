// The gemini dialect: Gemini CLI's payloads are nearly Claude's (snake_case, tool_input), under its own
// event names; it reads `decision: "deny"` + `reason`, `continue`, `systemMessage` and
// `hookSpecificOutput` (tool_input merged into the call, tool_output, additionalContext).
import type { Decision } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import { agentEventName, resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Answer, Dialect } from './dialect.js';
import { canonicalEvent, mcpName } from './event.js';
import { aliasInput, originOf, unaliasInput } from './origin.js';
import { outputText } from './output.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';
import { GEMINI_MODEL } from './mirror.js';
import { systemMessage, userWarnings, warningLines } from './warnings.js';
import {
  allowedTools,
  changedParameters,
  changedParts,
  fromGeminiRequest,
  fromGeminiResponse,
  GEMINI_SETTABLE_PARAMETERS,
  MODEL_REQUEST_KEY,
  MODEL_RESPONSE_KEY,
  toGeminiRequest,
  toGeminiResponse,
} from '../events/model-request.js';

export const GEMINI_EVENTS: EventTable = {
  BeforeTool: 'preToolUse',
  AfterTool: 'postToolUse',
  BeforeAgent: 'userPromptSubmit',
  AfterAgent: 'stop',
  PreCompress: 'preCompact',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  Notification: 'notification',
  BeforeModel: 'beforeModel',
  AfterModel: 'afterModel',
  BeforeToolSelection: 'beforeToolSelection',
};

const MODEL_EVENTS = new Set(['beforeModel', 'afterModel', 'beforeToolSelection']);

/** Event names no other agent uses. */
const OWN_EVENTS = new Set(Object.keys(GEMINI_EVENTS).filter((e) => !['SessionStart', 'SessionEnd', 'Notification'].includes(e)));

/** Older Gemini builds name read_file's path `absolute_path`. */
const INPUT_ALIASES = [['absolute_path', 'file_path']] as const;

export const gemini: Dialect = {
  name: 'gemini',
  detect(raw) {
    if (!isRecord(raw) || typeof raw.hook_event_name !== 'string') return false;
    if (OWN_EVENTS.has(raw.hook_event_name)) return true;
    // Shared event names: Gemini stamps every payload with an ISO timestamp *and* a transcript path;
    // Claude Code sends no timestamp, Copilot's Claude-style mode no transcript path (but on Stop).
    const transcript = stringField(raw, 'transcript_path');
    return typeof raw.timestamp === 'string' && transcript !== undefined && !/[\\/]\.copilot[\\/]/.test(transcript);
  },
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const { spec, agentEvent } = resolveAgentEvent('gemini', GEMINI_EVENTS, eventName, stringField(payload, 'hook_event_name'));
    const input: Json = { ...payload };
    let mapping;
    let canonical: string | undefined;
    if (spec.tool) {
      mapping = aliasInput(argsObject(payload.tool_input, 'tool_input'), INPUT_ALIASES);
      input.tool_input = mapping.canonical;
      const mcp = isRecord(payload.mcp_context) ? payload.mcp_context : undefined;
      if (mcp !== undefined) canonical = mcpName(stringField(mcp, 'server_name'), stringField(mcp, 'tool_name') ?? String(payload.tool_name));
    }
    if (MODEL_EVENTS.has(spec.name)) return modelEvent(spec, input, agentEvent);
    // AfterAgent is Gemini's Stop: its final text is Claude's last_assistant_message.
    if (spec.name === 'stop' && input.last_assistant_message === undefined && typeof payload.prompt_response === 'string') {
      input.last_assistant_message = payload.prompt_response;
    }
    return canonicalEvent(spec, input, { dialect: 'gemini', agentEvent, ...(mapping === undefined ? {} : { input: mapping }) }, canonical === undefined ? {} : { canonical });
  },
  answer: answerGemini,
};

/**
 * BeforeModel, AfterModel, BeforeToolSelection: Gemini's `llm_request` (model, text messages, four
 * generation settings; never the tool declarations) becomes `model_request`, its `llm_response`
 * `model_response`. Gemini's own fields stay for hooks written for Gemini (refreshed after a rewrite).
 */
function modelEvent(spec: ReturnType<typeof eventSpec>, input: Json, agentEvent: string) {
  const llmRequest = isRecord(input.llm_request) ? input.llm_request : {};
  const request: Json = { messages: [], parameters: {}, ...fromGeminiRequest(llmRequest) };
  input[MODEL_REQUEST_KEY] = request;
  const sent: Json = { request };
  if (spec.name === 'afterModel') {
    const response = fromGeminiResponse(input.llm_response);
    input[MODEL_RESPONSE_KEY] = response;
    sent.response = response;
  }
  return canonicalEvent(spec, input, { dialect: 'gemini', agentEvent, mode: GEMINI_MODEL, sent });
}


/**
 * What Gemini CLI 0.61 reads back: BeforeModel `decision`/`continue` and `hookSpecificOutput.llm_request`
 * (model, messages, and temperature/maxOutputTokens/topP/topK, which it resets when left out);
 * BeforeToolSelection only `hookSpecificOutput.toolConfig` (its aggregator drops every other field);
 * AfterModel `decision`/`continue` and `hookSpecificOutput.llm_response`.
 */
function answerGeminiModel(decision: Decision, agentEvent: string): Answer {
  const spec = decision.event.name;
  const warnings = userWarnings(decision);
  const out: Json = {};
  const specific: Json = {};
  const reason = decision.reason ?? '';
  const sent = originOf(decision.event)?.sent ?? {};
  const before = sent.request;
  const deny = (text: string) => Object.assign(out, { decision: 'deny', reason: text });
  const noTools = (why: string) => {
    specific.toolConfig = { mode: 'NONE', allowedFunctionNames: [] };
    warnings.push(`${why}; Gemini CLI cannot stop at BeforeToolSelection, so this model call is offered no tools`);
  };
  switch (decision.decision) {
    case 'halt':
      if (spec === 'beforeToolSelection') noTools(`a hook halted the agent (${reason})`);
      else Object.assign(out, { continue: false, stopReason: reason });
      break;
    case 'block':
      if (spec === 'beforeToolSelection') specific.toolConfig = { mode: 'NONE', allowedFunctionNames: [] };
      else deny(reason);
      // Gemini CLI reads llm_response beside a BeforeModel deny as the model's answer, and calls no model.
      if (spec === 'beforeModel' && decision.updatedResponse !== undefined) specific.llm_response = toGeminiResponse(decision.updatedResponse);
      break;
    case 'ask':
      if (spec === 'beforeToolSelection') noTools('a hook asked for confirmation, which Gemini CLI cannot ask for');
      else deny(`${reason} (a hook asked for confirmation, which Gemini CLI cannot ask for)`);
      break;
    case 'modify':
      if (decision.updatedRequest !== undefined) {
        const after = decision.updatedRequest;
        const changed = changedParts(before, after);
        if (spec === 'beforeToolSelection') {
          if (changed.has('allowed_tools')) {
            const allowed = allowedTools(after) ?? [];
            specific.toolConfig = { mode: allowed.length === 0 ? 'NONE' : 'AUTO', allowedFunctionNames: allowed };
          }
          for (const part of changed) if (part !== 'allowed_tools') warnings.push(`a hook changed the model request's ${part} on BeforeToolSelection, where Gemini CLI reads only the tool choice; ignored (change it on beforeModel)`);
        } else if (changed.has('allowed_tools')) {
          // A restriction Gemini cannot carry here must not become a call with every tool: refuse the call.
          deny('a hook restricted the tools on BeforeModel, where Gemini CLI cannot restrict them; the model call was refused (restrict tools on beforeToolSelection)');
        } else {
          const unsettable = changedParameters(before, after).filter((p) => !GEMINI_SETTABLE_PARAMETERS.includes(p));
          if (unsettable.length > 0) warnings.push(`Gemini CLI hooks can set only ${GEMINI_SETTABLE_PARAMETERS.join(', ')}; a hook's change to ${unsettable.join(', ')} was not applied`);
          const parts = { model: changed.has('model'), messages: changed.has('messages'), parameters: changed.has('parameters') && unsettable.length < changedParameters(before, after).length };
          if (parts.model || parts.messages || parts.parameters) specific.llm_request = toGeminiRequest(after, parts);
        }
      }
      if (decision.updatedResponse !== undefined) specific.llm_response = toGeminiResponse(decision.updatedResponse);
      break;
    case 'allow':
    case 'continue':
      break;
  }
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: agentEvent, ...specific };
  if (warnings.length > 0 && spec !== 'beforeToolSelection') out.systemMessage = systemMessage(warnings);
  return {
    stdout: Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '',
    stderr: warningLines(warnings),
    exitCode: 0,
  };
}

function answerGemini(decision: Decision): Answer {
  const spec = eventSpec(decision.event.name);
  const origin = originOf(decision.event);
  const agentEvent = origin?.agentEvent ?? agentEventName(GEMINI_EVENTS, spec);
  if (MODEL_EVENTS.has(spec.name)) return answerGeminiModel(decision, agentEvent);
  if (!spec.known && (decision.decision === 'block' || decision.decision === 'halt')) {
    // An event agent-hooks does not know (a newer Gemini CLI's): exit 2 with the reason on stderr is
    // Gemini's generic block, which it applies with its own semantics for the event.
    return { stdout: '', stderr: `${decision.reason ?? ''}\n${warningLines(decision.warnings)}`, exitCode: 2 };
  }
  const out: Json = {};
  const specific: Json = {};
  const warnings = userWarnings(decision);
  const reason = decision.reason ?? '';
  // PreCompress, SessionStart, SessionEnd and Notification ignore decisions: only tool, prompt and
  // AfterAgent events can be denied.
  const deniable = ['preToolUse', 'postToolUse', 'userPromptSubmit', 'stop', 'subagentStop'].includes(spec.name);
  const deny = (text: string) => {
    if (deniable) Object.assign(out, { decision: 'deny', reason: text });
    else warnings.push(`a hook blocked ${agentEvent}, which Gemini CLI cannot block; ignored (${text})`);
  };

  switch (decision.decision) {
    case 'halt':
      Object.assign(out, { continue: false, stopReason: reason });
      // A tool must not run on a halt, whatever Gemini does with `continue` alone.
      if (spec.name === 'preToolUse') deny(reason);
      break;
    case 'block':
      deny(reason);
      break;
    case 'ask':
      deny(`${reason} (a hook asked for confirmation, which Gemini CLI cannot ask for)`);
      warnings.push('a hook asked for confirmation, which Gemini CLI cannot ask for; the tool was denied');
      break;
    case 'modify':
      if (decision.updatedInput !== undefined) {
        const agentInput = unaliasInput(decision.updatedInput, origin?.input);
        specific.tool_input = agentInput;
        const removed = Object.keys(origin?.input?.original ?? {}).filter((k) => !(k in agentInput));
        if (removed.length > 0) warnings.push(`Gemini CLI merges a rewritten tool_input into the call, so fields a hook removed (${removed.join(', ')}) keep their values`);
      }
      if (decision.updatedOutput !== undefined) {
        // A deny's reason replaces the result in every Gemini release; tool_output only in newer ones.
        const text = outputText(decision.updatedOutput.value);
        Object.assign(out, { decision: 'deny', reason: text });
        specific.tool_output = text;
      }
      if (decision.prompt !== undefined) {
        deny(`a hook rewrote this prompt, and Gemini CLI cannot take a rewritten prompt; it was not sent${decision.reason ? ` (${decision.reason})` : ''}`);
      }
      break;
    case 'allow':
      if (spec.name === 'preToolUse') out.decision = 'allow';
      break;
    case 'continue':
      break;
  }
  if (decision.additionalContext.length > 0) specific.additionalContext = decision.additionalContext.join('\n\n');
  if (Object.keys(specific).length > 0) out.hookSpecificOutput = { hookEventName: agentEvent, ...specific };
  if (warnings.length > 0) out.systemMessage = systemMessage(warnings);
  // Exit 0 always: Gemini reads the JSON only on exit 0, and on exit 2 would drop `continue: false`.
  return {
    stdout: Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '',
    stderr: warningLines(warnings),
    exitCode: 0,
  };
}
