// The copilot dialect: GitHub Copilot CLI, in both of its payload modes. Hooks registered under camelCase
// event names (`preToolUse`) get camelCase payloads (`sessionId`, `toolName`, `toolArgs`); under
// PascalCase names (`PreToolUse`) they get Claude-style snake_case payloads, but with Copilot's own tool
// input fields (`path`, `file_text`, `old_str`) and its own reply rules. Both modes are this dialect:
// what Copilot *reads back* is the same (flat `permissionDecision`, stderr dropped on exit 2), which the
// claude-code dialect would get wrong.
import type { Decision } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import { claudeEventNames, resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Answer, Dialect } from './dialect.js';
import { canonicalEvent } from './event.js';
import { aliasInput, originOf, unaliasInput } from './origin.js';
import { outputText } from './output.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';
import { warningLines } from './warnings.js';

export const COPILOT_EVENTS: EventTable = {
  preToolUse: 'preToolUse',
  postToolUse: 'postToolUse',
  postToolUseFailure: 'postToolUseFailure',
  userPromptSubmitted: 'userPromptSubmit',
  agentStop: 'stop',
  subagentStop: 'subagentStop',
  preCompact: 'preCompact',
  sessionStart: 'sessionStart',
  sessionEnd: 'sessionEnd',
  notification: 'notification',
  permissionRequest: 'permissionRequest',
  subagentStart: 'subagentStart',
  // No equivalent: the forward path (hooks filed under it run; a block is exit 2).
  errorOccurred: null,
  // PascalCase mode: Claude Code's names.
  ...claudeEventNames(),
  PermissionRequest: 'permissionRequest',
  SubagentStart: 'subagentStart',
};

/** Copilot's file tools (`view`, `create`, `edit`) under Claude's field names. */
const INPUT_ALIASES = [
  ['path', 'file_path'],
  ['file_text', 'content'],
  ['old_str', 'old_string'],
  ['new_str', 'new_string'],
] as const;

type Mode = 'camel' | 'pascal';

export const copilot: Dialect = {
  name: 'copilot',
  detect(raw) {
    if (!isRecord(raw)) return false;
    // camelCase mode: a sessionId and a millisecond timestamp, no hook_event_name.
    if (typeof raw.sessionId === 'string' && typeof raw.timestamp === 'number') return true;
    // PascalCase mode: Claude's keys plus an ISO timestamp (Claude sends none); a transcript path only on
    // Stop, under ~/.copilot (Gemini, the other agent with timestamps, always sends one elsewhere).
    const transcript = stringField(raw, 'transcript_path');
    return typeof raw.hook_event_name === 'string' && typeof raw.timestamp === 'string' && (transcript === undefined || /[\\/]\.copilot[\\/]/.test(transcript));
  },
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const mode: Mode = typeof payload.hook_event_name === 'string' ? 'pascal' : 'camel';
    const said = stringField(payload, 'hook_event_name') ?? stringField(payload, 'hookName');
    const { spec, agentEvent } = resolveAgentEvent('copilot', COPILOT_EVENTS, eventName, said, mode === 'pascal' ? 'hook_event_name' : 'hookName');
    const input: Json = mode === 'camel' ? { ...payload, ...snakeKeys(payload) } : { ...payload };
    let mapping;
    if (spec.tool) {
      const args = mode === 'camel' ? payload.toolArgs ?? payload.toolInput : payload.tool_input;
      mapping = aliasInput(argsObject(args, mode === 'camel' ? 'toolArgs' : 'tool_input'), INPUT_ALIASES);
      input.tool_input = mapping.canonical;
      const result = mode === 'camel' ? payload.toolResult : payload.tool_result;
      if (input.tool_response === undefined && result !== undefined) input.tool_response = result;
    }
    if (spec.name === 'sessionStart' && input.prompt === undefined && typeof input.initial_prompt === 'string') input.prompt = input.initial_prompt;
    return canonicalEvent(spec, input, { dialect: 'copilot', agentEvent, mode, ...(mapping === undefined ? {} : { input: mapping }) }, { toolKey: mode === 'camel' ? 'toolName' : 'tool_name' });
  },
  answer: answerCopilot,
};

function answerCopilot(decision: Decision): Answer {
  const spec = eventSpec(decision.event.name);
  const origin = originOf(decision.event);
  const mode: Mode = origin?.mode === 'pascal' ? 'pascal' : 'camel';
  const out: Json = {};
  const warnings = [...decision.warnings];
  const reason = decision.reason ?? '';
  // Copilot drops stderr on exit 2, so every answer it can read is JSON on exit 0. Exit 2 is kept for
  // blocks Copilot has no JSON for: it may stop the action, and at worst shows the user a warning.
  let exitCode = 0;
  let stderrReason: string | undefined;
  const unsupportedBlock = (text: string) => {
    exitCode = 2;
    stderrReason = text;
    warnings.push(`a hook blocked ${origin?.agentEvent ?? spec.claude}, which Copilot has no reply for; answered with exit 2, which Copilot may treat as a warning`);
  };

  if (spec.name === 'preToolUse') {
    const permission = (value: 'allow' | 'deny' | 'ask', text?: string) => {
      out.permissionDecision = value;
      if (text !== undefined) out.permissionDecisionReason = text;
    };
    switch (decision.decision) {
      case 'halt':
        permission('deny', reason);
        warnings.push('a hook halted the run, which Copilot cannot do; the tool was denied instead');
        break;
      case 'block':
        permission('deny', reason);
        break;
      case 'ask':
        // Copilot CLI asks the user; its cloud agent treats ask as deny, which is the safe side.
        permission('ask', reason);
        if (decision.updatedInput !== undefined) rewriteInput(out, decision.updatedInput, mode, origin?.input);
        break;
      case 'modify':
        permission('allow', decision.reason);
        if (decision.updatedInput !== undefined) rewriteInput(out, decision.updatedInput, mode, origin?.input);
        break;
      case 'allow':
        permission('allow', decision.reason);
        break;
      case 'continue':
        break;
    }
  } else if (spec.name === 'postToolUse') {
    if (decision.decision === 'block' || decision.decision === 'halt') out.modifiedResult = { resultType: 'failure', textResultForLlm: reason };
    else if (decision.updatedOutput !== undefined) out.modifiedResult = copilotResult(decision.updatedOutput.value);
    if (decision.decision === 'halt') warnings.push('a hook halted the run, which Copilot cannot do; the tool result was replaced instead');
  } else if (spec.name === 'permissionRequest') {
    // Copilot's PermissionRequest reply is flat (`behavior`, `message`, `interrupt`); exit 2 also denies.
    switch (decision.decision) {
      case 'halt':
        Object.assign(out, { behavior: 'deny', message: reason, interrupt: true });
        break;
      case 'block':
        Object.assign(out, { behavior: 'deny', message: reason });
        break;
      case 'modify':
        // Running the original would undo the rewrite (often a safety fix): refused, and said why.
        Object.assign(out, { behavior: 'deny', message: `a hook rewrote this call's input, which Copilot cannot take on permissionRequest; it was refused${decision.reason ? ` (${decision.reason})` : ''}` });
        warnings.push('a hook rewrote the tool input, which Copilot cannot take on permissionRequest; the request was denied');
        break;
      case 'allow':
        out.behavior = 'allow';
        break;
      default:
        break;
    }
  } else if (spec.name === 'stop' || spec.name === 'subagentStop') {
    if (decision.decision === 'block') Object.assign(out, { decision: 'block', reason });
    // A halt on stop is what the agent is doing anyway.
  } else if (decision.decision === 'block' || decision.decision === 'halt') {
    unsupportedBlock(reason);
  } else if (decision.prompt !== undefined) {
    unsupportedBlock(`a hook rewrote this prompt, and Copilot cannot take a rewritten prompt${decision.reason ? ` (${decision.reason})` : ''}`);
  }

  if (decision.additionalContext.length > 0) {
    const context = decision.additionalContext.join('\n\n');
    if (['preToolUse', 'postToolUse', 'postToolUseFailure', 'sessionStart', 'subagentStart'].includes(spec.name)) out.additionalContext = context;
    else warnings.push(`Copilot takes no context on ${origin?.agentEvent ?? spec.claude}; dropped`);
  }
  // VS Code reads Claude's nested form for PascalCase hooks; Copilot CLI the flat one. Send both.
  if (mode === 'pascal') {
    const nested = claudeNested(out, spec.claude);
    if (nested !== undefined) out.hookSpecificOutput = nested;
  }
  const lines = warningLines(warnings);
  return {
    stdout: Object.keys(out).length > 0 ? `${JSON.stringify(out)}\n` : '',
    stderr: stderrReason === undefined ? lines : `${stderrReason}\n${lines}`,
    exitCode,
  };
}

/** camelCase mode rewrites with `modifiedArgs`, PascalCase mode with `updatedInput`; both in the agent's field names. */
function rewriteInput(out: Json, updated: Json, mode: Mode, mapping: Parameters<typeof unaliasInput>[1]): void {
  const args = unaliasInput(updated, mapping);
  if (mode === 'camel') out.modifiedArgs = args;
  else out.updatedInput = args;
}

/** A replacement tool result in Copilot's shape (`resultType`, `textResultForLlm`). */
function copilotResult(value: unknown): Json {
  if (isRecord(value) && typeof value.textResultForLlm === 'string') return value;
  if (isRecord(value) && typeof value.text_result_for_llm === 'string') {
    return { resultType: typeof value.result_type === 'string' ? value.result_type : 'success', textResultForLlm: value.text_result_for_llm };
  }
  return { resultType: 'success', textResultForLlm: outputText(value) };
}

function claudeNested(out: Json, hookEventName: string): Json | undefined {
  const nested: Json = {};
  for (const key of ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'] as const) {
    if (out[key] !== undefined) nested[key] = out[key];
  }
  if (out.modifiedResult !== undefined) nested.updatedToolOutput = out.modifiedResult;
  if (out.behavior !== undefined) nested.decision = { behavior: out.behavior, ...(out.message === undefined ? {} : { message: out.message }), ...(out.interrupt === undefined ? {} : { interrupt: out.interrupt }) };
  return Object.keys(nested).length > 0 ? { hookEventName, ...nested } : undefined;
}

/** `sessionId` → `session_id`, ... for every camelCase key, so Claude-style hooks find Copilot's fields. */
function snakeKeys(payload: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(payload)) {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snake !== key) out[snake] = value;
  }
  if (out.tool_args !== undefined) delete out.tool_args;
  return out;
}
