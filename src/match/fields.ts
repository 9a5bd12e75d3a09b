// The fields an `if` may name: each canonical tool's input fields (in every agent's spelling the
// dialects pass through) and each event's top-level fields. An `if` on a field the hook can never see
// makes the hook never run, silently: the config check refuses it and lists what it can name.
import { EVENTS } from '../events/catalog.js';
import { TOOL_GROUPS, canonicalTool } from '../events/tools.js';
import type { EventName } from '../types.js';

const TOOL_FIELDS: Record<string, readonly string[]> = {
  exec: ['command', 'description', 'timeout', 'run_in_background', 'cmd', 'workdir', 'dir_path', 'directory', 'is_background'],
  read: ['file_path', 'path', 'absolute_path', 'offset', 'limit', 'paths', 'target_file'],
  write: ['file_path', 'path', 'content', 'target_file'],
  edit: ['file_path', 'path', 'old_string', 'new_string', 'replace_all', 'edits', 'instruction', 'expected_replacements', 'target_file'],
  apply_patch: ['command', 'input', 'patch'],
  web_fetch: ['url', 'prompt'],
  web_search: ['query', 'allowed_domains', 'blocked_domains'],
};
const EVENT_FIELDS: Partial<Record<EventName, readonly string[]>> = {
  userPromptSubmit: ['prompt'],
  sessionStart: ['source', 'model'],
  sessionEnd: ['reason'],
  stop: ['stop_hook_active', 'last_assistant_message'],
  subagentStop: ['stop_hook_active', 'last_assistant_message', 'agent_type'],
  preCompact: ['trigger', 'custom_instructions'],
  notification: ['message', 'title', 'notification_type'],
  postToolUseFailure: ['error', 'is_interrupt'],
  postToolUse: ['tool_response'],
};
const COMMON_FIELDS = ['session_id', 'cwd', 'transcript_path', 'permission_mode', 'hook_event_name', 'tool_name', 'tool_use_id'];

/**
 * The `if` fields this hook names that no event it runs on has, each with the fields it could name.
 * Silent (no finding) when the tools it matches are not all known: an MCP tool's input is its own.
 */
export function unknownIfFields(hook: { event: EventName; match?: readonly string[]; if?: Readonly<Record<string, unknown>> }): { field: string; known: string[] }[] {
  if (hook.if === undefined) return [];
  const spec = EVENTS.find((e) => e.name === hook.event)!;
  let tools: string[] = [];
  if (spec.tool) {
    if (hook.match === undefined) tools = Object.keys(TOOL_FIELDS);
    else {
      for (const pattern of hook.match) {
        const named = Object.hasOwn(TOOL_GROUPS, pattern) ? TOOL_GROUPS[pattern]! : /[*?[\]{}!()]/.test(pattern) ? undefined : [canonicalTool(pattern)];
        if (named === undefined || named.some((t) => !Object.hasOwn(TOOL_FIELDS, t))) return [];
        tools.push(...named);
      }
    }
  }
  const known = new Set([...COMMON_FIELDS, ...(EVENT_FIELDS[hook.event] ?? []), ...tools.flatMap((t) => TOOL_FIELDS[t] ?? [])]);
  const shown = [...(EVENT_FIELDS[hook.event] ?? []), ...new Set(tools.flatMap((t) => TOOL_FIELDS[t] ?? [])), 'cwd', 'session_id', 'permission_mode'];
  return Object.keys(hook.if)
    .filter((field) => !known.has(field))
    .map((field) => ({ field, known: [...new Set(shown)] }));
}
