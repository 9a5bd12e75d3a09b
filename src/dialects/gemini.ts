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
import { systemMessage, warningLines } from './warnings.js';

export const GEMINI_EVENTS: EventTable = {
  BeforeTool: 'preToolUse',
  AfterTool: 'postToolUse',
  BeforeAgent: 'userPromptSubmit',
  AfterAgent: 'stop',
  PreCompress: 'preCompact',
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  Notification: 'notification',
  BeforeModel: null,
  AfterModel: null,
  BeforeToolSelection: null,
};

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
    // AfterAgent is Gemini's Stop: its final text is Claude's last_assistant_message.
    if (spec.name === 'stop' && input.last_assistant_message === undefined && typeof payload.prompt_response === 'string') {
      input.last_assistant_message = payload.prompt_response;
    }
    return canonicalEvent(spec, input, { dialect: 'gemini', agentEvent, ...(mapping === undefined ? {} : { input: mapping }) }, canonical === undefined ? {} : { canonical });
  },
  answer: answerGemini,
};

function answerGemini(decision: Decision): Answer {
  const spec = eventSpec(decision.event.name);
  const origin = originOf(decision.event);
  const agentEvent = origin?.agentEvent ?? agentEventName(GEMINI_EVENTS, spec);
  const out: Json = {};
  const specific: Json = {};
  const warnings = [...decision.warnings];
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
