// The cursor dialect: Cursor's agent hooks. Its payloads are flat snake_case keyed by
// `conversation_id`; the granular events (beforeShellExecution, beforeReadFile, ...) carry the tool's
// fields at the top level. Its replies are flat too: `permission` + `user_message` / `agent_message`,
// `decision` + `updated_input` on preToolUse, `continue` on beforeSubmitPrompt, `followup_message` on stop.
import type { Decision } from '../decide/combine.js';
import { eventSpec } from '../events/catalog.js';
import { agentEventName, resolveAgentEvent, type EventTable } from './agent-events.js';
import type { Answer, Dialect } from './dialect.js';
import { canonicalEvent } from './event.js';
import { aliasInput, originOf, unaliasInput, type InputMapping } from './origin.js';
import { argsObject, isRecord, requireRecord, stringField, type Json } from './record.js';
import { warningLines } from './warnings.js';

export const CURSOR_EVENTS: EventTable = {
  preToolUse: 'preToolUse',
  postToolUse: 'postToolUse',
  postToolUseFailure: 'postToolUseFailure',
  beforeShellExecution: 'preToolUse',
  beforeMCPExecution: 'preToolUse',
  beforeReadFile: 'preToolUse',
  afterShellExecution: 'postToolUse',
  afterMCPExecution: 'postToolUse',
  afterFileEdit: 'postToolUse',
  beforeSubmitPrompt: 'userPromptSubmit',
  stop: 'stop',
  subagentStop: 'subagentStop',
  preCompact: 'preCompact',
  sessionStart: 'sessionStart',
  sessionEnd: 'sessionEnd',
  subagentStart: 'subagentStart',
  // No equivalent: the forward path (hooks filed under these names run; a block is exit 2).
  afterAgentResponse: null,
  afterAgentThought: null,
  beforeTabFileRead: null,
  afterTabFileEdit: null,
};

const INPUT_ALIASES = [
  ['path', 'file_path'],
  ['target_file', 'file_path'],
  ['filePath', 'file_path'],
] as const;

export const cursor: Dialect = {
  name: 'cursor',
  detect: (raw) =>
    isRecord(raw) &&
    typeof raw.hook_event_name === 'string' &&
    (typeof raw.cursor_version === 'string' || (typeof raw.conversation_id === 'string' && typeof raw.generation_id === 'string')),
  toEvent(raw, eventName) {
    const payload = requireRecord(raw);
    const { spec, agentEvent } = resolveAgentEvent('cursor', CURSOR_EVENTS, eventName, stringField(payload, 'hook_event_name'));
    const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots : [];
    const input: Json = {
      ...payload,
      session_id: payload.session_id ?? payload.conversation_id,
      cwd: payload.cwd ?? (typeof roots[0] === 'string' ? roots[0] : undefined),
    };
    let mapping: InputMapping | undefined;
    if (spec.tool) {
      const tool = toolOf(agentEvent, payload);
      mapping = aliasInput(tool.input, INPUT_ALIASES);
      Object.assign(input, { tool_name: tool.name, tool_input: mapping.canonical });
      if (tool.response !== undefined) input.tool_response = tool.response;
    }
    // Claude's stop_hook_active: this stop comes after a follow-up a stop hook asked for.
    if ((spec.name === 'stop' || spec.name === 'subagentStop') && typeof payload.loop_count === 'number') {
      input.stop_hook_active = payload.loop_count > 0;
    }
    return canonicalEvent(spec, input, { dialect: 'cursor', agentEvent, ...(mapping === undefined ? {} : { input: mapping }) });
  },
  answer: answerCursor,
};

/** The tool a Cursor event is about: generic events name it, granular ones imply it. */
function toolOf(agentEvent: string, p: Json): { name: unknown; input: Json; response?: unknown } {
  switch (agentEvent) {
    case 'beforeShellExecution':
      return { name: 'Shell', input: pick(p, ['command', 'cwd', 'timeout']) };
    case 'afterShellExecution':
      return { name: 'Shell', input: pick(p, ['command', 'cwd']), response: p.output };
    case 'beforeReadFile':
      return { name: 'Read', input: pick(p, ['file_path', 'content', 'attachments']) };
    case 'afterFileEdit':
      return { name: 'Edit', input: pick(p, ['file_path', 'edits']) };
    case 'beforeMCPExecution':
      return { name: p.tool_name, input: argsObject(p.tool_input, 'tool_input') };
    case 'afterMCPExecution':
      return { name: p.tool_name, input: argsObject(p.tool_input, 'tool_input'), response: parsed(p.result_json) };
    default:
      return { name: p.tool_name, input: argsObject(p.tool_input, 'tool_input'), response: p.tool_output ?? p.tool_response };
  }
}

function answerCursor(decision: Decision): Answer {
  const spec = eventSpec(decision.event.name);
  const origin = originOf(decision.event);
  const agentEvent = origin?.agentEvent ?? agentEventName(CURSOR_EVENTS, spec, spec.name);
  const out: Json = {};
  const warnings = [...decision.warnings];
  const context = [...decision.additionalContext];
  const reason = decision.reason ?? '';
  const cannot = (what: string) => warnings.push(`${what}, which Cursor's ${agentEvent} cannot take; ignored`);
  let exitCode = 0;

  switch (agentEvent) {
    case 'preToolUse':
    case 'beforeShellExecution':
    case 'beforeMCPExecution':
    case 'beforeReadFile':
      permissionAnswer(decision, agentEvent, out, warnings, origin?.input);
      break;
    case 'beforeSubmitPrompt':
      if (decision.decision === 'block' || decision.decision === 'halt') Object.assign(out, { continue: false, user_message: reason });
      else if (decision.prompt !== undefined) {
        // Sending the original on would defeat the rewrite (often a redaction): the prompt is stopped.
        Object.assign(out, { continue: false, user_message: `a hook rewrote this prompt, and Cursor cannot take a rewritten prompt; it was not sent${decision.reason ? ` (${decision.reason})` : ''}` });
      }
      break;
    case 'stop':
    case 'subagentStop':
      // Cursor's way to "not stop yet": a follow-up message submitted as the next user turn.
      if (decision.decision === 'block') out.followup_message = reason;
      break;
    case 'postToolUse':
    case 'afterMCPExecution':
      if (decision.decision === 'block' || decision.decision === 'halt') {
        warnings.push(`a hook blocked this tool result, which Cursor cannot withhold; the model is told why (${reason})`);
        context.push(`agent-hooks: a hook blocked this tool result: ${reason}`);
      }
      if (decision.updatedOutput !== undefined) {
        if (isMcp(decision)) out.updated_mcp_tool_output = decision.updatedOutput.value;
        else cannot('a hook rewrote the tool output (Cursor replaces MCP tool output only)');
      }
      break;
    case 'sessionStart':
      if (decision.decision === 'halt') Object.assign(out, { continue: false, user_message: reason });
      break;
    case 'subagentStart':
    default:
      if ((decision.decision === 'block' || decision.decision === 'halt') && (!spec.known || spec.name === 'subagentStart')) {
        // No reply field is known here: exit 2 is Cursor's generic block (its own semantics for the event
        // apply: subagentStart does not start the subagent), with the reason on stderr.
        exitCode = 2;
      } else if (decision.decision === 'block' || decision.decision === 'halt') cannot(`a hook blocked (${reason})`);
      if (decision.updatedOutput !== undefined) cannot('a hook rewrote the tool output');
  }
  if (context.length > 0) {
    if (['preToolUse', 'postToolUse', 'postToolUseFailure', 'afterMCPExecution', 'sessionStart'].includes(agentEvent)) {
      out.additional_context = context.join('\n\n');
    } else cannot('a hook added context');
  }
  // Always a JSON object, `{}` when there is nothing to say (no opinion, and no approval): Cursor reads
  // invalid output on its permission events as a failure, which beforeReadFile and beforeMCPExecution
  // fail closed on, and with `failClosed: true` an empty output blocks on every event.
  // Cursor shows no hook warnings to the user from stdout; stderr goes to its hook log.
  // On exit 2 Cursor shows stdout's JSON as the reason if there is any: the reason goes alone, on stderr.
  if (exitCode === 2) return { stdout: '', stderr: `${reason}\n${warningLines(warnings)}`, exitCode };
  return { stdout: `${JSON.stringify(out)}\n`, stderr: warningLines(warnings), exitCode: 0 };
}

/**
 * The permission events. preToolUse documents `decision`, Cursor also honours `permission`: both are
 * sent. The reason goes in `user_message` (what reaches the model in practice) and `agent_message`.
 */
function permissionAnswer(decision: Decision, agentEvent: string, out: Json, warnings: string[], mapping: InputMapping | undefined): void {
  const reason = decision.reason ?? '';
  const generic = agentEvent === 'preToolUse';
  const set = (permission: 'allow' | 'deny' | 'ask', text?: string) => {
    out.permission = permission;
    if (generic && permission !== 'ask') out.decision = permission;
    if (text !== undefined && text !== '') Object.assign(out, { user_message: text, agent_message: text }, generic ? { reason: text } : {});
  };
  switch (decision.decision) {
    case 'halt':
      set('deny', reason);
      warnings.push('a hook halted the run, which Cursor cannot do from a tool hook; the tool was denied instead');
      break;
    case 'block':
      set('deny', reason);
      break;
    case 'ask':
      if (agentEvent === 'beforeShellExecution' || agentEvent === 'beforeMCPExecution') set('ask', reason);
      else {
        set('deny', `${reason} (a hook asked for confirmation, which Cursor's ${agentEvent} cannot ask for)`);
        warnings.push(`a hook asked for confirmation, which Cursor's ${agentEvent} cannot ask for; the tool was denied`);
      }
      break;
    case 'modify':
      if (decision.updatedInput === undefined) break;
      if (generic) {
        set('allow', decision.reason);
        out.updated_input = unaliasInput(decision.updatedInput, mapping);
      } else {
        // Running the original would undo the rewrite (often a safety fix): deny, and say why.
        set('deny', `a hook rewrote this call, and Cursor's ${agentEvent} cannot take a rewrite; install the preToolUse hook instead`);
        warnings.push(`a hook rewrote the tool input, which Cursor's ${agentEvent} cannot take; the call was denied`);
      }
      break;
    case 'allow':
      set('allow', decision.reason);
      break;
    case 'continue':
      break;
  }
}

function isMcp(decision: Decision): boolean {
  const name = decision.event.tool?.name ?? '';
  return originOf(decision.event)?.agentEvent === 'afterMCPExecution' || name === 'MCP' || name.startsWith('mcp');
}

function pick(p: Json, keys: readonly string[]): Json {
  return Object.fromEntries(keys.filter((k) => p[k] !== undefined).map((k) => [k, p[k]]));
}

function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
