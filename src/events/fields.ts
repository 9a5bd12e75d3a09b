// The fields agents send: each tool's input (every agent's spelling the dialects pass through, keyed
// by canonical tool, or by the tool's own name where it has none) and each event's own fields. One
// table, so the `if` check of a config and the input check of a test case agree on what exists.
import type { EventName } from '../types.js';

export const TOOL_INPUT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  exec: ['command', 'description', 'timeout', 'run_in_background', 'cmd', 'workdir', 'dir_path', 'directory', 'is_background'],
  read: ['file_path', 'path', 'absolute_path', 'offset', 'limit', 'paths', 'target_file', 'view_range'],
  write: ['file_path', 'path', 'content', 'target_file', 'file_text'],
  edit: ['file_path', 'path', 'old_string', 'new_string', 'replace_all', 'edits', 'instruction', 'expected_replacements', 'target_file', 'old_str', 'new_str'],
  apply_patch: ['command', 'input', 'patch'],
  web_fetch: ['url', 'prompt'],
  web_search: ['query', 'allowed_domains', 'blocked_domains'],
  process: ['bash_id', 'shell_id', 'filter'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'type', 'output_mode', '-i', '-n', '-A', '-B', '-C', 'multiline', 'head_limit'],
  Task: ['description', 'prompt', 'subagent_type'],
};

/** Where some agents' shell tools run, named in the tool input instead of the event's `cwd` (Codex's `workdir`, Gemini's `dir_path` / `directory`). */
export const TOOL_WORKDIR_FIELDS: readonly string[] = ['workdir', 'dir_path', 'directory', 'cwd'];

/** Each event's own top-level fields, beside the ones every event carries. */
export const EVENT_FIELDS: Readonly<Partial<Record<EventName, readonly string[]>>> = {
  userPromptSubmit: ['prompt'],
  sessionStart: ['source', 'model', 'agent_type', 'session_title'],
  sessionEnd: ['reason'],
  stop: ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons'],
  subagentStop: ['stop_hook_active', 'last_assistant_message', 'background_tasks', 'session_crons', 'agent_id', 'agent_type', 'agent_transcript_path'],
  preCompact: ['trigger', 'custom_instructions'],
  notification: ['message', 'title', 'notification_type'],
  postToolUseFailure: ['error', 'is_interrupt', 'duration_ms'],
  postToolUse: ['tool_response', 'duration_ms'],
  permissionRequest: ['permission_suggestions'],
  permissionDenied: ['reason'],
  postToolBatch: ['tool_calls'],
  postCompact: ['trigger', 'compact_summary'],
  subagentStart: ['agent_id', 'agent_type'],
  setup: ['trigger'],
  userPromptExpansion: ['expansion_type', 'command_name', 'command_args', 'command_source', 'prompt'],
  stopFailure: ['error', 'error_details', 'last_assistant_message'],
  teammateIdle: ['teammate_name', 'team_name'],
  taskCreated: ['task_id', 'task_subject', 'task_description', 'teammate_name', 'team_name'],
  taskCompleted: ['task_id', 'task_subject', 'task_description', 'teammate_name', 'team_name'],
  configChange: ['source', 'file_path'],
  cwdChanged: ['old_cwd', 'new_cwd'],
  fileChanged: ['file_path', 'event'],
  worktreeCreate: ['name'],
  worktreeRemove: ['worktree_path'],
  instructionsLoaded: ['file_path', 'memory_type', 'load_reason', 'globs', 'trigger_file_path', 'parent_file_path'],
  directoryAdded: ['directory', 'source'],
  messageDisplay: ['turn_id', 'message_id', 'index', 'final', 'delta'],
  elicitation: ['mcp_server_name', 'message', 'mode', 'url', 'elicitation_id', 'requested_schema'],
  elicitationResult: ['mcp_server_name', 'action', 'mode', 'elicitation_id', 'content'],
  preModelSwitch: ['from_model', 'to_model', 'requested_model', 'source', 'context_tokens', 'prompt_cache_warm', 'cache_ttl', 'estimated_cache_write_usd', 'pricing'],
  postModelSwitch: ['from_model', 'to_model', 'requested_model', 'source', 'context_tokens', 'prompt_cache_warm', 'cache_ttl', 'estimated_cache_write_usd', 'pricing'],
  preSessionSwitch: ['reason', 'target_session_file', 'entry_id'],
  preCompactSummary: [],
  agentStart: [],
  agentEnd: ['last_assistant_message'],
  turnStart: ['turn_index'],
  turnEnd: ['turn_index', 'last_assistant_message', 'tool_results'],
  beforeModel: ['model_request', 'llm_request'],
  afterModel: ['model_request', 'model_response', 'llm_request', 'llm_response'],
  beforeToolSelection: ['model_request', 'llm_request'],
};

/** Fields every event carries. */
export const SESSION_FIELDS: readonly string[] = ['session_id', 'transcript_path', 'cwd', 'prompt_id', 'permission_mode', 'effort', 'hook_event_name'];

/** Fields every tool event carries besides its tool input. */
export const TOOL_EVENT_FIELDS: readonly string[] = ['tool_name', 'tool_use_id'];

/** A tool's input fields, by canonical name or its own; undefined when unknown (an MCP tool's input is its own). */
export function toolInputFields(name: string): readonly string[] | undefined {
  // Own keys only: a tool named "constructor" must not find Object's.
  return Object.hasOwn(TOOL_INPUT_FIELDS, name) ? TOOL_INPUT_FIELDS[name] : undefined;
}
