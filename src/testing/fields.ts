// The input fields a sample event can have, per tool and per event: a test case that sets a field the
// tool does not have (`{"comand": "rm -rf /"}`) would run on the sample's default input and pass
// without testing what it says, so such a key fails the case.
import { canonicalTool } from '../events/tools.js';
import { findEvent } from '../events/catalog.js';
import { closest } from '../suggest.js';

/** Tool-input fields by canonical tool (or by the tool's own name when it has no canonical one), every agent's spelling. */
const TOOL_INPUT_FIELDS: Record<string, readonly string[]> = {
  exec: ['command', 'description', 'timeout', 'run_in_background', 'cmd', 'workdir', 'directory'],
  read: ['file_path', 'path', 'absolute_path', 'offset', 'limit', 'view_range'],
  write: ['file_path', 'path', 'content', 'file_text'],
  edit: ['file_path', 'path', 'old_string', 'new_string', 'replace_all', 'edits', 'old_str', 'new_str', 'instruction'],
  apply_patch: ['command', 'input', 'patch'],
  web_fetch: ['url', 'prompt'],
  web_search: ['query', 'allowed_domains', 'blocked_domains'],
  process: ['bash_id', 'shell_id', 'filter'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit'],
  Task: ['description', 'prompt', 'subagent_type'],
};

/** Fields every Claude Code event carries; a sample's `input` on an event without a tool may set them too. */
const SESSION_FIELDS = ['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name'];

/** An event's own fields, for samples of events without a tool (where `input` sets event fields). */
const EVENT_FIELDS: Record<string, readonly string[]> = {
  userPromptSubmit: ['prompt'],
  stop: ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons'],
  subagentStop: ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons', 'agent_id', 'agent_type', 'agent_transcript_path'],
  preCompact: ['trigger', 'custom_instructions'],
  sessionStart: ['source', 'model', 'agent_type'],
  sessionEnd: ['reason'],
  notification: ['message', 'title', 'notification_type'],
};

/**
 * Why a sample's `input` names a field its tool (or event) does not have, as `<key>: ...`, or
 * undefined when every key is known, or when the tool is one whose fields are not known (an MCP
 * tool, a tool of the agent's own).
 */
export function unknownInputField(event: string, tool: string | undefined, input: Record<string, unknown> | undefined): string | undefined {
  if (input === undefined) return undefined;
  const spec = findEvent(event);
  if (spec === undefined) return undefined;
  let known: readonly string[] | undefined;
  let what: string;
  if (spec.tool) {
    const name = tool ?? 'exec';
    const canonical = canonicalTool(name);
    // Own keys only: a tool named "constructor" must not find Object's.
    known = Object.hasOwn(TOOL_INPUT_FIELDS, canonical) ? TOOL_INPUT_FIELDS[canonical] : Object.hasOwn(TOOL_INPUT_FIELDS, name) ? TOOL_INPUT_FIELDS[name] : undefined;
    what = `the ${name} tool's input`;
  } else {
    known = [...(EVENT_FIELDS[spec.name] ?? []), ...SESSION_FIELDS];
    what = `a ${spec.cli} event`;
  }
  if (known === undefined) return undefined;
  for (const key of Object.keys(input)) {
    if (known.includes(key)) continue;
    const hit = closest(key, known);
    return `${key}: ${what} has no field "${key}"${hit === undefined ? '' : ` (did you mean "${hit}"?)`}; its fields: ${known.join(', ')}`;
  }
  return undefined;
}
